// Command gen writes the skeleton table that the Rego confusable-name
// check reads (data.tooleval.unicode.skeleton) from package skeleton.
//
// Usage:
//
//	go run ./internal/skeleton/gen -o policies/tooleval/unicode/skeleton/data.json
package main

import (
	"fmt"
	"os"

	"github.com/spf13/pflag"

	"github.com/tooleval/tooleval/internal/skeleton"
)

func main() {
	out := pflag.StringP("output", "o", "", "file to write (default: standard output)")
	pflag.Parse()
	if err := run(*out); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}

func run(out string) error {
	data, err := skeleton.Marshal(skeleton.BuildTable())
	if err != nil {
		return err
	}
	if out == "" {
		_, err = os.Stdout.Write(data)
		return err
	}
	if err := os.WriteFile(out, data, 0o644); err != nil {
		return fmt.Errorf("write skeleton table: %w", err)
	}
	return nil
}
