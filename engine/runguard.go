package engine

import (
	"encoding/json"
	"strconv"
	"sync"

	"github.com/open-policy-agent/opa/v1/ast"
)

// RunGuard keeps the tally of one run across dispatch batches: every call
// is an attempt, refused or not, and every refusal counts, so a looping
// model cannot retry a refused call for free. It feeds input.run and
// reports when a cap is reached. It is safe for concurrent use.
//
// Sessions that share a guard (a parent and its sub-agents) take turns:
// a batch reads the totals, is decided and adds what it spent while it
// holds the guard, so two batches decided at the same time never spend
// the same attempt. A session's batches are serialized in the same way,
// as they were before guards could be shared; sessions without a guard
// are not affected.
type RunGuard struct {
	// turn is held for a whole batch: input, decision, record.
	turn sync.Mutex

	mu          sync.Mutex // guards the fields below, for Totals
	attempts    int64
	refusals    int64
	exhausted   bool
	maxAttempts int64
	maxRefusals int64
}

// NewRunGuard returns a guard for a run with the given caps; a cap of 0
// or less is no cap.
func NewRunGuard(maxAttempts, maxRefusals int64) *RunGuard {
	return &RunGuard{maxAttempts: maxAttempts, maxRefusals: maxRefusals}
}

// Totals returns the attempts and refusals so far and whether a cap has
// been reached.
func (g *RunGuard) Totals() RunTotals {
	g.mu.Lock()
	defer g.mu.Unlock()
	return RunTotals{Attempts: number(g.attempts), Refusals: number(g.refusals), Exhausted: g.exhausted}
}

func number(n int64) json.Number { return json.Number(strconv.FormatInt(n, 10)) }

// batch runs decide while the guard is held, with input.run for the
// batch, and adds what the decision spent. Nothing is recorded for a
// batch that failed (every call of it was refused without a decision).
func (g *RunGuard) batch(decide func(run ast.Object) (*Decision, error)) (*Decision, error) {
	g.turn.Lock()
	defer g.turn.Unlock()
	run, attempts, refusals := g.input()
	d, err := decide(run)
	if err == nil {
		g.record(d, attempts, refusals)
	}
	return d, err
}

// Refused records calls answered without a decision the guard saw: an
// embedder that refuses a call before the policy (a name it cannot
// forward, arguments it cannot pass on) or after it (an allowed call it
// cannot serve) still answered it. Each call is an attempt when attempt
// is true (false for a call the guard already counted as an attempt),
// and a refusal, so that refusals nobody decided are not free. The run
// is exhausted once a cap is reached, as the policy would say.
func (g *RunGuard) Refused(calls int64, attempt bool) {
	if calls <= 0 {
		return
	}
	g.turn.Lock()
	defer g.turn.Unlock()
	g.mu.Lock()
	defer g.mu.Unlock()
	if attempt {
		g.attempts += calls
	}
	g.refusals += calls
	if (g.maxAttempts > 0 && g.attempts >= g.maxAttempts) || (g.maxRefusals > 0 && g.refusals >= g.maxRefusals) {
		g.exhausted = true
	}
}

// input is the input.run document for the next batch, and the totals it
// holds.
func (g *RunGuard) input() (run ast.Object, attempts, refusals int64) {
	g.mu.Lock()
	defer g.mu.Unlock()
	run = ast.NewObject(
		[2]*ast.Term{ast.StringTerm("attempts"), ast.InternedTerm(int(g.attempts))},
		[2]*ast.Term{ast.StringTerm("refusals"), ast.InternedTerm(int(g.refusals))},
	)
	if g.maxAttempts > 0 {
		run.Insert(ast.StringTerm("max_attempts"), ast.InternedTerm(int(g.maxAttempts)))
	}
	if g.maxRefusals > 0 {
		run.Insert(ast.StringTerm("max_refusals"), ast.InternedTerm(int(g.maxRefusals)))
	}
	return run, g.attempts, g.refusals
}

// record adds what a decision spent: the difference between its new
// totals and the totals the batch was decided with. It never overwrites
// the tally. Totals the guard cannot read mark the run exhausted.
func (g *RunGuard) record(d *Decision, attempts, refusals int64) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if d.Run == nil {
		g.exhausted = true
		return
	}
	newAttempts, errA := d.Run.Attempts.Int64()
	newRefusals, errR := d.Run.Refusals.Int64()
	if errA != nil || errR != nil || newAttempts < attempts || newRefusals < refusals {
		g.exhausted = true
		return
	}
	g.attempts += newAttempts - attempts
	g.refusals += newRefusals - refusals
	g.exhausted = g.exhausted || d.Run.Exhausted
}
