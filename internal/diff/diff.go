// Package diff replays a corpus of requests under two policies (a base
// and a candidate) and reports every call whose verdict, reason or layer
// changes, with the changes in each request's effective tools and
// errors: the impact analysis behind `tooleval diff`.
package diff

import (
	"context"
	"encoding/json"
	"fmt"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/tooleval/tooleval/engine"
	"github.com/tooleval/tooleval/internal/display"
	"github.com/tooleval/tooleval/internal/inputs"
)

// Request is one request of a corpus (inputs.Read with
// inputs.DecisionEntryPoints).
type Request = inputs.Document

// Change is one call whose verdict, reason or layer changes.
type Change struct {
	Request string  `json:"request"`
	Call    int     `json:"call"`
	ID      any     `json:"id"`
	Name    any     `json:"name"`
	Before  Verdict `json:"before"`
	After   Verdict `json:"after"`
	// Group is the change as its group names it (see Group).
	Group string `json:"group"`
	// Kind is the change of outcome, "allow → ask", "ask → deny",
	// "deny → allow", ...; "deny → deny" when only the reason or the
	// layer changes.
	Kind string `json:"kind"`
	// BeforeWhy and AfterWhy are the checks that decided the call on
	// each side (data.tooleval.explain): the list entries that matched
	// and where they come from, and the check that refused it.
	BeforeWhy []Step `json:"before_why"`
	AfterWhy  []Step `json:"after_why"`
}

// Step is one check that decided a call: an explain trace step with a
// matched entry, or the step that refused the call.
type Step = engine.TraceStep

// Group counts the calls (and the requests they are in) that change the
// same way, "allowed → refused by tenant (not_allowed)".
type Group struct {
	Change   string `json:"change"`
	Kind     string `json:"kind"`
	Calls    int    `json:"calls"`
	Requests int    `json:"requests"`
}

// EffectiveChange is a request whose effective tools change: tools
// added or removed, or allowed on both sides but outright on one and
// conditionally (argument rules decide each call) on the other.
type EffectiveChange struct {
	Request string   `json:"request"`
	Added   []string `json:"added"`
	Removed []string `json:"removed"`
	// Outcomes are the tools effective on both sides whose outcome
	// changes (allow → conditional, conditional → allow).
	Outcomes []ToolChange `json:"outcomes,omitempty"`
}

// ToolChange is a declared tool whose catalog outcome changes.
type ToolChange struct {
	Name   any            `json:"name"`
	Before engine.Outcome `json:"before"`
	After  engine.Outcome `json:"after"`
}

// String reads "Bash allow → conditional".
func (t ToolChange) String() string {
	return display.Value(t.Name) + " " + string(t.Before) + arrow + string(t.After)
}

// outcomeChanges are the tools of two catalogs of one request allowed
// on both sides with different outcomes.
func outcomeChanges(before, after *engine.Catalog) []ToolChange {
	var out []ToolChange
	for i, b := range before.Tools {
		if i >= len(after.Tools) {
			break
		}
		if a := after.Tools[i]; b.Allowed && a.Allowed && b.Outcome != a.Outcome {
			out = append(out, ToolChange{b.Name, b.Outcome, a.Outcome})
		}
	}
	return out
}

// ErrorsChange is a request whose error codes change.
type ErrorsChange struct {
	Request string   `json:"request"`
	Before  []string `json:"before"`
	After   []string `json:"after"`
}

// Unreplayable is a call the corpus does not hold enough of to replay:
// its decision log masked what a check it reaches reads, on a side whose
// verdict decides whether the call changes. Both verdicts are given as
// replayed (the base's as logged, when From says so), not as they would
// be; Why says what is missing.
// Call is -1 (and ID, Name and the verdicts empty) for a request whose
// calls the log masked altogether.
type Unreplayable struct {
	Request string  `json:"request"`
	Call    int     `json:"call"`
	ID      any     `json:"id"`
	Name    any     `json:"name"`
	Why     string  `json:"why"`
	Before  Verdict `json:"before"`
	After   Verdict `json:"after"`
}

