//go:build e2e

package e2e

import (
	"context"
	"encoding/json"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/tooleval/tooleval/internal/importer"
	"github.com/tooleval/tooleval/internal/importer/claudecode"
)

// claudeWorkspace is the workspace every Claude Code session starts with:
// each file holds a canary, so a call that ran can be told by its effect.
var claudeWorkspace = map[string]string{
	".env": "SECRET=canary-env\n", "sub/.env": "SECRET=canary-sub-env\n",
	"Makefile": "all:\n", "sub/Makefile": "all:\n",
	"src/a.go": "package a\n", "docs/a.md": "canary docs\n", "a.txt": "canary a\n",
	"secrets/k": "canary key\n", "r1.txt": "remove me\n",
}

// claudeRulePool is what generated settings draw from: Bash rules, and
// Read/Edit/Write rules with the path forms Claude Code documents
// (code.claude.com/docs/en/permissions: "//abs", "~/", "/root-relative",
// "relative", gitignore patterns).
var claudeRulePool = map[string][]string{
	"allow": {"Bash(echo:*)", "Bash(ls:*)", "Bash(cat:*)", "Bash(git status)", "Bash(rm:*)", "Bash(touch *)",
		"Edit", "Edit(src/**)", "Edit(/docs/**)", "Write", "Write(/out/**)", "Read"},
	"ask": {"Bash(git push:*)", "Bash(touch:*)", "Write(src/**)", "Read(secrets/**)", "Edit(a.txt)", "Bash(cat a.txt)"},
	"deny": {"Read(./.env)", "Read(.env)", "Read(/Makefile)", "Bash(rm:*)", "Edit(/docs/**)", "Read(secrets/**)",
		"Edit(src/**)", "Write", "Bash(cat .env)"},
}

// claudeFixed are the settings every run checks, whatever the seed: the
// classes where imported settings were once looser than Claude Code.
var claudeFixed = []claudeSettings{
	{Mode: "default", Allow: []string{"Bash(cat:*)", "Edit"}, Deny: []string{"Read(./.env)", "Read(/Makefile)"}},
	{Mode: "dontAsk", Allow: []string{"Bash(cat:*)", "Bash(rm:*)", "Edit"}, Ask: []string{"Write(src/**)"}, Deny: []string{"Read(.env)", "Read(secrets/**)"}},
	// Claude Code applies path rules of edits named Edit only: Write(PATH)
	// lets nothing through
	{Mode: "dontAsk", Allow: []string{"Bash(echo:*)", "Edit", "Write(/out/**)"}},
	{Mode: "default", Allow: []string{"Write", "Edit(src/**)"}, Deny: []string{"Write(/out/**)", "Edit(/docs/**)"}},
	// a misspelt list: Claude Code loads the file and ignores alow, so
	// touch is refused in dontAsk (checked in looser)
	claudeMisspelt,
}

// claudeMisspelt is settings with a misspelt allow list (alow).
var claudeMisspelt = claudeSettings{Mode: "dontAsk", Allow: []string{"Bash(cat:*)"}, Unknown: map[string]any{"alow": []string{"Bash(echo:*)", "Bash(touch:*)"}}}

// claudeSentinel is a deny rule every session's settings carry and a
// call of the first turn that it denies: a session in which Claude Code
// ran it did not apply the settings under test, and is run again.
const (
	claudeSentinelRule = "Bash(ls canary-settings-applied)"
	claudeSentinelID   = "toolu_s01"
)

type claudeSettings struct {
	Mode             string
	Allow, Ask, Deny []string
	// Unknown are members of permissions Claude Code does not know (a
	// misspelt list): it ignores them, and the import notes it does too.
	Unknown map[string]any
}

// permissions is the settings' permissions object, with deny as given.
func (s claudeSettings) permissions(deny []string) map[string]any {
	p := map[string]any{"allow": nonNil(s.Allow), "ask": nonNil(s.Ask), "deny": deny}
	for k, v := range s.Unknown {
		p[k] = v
	}
	return p
}

