package diff

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/tooleval/tooleval/engine"
)

func TestVerdictString(t *testing.T) {
	require.Equal(t, "allowed", Verdict{Allowed: true}.String())
	require.Equal(t, "refused by tenant (not_allowed)", Verdict{Reason: engine.ReasonNotAllowed, Layer: "tenant"}.String())
	require.Equal(t, "refused by workspace (path: sensitive)", Verdict{Reason: engine.ReasonPath, Layer: "workspace", Rule: "sensitive"}.String())
	require.Equal(t, "passes the name-level checks (arguments masked)", Verdict{Allowed: true, Masked: true}.String())
	require.Equal(t, "asks a person (team)", Verdict{Outcome: "ask", Reason: engine.ReasonAsk, Layer: "team"}.String())
}

// A change is never shown as no change ("asks a person (team) → asks a
// person (team)"): two verdicts that are not the same never read alike,
// over every combination of the fields same compares.
func TestDifferentVerdictsReadDifferently(t *testing.T) {
	var all []Verdict
	for _, outcome := range []string{"allow", "ask", "deny"} {
		for _, reason := range []string{"", engine.ReasonAsk, engine.ReasonDenied, engine.ReasonNotAllowed} {
			for _, layer := range []string{"", "team", "tenant"} {
				for _, rule := range []string{"", "sensitive", "excluded"} {
					for _, argument := range []string{"", "command", "url"} {
						v := Verdict{Allowed: outcome == "allow", Outcome: outcome, Reason: reason, Layer: layer, Rule: rule, Argument: argument}
						if v.Allowed && (reason != "" || layer != "" || rule != "" || argument != "") {
							continue // an allowed call has no reason, layer, rule or argument
						}
						if !v.Allowed && (reason == "" || layer == "") {
							continue // a refusal or an ask has both (the contract's decisions)
						}
						all = append(all, v)
					}
				}
			}
		}
	}
	for _, a := range all {
		for _, b := range all {
			if !a.same(b) {
				require.NotEqual(t, a.String(), b.String(), "%+v and %+v", a, b)
			}
		}
	}
	require.Equal(t, "asks a person (team: argument command)", Verdict{Outcome: "ask", Reason: engine.ReasonAsk, Layer: "team", Argument: "command"}.String())
	require.Equal(t, "refused by team (not_allowed: argument url)", Verdict{Outcome: "deny", Reason: engine.ReasonNotAllowed, Layer: "team", Argument: "url"}.String())
}

// An ask is its own kind of change: allowed -> ask and ask -> refused
// are groups of their own, never "refused" on either side.
func TestAskChangesAreTheirOwnKind(t *testing.T) {
	allowed := Verdict{Allowed: true, Outcome: "allow"}
	ask := Verdict{Outcome: "ask", Reason: engine.ReasonAsk, Layer: "team"}
	denied := Verdict{Outcome: "deny", Reason: engine.ReasonDenied, Layer: "team"}
	require.False(t, allowed.same(ask))
	require.False(t, ask.same(denied))
	require.Equal(t, "allowed → asks a person (team)", allowed.String()+" → "+ask.String())
	require.Equal(t, "asks a person (team) → refused by team (denied)", ask.String()+" → "+denied.String())
	// a logged verdict from before outcomes reads its outcome from allowed
	require.True(t, Verdict{Allowed: true}.same(allowed))
	require.True(t, Verdict{Reason: engine.ReasonDenied, Layer: "team"}.same(denied))
}

// TestVerdictSame compares allowed, reason, layer and rule, and nothing
// else (where a verdict came from is not a change).
func TestVerdictSame(t *testing.T) {
	v := Verdict{Reason: engine.ReasonPath, Layer: "workspace", Rule: "sensitive"}
	require.True(t, v.same(Verdict{Reason: engine.ReasonPath, Layer: "workspace", Rule: "sensitive", From: "log"}))
	require.False(t, v.same(Verdict{Reason: engine.ReasonPath, Layer: "workspace", Rule: "excluded"}))
	require.False(t, v.same(Verdict{Reason: engine.ReasonPath, Layer: "config", Rule: "sensitive"}))
	require.False(t, v.same(Verdict{Allowed: true}))
}