// Report is what changes between two policies over a corpus.
type Report struct {
	Base      string `json:"base"`
	Candidate string `json:"candidate"`
	// BasePolicy and CandidatePolicy name the policies by resolved
	// revision; GeneratedAt is when the report was made (RFC 3339, UTC).
	BasePolicy      Identity `json:"base_policy"`
	CandidatePolicy Identity `json:"candidate_policy"`
	GeneratedAt     string   `json:"generated_at"`
	// Requests and Calls count what was replayed.
	Requests int `json:"requests"`
	Calls    int `json:"calls"`
	// ChangedRequests counts the requests with any change (a call, the
	// effective tools or the errors); ChangedCalls the calls that change.
	ChangedRequests int               `json:"changed_requests"`
	ChangedCalls    int               `json:"changed_calls"`
	Groups          []Group           `json:"groups"`
	Changes         []Change          `json:"changes"`
	Effective       []EffectiveChange `json:"effective"`
	Errors          []ErrorsChange    `json:"errors"`
	NotReplayable   []Unreplayable    `json:"not_replayable"`
	// BaseFromLog counts the calls whose base verdict is the one the
	// decision log recorded (see Verdict.From).
	BaseFromLog int `json:"base_from_log"`
	// inputs keeps the input of each request with a change, for the
	// report's tools × checks matrices.
	inputs map[string]ast.Value
}

// Changed reports whether anything changes.
func (r *Report) Changed() bool {
	return r.ChangedRequests > 0
}

// Options tune a replay.
type Options struct {
	// Workers replay requests in parallel (default GOMAXPROCS).
	Workers int
	// Progress, when set, is called after each request with the number
	// done and the total.
	Progress func(done, total int)
}

// outcome is the comparison of one request.
type outcome struct {
	calls        int
	fromLog      int
	changes      []Change
	effective    *EffectiveChange
	errors       *ErrorsChange
	unreplayable []Unreplayable
	input        ast.Value
	err          error
}

// Replay decides every request under both policies and reports what
// changes. An evaluation error on either side stops the replay: a
// comparison with a fail-closed side would report changes that no
// policy makes.
func Replay(ctx context.Context, base, candidate Policy, requests []Request, opts Options) (*Report, error) {
	workers := opts.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	results := make([]outcome, len(requests))
	var (
		wg   sync.WaitGroup
		mu   sync.Mutex
		done int
		next = make(chan int)
	)
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				results[i] = compare(ctx, base, candidate, requests[i])
				if opts.Progress != nil {
					mu.Lock()
					done++
					opts.Progress(done, len(requests))
					mu.Unlock()
				}
			}
		}()
	}
	for i := range requests {
		next <- i
	}
	close(next)
	wg.Wait()

	r := &Report{
		Base: base.Spec, Candidate: candidate.Spec, Requests: len(requests),
		BasePolicy: base.Identity, CandidatePolicy: candidate.Identity,
		GeneratedAt: now().UTC().Format(time.RFC3339),
		Groups:      []Group{}, Changes: []Change{}, Effective: []EffectiveChange{}, Errors: []ErrorsChange{},
		NotReplayable: []Unreplayable{}, inputs: map[string]ast.Value{},
	}
	groups := map[string]*Group{}
	groupRequests := map[string]map[string]bool{}
	for i, o := range results {
		if o.err != nil {
			return nil, fmt.Errorf("%s: %w", requests[i].Source, o.err)
		}
		r.Calls += o.calls
		r.BaseFromLog += o.fromLog
		r.Changes = append(r.Changes, o.changes...)
		r.NotReplayable = append(r.NotReplayable, o.unreplayable...)
		if o.effective != nil {
			r.Effective = append(r.Effective, *o.effective)
		}
		if o.errors != nil {
			r.Errors = append(r.Errors, *o.errors)
		}
		if len(o.changes) > 0 || o.effective != nil || o.errors != nil {
			r.ChangedRequests++
			r.inputs[requests[i].Source] = o.input
		}
		for _, c := range o.changes {
			g := groups[c.Group]
			if g == nil {
				g = &Group{Change: c.Group, Kind: c.Kind}
				groups[c.Group] = g
				groupRequests[c.Group] = map[string]bool{}
			}
			g.Calls++
			groupRequests[c.Group][c.Request] = true
		}
	}
	r.ChangedCalls = len(r.Changes)
	for key, g := range groups {
		g.Requests = len(groupRequests[key])
		r.Groups = append(r.Groups, *g)
	}
	sort.Slice(r.Groups, func(i, j int) bool {
		if r.Groups[i].Calls != r.Groups[j].Calls {
			return r.Groups[i].Calls > r.Groups[j].Calls
		}
		return r.Groups[i].Change < r.Groups[j].Change
	})
	return r, nil
}

