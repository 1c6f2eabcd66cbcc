package engine

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/stretchr/testify/require"
)

func TestSessionResolvesPathsOnTheHost(t *testing.T) {
	dir, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	ws := filepath.Join(dir, "ws")
	outside := filepath.Join(dir, "outside")
	require.NoError(t, os.MkdirAll(filepath.Join(ws, "src"), 0o755))
	require.NoError(t, os.MkdirAll(outside, 0o755))
	require.NoError(t, os.Symlink(outside, filepath.Join(ws, "escape")))
	require.NoError(t, os.Symlink("loop_b", filepath.Join(ws, "loop_a")))
	require.NoError(t, os.Symlink("loop_a", filepath.Join(ws, "loop_b")))

	e := newEngine(t)
	ctx := context.Background()
	cfg := SessionConfig{
		Declared:  []Declaration{{Name: "write_file"}, {Name: "read_file"}, {Name: "bash"}},
		Workspace: &Workspace{Root: ws},
	}
	calls := []Call{
		{ID: "in", Name: "write_file", Args: map[string]any{"path": "src/new.go"}},
		{ID: "escape", Name: "write_file", Args: map[string]any{"path": "escape/authorized_keys"}},
		{ID: "read-escape", Name: "read_file", Args: map[string]any{"path": ws + "/escape/x"}},
		{ID: "loop", Name: "write_file", Args: map[string]any{"path": "loop_a/x"}},
		{ID: "cwd", Name: "bash", Args: map[string]any{"cwd": "src", "command": "ls"}},
	}
	s, err := e.NewSession(ctx, cfg)
	require.NoError(t, err)
	d, err := s.Decide(ctx, calls)
	require.NoError(t, err)
	require.Equal(t, []bool{true, false, false, false, true}, allowed(d))
	require.Equal(t, "outside_workspace", d.Decisions[1].Rule)
	require.Equal(t, "not_readable", d.Decisions[2].Rule)
	require.Equal(t, "unresolved", d.Decisions[3].Rule)

	// Without resolution the policy sees the raw, relative paths.
	raw, err := e.NewSession(ctx, cfg, WithPathResolution(false))
	require.NoError(t, err)
	d, err = raw.Decide(ctx, calls)
	require.NoError(t, err)
	require.Equal(t, []string{"unresolved", "unresolved", "", "unresolved", "unresolved"}, rules(d))
}

func rules(d *Decision) []string {
	out := make([]string, len(d.Decisions))
	for i, c := range d.Decisions {
		out[i] = c.Rule
	}
	return out
}

func TestOneShotPathResolution(t *testing.T) {
	dir, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	require.NoError(t, os.Symlink("/etc", filepath.Join(dir, "etc")))
	e := newEngine(t)
	in, err := toValue(map[string]any{
		"declared":  []any{map[string]any{"name": "write_file"}},
		"workspace": map[string]any{"root": dir},
		"calls":     []any{map[string]any{"id": "a", "name": "write_file", "args": map[string]any{"path": "etc/passwd"}}},
	})
	require.NoError(t, err)
	d, err := e.Decide(context.Background(), e.ResolvePaths(in))
	require.NoError(t, err)
	require.Equal(t, "outside_workspace", d.Decisions[0].Rule)
	require.Contains(t, d.Decisions[0].Message, `"/etc/passwd"`)
}

// TestHostResolutionNeverExpandsHome: with resolution on, "~/.bashrc"
// and "$HOME/.ssh/x" are marked unresolved (refused with rule
// unresolved), never taken relative to the workspace root.
func TestHostResolutionNeverExpandsHome(t *testing.T) {
	dir, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	e := newEngine(t)
	ctx := context.Background()
	s, err := e.NewSession(ctx, SessionConfig{
		Declared:  []Declaration{{Name: "write_file"}},
		Workspace: &Workspace{Root: dir},
	})
	require.NoError(t, err)
	d, err := s.Decide(ctx, []Call{
		{ID: "home", Name: "write_file", Args: map[string]any{"path": "~/.bashrc"}},
		{ID: "var", Name: "write_file", Args: map[string]any{"path": "$HOME/.ssh/authorized_keys"}},
		{ID: "plain", Name: "write_file", Args: map[string]any{"path": "notes/~draft"}},
	})
	require.NoError(t, err)
	require.Equal(t, []bool{false, false, true}, allowed(d))
	require.Equal(t, []string{"unresolved", "unresolved", ""}, rules(d))
}

