package engine_test

import (
	"context"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/tooleval/tooleval/engine"
)

// New loads the policy bundle embedded in the binary.
func ExampleNew() {
	ctx := context.Background()
	e, err := engine.New(ctx)
	if err != nil {
		panic(err)
	}
	d, err := e.Decide(ctx, engine.JSON([]byte(`{
		"declared": [{"name": "read_file"}, {"name": "Refund"}],
		"layers": [{"name": "tenant", "allow": ["read_file"]}],
		"calls": [{"id": "call_1", "name": "read_file"}, {"id": "call_2", "name": "Refund"}]
	}`)))
	if err != nil {
		panic(err)
	}
	for _, c := range d.Decisions {
		switch c.Outcome {
		case engine.OutcomeAllow:
			fmt.Println(c.ID, "allowed")
		case engine.OutcomeAsk: // only a person's answer lets it run
			fmt.Println(c.ID, "needs approval:", c.Message)
		default:
			fmt.Println(c.ID, "refused:", c.Message)
		}
	}
	// Output:
	// call_1 allowed
	// call_2 refused: tool "Refund" is not permitted: refused by layer "tenant"
}

// Explain gives the decision with every check of each call: which entry
// of which list matched, and what the other layers said.
func ExampleEngine_Explain() {
	ctx := context.Background()
	e, err := engine.New(ctx)
	if err != nil {
		panic(err)
	}
	d, err := e.Explain(ctx, engine.JSON([]byte(`{
		"declared": [{"name": "read_file"}, {"name": "debug_dump"}],
		"layers": [
			{"name": "agent", "allow": ["read_file", "debug_dump"]},
			{"name": "tenant", "allow": ["read_file"], "deny": ["debug_*"]}
		],
		"calls": [{"id": "call_1", "name": "debug_dump"}]
	}`)))
	if err != nil {
		panic(err)
	}
	for _, step := range d.Decisions[0].Trace {
		if step.List == "" {
			continue // input, config, declaration, exclusions, arguments, run
		}
		line := fmt.Sprint(step.Name, " ", step.List, ": ", step.Outcome)
		if step.Entry != nil {
			line += fmt.Sprint(" by ", step.Entry)
		}
		if step.Source != "" {
			line += " (" + step.Source + ")"
		}
		fmt.Println(line)
	}
	// Output:
	// agent deny: pass
	// tenant deny: refused by debug_* (layers[1].deny[0])
	// agent allow: pass by debug_dump (layers[0].allow[1])
	// tenant allow: refused (layers[1].allow)
	// agent ask: not_applicable
	// tenant ask: not_applicable
}

// A shadow decides every decision again under a candidate policy, in
// the background, and counts (and logs) where the two differ; the
// candidate is never enforced.
func ExampleNewShadow() {
	ctx := context.Background()
	candidate, err := engine.New(ctx, engine.WithConfig(engine.Config{
		"tools": map[string]any{"deny": []any{"web_search"}},
	}))
	if err != nil {
		panic(err)
	}
	shadow := engine.NewShadow(candidate, engine.ShadowOptions{})
	defer shadow.Close()
	e, err := engine.New(ctx, engine.WithShadow(shadow))
	if err != nil {
		panic(err)
	}
	d, err := e.Decide(ctx, engine.JSON([]byte(`{
		"declared": [{"name": "web_search"}],
		"calls": [{"id": "call_1", "name": "web_search"}]
	}`)))
	if err != nil {
		panic(err)
	}
	fmt.Println("live:", d.Decisions[0].Allowed)
	for shadow.Stats().Compared == 0 {
		time.Sleep(time.Millisecond)
	}
	fmt.Printf("%+v\n", shadow.Stats())
	// Output:
	// live: true
	// {Compared:1 Differences:1 Dropped:0 Failed:0}
}

// A session compiles the agent's static request once and decides each
// dispatch batch against it.
func ExampleSession_Decide() {
	ctx := context.Background()
	e, err := engine.New(ctx)
	if err != nil {
		panic(err)
	}
	s, err := e.NewSession(ctx, engine.SessionConfig{
		Agent: &engine.Agent{Name: "researcher", Role: "subagent", Depth: 1},
		Declared: []engine.Declaration{
			{Name: "web_search"},
			{Name: "gateway"},
			{Name: "mcp__github__read_issue", MCP: &engine.MCPIdentity{Server: "github", Tool: "read_issue"}},
		},
		Layers: []engine.Layer{{Name: "agent", Allow: []string{"web_search", "gateway", "mcp__github__read_*"}}},
	})
	if err != nil {
		panic(err)
	}
	d, err := s.Decide(ctx, []engine.Call{
		{ID: "c1", Name: "web_search", Args: map[string]any{"query": "rego"}},
		{ID: "c2", Name: "gateway"},
		{ID: "c3", Name: "mcp__github__read_issue"},
	})
	if err != nil {
		panic(err)
	}
	for _, c := range d.Decisions {
		if c.Allowed {
			fmt.Println(c.ID, "allowed")
		} else {
			fmt.Println(c.ID, "refused:", c.Reason, "by", c.Layer)
		}
	}
	catalog, err := s.Tools(ctx)
	if err != nil {
		panic(err)
	}
	fmt.Println(catalog.Effective)
	// Output:
	// c1 allowed
	// c2 refused: excluded by subagent_hard_deny
	// c3 allowed
	// [mcp__github__read_issue web_search]
}