// compare decides one request under both policies.
func compare(ctx context.Context, base, candidate Policy, req Request) outcome {
	input, err := engine.DecodeInput(req.Input)
	if err != nil {
		return outcome{err: err}
	}
	before, err := base.Engine.Decide(ctx, input)
	if err != nil {
		return outcome{err: fmt.Errorf("base: %w", err)}
	}
	after, err := candidate.Engine.Decide(ctx, input)
	if err != nil {
		return outcome{err: fmt.Errorf("candidate: %w", err)}
	}
	beforeTools, err := base.Engine.Tools(ctx, input)
	if err != nil {
		return outcome{err: fmt.Errorf("base: %w", err)}
	}
	afterTools, err := candidate.Engine.Tools(ctx, input)
	if err != nil {
		return outcome{err: fmt.Errorf("candidate: %w", err)}
	}
	o := outcome{calls: len(before.Decisions), input: input}
	if len(before.Decisions) != len(after.Decisions) {
		return outcome{err: fmt.Errorf("the policies decided %d and %d calls", len(before.Decisions), len(after.Decisions))}
	}
	whole, arguments := maskedParts(req.Masked)
	if whole != "" && len(before.Decisions) == 0 {
		o.unreplayable = append(o.unreplayable, Unreplayable{req.Source, -1, nil, nil, "the log masked " + whole + ": the request's calls are not known", Verdict{}, Verdict{}})
	}
	logged, loggedWhy := recordedVerdicts(req, base, before.Decisions)
	for i, b := range before.Decisions {
		a := after.Decisions[i]
		vb, va := verdictOf(b), verdictOf(a)
		if logged != nil && (whole != "" || arguments != "") {
			vb = logged[i]
			o.fromLog++
		}
		switch {
		case whole != "":
			o.unreplayable = append(o.unreplayable, Unreplayable{req.Source, i, b.ID, b.Name, "the log masked " + whole + ", which the name-level checks read", vb, va})
			continue
		case arguments != "":
			// A side is certain when its verdict was logged or its
			// replay refuses the call by name: the masked arguments
			// cannot change it. A side whose replay reaches the argument
			// checks passed every name-level check whatever the
			// arguments, so its real verdict also reaches them.
			baseCertain := vb.From == "log" || !vb.reachesArguments()
			candidateCertain := !va.reachesArguments()
			switch {
			case baseCertain && candidateCertain:
			case baseCertain && !vb.reachesArguments(), candidateCertain && !va.reachesArguments():
				// One side refuses by name and the other passes every
				// name-level check: a change whatever the arguments.
				vb.Masked, va.Masked = !baseCertain, !candidateCertain
			default:
				o.unreplayable = append(o.unreplayable, Unreplayable{req.Source, i, b.ID, b.Name, unreplayableWhy(arguments, vb, va, baseCertain, candidateCertain, loggedWhy), vb, va})
				continue
			}
		}
		if !vb.same(va) || vb.Masked != va.Masked {
			o.changes = append(o.changes, Change{Request: req.Source, Call: i, ID: b.ID, Name: b.Name, Before: vb, After: va, Group: vb.String() + arrow + va.String(), Kind: vb.outcome() + arrow + va.outcome()})
		}
	}
	if len(o.changes) > 0 {
		if err := explainChanges(ctx, base, candidate, input, o.changes); err != nil {
			return outcome{err: err}
		}
	}
	added, removed := listDiff(beforeTools.Effective, afterTools.Effective)
	if outcomes := outcomeChanges(beforeTools, afterTools); whole == "" && (len(added) > 0 || len(removed) > 0 || len(outcomes) > 0) {
		o.effective = &EffectiveChange{req.Source, added, removed, outcomes}
	}
	if codesBefore, codesAfter := codes(before.Errors), codes(after.Errors); whole == "" && !slices.Equal(codesBefore, codesAfter) {
		o.errors = &ErrorsChange{req.Source, codesBefore, codesAfter}
	}
	return o
}

