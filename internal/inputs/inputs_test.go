package inputs

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func write(t *testing.T, dir, name, text string) string {
	t.Helper()
	path := filepath.Join(dir, name)
	require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
	require.NoError(t, os.WriteFile(path, []byte(text), 0o600))
	return path
}

func sources(docs []Document) []string {
	out := make([]string, len(docs))
	for i, d := range docs {
		out[i] = d.Source
	}
	return out
}

// A directory is read recursively in lexical order, its .json files one
// document each and its .jsonl and .log files a document per non-blank
// line; other files are passed over.
func TestReadFilesAndDirectories(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "b.json", "\xef\xbb\xbf{\n  \"calls\": []\n}\n")
	write(t, dir, "a/lines.jsonl", "{\"calls\": [1]}\n\n{\"calls\": [2]}\n")
	write(t, dir, "a/notes.txt", "not read")
	docs, err := Read([]string{dir}, nil, DecisionEntryPoints...)
	require.NoError(t, err)
	require.Equal(t, []string{
		filepath.Join(dir, "a/lines.jsonl") + ":1",
		filepath.Join(dir, "a/lines.jsonl") + ":3",
		filepath.Join(dir, "b.json"),
	}, sources(docs))
	require.JSONEq(t, `{"calls": []}`, string(docs[2].Input), "the byte order mark is dropped")

	_, err = Read([]string{filepath.Join(dir, "a", "notes.txt")}, nil)
	require.ErrorContains(t, err, "not one JSON document")
	empty := t.TempDir()
	_, err = Read([]string{empty}, nil)
	require.ErrorContains(t, err, "has no .json, .jsonl or .log file")
	_, err = Read([]string{filepath.Join(dir, "missing.json")}, nil)
	require.Error(t, err)
}

// Standard input holds one document over any number of lines, or JSON
// Lines; a document that is neither is located.
func TestReadStandardInput(t *testing.T) {
	docs, err := Read([]string{"-"}, strings.NewReader("{\n \"calls\": []\n}\n"))
	require.NoError(t, err)
	require.Equal(t, []string{"standard input"}, sources(docs))

	docs, err = Read([]string{"-"}, strings.NewReader("{\"calls\": [1]}\n{\"calls\": [2]}\n"))
	require.NoError(t, err)
	require.Equal(t, []string{"standard input:1", "standard input:2"}, sources(docs))

	_, err = Read([]string{"-"}, strings.NewReader("{\"calls\":\n [1,,2]}"))
	require.ErrorContains(t, err, "line 2, column 5")
}

// A decision log event is read for the entry points asked for, skipped
// for the others, and says what the mask took from its input.
func TestReadDecisionLogEvents(t *testing.T) {
	log := strings.Join([]string{
		`{"decision_id": "1", "path": "tooleval/decision", "input": {"calls": []}, "erased": ["/input/calls/0/args"], "masked": ["/input/caller"]}`,
		`{"decision_id": "2", "path": "data.tooleval.launch", "input": {"fork_tools": []}}`,
		`{"decision_id": "3", "path": "tooleval/explain", "input": {"calls": []}, "erased": ["/result"]}`,
		`{"decision_id": "4", "path": "tooleval/decision"}`,
	}, "\n")
	docs, err := Read([]string{"-"}, strings.NewReader(log), DecisionEntryPoints...)
	require.NoError(t, err)
	require.Equal(t, []string{"standard input:1", "standard input:3"}, sources(docs))
	require.Equal(t, []string{"/input/calls/0/args", "/input/caller"}, docs[0].Masked)
	require.Empty(t, docs[1].Masked, "what was erased outside the input does not count")

	docs, err = Read([]string{"-"}, strings.NewReader(log), "tooleval/launch")
	require.NoError(t, err)
	require.Equal(t, []string{"standard input:2"}, sources(docs), "data.a.b and a/b name one entry point")
}
