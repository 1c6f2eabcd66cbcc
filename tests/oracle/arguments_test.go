package oracle

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestShellParts(t *testing.T) {
	for _, c := range []struct {
		command string
		parts   [][]string
	}{
		{"git status", [][]string{{"git", "status"}}},
		{"'git' \"sta\"tus -s;", [][]string{{"git", "status", "-s"}}},
		{"ls && rm -rf / | sh", [][]string{{"ls"}, {"rm", "-rf", "/"}, {"sh"}}},
		{"a\nb & c", [][]string{{"a"}, {"b"}, {"c"}}},
	} {
		parts, ok := shellParts(c.command)
		require.True(t, ok, c.command)
		require.Equal(t, c.parts, parts, c.command)
	}
	for _, command := range []string{"", "ls &", "; ls", "ls $(id)", "ls > x", "X=1 ls", "ls *", "'open", "ls \\ x", "ls ~", "é"} {
		_, ok := shellParts(command)
		require.False(t, ok, command)
	}
}

func TestArgumentRulesDecide(t *testing.T) {
	r := decide(t, `{
		"declared": [{"name": "run_shell_command"}, {"name": "web_fetch"}],
		"layers": [
			{"name": "team", "allow": [{"tool": "run_shell_command", "command_prefix": "git status"}, {"tool": "web_fetch", "domain": "*.example.com"}],
			 "ask": [{"tool": "run_shell_command", "command": "git status -v"}]},
			{"name": "guard", "deny": [{"tool": "run_shell_command", "command_prefix": "git push"}, {"tool": "web_fetch", "domain": "evil.net"}]}],
		"calls": [
			{"id": "1", "name": "run_shell_command", "args": {"command": "git status"}},
			{"id": "2", "name": "run_shell_command", "args": {"command": "git status -v"}},
			{"id": "3", "name": "run_shell_command", "args": {"command": "git status; git -C x push"}},
			{"id": "4", "name": "run_shell_command", "args": {"command": "git status; ls"}},
			{"id": "5", "name": "web_fetch", "args": {"url": "https://a.example.com/"}},
			{"id": "6", "name": "web_fetch", "args": {"url": "https://a.example.com@evil.net/"}},
			{"id": "7", "name": "web_fetch", "args": {"url": "https://a.example.com@b.example.com/"}}
		]
	}`)
	require.Equal(t, [][3]string{
		{"allow", "", ""}, {"ask", "ask", "team"}, {"deny", "denied", "guard"}, {"deny", "not_allowed", "team"},
		{"allow", "", ""}, {"deny", "denied", "guard"}, {"deny", "not_allowed", "team"},
	}, outcomes(t, r))
}

func TestPathArgsAndWildcardRulesDecide(t *testing.T) {
	r := decide(t, `{
		"declared": [{"name": "run_shell_command"}, {"name": "read_file"}, {"name": "deploy"}],
		"workspace": {"root": "/ws"},
		"layers": [
			{"name": "team",
			 "allow": [{"tool": "run_shell_command", "command_wildcard": "git * main"}, {"tool": "read_file", "path": "src/**"},
			           {"tool": "deploy", "args": {"env": "dev"}}, {"tool": "deploy", "args_pattern": "^\\{\"env\":\"qa\"\\}$"}],
			 "deny": [{"tool": "read_file", "path": ".env"}, {"tool": "deploy", "args": {"mode": "force"}}],
			 "ask": [{"tool": "run_shell_command", "command_wildcard": "git push * --force*"}]}],
		"calls": [
			{"id": "1", "name": "run_shell_command", "args": {"command": "git push origin main"}},
			{"id": "2", "name": "run_shell_command", "args": {"command": "git push origin main2"}},
			{"id": "3", "name": "run_shell_command", "args": {"command": "git push --force-with-lease main"}},
			{"id": "4", "name": "read_file", "args": {"path": "/ws/src/a.go"}},
			{"id": "5", "name": "read_file", "args": {"path": "/ws/SRC/a.go"}},
			{"id": "6", "name": "read_file", "args": {"path": "/ws/src/x/.ENV"}},
			{"id": "7", "name": "deploy", "args": {"env": "dev", "mode": "FORCE"}},
			{"id": "8", "name": "deploy", "args": {"env": "qa"}},
			{"id": "9", "name": "deploy", "args": {"env": "qa", "x": 1}}
		]
	}`)
	require.Equal(t, [][3]string{
		{"allow", "", ""}, {"deny", "not_allowed", "team"}, {"ask", "ask", "team"},
		{"allow", "", ""}, {"deny", "not_allowed", "team"}, {"deny", "denied", "team"},
		{"deny", "denied", "team"}, {"allow", "", ""}, {"deny", "not_allowed", "team"},
	}, outcomes(t, r))
}

// outcomes are the [outcome, reason, layer] of each verdict of a result
// without errors.
func outcomes(t *testing.T, r Result) [][3]string {
	t.Helper()
	require.False(t, r.HasErrors)
	var got [][3]string
	for _, v := range r.Verdicts {
		got = append(got, [3]string{v.Outcome, v.Reason, v.Layer})
	}
	return got
}