// recordedVerdicts returns the verdicts the decision log recorded for
// the request's calls, when they may stand in for the base's: the event
// names one bundle revision, the base's (neither empty, "dev" nor
// "-dirty", which do not name one policy), the base is not a
// configuration overlay (the log does not say which configuration wrote
// it), and the recorded calls are the replayed calls. Otherwise nil and,
// now is when a report is made (a variable for tests).
var now = time.Now

// for an event with a result, why not.
func recordedVerdicts(req Request, base Policy, replayed []engine.CallDecision) ([]Verdict, string) {
	if len(req.Result) == 0 {
		return nil, ""
	}
	revision := base.Engine.Revision()
	switch {
	case base.Identity.ConfigDigest != "":
		return nil, "the base is a configuration overlay, which the log does not record"
	case len(req.Revisions) == 0:
		return nil, "the log records no bundle revision"
	case revision == "" || revision == "dev" || strings.HasSuffix(revision, "-dirty"):
		return nil, fmt.Sprintf("the base's bundle revision %q names no one policy", revision)
	}
	for _, r := range req.Revisions {
		if r != revision {
			return nil, fmt.Sprintf("the log was written by bundle revision %q, the base is %q", r, revision)
		}
	}
	var result struct {
		Decisions []struct {
			ID       any    `json:"id"`
			Name     any    `json:"name"`
			Allowed  *bool  `json:"allowed"`
			Outcome  string `json:"outcome"`
			Reason   string `json:"reason"`
			Layer    string `json:"layer"`
			Rule     string `json:"rule"`
			Argument string `json:"argument"`
		} `json:"decisions"`
	}
	if err := json.Unmarshal(req.Result, &result); err != nil || len(result.Decisions) != len(replayed) {
		return nil, "the logged result does not hold the replayed calls"
	}
	out := make([]Verdict, len(replayed))
	for i, d := range result.Decisions {
		if d.Allowed == nil || !sameJSON(d.ID, replayed[i].ID) || !sameJSON(d.Name, replayed[i].Name) {
			return nil, "the logged result does not hold the replayed calls"
		}
		out[i] = Verdict{Allowed: *d.Allowed, Outcome: d.Outcome, Reason: d.Reason, Layer: d.Layer, Rule: d.Rule, Argument: d.Argument, From: "log"}
	}
	return out, ""
}

func sameJSON(a, b any) bool {
	x, err1 := json.Marshal(a)
	y, err2 := json.Marshal(b)
	return err1 == nil && err2 == nil && string(x) == string(y)
}

// explainChanges fills in why each changed call of one request was
// decided as it was on each side.
func explainChanges(ctx context.Context, base, candidate Policy, input ast.Value, changes []Change) error {
	before, err := base.Engine.Explain(ctx, input)
	if err != nil {
		return fmt.Errorf("base: explain: %w", err)
	}
	after, err := candidate.Engine.Explain(ctx, input)
	if err != nil {
		return fmt.Errorf("candidate: explain: %w", err)
	}
	for i := range changes {
		c := &changes[i]
		if c.Call >= len(before.Decisions) || c.Call >= len(after.Decisions) {
			return fmt.Errorf("explain decided fewer calls than the decision")
		}
		c.BeforeWhy = why(before.Decisions[c.Call].Trace, c.Before)
		c.AfterWhy = why(after.Decisions[c.Call].Trace, c.After)
	}
	return nil
}

func listDiff(before, after []string) (added, removed []string) {
	set := func(xs []string) map[string]bool {
		m := make(map[string]bool, len(xs))
		for _, x := range xs {
			m[x] = true
		}
		return m
	}
	inBefore, inAfter := set(before), set(after)
	added, removed = []string{}, []string{}
	for _, x := range after {
		if !inBefore[x] {
			added = append(added, x)
		}
	}
	for _, x := range before {
		if !inAfter[x] {
			removed = append(removed, x)
		}
	}
	return added, removed
}

func codes(problems []engine.Problem) []string {
	out := make([]string, 0, len(problems))
	for _, p := range problems {
		out = append(out, p.Code())
	}
	sort.Strings(out)
	return out
}
