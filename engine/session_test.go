package engine

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/tooleval/tooleval/engine/forkmeta"
	"github.com/tooleval/tooleval/internal/corpus"
)

// batchOf returns the {calls, run} part of a full input document.
func batchOf(doc map[string]any) map[string]any {
	batch := map[string]any{}
	for _, key := range []string{"calls", "run"} {
		if v, ok := doc[key]; ok {
			batch[key] = v
		}
	}
	return batch
}

// TestSessionEqualsOneShot decides a generated corpus both ways: the
// one-shot decision of the full document, and a session opened on its
// static part deciding its batch. The documents must be identical.
//
// Each document's session decides a sequence of batches: the document's
// own (malformed calls, runs, duplicate ids: mostly the policy's path), a
// well-formed batch of its declared names as declared, with unique ids
// and no run, mixed with its own calls (the batches a session answers
// from its context's entries, in whole or in part), then batches that
// repeat a few names across batches, with and without args, declared,
// undeclared and in other spellings, next to malformed calls, duplicate
// ids and runs (memoBatches: what the session's memo answers, and the
// batches it must not answer), and the well-formed batch again (those
// only when the context has no errors: otherwise the session answers
// nothing from entries or its memo). Every batch is held to the one-shot
// decision of the static part with it.
func TestSessionEqualsOneShot(t *testing.T) {
	e := newEngine(t)
	ctx := context.Background()
	docs := corpus.New(11).Decisions(scaled(t, 300)) // make soak: 3,000
	refused, fromEntries, fromMemo, calls, batches := 0, 0, 0, 0, 0
	for i, doc := range docs {
		session, err := e.NewSession(ctx, doc, WithPathResolution(false))
		require.NoError(t, err)
		sequence := []map[string]any{doc, wellFormedBatch(doc)}
		if session.state.Load().entries != nil { // a context with errors answers nothing from entries or the memo
			sequence = append(sequence, memoBatches(doc, uint64(i))...)
			sequence = append(sequence, wellFormedBatch(doc))
		}
		for variant, batch := range sequence {
			full := withBatch(doc, batch)
			oneShot, err := e.Decide(ctx, full)
			require.NoError(t, err)
			request, err := toValue(batchOf(full))
			require.NoError(t, err)
			viaSession, err := session.DecideRequest(ctx, request)
			require.NoError(t, err)
			require.Equal(t, documentJSON(t, oneShot), documentJSON(t, viaSession), "document %d, batch %d", i, variant)
			require.Equal(t, oneShot.Decisions, viaSession.Decisions, "document %d, batch %d", i, variant)
			fromEntries += viaSession.fromEntries
			fromMemo += viaSession.fromMemo
			calls += len(oneShot.Decisions)
			batches++
			for _, c := range oneShot.Decisions {
				if !c.Allowed {
					refused++
				}
			}
		}
	}
	t.Logf("%d batches of %d documents decided both ways, identical; %d calls, %d refused, %d answered from a session's entries, %d from its memo",
		batches, len(docs), calls, refused, fromEntries, fromMemo)
	require.Greater(t, refused, 100, "the corpus exercises too few refusals")
	require.Greater(t, fromEntries, len(docs)/3, "too few calls take the session's look-up path")
	require.Greater(t, fromMemo, len(docs)/4, "too few calls are answered from the session's memo")
}

// withBatch is doc's static part with batch's calls and run.
func withBatch(doc, batch map[string]any) map[string]any {
	out := map[string]any{}
	for k, v := range doc {
		if k != "calls" && k != "run" {
			out[k] = v
		}
	}
	for k, v := range batchOf(batch) {
		out[k] = v
	}
	return out
}

