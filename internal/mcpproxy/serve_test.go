package mcpproxy

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// The upstream's standard error reaches ours with every line prefixed,
// however its writes are cut, so that it cannot forge audit records.
func TestLinePrefixer(t *testing.T) {
	var out strings.Builder
	w := &linePrefixer{out: &out, prefix: []byte("upstream: "), start: true}
	for _, chunk := range []string{"{\"msg\":\"Decision", " Log\"}\nsecond", "\n", "\nthird"} {
		n, err := w.Write([]byte(chunk))
		require.NoError(t, err)
		require.Equal(t, len(chunk), n)
	}
	require.Equal(t, "upstream: {\"msg\":\"Decision Log\"}\nupstream: second\nupstream: \nupstream: third", out.String())
}

// The audit log's directory is made when it is missing, private to the
// user; the file is appended to.
func TestAuditLogDirectoryIsMade(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state", "tooleval", "audit.jsonl")
	w, closeLog, err := OpenAuditLog(path, nil)
	require.NoError(t, err)
	_, err = w.Write([]byte("one\n"))
	require.NoError(t, err)
	closeLog()
	info, err := os.Stat(filepath.Dir(path))
	require.NoError(t, err)
	require.Equal(t, os.FileMode(0o700), info.Mode().Perm())
	w, closeLog, err = OpenAuditLog(path, nil)
	require.NoError(t, err)
	_, err = w.Write([]byte("two\n"))
	require.NoError(t, err)
	closeLog()
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	require.Equal(t, "one\ntwo\n", string(data))
}

// Only a loopback address is served.
func TestLoopbackOnly(t *testing.T) {
	for _, addr := range []string{"127.0.0.1:8931", "[::1]:8931", "localhost:0", "127.1.2.3:1"} {
		require.NoError(t, LoopbackOnly(addr), addr)
	}
	for _, addr := range []string{"0.0.0.0:8931", "192.0.2.1:8931", "[::]:1", "example.com:80", ":8931", "127.0.0.1"} {
		require.Error(t, LoopbackOnly(addr), addr)
	}
}
