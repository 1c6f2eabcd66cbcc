package engine

import (
	"sync"

	"github.com/open-policy-agent/opa/v1/ast"
)

// RunGuard keeps the tally of one run across dispatch batches: every call
// is an attempt, refused or not, and every refusal counts, so a looping
// model cannot retry a refused call for free. It feeds input.run and
// reports when a cap is reached. It is safe for concurrent use.
type RunGuard struct {
	mu          sync.Mutex
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
	return RunTotals{Attempts: g.attempts, Refusals: g.refusals, Exhausted: g.exhausted}
}

// input is the input.run document for the next batch.
func (g *RunGuard) input() ast.Object {
	g.mu.Lock()
	defer g.mu.Unlock()
	run := ast.NewObject(
		[2]*ast.Term{ast.StringTerm("attempts"), ast.InternedTerm(int(g.attempts))},
		[2]*ast.Term{ast.StringTerm("refusals"), ast.InternedTerm(int(g.refusals))},
	)
	if g.maxAttempts > 0 {
		run.Insert(ast.StringTerm("max_attempts"), ast.InternedTerm(int(g.maxAttempts)))
	}
	if g.maxRefusals > 0 {
		run.Insert(ast.StringTerm("max_refusals"), ast.InternedTerm(int(g.maxRefusals)))
	}
	return run
}

// record takes the new totals from a decision.
func (g *RunGuard) record(d *Decision) {
	if d.Run == nil {
		return
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	g.attempts, g.refusals = d.Run.Attempts, d.Run.Refusals
	g.exhausted = g.exhausted || d.Run.Exhausted
}