// memoBatches are batches for a session of doc's static part that repeat
// a few names across batches: names as declared, in other spellings
// (upper case, a leading space, full-width), undeclared, too long for a
// canonical form, empty; each call with or without args (a path, a shell
// action) or with another member, and each batch now and then next to a
// malformed call, a duplicate id, a call with a number for id, or a run
// (exhausted or not). A memo that answered a call from another spelling,
// ignored args, or kept or used a verdict given under a run, a duplicate
// or a malformed neighbour would differ from the one-shot decision.
func memoBatches(doc map[string]any, seed uint64) []map[string]any {
	rng := rand.New(rand.NewPCG(seed, 25))
	names := []string{"no_such_tool", "NO_SUCH_TOOL", "read_file", "Read_File", "bash", "\uff52ead_file", strings.Repeat("x", 300), ""}
	declared, _ := doc["declared"].([]any)
	for _, d := range declared {
		if m, ok := d.(map[string]any); ok {
			if name, ok := m["name"].(string); ok {
				names = append(names, name, name, strings.ToUpper(name), " "+name)
			}
		}
	}
	pool := make([]string, 4)
	for k := range pool {
		pool[k] = names[rng.IntN(len(names))]
	}
	paths := []any{"/etc/passwd", "/ws/src/main.go", "relative/path", "/ws/.ssh/id_rsa"}
	out := make([]map[string]any, 3)
	for b := range out {
		calls := []any{}
		for k := range 1 + rng.IntN(8) {
			call := map[string]any{"id": fmt.Sprintf("m%d_%d", b, k), "name": pool[rng.IntN(len(pool))]}
			switch rng.IntN(8) {
			case 0, 1:
				call["args"] = map[string]any{"path": paths[rng.IntN(len(paths))]}
			case 2:
				call["args"] = map[string]any{"action": "write", "command": "rm -rf /"}
			case 3:
				call["note"] = "another member"
			}
			calls = append(calls, call)
		}
		batch := map[string]any{}
		switch rng.IntN(12) {
		case 0:
			calls = append(calls, "not a call")
		case 1:
			calls = append(calls, map[string]any{"id": calls[0].(map[string]any)["id"], "name": pool[rng.IntN(len(pool))]})
		case 2:
			calls = append(calls, map[string]any{"id": 7, "name": pool[rng.IntN(len(pool))]})
		case 3:
			batch["run"] = map[string]any{"attempts": 3, "max_attempts": 3}
		case 4:
			batch["run"] = map[string]any{"attempts": 0, "max_attempts": 50}
		}
		batch["calls"] = calls
		out[b] = batch
	}
	return out
}

// wellFormedBatch is doc with a batch a session may answer from its
// entries: every declared name as declared, then the document's own calls
// that are objects, all with unique string ids, and no run.
func wellFormedBatch(doc map[string]any) map[string]any {
	out := map[string]any{}
	for k, v := range doc {
		if k != "calls" && k != "run" {
			out[k] = v
		}
	}
	var calls []any
	declared, _ := doc["declared"].([]any)
	for _, d := range declared {
		if m, ok := d.(map[string]any); ok {
			if name, ok := m["name"].(string); ok {
				calls = append(calls, map[string]any{"id": fmt.Sprintf("w%d", len(calls)), "name": name})
			}
		}
	}
	own, _ := doc["calls"].([]any)
	for _, c := range own {
		if m, ok := c.(map[string]any); ok {
			call := map[string]any{}
			for k, v := range m {
				call[k] = v
			}
			call["id"] = fmt.Sprintf("w%d", len(calls))
			calls = append(calls, call)
		}
	}
	out["calls"] = calls
	return out
}

func TestSessionReusesItsContextAcrossBatches(t *testing.T) {
	e := newEngine(t)
	ctx := context.Background()
	s, err := e.NewSession(ctx, SessionConfig{
		Agent:    &Agent{Role: "subagent", Depth: 1},
		Declared: []Declaration{{Name: "read_file"}, {Name: "gateway"}, {Name: "mcp__gh__read", MCP: &MCPIdentity{Server: "gh", Tool: "read"}}},
		Layers:   []Layer{{Name: "agent", Allow: []string{"read_file", "gateway", "mcp__gh__*"}}, {Name: "tenant"}},
	})
	require.NoError(t, err)
	for range 3 {
		d, err := s.Decide(ctx, []Call{{ID: "1", Name: "read_file"}, {ID: "2", Name: "gateway"}, {ID: "3", Name: "mcp__gh__read"}})
		require.NoError(t, err)
		require.Equal(t, []bool{true, false, true}, allowed(d))
		require.Equal(t, "subagent_hard_deny", d.Decisions[1].Layer)
	}
	c, err := s.Tools(ctx)
	require.NoError(t, err)
	require.Equal(t, []string{"mcp__gh__read", "read_file"}, c.Effective)
	require.Equal(t, []ToolVerdict{
		{Name: "read_file", Allowed: true, Outcome: OutcomeAllow},
		{Name: "gateway", Outcome: OutcomeDeny, Reason: "excluded", Layer: "subagent_hard_deny"},
		{Name: "mcp__gh__read", Allowed: true, Outcome: OutcomeAllow},
	}, c.Tools)
}

