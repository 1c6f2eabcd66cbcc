// Command gen writes the prepared configuration of the policy bundle
// (data.tooleval.prepared) from package prepared.
//
// Usage:
//
//	go run ./internal/prepared/gen -o policies/tooleval/prepared/data.json
package main

import (
	"context"
	"fmt"
	"os"

	"github.com/spf13/pflag"

	"github.com/tooleval/tooleval/internal/prepared"
)

func main() {
	out := pflag.StringP("output", "o", "", "file to write (default: standard output)")
	dir := pflag.String("policies", "../../policies", "the policy bundle directory")
	pflag.Parse()
	data, err := prepared.Document(context.Background(), *dir)
	if err == nil {
		if *out == "" {
			_, err = os.Stdout.Write(data)
		} else {
			err = os.WriteFile(*out, data, 0o644)
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}
