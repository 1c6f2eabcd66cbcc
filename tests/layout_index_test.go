package tests

import (
	"fmt"
	"go/doc"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/stretchr/testify/require"
)

const (
	layoutBegin = "<!-- generated from the packages' METADATA and Go package comments by TestLayoutIndexIsCurrent (TOOLEVAL_UPDATE_EXPECTED=1 rewrites it) -->"
	layoutEnd   = "<!-- end of the generated layout index -->"
)

// TestLayoutIndexIsCurrent holds DEVELOPMENT.md's index of the code to
// the code: a row per Rego package folder of policies/ (its package, the
// title and first sentence of its METADATA) and per Go package (the
// first sentence of its package comment), between the marker lines. A
// package without a description fails it; TOOLEVAL_UPDATE_EXPECTED=1
// (make expected) rewrites the index.
func TestLayoutIndexIsCurrent(t *testing.T) {
	t.Parallel()
	want := layoutBegin + "\n\n" + layoutIndex(t) + "\n" + layoutEnd
	data, err := os.ReadFile("../DEVELOPMENT.md")
	require.NoError(t, err)
	page := string(data)
	i, j := strings.Index(page, layoutBegin), strings.Index(page, layoutEnd)
	require.True(t, i >= 0 && j > i, "DEVELOPMENT.md has no generated layout index between its marker lines")
	current := page[i : j+len(layoutEnd)]
	if os.Getenv("TOOLEVAL_UPDATE_EXPECTED") == "1" {
		require.NoError(t, os.WriteFile("../DEVELOPMENT.md", []byte(page[:i]+want+page[j+len(layoutEnd):]), 0o644))
		return
	}
	require.Equal(t, want, current, "DEVELOPMENT.md's layout index is stale: TOOLEVAL_UPDATE_EXPECTED=1 go test -run TestLayoutIndexIsCurrent ./tests/ rewrites it")
}

// layoutIndex is the index: the policy's packages, then the Go packages.
func layoutIndex(t *testing.T) string {
	t.Helper()
	var b strings.Builder
	b.WriteString("| folder | package | what |\n| --- | --- | --- |\n")
	for _, row := range regoPackages(t) {
		b.WriteString(row)
	}
	for _, row := range goPackages(t) {
		b.WriteString(row)
	}
	return b.String()
}

// regoPackages is a row per folder of policies/ with policy files: its
// package and the METADATA of its package (the file named like the
// folder first).
func regoPackages(t *testing.T) []string {
	t.Helper()
	folders := map[string][]string{}
	require.NoError(t, filepath.WalkDir("../policies", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".rego") || strings.HasSuffix(path, "_test.rego") {
			return err
		}
		folders[filepath.Dir(path)] = append(folders[filepath.Dir(path)], path)
		return nil
	}))
	var rows []string
	for folder, files := range folders {
		sort.Slice(files, func(i, j int) bool {
			own := func(f string) bool { return strings.TrimSuffix(filepath.Base(f), ".rego") == filepath.Base(folder) }
			return own(files[i]) && !own(files[j]) || own(files[i]) == own(files[j]) && files[i] < files[j]
		})
		var pkg, about string
		for _, f := range files {
			data, err := os.ReadFile(f)
			require.NoError(t, err)
			m, err := ast.ParseModuleWithOpts(f, string(data), ast.ParserOptions{ProcessAnnotation: true, RegoVersion: ast.RegoV1})
			require.NoError(t, err)
			pkg = strings.TrimPrefix(m.Package.Path.String(), "data.")
			for _, a := range m.Annotations {
				if a.Scope == "package" && a.Title != "" {
					about = a.Title + ": " + firstSentence(a.Description)
					break
				}
			}
			if about != "" {
				break
			}
		}
		rel := strings.TrimPrefix(filepath.ToSlash(folder), "../")
		require.NotEmpty(t, about, "%s: no package METADATA with a title and description", rel)
		rows = append(rows, fmt.Sprintf("| `%s/` | `%s` | %s |\n", rel, pkg, cell(about)))
	}
	sort.Strings(rows)
	return rows
}

// goPackages is a row per Go package of the module with non-test files
// (the Cedar comparison and tools/ are modules of their own): the first
// sentence of its package comment.
func goPackages(t *testing.T) []string {
	t.Helper()
	var rows []string
	require.NoError(t, filepath.WalkDir("..", func(path string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return err
		}
		name := d.Name()
		if path != ".." && (strings.HasPrefix(name, ".") || name == "build" || name == "tools" || name == "bench" || name == "node_modules" || name == "testdata") {
			return filepath.SkipDir
		}
		pkgs, err := parser.ParseDir(token.NewFileSet(), path, func(fi fs.FileInfo) bool {
			return !strings.HasSuffix(fi.Name(), "_test.go")
		}, parser.PackageClauseOnly|parser.ParseComments)
		if err != nil || len(pkgs) == 0 {
			return err
		}
		var comment, pkgName string
		for n, p := range pkgs {
			pkgName = n
			for _, f := range p.Files {
				if f.Doc != nil {
					comment = f.Doc.Text()
				}
			}
		}
		rel := strings.TrimPrefix(filepath.ToSlash(path), "../")
		require.NotEmpty(t, comment, "%s: no package comment", rel)
		rows = append(rows, fmt.Sprintf("| `%s/` | %s | %s |\n", rel, pkgName, cell(new(doc.Package).Synopsis(comment))))
		return nil
	}))
	sort.Strings(rows)
	return rows
}

// firstSentence is the first sentence of a METADATA description's first
// paragraph, on one line.
func firstSentence(s string) string {
	s, _, _ = strings.Cut(s, "\n\n")
	if i := strings.Index(s, "\n|"); i >= 0 {
		s = s[:i] // a table starts
	}
	s = strings.Join(strings.Fields(s), " ")
	if i := strings.Index(s, ". "); i >= 0 {
		return s[:i+1]
	}
	return s
}

// cell is text as a Markdown table cell: its pipes escaped.
func cell(s string) string { return strings.ReplaceAll(s, "|", `\|`) }