// json is the settings file (lists never null: Claude Code ignores a file
// whose permission lists are not arrays).
func (s claudeSettings) json() string {
	b, _ := json.Marshal(map[string]any{"permissions": s.permissions(append(nonNil(s.Deny), claudeSentinelRule))})
	return string(b)
}

func nonNil(l []string) []string {
	if l == nil {
		return []string{}
	}
	return l
}

// claudeCalls are the calls of a session in ws: a first turn reads (Edit
// needs the file read before), the second does everything else. effect
// tells, where a call changes the workspace, whether it did.
func claudeCalls(ws string) (turns []Turn, effect map[string]func() bool) {
	p := func(rel string) string { return filepath.Join(ws, rel) }
	exists := func(rel string) func() bool {
		return func() bool { _, err := os.Stat(p(rel)); return err == nil }
	}
	changed := func(rel, was string) func() bool {
		return func() bool { b, _ := os.ReadFile(p(rel)); return string(b) != was }
	}
	bash := func(id, cmd string) Call { return Call{ID: id, Tool: "Bash", Args: map[string]any{"command": cmd}} }
	read := func(id, rel string) Call {
		return Call{ID: id, Tool: "Read", Args: map[string]any{"file_path": p(rel)}}
	}
	edit := func(id, rel, old string) Call {
		return Call{ID: id, Tool: "Edit", Args: map[string]any{"file_path": p(rel), "old_string": old, "new_string": "edited"}}
	}
	write := func(id, rel string) Call {
		return Call{ID: id, Tool: "Write", Args: map[string]any{"file_path": p(rel), "content": "written\n"}}
	}
	reads := []Call{
		read("toolu_r01", ".env"), read("toolu_r02", "sub/.env"), read("toolu_r03", "Makefile"),
		read("toolu_r04", "sub/Makefile"), read("toolu_r05", "src/a.go"), read("toolu_r06", "secrets/k"),
		read("toolu_r07", "a.txt"), read("toolu_r08", "docs/a.md"),
		bash(claudeSentinelID, "ls canary-settings-applied"),
	}
	rest := []Call{
		bash("toolu_b01", "cat .env"), bash("toolu_b02", "cat sub/.env"), bash("toolu_b03", "cat a.txt"),
		bash("toolu_b04", "cat Makefile"), bash("toolu_b05", "cat sub/Makefile"), bash("toolu_b06", "cat secrets/k"),
		bash("toolu_b07", "echo hi"), bash("toolu_b08", "echo hi > o1.txt"), bash("toolu_b09", "rm r1.txt"),
		bash("toolu_b10", "touch t1.txt"), bash("toolu_b11", "git status"), bash("toolu_b12", "ls secrets"),
		edit("toolu_e01", "src/a.go", "package a"), edit("toolu_e02", "docs/a.md", "canary docs"), edit("toolu_e03", "a.txt", "canary a"),
		write("toolu_w01", "src/new.go"), write("toolu_w02", "out/x.txt"), write("toolu_w03", "w.txt"), write("toolu_w04", "docs/w.md"),
	}
	effect = map[string]func() bool{
		"toolu_b08": exists("o1.txt"), "toolu_b09": func() bool { return !exists("r1.txt")() }, "toolu_b10": exists("t1.txt"),
		"toolu_e01": changed("src/a.go", claudeWorkspace["src/a.go"]), "toolu_e02": changed("docs/a.md", claudeWorkspace["docs/a.md"]),
		"toolu_e03": changed("a.txt", claudeWorkspace["a.txt"]),
		"toolu_w01": exists("src/new.go"), "toolu_w02": exists("out/x.txt"), "toolu_w03": exists("w.txt"), "toolu_w04": exists("docs/w.md"),
	}
	return []Turn{{Calls: reads}, {Calls: rest}}, effect
}

