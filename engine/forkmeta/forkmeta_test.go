package forkmeta

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestWriteAndReadRoundTrip(t *testing.T) {
	dir := t.TempDir()
	for name, r := range map[string]Restriction{
		"unrestricted": Unrestricted,
		"deny-all":     {Restricted: true, Allow: []string{}},
		"list":         {Restricted: true, Allow: []string{"read_file", "mcp__github__read_*"}},
	} {
		path := filepath.Join(dir, name+".agent-meta.json")
		require.NoError(t, Write(path, r), name)
		got, err := Read(path)
		require.NoError(t, err, name)
		require.Equal(t, r.Restricted, got.Restricted, name)
		if r.Restricted {
			require.Equal(t, r.Allow, got.Allow, name)
			require.NotNil(t, got.Allow, name)
		}
	}
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	require.Len(t, entries, 3, "temporary files were left behind")
}

func TestWriteReplacesAtomically(t *testing.T) {
	path := filepath.Join(t.TempDir(), "fork.agent-meta.json")
	require.NoError(t, Write(path, Restriction{Restricted: true, Allow: []string{"a"}}))
	require.NoError(t, Write(path, Restriction{Restricted: true, Allow: []string{}}))
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	require.JSONEq(t, `{"version":1,"execution_allowed_tools":[]}`, string(data))
}

func TestLegacySidecarWithoutTheFieldRevivesUnrestricted(t *testing.T) {
	for _, doc := range []string{`{"version":1}`, `{}`, `{"agent_type":"fork","version":1}`} {
		got, err := Parse([]byte(doc))
		require.NoError(t, err, doc)
		require.Equal(t, Unrestricted, got, doc)
	}
}

// Every failure mode revives deny-all, never unrestricted.
func TestUntrustworthySidecarsReviveDenyAll(t *testing.T) {
	dir := t.TempDir()
	cases := map[string]string{
		"truncated":     `{"version":1,"execution_allowed_tools":["read_fi`,
		"empty":         ``,
		"not an object": `["read_file"]`,
		"future":        `{"version":2,"execution_allowed_tools":["read_file"]}`,
		"bad version":   `{"version":"1"}`,
		"string field":  `{"version":1,"execution_allowed_tools":"read_file"}`,
		"null field":    `{"version":1,"execution_allowed_tools":null}`,
		"mixed list":    `{"version":1,"execution_allowed_tools":["read_file",3]}`,
		"object field":  `{"version":1,"execution_allowed_tools":{"read_file":true}}`,
		"two documents": `{"version":1}{"version":1}`,
		"stray bracket": `{"version":1}]`,
		// Anything that is not a JSON object, null included.
		"null document":   `null`,
		"padded null":     " null\n",
		"string document": `"read_file"`,
		"number document": `1`,
		"true document":   `true`,
		// A member that is not a string.
		"null member":   `{"version":1,"execution_allowed_tools":["read_file",null]}`,
		"only null":     `{"version":1,"execution_allowed_tools":[null]}`,
		"object member": `{"version":1,"execution_allowed_tools":[{}]}`,
		"null version":  `{"version":null,"execution_allowed_tools":["read_file"]}`,
	}
	for name, doc := range cases {
		path := filepath.Join(dir, filepath.Base(name)+".json")
		require.NoError(t, os.WriteFile(path, []byte(doc), 0o644))
		got, err := Read(path)
		require.ErrorIs(t, err, ErrCorrupt, name)
		require.Equal(t, DenyAll(), got, name)
	}

	got, err := Read(filepath.Join(dir, "missing.json"))
	require.ErrorIs(t, err, ErrCorrupt)
	require.Equal(t, DenyAll(), got)

	if os.Geteuid() != 0 {
		unreadable := filepath.Join(dir, "unreadable.json")
		require.NoError(t, os.WriteFile(unreadable, []byte(`{"version":1}`), 0o000))
		got, err = Read(unreadable)
		require.ErrorIs(t, err, ErrCorrupt)
		require.Equal(t, DenyAll(), got)
	}
	// A directory where the file should be cannot be read, even by root.
	got, err = Read(dir)
	require.ErrorIs(t, err, ErrCorrupt)
	require.Equal(t, DenyAll(), got)
}

func TestPathFor(t *testing.T) {
	require.Equal(t, "/runs/fork-1.agent-meta.json", PathFor("/runs/fork-1.jsonl"))
	require.Equal(t, "/runs/fork-1.agent-meta.json", PathFor("/runs/fork-1"))
}