// TestReachesArguments: the calls whose verdict a masked argument could
// change are the allowed ones and those refused by an argument check or
// the budget, not those refused by name.
func TestReachesArguments(t *testing.T) {
	for v, want := range map[Verdict]bool{
		{Allowed: true}: true,
		{Reason: engine.ReasonPath, Layer: "workspace"}:                   true,
		{Reason: engine.ReasonRunExhausted, Layer: "run"}:                 true,
		{Reason: engine.ReasonDenied, Layer: "team", Argument: "command"}: true,
		{Reason: engine.ReasonNotAllowed, Layer: "team", Argument: "url"}: true,
		{Outcome: "ask", Reason: engine.ReasonAsk, Layer: "team"}:         true,
		{Reason: engine.ReasonNotAllowed, Layer: "read_only"}:             true,
		{Reason: engine.ReasonNotAllowed, Layer: "tenant"}:                false,
		{Reason: engine.ReasonDenied, Layer: "read_only"}:                 false,
		{Reason: engine.ReasonExcluded, Layer: "subagent_hard_deny"}:      false,
		{Reason: engine.ReasonNotDeclared, Layer: "declaration"}:          false,
		{Reason: engine.ReasonInvalidConfig, Layer: "config"}:             false,
		{Reason: engine.ReasonInvalidInput, Layer: "input"}:               false,
	} {
		require.Equal(t, want, v.reachesArguments(), "%v", v)
	}
}

// TestMaskedParts sorts masked pointers into what hides who is asking
// (the whole request) and what only the argument checks read.
func TestMaskedParts(t *testing.T) {
	whole, arguments := maskedParts([]string{"/input/calls/0/args/path", "/input/caller/user", "/input/workspace/root", "/input/calls/1/args"})
	require.Equal(t, "/input/caller/user", whole)
	require.Equal(t, "/input/calls/0/args/path, /input/workspace/root, /input/calls/1/args", arguments)

	whole, arguments = maskedParts([]string{"/input/calls/0/name", "/input/workspaces"})
	require.Equal(t, "/input/calls/0/name, /input/workspaces", whole, "a call's name and a member that only starts like workspace are not arguments")
	require.Empty(t, arguments)
}

func TestNotReplayable(t *testing.T) {
	d := &engine.Decision{Decisions: []engine.CallDecision{
		{Allowed: true},
		{Reason: engine.ReasonNotAllowed, Layer: "tenant"},
		{Reason: engine.ReasonPath, Layer: "workspace", Rule: "outside_workspace"},
	}}
	request, calls := NotReplayable([]string{"/input/calls/0/args/path"}, d)
	require.Empty(t, request)
	require.Equal(t, []string{
		"the log masked /input/calls/0/args/path: argument checks are not replayed",
		"",
		"the log masked /input/calls/0/args/path: argument checks are not replayed",
	}, calls)

	request, calls = NotReplayable([]string{"/input/caller/user"}, d)
	require.Equal(t, "the log masked /input/caller/user", request)
	require.Equal(t, []string{"the log masked /input/caller/user", "the log masked /input/caller/user", "the log masked /input/caller/user"}, calls)

	request, calls = NotReplayable(nil, d)
	require.Empty(t, request)
	require.Equal(t, []string{"", "", ""}, calls)
}

func TestListDiff(t *testing.T) {
	added, removed := listDiff([]string{"a", "b", "c"}, []string{"c", "d", "a"})
	require.Equal(t, []string{"d"}, added)
	require.Equal(t, []string{"b"}, removed)
	added, removed = listDiff(nil, nil)
	require.Equal(t, []string{}, added)
	require.Equal(t, []string{}, removed)
}

func TestCodesAreSorted(t *testing.T) {
	require.Equal(t, []string{"a", "b", "b"}, codes([]engine.Problem{{"code": "b"}, {"code": "a"}, {"code": "b"}}))
}