// claudeGenerated draws n settings from the pool (seeded).
func claudeGenerated(seed uint64, n int) []claudeSettings {
	r := rand.New(rand.NewPCG(seed, 0x7001e7a1))
	pick := func(kind string) []string {
		var out []string
		for _, rule := range claudeRulePool[kind] {
			if r.IntN(4) == 0 {
				out = append(out, rule)
			}
		}
		return out
	}
	var out []claudeSettings
	for i := range n {
		out = append(out, claudeSettings{Mode: []string{"default", "dontAsk"}[i%2], Allow: pick("allow"), Ask: pick("ask"), Deny: pick("deny")})
	}
	return out
}

func envInt(name string, def int) int {
	if n, err := strconv.Atoi(os.Getenv(name)); err == nil {
		return n
	}
	return def
}

// Never looser than Claude Code: each generated settings file is run in
// the real Claude Code (headless, --permission-mode default or dontAsk,
// the calls of claudeCalls) and imported into tooleval; every call that
// Claude Code denies (or asks about) must not be allowed (or asked about)
// by tooleval. The runtime's verdict is held to the call's effect on the
// workspace where it has one.
func TestClaudeCodeNeverLooser(t *testing.T) {
	t.Parallel()
	bin := ClaudeBinary(nodeModules(t))
	seed := uint64(envInt("TOOLEVAL_E2E_SEED", int(time.Now().Unix())))
	t.Logf("seed %d (replay: TOOLEVAL_E2E_SEED=%d)", seed, seed)
	all := append(append([]claudeSettings{}, claudeFixed...), claudeGenerated(seed, envInt("TOOLEVAL_E2E_CLAUDE_SESSIONS", 2))...)
	var looser []Looser
	compared := 0
	for i, s := range all {
		run := runClaudeSession(t, bin, i, s)
		found, n := run.looser(t, i, s)
		compared += n
		if len(found) > 0 {
			// Claude Code's verdict on a call is its rules' only when it
			// gives it again: under load it has denied an allowed Edit
			// once in a while (a tool's state, not a rule). A call is
			// looser when a second run of the session denies it too.
			again, _ := runClaudeSession(t, bin, i, s).looser(t, i, s)
			byID := map[string]bool{}
			for _, l := range again {
				byID[l.Call.ID] = true
			}
			for _, l := range found {
				if byID[l.Call.ID] {
					looser = append(looser, l)
				} else {
					t.Logf("session %d: %s: Claude Code's verdict %s did not hold in a second run: not counted", i, l.Call.ID, l.Runtime)
				}
			}
		}
	}
	t.Logf("%d sessions, %d calls compared, %d looser", len(all), compared, len(looser))
	ReportLooser(t, "Claude Code", looser, func(l Looser) string { return l.root })
}

// claudeSession is one run of a settings file in Claude Code: the calls,
// Claude Code's verdicts, its log and the workspace.
type claudeSession struct {
	ws       string
	calls    []Call
	verdicts map[string]Verdict
	o        *Outcome
}

// runClaudeSession runs the settings s in Claude Code (retrying, up to
// three times, a run that did not apply the project settings: the
// sentinel) and holds its verdicts to their effects on the workspace.
func runClaudeSession(t *testing.T, bin string, i int, s claudeSettings) claudeSession {
	t.Helper()
	dir := t.TempDir()
	ws := ClaudeWorkspace(dir)
	turns, effect := claudeCalls(ws)
	var o *Outcome
	var verdicts map[string]Verdict
	for attempt := 1; ; attempt++ {
		require.NoError(t, os.RemoveAll(dir))
		ctx, cancel := context.WithTimeout(context.Background(), time.Duration(envInt("TOOLEVAL_E2E_SESSION_TIMEOUT", 180))*time.Second)
		var err error
		o, err = ClaudeRun{Binary: bin, Settings: s.json(), Mode: s.Mode, Script: turns, Files: claudeWorkspace, Dir: dir}.Run(ctx)
		cancel()
		require.NoError(t, err, "session %d", i)
		verdicts = ClaudeVerdicts(o.Log)
		if verdicts[claudeSentinelID] == Denied {
			break
		}
		t.Logf("session %d, attempt %d: Claude Code did not apply the project settings (the sentinel %s: %s: %s)",
			i, attempt, claudeSentinelRule, verdicts[claudeSentinelID], ClaudeMessage(o.Log, claudeSentinelID))
		require.Less(t, attempt, 3, "session %d: Claude Code applied its project settings in none of 3 runs", i)
	}
	var calls []Call
	for _, turn := range turns {
		calls = append(calls, turn.Calls...)
	}
	for id, happened := range effect {
		require.Equal(t, verdicts[id] == Ran, happened(), "session %d: %s: the verdict %s and the workspace agree", i, id, verdicts[id])
	}
	return claudeSession{ws: ws, calls: calls, verdicts: verdicts, o: o}
}

