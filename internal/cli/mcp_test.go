package cli

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/tooleval/tooleval/engine"
)

// mcp proxy refuses, as bad usage, a command line that names no server,
// no upstream, or two; mcp alone lists its subcommand.
func TestMCPProxyUsage(t *testing.T) {
	for _, tc := range []struct {
		args []string
		says string
	}{
		{[]string{"mcp", "proxy", "--", "server"}, "--server-name is required"},
		{[]string{"mcp", "proxy", "--server-name", "s"}, "no upstream"},
		{[]string{"mcp", "proxy", "--server-name", "s", "--upstream", "http://127.0.0.1:1/mcp", "--", "server"}, "not both"},
		{[]string{"mcp", "proxy", "--server-name", "s", "extra", "--", "server"}, "unexpected arguments before --"},
		{[]string{"mcp", "proxy", "--server-name", "s", "--layer", "/no/such/layer.json", "--", "server"}, "read layer"},
		{[]string{"mcp", "proxy", "--server-name", "a__b", "--", "server"}, "no mcp__S__* pattern could name it"},
		{[]string{"mcp", "nope"}, "unknown subcommand"},
		{[]string{"mcp", "proxy", "--server-name", "s", "--listen", "0.0.0.0:8931", "--upstream", "http://127.0.0.1:1/mcp"}, "not a loopback address"},
		{[]string{"mcp", "proxy", "--server-name", "s", "--listen", "192.0.2.1:8931", "--upstream", "http://127.0.0.1:1/mcp"}, "not a loopback address"},
		// Identity flags the policy would refuse on every call are refused at start, naming what is valid.
		{[]string{"mcp", "proxy", "--server-name", "s", "--role", "sub-agent", "--depth", "1", "--", "server"}, `--role "sub-agent" is not a role (did you mean subagent?): one of main, subagent, fork`},
		{[]string{"mcp", "proxy", "--server-name", "s", "--role", "subagent", "--", "server"}, "a sub-agent is at depth 1 or more"},
		{[]string{"mcp", "proxy", "--server-name", "s", "--depth", "2", "--", "server"}, "the main agent is at depth 0"},
		{[]string{"mcp", "proxy", "--server-name", "s", "--role", "fork", "--depth", "-1", "--", "server"}, "a depth is 0"},
		// A --config the proxy cannot read fails at start, as a --layer does.
		{[]string{"mcp", "proxy", "--server-name", "s", "--config", "/no/such/config.json", "--", "server"}, "--config: read config"},
	} {
		_, stderr, code := run(t, "", false, tc.args...)
		require.Equal(t, ExitUsage, code, tc.args)
		require.Contains(t, stderr, tc.says, tc.args)
	}
	out, _, code := run(t, "", false, "mcp", "--help")
	require.Equal(t, ExitOK, code)
	require.Contains(t, out, "tooleval mcp proxy [flags] -- COMMAND [ARGS...]")
	out, _, code = run(t, "", false, "mcp", "proxy", "--help")
	require.Equal(t, ExitOK, code)
	require.Contains(t, out, "--max-refusals")
}

// A layer file holds one layer or a list of them; allow null and allow
// [] stay apart; a layer without a name or with an unknown member is an
// error.
func TestReadLayers(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) string {
		path := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(path, []byte(content), 0o600))
		return path
	}
	one, err := readLayers(write("one.json", `{"name": "operator", "allow": ["mcp__files__*"], "deny": ["mcp__files__drop_*"]}`))
	require.NoError(t, err)
	require.Equal(t, []engine.Layer{{Name: "operator", Allow: []string{"mcp__files__*"}, Deny: []string{"mcp__files__drop_*"}}}, one)
	list, err := readLayers(write("list.json", `[{"name": "a", "allow": null}, {"name": "b", "allow": []}]`))
	require.NoError(t, err)
	require.Len(t, list, 2)
	require.Nil(t, list[0].Allow)
	require.NotNil(t, list[1].Allow)
	require.Empty(t, list[1].Allow)
	_, err = readLayers(write("unnamed.json", `{"allow": []}`))
	require.ErrorContains(t, err, "has no name")
	_, err = readLayers(write("unknown.json", `{"name": "a", "alow": []}`))
	require.Error(t, err)
}

// watchFiles fires once a watched file is replaced by a rename (as
// atomic writers do) or written, and not for other files beside it.
func TestWatchFiles(t *testing.T) {
	dir := t.TempDir()
	layer := filepath.Join(dir, "layer.json")
	require.NoError(t, os.WriteFile(layer, []byte(`{"name": "a"}`), 0o600))
	fired := make(chan struct{}, 8)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	require.NoError(t, watchFiles(ctx, []string{layer}, 20*time.Millisecond, func() { fired <- struct{}{} }))

	require.NoError(t, os.WriteFile(filepath.Join(dir, "other.json"), []byte(`{}`), 0o600))
	select {
	case <-fired:
		t.Fatal("a file beside the watched one fired the watch")
	case <-time.After(200 * time.Millisecond):
	}

	require.NoError(t, os.WriteFile(layer+".new", []byte(`{"name": "b"}`), 0o600))
	require.NoError(t, os.Rename(layer+".new", layer))
	select {
	case <-fired:
	case <-time.After(5 * time.Second):
		t.Fatal("replacing the watched file did not fire the watch")
	}

	require.NoError(t, os.WriteFile(layer, []byte(`{"name": "c"}`), 0o600))
	select {
	case <-fired:
	case <-time.After(5 * time.Second):
		t.Fatal("writing the watched file did not fire the watch")
	}
}