// Launch validates a fork launch and returns the allowlist to persist and
// the notice for the fork's task prompt.
func ExampleEngine_Launch() {
	ctx := context.Background()
	e, err := engine.New(ctx)
	if err != nil {
		panic(err)
	}
	l, err := e.Launch(ctx, map[string]any{
		"subagent_type": "fork",
		"fork_tools":    []string{"read_file", "mcp__github__read_*"},
		"declared": []engine.Declaration{
			{Name: "read_file"},
			{Name: "write_file"},
			{Name: "mcp__github__read_issue", MCP: &engine.MCPIdentity{Server: "github", Tool: "read_issue"}},
		},
		"agent": engine.Agent{Role: "main", Depth: 0},
	})
	if err != nil {
		panic(err)
	}
	fmt.Println(l.Valid, l.ExecutionAllowedTools)
	fmt.Println(l.Notice)
	// Output:
	// true [read_file mcp__github__read_*]
	// Tool restriction: in this fork you may execute only these tools: mcp__github__read_issue, read_file. Calls to any other tool are refused before they run.
}

// A deployment keeps tenant plans, caller scopes and agent definitions
// in its configuration; the runtime sends only who is asking.
func ExampleWithConfig() {
	ctx := context.Background()
	e, err := engine.New(ctx, engine.WithConfig(engine.Config{
		"tenants": map[string]any{"acme": map[string]any{"tools": []string{"read_file", "mcp__github__*"}}},
		"scopes":  map[string]any{"repo:read": []string{"mcp__github__read_issue"}},
	}))
	if err != nil {
		panic(err)
	}
	s, err := e.NewSession(ctx, engine.SessionConfig{
		Declared: []engine.Declaration{
			{Name: "read_file"},
			{Name: "mcp__github__read_issue", MCP: &engine.MCPIdentity{Server: "github", Tool: "read_issue"}},
		},
		Tenant: "acme",
		Caller: &engine.Caller{Scopes: []string{"repo:read"}},
	})
	if err != nil {
		panic(err)
	}
	d, err := s.Decide(ctx, []engine.Call{{ID: "c1", Name: "read_file"}, {ID: "c2", Name: "mcp__github__read_issue"}})
	if err != nil {
		panic(err)
	}
	for _, c := range d.Decisions {
		if c.Allowed {
			fmt.Println(c.ID, "allowed")
		} else {
			fmt.Println(c.ID, "refused by", c.Layer)
		}
	}
	// Output:
	// c1 refused by caller
	// c2 allowed
}

// Check reports configuration problems with their locations; warnings
// change no decision.
func ExampleEngine_Check() {
	ctx := context.Background()
	e, err := engine.New(ctx, engine.WithConfig(engine.Config{
		"tools": map[string]any{"profile": "codign"},
	}))
	if err != nil {
		panic(err)
	}
	c, err := e.Check(ctx, map[string]any{
		"declared": []map[string]any{{"name": "read_file"}, {"name": "re\u0430d_file"}},
	})
	if err != nil {
		panic(err)
	}
	for _, p := range c.Errors {
		fmt.Println("error:", p.Code(), p["field"])
	}
	for _, p := range c.Warnings {
		fmt.Println("warning:", p.Code(), p["field"])
	}
	// Output:
	// error: unknown_profile config.tools.profile
	// warning: confusable_names declared
}

// With WithStrictConfig an engine whose configuration has errors is not
// made: New returns an error wrapping ErrInvalidConfig that lists them,
// instead of an engine that refuses every call.
func ExampleWithStrictConfig() {
	ctx := context.Background()
	_, err := engine.New(ctx, engine.WithStrictConfig(), engine.WithConfig(engine.Config{
		"tools": map[string]any{"profile": "codign"},
	}))
	fmt.Println(errors.Is(err, engine.ErrInvalidConfig))
	fmt.Println(err)
	// Output:
	// true
	// the configuration has errors, and every decision would be refused as invalid_config: unknown_profile: config.tools.profile names no profile in config.profiles (config.tools.profile) (run tooleval check --config)
}