func TestClassify(t *testing.T) {
	dir := t.TempDir()
	config := filepath.Join(dir, "config.json")
	require.NoError(t, os.WriteFile(config, []byte(`{}`), 0o600))
	for spec, want := range map[string][2]string{
		"":                       {"embedded", ""},
		"embedded":               {"embedded", ""},
		"bundle:x":               {"bundle", "x"},
		"config:y.json":          {"config", "y.json"},
		"git:HEAD~1":             {"git", "HEAD~1"},
		dir:                      {"bundle", dir},
		config:                   {"config", config},
		filepath.Join(dir, "no"): {"", filepath.Join(dir, "no")},
	} {
		kind, value := classify(spec)
		require.Equal(t, want, [2]string{kind, value}, spec)
	}
}

// engines are the embedded policy and the same with send_email excluded
// from sub-agents.
var engines = sync.OnceValues(func() ([2]*engine.Engine, error) {
	ctx := context.Background()
	base, err := engine.New(ctx)
	if err != nil {
		return [2]*engine.Engine{}, err
	}
	candidate, err := engine.New(ctx, engine.WithConfig(engine.Config{
		"exclusions": map[string]any{"subagent_hard_deny": []any{"send_email"}},
	}))
	return [2]*engine.Engine{base, candidate}, err
})

func replay(t *testing.T, sameOnBothSides bool, inputs ...string) *Report {
	t.Helper()
	e, err := engines()
	require.NoError(t, err)
	base := Policy{Spec: "base", Engine: e[0]}
	candidate := Policy{Spec: "candidate", Engine: e[1]}
	if sameOnBothSides {
		candidate = Policy{Spec: "candidate", Engine: e[0]}
	}
	var requests []Request
	for i, in := range inputs {
		requests = append(requests, Request{Source: "r" + string(rune('0'+i)), Input: json.RawMessage(in)})
	}
	r, err := Replay(context.Background(), base, candidate, requests, Options{Workers: 2})
	require.NoError(t, err)
	return r
}

const subagentRequest = `{"agent": {"role": "subagent", "depth": 1},
	"declared": [{"name": "read_file"}, {"name": "send_email"}],
	"calls": [{"id": "a", "name": "read_file"}, {"id": "b", "name": "send_email"}, {"id": "c", "name": "send_email"}]}`

// TestReplayReportsWhatChanges: the calls an added exclusion refuses are
// changes, grouped and counted, with why each side decided them, and the
// request's effective tools lose the tool.
func TestReplayReportsWhatChanges(t *testing.T) {
	r := replay(t, false, subagentRequest, `{"declared": [{"name": "send_email"}], "calls": [{"id": "m", "name": "send_email"}]}`)
	require.True(t, r.Changed())
	require.Equal(t, 2, r.Requests)
	require.Equal(t, 4, r.Calls)
	require.Equal(t, 1, r.ChangedRequests, "the main agent keeps send_email")
	require.Equal(t, 2, r.ChangedCalls)
	require.Equal(t, []Group{{Change: "allowed → refused by subagent_hard_deny (excluded)", Kind: "allow → deny", Calls: 2, Requests: 1}}, r.Groups)
	for i, c := range r.Changes {
		require.Equal(t, "r0", c.Request)
		require.Equal(t, i+1, c.Call)
		require.Equal(t, "send_email", c.Name)
		require.Equal(t, Verdict{Allowed: true, Outcome: "allow"}, c.Before)
		require.Equal(t, Verdict{Outcome: "deny", Reason: engine.ReasonExcluded, Layer: "subagent_hard_deny"}, c.After)
		require.NotEmpty(t, c.AfterWhy, "the candidate's refusing check is named")
		require.Equal(t, "refused", c.AfterWhy[len(c.AfterWhy)-1].Outcome)
	}
	require.Equal(t, []EffectiveChange{{Request: "r0", Added: []string{}, Removed: []string{"send_email"}}}, r.Effective)
	require.Empty(t, r.Errors)
	require.Empty(t, r.NotReplayable)
}