// TestSessionExplainsWhatItDecides: a session's explanation of a batch
// is its decision of that batch with a trace on every call, and the
// trace names the exclusion's floor entry.
func TestSessionExplainsWhatItDecides(t *testing.T) {
	e := newEngine(t)
	ctx := context.Background()
	s, err := e.NewSession(ctx, SessionConfig{
		Agent:     &Agent{Role: "subagent", Depth: 1},
		Declared:  []Declaration{{Name: "read_file"}, {Name: "gateway"}, {Name: "mcp__gh__read", MCP: &MCPIdentity{Server: "gh", Tool: "read"}}},
		Layers:    []Layer{{Name: "agent", Allow: []string{"read_file", "gateway", "mcp__gh__*"}}},
		Workspace: &Workspace{Root: "/ws"},
	})
	require.NoError(t, err)
	calls := []Call{{ID: "1", Name: "read_file", Args: map[string]any{"path": "/etc/passwd"}}, {ID: "2", Name: "gateway"}, {ID: "3", Name: "MCP__gh__read"}, {ID: "4", Name: "nope"}}
	decided, err := s.Decide(ctx, calls)
	require.NoError(t, err)
	explained, err := s.Explain(ctx, calls)
	require.NoError(t, err)
	require.Len(t, explained.Decisions, len(decided.Decisions))
	for i, c := range explained.Decisions {
		require.NotEmpty(t, c.Trace, "call %d", i)
		c.Trace = nil
		require.Equal(t, decided.Decisions[i], c, "call %d", i)
	}
	var exclusion TraceStep
	for _, step := range explained.Decisions[1].Trace {
		if step.Check == "exclusion" && step.Name == "subagent_hard_deny" {
			exclusion = step
		}
	}
	require.Equal(t, "refused", exclusion.Outcome)
	require.Equal(t, "gateway", exclusion.Entry)
	require.Regexp(t, `^floor\.exclusions\.subagent_hard_deny\[\d+\]$`, exclusion.Source)
}

func allowed(d *Decision) []bool {
	out := make([]bool, len(d.Decisions))
	for i, c := range d.Decisions {
		out[i] = c.Allowed
	}
	return out
}

func TestRunGuardCountsAcrossBatches(t *testing.T) {
	e := newEngine(t)
	ctx := context.Background()
	guard := NewRunGuard(5, 3)
	s, err := e.NewSession(ctx, SessionConfig{Declared: []Declaration{{Name: "read_file"}}}, WithRunGuard(guard))
	require.NoError(t, err)

	d, err := s.Decide(ctx, []Call{{ID: "1", Name: "read_file"}, {ID: "2", Name: "nope"}})
	require.NoError(t, err)
	require.Equal(t, []bool{true, false}, allowed(d))
	require.Equal(t, RunTotals{Attempts: "2", Refusals: "1"}, guard.Totals())

	d, err = s.Decide(ctx, []Call{{ID: "3", Name: "read_file"}, {ID: "4", Name: "read_file"}, {ID: "5", Name: "read_file"}, {ID: "6", Name: "read_file"}})
	require.NoError(t, err)
	require.Equal(t, []bool{true, true, true, false}, allowed(d))
	require.Equal(t, "run_exhausted", d.Decisions[3].Reason)
	require.Equal(t, RunTotals{Attempts: "6", Refusals: "2", Exhausted: true}, guard.Totals())

	d, err = s.Decide(ctx, []Call{{ID: "7", Name: "read_file"}})
	require.NoError(t, err)
	require.Equal(t, "run_exhausted", d.Decisions[0].Reason)
	require.Equal(t, RunTotals{Attempts: "7", Refusals: "3", Exhausted: true}, guard.Totals())
}

func TestForkLifecycle(t *testing.T) {
	e := newEngine(t)
	ctx := context.Background()
	declared := []Declaration{
		{Name: "read_file"}, {Name: "write_file"},
		{Name: "mcp__github__read_issue", MCP: &MCPIdentity{Server: "github", Tool: "read_issue"}},
		{Name: "mcp__github__create_issue", MCP: &MCPIdentity{Server: "github", Tool: "create_issue"}},
	}
	l, err := e.Launch(ctx, map[string]any{"subagent_type": "fork", "fork_tools": []string{"read_file", "mcp__github__read_*"}, "declared": declared})
	require.NoError(t, err)
	require.True(t, l.Valid)

	sidecar := forkmeta.PathFor(filepath.Join(t.TempDir(), "fork-1.jsonl"))
	require.NoError(t, PersistLaunch(sidecar, l))

	// Revival: the persisted list becomes the fork layer, matched against
	// the live declarations (a new read tool has appeared since launch).
	layer, err := ReviveForkLayer(sidecar)
	require.NoError(t, err)
	require.Equal(t, &Layer{Name: "fork", Allow: []string{"read_file", "mcp__github__read_*"}}, layer)
	live := append(declared, Declaration{Name: "mcp__github__read_pr", MCP: &MCPIdentity{Server: "github", Tool: "read_pr"}})
	s, err := e.NewSession(ctx, SessionConfig{Agent: &Agent{Role: "fork", Depth: 1}, Declared: live, Layers: []Layer{*layer}})
	require.NoError(t, err)
	d, err := s.Decide(ctx, []Call{{ID: "a", Name: "read_file"}, {ID: "b", Name: "write_file"}, {ID: "c", Name: "mcp__github__read_pr"}, {ID: "d", Name: "mcp__github__create_issue"}})
	require.NoError(t, err)
	require.Equal(t, []bool{true, false, true, false}, allowed(d))
	require.Equal(t, "fork", d.Decisions[1].Layer)

	// A corrupt sidecar revives deny-all, never unrestricted.
	require.NoError(t, os.WriteFile(sidecar, []byte(`{"version":1,"execution_allowed_tools":"read_file"}`), 0o644))
	layer, err = ReviveForkLayer(sidecar)
	require.ErrorIs(t, err, forkmeta.ErrCorrupt)
	require.Equal(t, &Layer{Name: "fork", Allow: []string{}}, layer)

	// An unrestricted launch persists no field and revives without a layer.
	open, err := e.Launch(ctx, map[string]any{"subagent_type": "fork", "declared": declared})
	require.NoError(t, err)
	require.NoError(t, PersistLaunch(sidecar, open))
	layer, err = ReviveForkLayer(sidecar)
	require.NoError(t, err)
	require.Nil(t, layer)

	// An invalid launch is never persisted.
	bad, err := e.Launch(ctx, map[string]any{"subagent_type": "researcher", "fork_tools": []string{"read_file"}})
	require.NoError(t, err)
	require.Error(t, PersistLaunch(sidecar, bad))
}

