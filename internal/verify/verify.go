// Package verify proves a configuration's promises for every request it
// can produce (`tooleval verify`, docs/verify.md): it enumerates who can
// ask (the policy's data.tooleval.verify.space), asks the policy for
// every subject's verdict on every tool it knows, and checks invariants
// on the verdicts: the built-in ones (floor.holds, spawn.bounded,
// deny.wins, tenant.within_plan, delegation.narrows,
// delegation.ask_kept, config.no_latent_error) and Rego rules of one's
// own.
package verify

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/tooleval/tooleval/engine"
	"github.com/tooleval/tooleval/internal/verifyquery"
)

// ErrConfig is wrapped by the error of a verification whose
// configuration has errors: nothing was enumerated.
var ErrConfig = errors.New("the configuration has errors")

// ErrTimeout is wrapped by the error of a verification that ran past
// [Options.Timeout]; it wraps context.DeadlineExceeded.
var ErrTimeout = fmt.Errorf("the verification ran past its time limit: %w", context.DeadlineExceeded)

// Options tune a verification.
type Options struct {
	// Tools adds declarations and calls (--tools).
	Tools Tools
	// Invariants are invariants of one's own (--invariants); nil for none.
	Invariants *UserInvariants
	// Workers is how many subjects are decided at once (0: one per CPU).
	Workers int
	// Exhaustive enumerates every subset of the configured scopes.
	Exhaustive bool
	// Progress, when not nil, receives a line of progress now and then.
	Progress io.Writer
	// Timeout bounds the whole verification (--timeout); 0 for no bound
	// but ctx's. The engine's per-evaluation deadline, meant for
	// decisions on the hot path, does not apply to verify's evaluations
	// ([engine.WithoutEvalTimeout]): their size is verify's choice.
	Timeout time.Duration
}

// Report is the outcome of a verification.
type Report struct {
	// Subjects, Tools and Calls count what was enumerated: Subjects ×
	// Tools verdicts, Subjects × Calls decisions.
	Subjects int `json:"subjects"`
	// Stacks counts the distinct stacks among the subjects: the policy
	// was asked for a catalog once per stack.
	Stacks int `json:"stacks"`
	Tools  int `json:"tools"`
	Calls  int `json:"calls"`
	// Pairs counts the parent → child delegations compared.
	Pairs int `json:"pairs"`
	// Invariants are every invariant checked, held or not, in order.
	Invariants []Result `json:"invariants"`
	// Errors are the configuration's errors when it has any (then
	// nothing was enumerated).
	Errors []engine.Problem `json:"errors,omitempty"`
}

// Held reports whether every invariant held.
func (r *Report) Held() bool { return len(r.Violated()) == 0 }

// Violated lists the ids of the invariants that do not hold, in order.
func (r *Report) Violated() []string {
	var ids []string
	for _, inv := range r.Invariants {
		if !inv.Held {
			ids = append(ids, inv.ID)
		}
	}
	return ids
}

// Result is one invariant's outcome.
type Result struct {
	ID          string `json:"id"`
	Description string `json:"description"`
	Held        bool   `json:"held"`
	// Violations counts the counterexamples found.
	Violations int `json:"violations"`
	// Counterexample is the smallest one, with its explain trace.
	Counterexample *Violation `json:"counterexample,omitempty"`
}

// Violation is one counterexample: the subject, the tool, what the
// policy decided, and for a delegation the parent.
type Violation struct {
	Subject Subject  `json:"subject"`
	Parent  *Subject `json:"parent,omitempty"`
	Tool    string   `json:"tool,omitempty"`
	// Outcome, Reason and Layer are the subject's verdict on the tool;
	// ParentOutcome the parent's.
	Outcome       string `json:"outcome,omitempty"`
	Reason        string `json:"reason,omitempty"`
	Layer         string `json:"layer,omitempty"`
	ParentOutcome string `json:"parent_outcome,omitempty"`
	Message       string `json:"message"`
	// Trace is the explain trace of one call of the tool by the subject.
	Trace []engine.TraceStep `json:"trace,omitempty"`
}

// verdict is one subject's name-level verdict on one tool.
type verdict struct {
	outcome engine.Outcome
	reason  string
	layer   string
	rules   []engine.RuleInForce // a conditional tool's
}