// TestHostResolutionResolvesListsOfPaths: a path argument holding a list
// is resolved element by element (a link in any element is followed).
func TestHostResolutionResolvesListsOfPaths(t *testing.T) {
	dir, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	require.NoError(t, os.Symlink("/etc", filepath.Join(dir, "etc")))
	e := newEngine(t, WithConfig(Config{"path_arguments": map[string]any{"read_many_files": map[string]any{"paths": "read"}}}))
	in, err := toValue(map[string]any{
		"declared":  []any{map[string]any{"name": "read_many_files"}},
		"workspace": map[string]any{"root": dir},
		"calls": []any{map[string]any{"id": "a", "name": "read_many_files",
			"args": map[string]any{"paths": []any{"etc/passwd", "src/a.go", "~/x", 7}}}},
	})
	require.NoError(t, err)
	args := e.ResolvePaths(in).(ast.Object).Get(ast.StringTerm("calls")).Value.(*ast.Array).Elem(0).Value.(ast.Object).Get(ast.StringTerm("args"))
	require.Equal(t, `{"paths": ["/etc/passwd", "`+dir+`/src/a.go", "unresolved:~/x", 7]}`, args.String())
}

// TestDecideResolvedReturnsWhatWasJudged: DecideResolved gives the
// decision Decide gives, and the calls as the policy judged them: each
// path argument absolute and resolved (a relative path against the root,
// a link followed, each element of a list), every other argument as it
// came (numbers exact), so that an embedder hands its executor the file
// the policy decided on. A ".." that names another file before the link
// is followed than after is refused, and its message says why.
func TestDecideResolvedReturnsWhatWasJudged(t *testing.T) {
	dir, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "a", "b"), 0o755))
	require.NoError(t, os.Symlink(filepath.Join(dir, "a", "b"), filepath.Join(dir, "L")))
	e := newEngine(t, WithConfig(Config{"path_arguments": map[string]any{
		"write_file": map[string]any{"path": "write"}, "read_many_files": map[string]any{"paths": "read"},
	}}))
	ctx := context.Background()
	s, err := e.NewSession(ctx, SessionConfig{
		Declared:  []Declaration{{Name: "write_file"}, {Name: "read_many_files"}},
		Workspace: &Workspace{Root: dir},
	})
	require.NoError(t, err)
	calls := []any{
		map[string]any{"id": "rel", "name": "write_file", "args": map[string]any{"path": "notes.txt", "n": json.Number("12345678901234567890")}},
		map[string]any{"id": "link", "name": "write_file", "args": map[string]any{"path": "L/x"}},
		map[string]any{"id": "list", "name": "read_many_files", "args": map[string]any{"paths": []any{"a/../notes.txt", "L"}}},
		map[string]any{"id": "dotdot", "name": "write_file", "args": map[string]any{"path": "L/../x"}},
	}
	d, judged, err := s.DecideResolved(ctx, calls)
	require.NoError(t, err)
	plain, err := s.Decide(ctx, calls)
	require.NoError(t, err)
	require.Equal(t, allowed(plain), allowed(d))
	require.Equal(t, []bool{true, true, true, false}, allowed(d))
	require.Equal(t, "unresolved", rules(d)[3])
	require.Contains(t, d.Decisions[3].Message, `path "L/../x" names one file when its ".." is applied first`)
	args := func(i int) map[string]any { return judged[i].(map[string]any)["args"].(map[string]any) }
	require.Equal(t, map[string]any{"path": dir + "/notes.txt", "n": json.Number("12345678901234567890")}, args(0))
	require.Equal(t, dir+"/a/b/x", args(1)["path"])
	require.Equal(t, []any{dir + "/notes.txt", dir + "/a/b"}, args(2)["paths"])
}

// TestGlobPatternsAreJudgedAsWritten: a glob pattern (access "glob") is
// not resolved on the host; the policy judges it as written and it is
// handed on so: a pattern that could leave its directory is refused, and
// an absolute one outside the workspace is not readable.
func TestGlobPatternsAreJudgedAsWritten(t *testing.T) {
	dir, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	e := newEngine(t, WithConfig(Config{"preset": "claude_code"}))
	ctx := context.Background()
	s, err := e.NewSession(ctx, SessionConfig{Declared: []Declaration{{Name: "Glob"}}, Workspace: &Workspace{Root: dir}})
	require.NoError(t, err)
	calls := []any{
		map[string]any{"id": "ok", "name": "Glob", "args": map[string]any{"pattern": "src/**/*.go"}},
		map[string]any{"id": "up", "name": "Glob", "args": map[string]any{"pattern": "../**/*"}},
		map[string]any{"id": "brace", "name": "Glob", "args": map[string]any{"pattern": "{..,x}/id_rsa"}},
		map[string]any{"id": "abs", "name": "Glob", "args": map[string]any{"pattern": "/etc/*"}},
	}
	d, judged, err := s.DecideResolved(ctx, calls)
	require.NoError(t, err)
	require.Equal(t, []bool{true, false, false, false}, allowed(d))
	require.Equal(t, []string{"", "unresolved", "unresolved", "not_readable"}, rules(d))
	require.Contains(t, d.Decisions[1].Message, `pattern "../**/*" could name files outside its directory`)
	require.Contains(t, d.Decisions[3].Message, `pattern "/etc/*" reaches outside the workspace`)
	require.Equal(t, "src/**/*.go", judged[0].(map[string]any)["args"].(map[string]any)["pattern"])
}
