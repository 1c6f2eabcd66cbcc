// Package astcompile compiles Rego modules one compilation at a time in
// a process.
//
// OPA's compiler (v1.22.4) is not safe to run in two goroutines at once:
// its type checker merges a rule's type into the types it already holds
// in place (v1/ast env.go, mergeTypes), and those can be the types of the
// builtins' declarations, which every compiler of the process shares.
// Two engines loaded side by side raced there under the race detector
// (engine.TestEmbeddedLoadsShareNothingTheyChange, go test -race). A
// compilation takes a few hundred milliseconds and is CPU-bound, so
// running them one after another costs a process with two loads at once
// the wait, not the work. The writes seen so far leave the declared
// types as they were (every builtin's declaration prints the same before
// and after a load of the policy), so the types a later compilation
// checks against do not widen.
package astcompile

import (
	"sync"

	"github.com/open-policy-agent/opa/v1/ast"
)

// Compiler serializes the compilations of its users. The zero value is
// ready; a process shares one ([Default]) so that every compilation of
// the process waits for the others.
type Compiler struct{ mu sync.Mutex }

// Default is the process's compiler lock: the builtins' types it guards
// are the process's too.
var Default = &Compiler{}

// Compile runs c.Compile(modules) while no other compilation of k runs.
func (k *Compiler) Compile(c *ast.Compiler, modules map[string]*ast.Module) {
	k.Do(func() { c.Compile(modules) })
}

// Do runs f, work that compiles modules some other way (OPA's bundle
// builder, v1/compile), while no other compilation of k runs. f must not
// call k's methods.
func (k *Compiler) Do(f func()) {
	k.mu.Lock()
	defer k.mu.Unlock()
	f()
}