// decided is one subject with its verdicts, in universe order, and its
// calls' decisions.
type decided struct {
	subject  Subject
	verdicts []verdict
	errors   []engine.Problem
	calls    []engine.CallDecision
}

// Run verifies the configuration e holds. A configuration with errors
// returns a report with Errors and an error wrapping [ErrConfig].
func Run(ctx context.Context, e *engine.Engine, opts Options) (*Report, error) {
	ctx = engine.WithoutEvalTimeout(ctx)
	if opts.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeoutCause(ctx, opts.Timeout, fmt.Errorf("%w (%s)", ErrTimeout, opts.Timeout))
		defer cancel()
	}
	check, err := e.Check(ctx, nil)
	if err != nil {
		return nil, fmt.Errorf("check the configuration: %w", err)
	}
	if len(check.Errors) > 0 {
		return &Report{Errors: check.Errors}, fmt.Errorf("%w: run tooleval check for each with its location", ErrConfig)
	}
	space, err := readSpace(ctx, e)
	if err != nil {
		return nil, fmt.Errorf("read what to enumerate (data.tooleval.verify.space): %w", err)
	}
	if err := checkSpace(space); err != nil {
		return nil, err
	}
	if len(space.Errors) > 0 {
		return &Report{Errors: problems(space.Errors)}, fmt.Errorf("%w: verify cannot read it exactly (each error says where and why)", ErrConfig)
	}
	subjects, err := Enumerate(space, opts.Exhaustive)
	if err != nil {
		return nil, err
	}
	u := newUniverse(space, opts.Tools)
	refs, err := newReferences(ctx, e, space, u)
	if err != nil {
		return nil, err
	}
	results, stacks, err := decideAll(ctx, e, u, subjects, opts)
	if err != nil {
		return nil, err
	}
	r := &Report{Subjects: len(subjects), Stacks: stacks, Tools: len(u.declared), Calls: len(opts.Tools.Calls)}
	checks := builtinInvariants(refs, u, results, &r.Pairs)
	if opts.Invariants != nil {
		user, err := opts.Invariants.check(ctx, u, results)
		if err != nil {
			return nil, err
		}
		checks = append(checks, user...)
	}
	for _, c := range checks {
		res := Result{ID: c.id, Description: c.description, Held: c.count == 0, Violations: c.count}
		if c.smallest != nil {
			smallest := *c.smallest
			if smallest.Tool != "" {
				if smallest.Trace, err = explainOne(ctx, e, u, smallest.Subject, smallest.Tool); err != nil {
					return nil, err
				}
			}
			res.Counterexample = &smallest
		}
		r.Invariants = append(r.Invariants, res)
	}
	return r, nil
}

// checkSpace refuses a space that lacks what the invariants read (a
// custom bundle's): an exclusion, a mode or the spawn tool missing, or
// a deny list whose subjects cannot be placed, would make an invariant
// hold because nothing was checked.
func checkSpace(space *Space) error {
	var missing []string
	for _, name := range []string{"subagent_hard_deny", "subagent_depth_cap", "fork_no_spawn", "teammate_no_spawn"} {
		if _, ok := space.Exclusions[name]; !ok {
			missing = append(missing, "exclusions."+name)
		}
	}
	for _, mode := range []string{"async", "teammate", "coordinator", "read_only", "leaf"} {
		if _, ok := space.Modes[mode]; !ok {
			missing = append(missing, "modes."+mode)
		}
	}
	if len(space.Tools) == 0 {
		missing = append(missing, "tools")
	}
	if len(space.SpawnTools) == 0 {
		missing = append(missing, "spawn_tools")
	}
	if space.Errors == nil {
		missing = append(missing, "errors")
	}
	for _, d := range space.DenyLists {
		if !knownApplies(d.Applies) {
			missing = append(missing, fmt.Sprintf("a known applies for deny list %s (it says %v)", d.Field, d.Applies))
		}
	}
	if len(missing) > 0 {
		return fmt.Errorf("the policy's data.tooleval.verify.space lacks %s: nothing would be checked there; verify with a bundle built from this repository's policies", strings.Join(missing, ", "))
	}
	return nil
}