// The engine records the digest of a requester's policy when it spawns
// children; the continuation keeps that policy only when every settled
// child carries a policy with the same digest.
func ExampleRequesterPolicyDigest() {
	ctx := context.Background()
	e, err := engine.New(ctx)
	if err != nil {
		panic(err)
	}
	captured := &engine.RequesterPolicy{Allow: []string{"read_file"}}
	digest, err := engine.RequesterPolicyDigest(captured)
	if err != nil {
		panic(err)
	}
	s, err := e.NewSession(ctx, engine.SessionConfig{
		Declared:  []engine.Declaration{{Name: "read_file"}, {Name: "write_file"}},
		Requester: &engine.Requester{Session: "s1", Batch: "b1", PolicyDigest: digest},
		Handoff: &engine.Handoff{Session: "s1", Batch: "b1", Children: []engine.HandoffChild{
			{ID: "child_1", Policy: captured},
			{ID: "child_2", Policy: captured},
		}},
	})
	if err != nil {
		panic(err)
	}
	d, err := s.Decide(ctx, []engine.Call{{ID: "c1", Name: "read_file"}, {ID: "c2", Name: "write_file"}})
	if err != nil {
		panic(err)
	}
	for _, c := range d.Decisions {
		if c.Allowed {
			fmt.Println(c.ID, "allowed")
		} else {
			fmt.Println(c.ID, "refused by", c.Layer)
		}
	}
	// Output:
	// c1 allowed
	// c2 refused by requester_policy
}

// DecodeInput reads an input file as opa eval does: a byte order mark
// is skipped and numbers keep their text, but a second document is an
// error rather than ignored.
func ExampleDecodeInput() {
	v, err := engine.DecodeInput([]byte("\xef\xbb\xbf" + `{"run": {"attempts": 18446744073709551616}}`))
	fmt.Println(v, err)
	_, err = engine.DecodeInput([]byte(`{"calls": []} {"calls": []}`))
	fmt.Println(err)
	// Output:
	// {"run": {"attempts": 18446744073709551616}} <nil>
	// decode input: line 1, column 15: data after the JSON document
}

// A decision whose context has ended, or that runs past the engine's
// evaluation deadline, refuses every call and returns the error.
func ExampleWithEvalTimeout() {
	ctx := context.Background()
	e, err := engine.New(ctx, engine.WithEvalTimeout(2*time.Second))
	if err != nil {
		panic(err)
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	d, err := e.Decide(cancelled, engine.JSON([]byte(`{"declared": [{"name": "read_file"}], "calls": [{"id": "c1", "name": "read_file"}]}`)))
	fmt.Println(errors.Is(err, context.Canceled))
	fmt.Println(d.Decisions[0].ID, d.Decisions[0].Allowed, d.Decisions[0].Reason)
	// Output:
	// true
	// c1 false invalid_config
}

// Sessions of one run share a RunGuard: a parent and its sub-agent spend
// one budget, and batches decided at the same time never spend the same
// attempt.
func ExampleNewRunGuard() {
	ctx := context.Background()
	e, err := engine.New(ctx)
	if err != nil {
		panic(err)
	}
	guard := engine.NewRunGuard(3, 0) // three attempts for the whole run
	declared := []engine.Declaration{{Name: "read_file"}}
	parent, err := e.NewSession(ctx, engine.SessionConfig{Declared: declared}, engine.WithRunGuard(guard))
	if err != nil {
		panic(err)
	}
	child, err := e.NewSession(ctx, engine.SessionConfig{Agent: &engine.Agent{Role: "subagent", Depth: 1}, Declared: declared},
		engine.WithRunGuard(guard))
	if err != nil {
		panic(err)
	}
	calls := []engine.Call{{ID: "a", Name: "read_file"}, {ID: "b", Name: "read_file"}}
	for _, s := range []*engine.Session{parent, child} {
		d, err := s.Decide(ctx, calls)
		if err != nil {
			panic(err)
		}
		for _, c := range d.Decisions {
			if c.Allowed {
				fmt.Println(c.ID, "allowed")
			} else {
				fmt.Println(c.ID, "refused:", c.Reason)
			}
		}
	}
	fmt.Printf("%+v\n", guard.Totals())
	// Output:
	// a allowed
	// b allowed
	// a allowed
	// b refused: run_exhausted
	// {Attempts:4 Refusals:1 Exhausted:true}
}

// With a verification key the engine loads only bundles signed with it
// (opa build --signing-key); here an unsigned one is refused.
func ExampleWithVerificationKey() {
	ctx := context.Background()
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		panic(err)
	}
	der, err := x509.MarshalPKIXPublicKey(&key.PublicKey)
	if err != nil {
		panic(err)
	}
	public := pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: der})

	dir, err := os.MkdirTemp("", "tooleval-example-")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	unsigned := filepath.Join(dir, "tooleval.tar.gz")
	f, err := os.Create(unsigned)
	if err != nil {
		panic(err)
	}
	if err := engine.WriteBundle(ctx, f, "", "v1", nil); err != nil {
		panic(err)
	}
	f.Close()

	_, err = engine.New(ctx, engine.WithBundle(unsigned), engine.WithVerificationKey(engine.VerificationKey{Key: string(public)}))
	fmt.Println(strings.Contains(err.Error(), "bundle missing .signatures.json"))
	// Output:
	// true
}