func TestDelegationOnlyNarrows(t *testing.T) {
	e := newEngine(t)
	ctx := context.Background()
	cfg := SessionConfig{
		Declared: []Declaration{{Name: "read_file"}, {Name: "web_fetch"}, {Name: "write_file"}},
		Layers:   []Layer{{Name: "agent", Allow: []string{"read_file", "web_fetch"}}},
	}
	hop := cfg.Delegate("researcher", []string{"read_file", "write_file"})
	require.Len(t, cfg.Layers, 1, "Delegate must not modify the original")
	s, err := e.NewSession(ctx, hop)
	require.NoError(t, err)
	d, err := s.Decide(ctx, []Call{{ID: "1", Name: "read_file"}, {ID: "2", Name: "web_fetch"}, {ID: "3", Name: "write_file"}})
	require.NoError(t, err)
	require.Equal(t, []bool{true, false, false}, allowed(d))
	require.Equal(t, "peer:researcher", d.Decisions[1].Layer)
	require.Equal(t, "agent", d.Decisions[2].Layer)
}

// TestConcurrentUse shares one engine and several sessions between many
// goroutines; run it with -race.
func TestConcurrentUse(t *testing.T) {
	e := newEngine(t, WithEvalTimeout(time.Minute)) // 16 goroutines, 2 cores, -race: seconds of waiting for a CPU
	ctx := context.Background()
	docs := corpus.New(5).Decisions(scaled(t, 10)) // make soak: 100
	// and the benchmark workload, whose batch the session answers from
	// its entries and, from its second batch, its memo
	docs = append(docs, fullRequest(100), fullRequest(100))
	want := make([]string, len(docs))
	sessions := make([]*Session, len(docs))
	for i, doc := range docs {
		d, err := e.Decide(ctx, doc)
		require.NoError(t, err)
		want[i] = documentJSON(t, d)
		sessions[i], err = e.NewSession(ctx, doc, WithPathResolution(false))
		require.NoError(t, err)
	}
	var wg sync.WaitGroup
	goroutines := 16
	errs := make(chan string, goroutines*len(docs))
	for g := range goroutines {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := range docs {
				i := (k + g) % len(docs)
				request, _ := toValue(batchOf(docs[i]))
				var d *Decision
				var err error
				if g%2 == 0 {
					d, err = sessions[i].DecideRequest(ctx, request)
				} else {
					d, err = e.Decide(ctx, docs[i])
				}
				if err != nil {
					errs <- err.Error()
					continue
				}
				if got, _ := d.JSON(); string(got) != want[i] {
					errs <- fmt.Sprintf("document %d differs under concurrency", i)
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for msg := range errs {
		t.Error(msg)
	}
}

// TestReviveNullSidecarDenyAll: a sidecar holding null, or a list with a
// null member, revives the fork deny-all with an error.
func TestReviveNullSidecarDenyAll(t *testing.T) {
	sidecar := forkmeta.PathFor(filepath.Join(t.TempDir(), "fork-1.jsonl"))
	for _, doc := range []string{`null`, `{"version":1,"execution_allowed_tools":["read_file",null]}`} {
		require.NoError(t, os.WriteFile(sidecar, []byte(doc), 0o644))
		layer, err := ReviveForkLayer(sidecar)
		require.ErrorIs(t, err, forkmeta.ErrCorrupt, doc)
		require.Equal(t, &Layer{Name: "fork", Allow: []string{}}, layer, doc)
	}
}