// knownApplies reports whether whom a deny list applies to is one
// references.applies reads: a list it could not place would be checked
// for no one.
func knownApplies(a any) bool {
	switch a := a.(type) {
	case string:
		return a == "all" || a == "subagent" || a == "custom"
	case map[string]any:
		name, ok := a["agent"].(string)
		return ok && name != "" && len(a) == 1
	}
	return false
}

// compareViolations orders counterexamples: the smallest subject first,
// then the tool's name.
func compareViolations(a, b Violation) int {
	if c := compareSubjects(a.Subject, b.Subject); c != 0 {
		return c
	}
	if a.Tool != b.Tool {
		if a.Tool < b.Tool {
			return -1
		}
		return 1
	}
	return 0
}

// request is the decision input of subject declaring the universe,
// with what --tools puts in every request.
func request(s Subject, u *universe, calls []any) map[string]any {
	r := make(map[string]any, len(u.request)+5)
	for k, v := range u.request {
		r[k] = v
	}
	r["agent"] = s.Agent
	if u.declared != nil {
		r["declared"] = u.declared
	}
	if s.Tenant != nil {
		r["tenant"] = *s.Tenant
	}
	if s.Caller != nil {
		r["caller"] = s.Caller
	}
	if calls != nil {
		r["calls"] = calls
	}
	return r
}

// decideAll asks the policy for every subject's catalog (and, with
// calls, its decisions). Subjects with the same stack (see
// verifyquery.Stacks) get the same verdicts: the policy is asked
// once per distinct stack (verifyquery.Catalogs, which reads the
// universe once per batch), on opts.Workers goroutines.
func decideAll(ctx context.Context, e *engine.Engine, u *universe, subjects []Subject, opts Options) ([]decided, int, error) {
	stacks := make([]string, len(subjects))
	batches := (len(subjects) + stackBatch - 1) / stackBatch
	err := parallel(ctx, opts, batches, "batches of stacks read", func(ctx context.Context, b int) error {
		lo, hi := b*stackBatch, min((b+1)*stackBatch, len(subjects))
		inputs := make([]ast.Value, 0, hi-lo)
		for _, s := range subjects[lo:hi] {
			// The stack leaves the declared tools out: the same in every
			// request, they need not be sent.
			input, err := encode(request(s, u.withoutTools(), nil))
			if err != nil {
				return err
			}
			inputs = append(inputs, input)
		}
		got, err := verifyquery.Stacks(ctx, e, inputs)
		if err != nil {
			return fmt.Errorf("read the stacks of subjects %d to %d: %w", lo, hi-1, err)
		}
		copy(stacks[lo:hi], got)
		return nil
	})
	if err != nil {
		return nil, 0, err
	}
	first := map[string]int{}
	var representatives []int
	for i, st := range stacks {
		if _, ok := first[st]; !ok {
			first[st] = len(representatives)
			representatives = append(representatives, i)
		}
	}
	shared := make([]decided, len(representatives))
	per := catalogsPerEvaluation(len(u.declared))
	batches = (len(representatives) + per - 1) / per
	err = parallel(ctx, opts, batches, "batches of distinct stacks decided", func(ctx context.Context, b int) error {
		lo, hi := b*per, min((b+1)*per, len(representatives))
		inputs := make([]ast.Value, 0, hi-lo)
		for _, i := range representatives[lo:hi] {
			input, err := encode(request(subjects[i], u.withoutTools(), nil))
			if err != nil {
				return err
			}
			inputs = append(inputs, input)
		}
		catalogs, err := catalogs(ctx, e, u.declared, inputs)
		if err != nil {
			return fmt.Errorf("decide subjects %d to %d: %w", lo, hi-1, err)
		}
		for g := lo; g < hi; g++ {
			s := subjects[representatives[g]]
			d, err := fromCatalog(s, u, catalogs[g-lo])
			if err != nil {
				return fmt.Errorf("decide for %s: %w", s, err)
			}
			if d.calls, err = decideCalls(ctx, e, u, s, opts.Tools.Calls); err != nil {
				return fmt.Errorf("decide the calls of %s: %w", s, err)
			}
			shared[g] = d
		}
		return nil
	})
	if err != nil {
		return nil, 0, err
	}
	results := make([]decided, len(subjects))
	for i, s := range subjects {
		results[i] = shared[first[stacks[i]]]
		results[i].subject = s
	}
	return results, len(representatives), nil
}