// looser decides the session's calls under the import of s and returns
// those tooleval lets through more than Claude Code did, and how many
// calls were compared.
func (r claudeSession) looser(t *testing.T, i int, s claudeSettings) ([]Looser, int) {
	t.Helper()
	res, err := claudecode.Import([]importer.File{{Name: ".claude/settings.json", Data: []byte(withMode(s))}})
	require.NoError(t, err)
	for key := range s.Unknown {
		require.True(t, slices.ContainsFunc(res.Notes, func(n importer.Note) bool { return strings.HasSuffix(n.Location, "permissions."+key) }),
			"session %d: the import notes permissions.%s: %+v", i, key, res.Notes)
	}
	if len(s.Unknown) > 0 {
		// as the note says: Claude Code ignored the misspelt list (touch
		// writes: Claude Code runs echo hi, read-only, in dontAsk whatever
		// its rules)
		for _, id := range []string{"toolu_b10"} {
			require.NotEqual(t, Ran, r.verdicts[id], "session %d: %s ran: Claude Code read the misspelt list", i, id)
		}
	}
	got, err := Decide(context.Background(), res.Overlay, []string{"Bash", "Read", "Edit", "Write"}, r.ws, r.calls)
	require.NoError(t, err)
	var looser []Looser
	compared := 0
	for j, c := range r.calls {
		rt := RuntimeOutcome(r.verdicts[c.ID])
		if rt == "" {
			t.Logf("session %d: %s %v: no permission verdict (%s)", i, c.Tool, c.Args, r.verdicts[c.ID])
			continue
		}
		if c.ID == claudeSentinelID {
			continue
		}
		compared++
		if Strictness[got[j]] < Strictness[rt] {
			t.Logf("session %d: %s: Claude Code said: %s", i, c.ID, ClaudeMessage(r.o.Log, c.ID))
			looser = append(looser, Looser{Settings: s.Mode + " " + s.json(), Call: c, Runtime: rt, Tooleval: got[j], root: r.ws})
		}
	}
	return looser, compared
}

// withMode is the settings with the session's mode as defaultMode, the
// way the importer reads the mode that --permission-mode gives.
func withMode(s claudeSettings) string {
	p := s.permissions(nonNil(s.Deny))
	p["defaultMode"] = s.Mode
	b, _ := json.Marshal(map[string]any{"permissions": p})
	return string(b)
}

// nodeModules is where make e2e installed the pinned releases
// (TOOLEVAL_E2E_NODE_MODULES, or build/e2e/node_modules of the checkout).
func nodeModules(t *testing.T) string {
	t.Helper()
	d := os.Getenv("TOOLEVAL_E2E_NODE_MODULES")
	if d == "" {
		var err error
		d, err = filepath.Abs(filepath.Join("..", "..", "build", "e2e", "node_modules"))
		require.NoError(t, err)
	}
	_, err := os.Stat(d)
	require.NoError(t, err, "the pinned runtimes are installed (make e2e runs npm ci into build/e2e)")
	return d
}