// TestReportsWriteTheArrow: a change's two sides are joined by the arrow
// itself in the table and the HTML report, not by its escape (\u2192),
// while what stands around it is still escaped.
func TestReportsWriteTheArrow(t *testing.T) {
	r := replay(t, false, subagentRequest, `{"declared": [{"name": "send_email"}], "calls": [{"id": "m", "name": "send_email"}]}`)
	r.Groups = append(r.Groups, Group{Change: "allowed → refused by t\u0455 (denied)", Kind: "allow → deny", Calls: 1, Requests: 1})
	var table bytes.Buffer
	require.NoError(t, WriteTable(&table, r))
	require.Contains(t, table.String(), "allowed → refused by subagent_hard_deny (excluded)")
	require.Contains(t, table.String(), `allowed → refused by t\u0455 (denied)`, "the sides are still escaped")
	require.NotContains(t, table.String(), `\u2192`)
	e, err := engines()
	require.NoError(t, err)
	var page bytes.Buffer
	require.NoError(t, WriteHTML(context.Background(), &page, r, Policy{Spec: "base", Engine: e[0]}, Policy{Spec: "candidate", Engine: e[1]}))
	require.Contains(t, page.String(), "allowed → refused by subagent_hard_deny (excluded)")
	require.NotContains(t, page.String(), `\u2192`)
}

// TestReplayOfOnePolicyChangesNothing: the same policy on both sides
// reports no change.
func TestReplayOfOnePolicyChangesNothing(t *testing.T) {
	r := replay(t, true, subagentRequest)
	require.False(t, r.Changed())
	require.Equal(t, 3, r.Calls)
	require.Empty(t, r.Changes)
	require.Empty(t, r.Groups)
	require.Empty(t, r.Effective)
}

// TestReplayStopsOnAnUnreadableRequest: a request that is not JSON stops
// the replay, naming it, instead of comparing a fail-closed side.
func TestReplayStopsOnAnUnreadableRequest(t *testing.T) {
	e, err := engines()
	require.NoError(t, err)
	_, err = Replay(context.Background(), Policy{Engine: e[0]}, Policy{Engine: e[1]},
		[]Request{{Source: "broken.json", Input: json.RawMessage(`{"calls": [`)}}, Options{})
	require.ErrorContains(t, err, "broken.json")
}

// TestAToolNowDecidedByItsArgumentsIsAChange: a deny rule added on a
// tool's arguments keeps it effective but makes it conditional: the
// report says so in the table, JSON and HTML, and the HTML's matrices
// show the catalog's verdict (conditional), not a probe's refusal.
func TestAToolNowDecidedByItsArgumentsIsAChange(t *testing.T) {
	ctx := context.Background()
	base, err := engine.New(ctx, engine.WithConfig(engine.Config{"tools": map[string]any{"allow": []any{"bash", "read_file"}}}))
	require.NoError(t, err)
	candidate, err := engine.New(ctx, engine.WithConfig(engine.Config{"tools": map[string]any{
		"allow": []any{"bash", "read_file"},
		"deny":  []any{map[string]any{"tool": "bash", "command_prefix": "rm"}},
	}}))
	require.NoError(t, err)
	request := `{"declared": [{"name": "bash"}, {"name": "read_file"}],
		"calls": [{"id": "a", "name": "bash", "args": {"command": "ls"}}]}`
	r, err := Replay(ctx, Policy{Spec: "base", Engine: base}, Policy{Spec: "candidate", Engine: candidate},
		[]Request{{Source: "r0", Input: json.RawMessage(request)}}, Options{Workers: 1})
	require.NoError(t, err)
	require.Empty(t, r.Changes, "ls is allowed on both sides")
	require.Equal(t, []EffectiveChange{{Request: "r0", Added: []string{}, Removed: []string{},
		Outcomes: []ToolChange{{Name: "bash", Before: engine.OutcomeAllow, After: engine.OutcomeConditional}}}}, r.Effective)
	require.True(t, r.Changed())

	var table, page bytes.Buffer
	require.NoError(t, WriteTable(&table, r))
	require.Contains(t, table.String(), "effective r0: added [], removed [], bash allow → conditional")
	require.NoError(t, WriteHTML(ctx, &page, r, Policy{Spec: "base", Engine: base}, Policy{Spec: "candidate", Engine: candidate}))
	require.Contains(t, page.String(), "bash allow → conditional")
	require.Contains(t, page.String(), ">conditional<")
}