// stackBatch is how many subjects' stacks one evaluation reads.
const stackBatch = 64

// catalogsPerEvaluation is how many catalogs of tools declared tools one
// evaluation gives: about verdictsPerEvaluation verdicts, 1 to 16
// catalogs, so that the work is shared out among the workers in pieces
// of under a second of CPU (a verdict costs about 0.15 ms: docs/verify.md,
// Cost). No evaluation of verify is bounded by the engine's
// per-decision deadline (see Options.Timeout).
func catalogsPerEvaluation(tools int) int {
	return max(1, min(16, verdictsPerEvaluation/max(tools, 1)))
}

const verdictsPerEvaluation = 4096

// parallel runs do(i) for i in [0, n) on opts.Workers goroutines,
// stopping at the first error, with progress on opts.Progress.
func parallel(ctx context.Context, opts Options, n int, what string, do func(ctx context.Context, i int) error) error {
	workers := opts.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var next, done atomic.Int64
	var firstErr error
	var once sync.Once
	stop := progress(opts.Progress, &done, n, what)
	defer stop()
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1) - 1)
				if i >= n || ctx.Err() != nil {
					return
				}
				if err := do(ctx, i); err != nil {
					once.Do(func() { firstErr = err; cancel() })
					return
				}
				done.Add(1)
			}
		}()
	}
	wg.Wait()
	if firstErr != nil {
		return firstErr
	}
	return ctx.Err()
}

// fromCatalog reads the verdicts of a catalog of the universe.
func fromCatalog(s Subject, u *universe, c *engine.Catalog) (decided, error) {
	if len(c.Tools) != len(u.declared) {
		return decided{}, fmt.Errorf("the catalog has %d tools, %d were declared", len(c.Tools), len(u.declared))
	}
	d := decided{subject: s, errors: c.Errors, verdicts: make([]verdict, len(c.Tools))}
	for i, t := range c.Tools {
		d.verdicts[i] = verdict{outcome: t.Outcome, reason: t.Reason, layer: t.Layer, rules: t.Rules}
	}
	return d, nil
}

// decideCalls decides the --tools calls for s (none: nil).
func decideCalls(ctx context.Context, e *engine.Engine, u *universe, s Subject, calls []any) ([]engine.CallDecision, error) {
	if len(calls) == 0 {
		return nil, nil
	}
	input, err := encode(request(s, u, calls))
	if err != nil {
		return nil, err
	}
	decision, err := e.Decide(ctx, input)
	if err != nil {
		return nil, err
	}
	return decision.Decisions, nil
}

// explainOne is the explain trace of one call of tool by subject.
func explainOne(ctx context.Context, e *engine.Engine, u *universe, s Subject, tool string) ([]engine.TraceStep, error) {
	input, err := encode(request(s, u, []any{map[string]any{"id": "counterexample", "name": tool}}))
	if err != nil {
		return nil, err
	}
	d, err := e.Explain(ctx, input)
	if err != nil {
		return nil, fmt.Errorf("explain the counterexample: %w", err)
	}
	if len(d.Decisions) != 1 {
		return nil, fmt.Errorf("explain the counterexample: %d decisions for one call", len(d.Decisions))
	}
	return d.Decisions[0].Trace, nil
}

// progress writes "verify: N/M WHAT" to w every second until stop is
// called, and once at the end.
func progress(w io.Writer, done *atomic.Int64, total int, what string) (stop func()) {
	if w == nil {
		return func() {}
	}
	quit := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		tick := time.NewTicker(time.Second)
		defer tick.Stop()
		for {
			select {
			case <-quit:
				fmt.Fprintf(w, "verify: %d/%d %s\n", done.Load(), total, what)
				return
			case <-tick.C:
				fmt.Fprintf(w, "verify: %d/%d %s\n", done.Load(), total, what)
			}
		}
	}()
	return func() { close(quit); <-finished }
}

// encode is v, a request of JSON values, as policy input.
func encode(v any) (ast.Value, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("encode a request: %w", err)
	}
	return engine.DecodeInput(b)
}
