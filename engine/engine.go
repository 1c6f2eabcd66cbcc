// Package engine is the thin Go layer around the tooleval policy: it
// loads the bundle (embedded by default), prepares the policy's queries
// once, and evaluates decision and launch documents for agent runtimes.
// All decisions are made by the Rego policy; the engine only prepares
// input, caches what can be cached, and shapes output.
//
// An [Engine] is safe for concurrent use. For a stream of dispatch
// batches from one agent, open a [Session]: it compiles the static part
// of the request (agent, declared tools, layers, workspace) once.
package engine

import (
	"context"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"strings"
	"sync/atomic"
	"time"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/bundle"
	"github.com/open-policy-agent/opa/v1/loader"
	"github.com/open-policy-agent/opa/v1/rego"
	"github.com/open-policy-agent/opa/v1/storage"
	"github.com/open-policy-agent/opa/v1/storage/inmem"

	"github.com/tooleval/tooleval/policies"
)

// The queries the engine prepares. Each names a rule or function of the
// policy; sessions use compile and decide, which decision is made of.
const (
	decisionQuery = "data.tooleval.decision"
	launchQuery   = "data.tooleval.launch"
	compileQuery  = "data.tooleval.context.compile(input)"
	decideQuery   = "data.tooleval.decide(input.context, input.request)"
	configQuery   = "data.tooleval.context.config"
	checkQuery    = "data.tooleval.check"
)

// Engine evaluates the tooleval policy. Create one with [New]; swap its
// bundle with [Engine.Reload]. Every decision is made by exactly one
// loaded bundle.
type Engine struct {
	current     atomic.Pointer[policy]
	generations atomic.Uint64 // the last generation handed out
	audit       *slog.Logger
	config      Config
	timeout     time.Duration
}

// policy is one loaded bundle with its prepared queries. It is never
// modified once built; a reload replaces it as a whole.
type policy struct {
	// generation numbers the engine's policies in load order; sessions
	// remember it instead of a pointer to the policy.
	generation uint64
	revision   string
	decision   rego.PreparedEvalQuery
	launch     rego.PreparedEvalQuery
	compile    rego.PreparedEvalQuery
	decide     rego.PreparedEvalQuery
	check      rego.PreparedEvalQuery
	paths      pathArguments
}

type options struct {
	bundlePath string
	audit      *slog.Logger
	config     Config
	timeout    time.Duration
}

// Option configures [New].
type Option func(*options)

// WithBundle loads the policy from a bundle directory or tarball instead
// of the bundle embedded in the binary.
func WithBundle(path string) Option {
	return func(o *options) { o.bundlePath = path }
}

// WithAuditLogger logs every decision as one structured record to l
// (see [AuditRecord]). Auditing is off by default.
func WithAuditLogger(l *slog.Logger) Option {
	return func(o *options) { o.audit = l }
}

// DefaultEvalTimeout is how long one decision, launch or check may
// evaluate unless [WithEvalTimeout] says otherwise. A session's batch
// takes about a millisecond and a one-shot decision over 10,000 declared
// tools about 1.6 s on a 2-core machine (docs/performance.md); hostile
// input that would run for tens of seconds is cut off.
const DefaultEvalTimeout = 5 * time.Second

// ErrEvalTimeout is wrapped by the error of an evaluation that ran past
// the engine's deadline ([WithEvalTimeout]); it wraps
// context.DeadlineExceeded. The decision that comes with it refuses
// every call.
var ErrEvalTimeout = fmt.Errorf("the evaluation ran past the engine's deadline (engine.WithEvalTimeout): %w", context.DeadlineExceeded)

// WithEvalTimeout bounds the time one evaluation may take: a decision
// (including a session recompiling its context), a launch, a check, or
// opening a session. Past it the evaluation stops and fails closed with
// an error wrapping [ErrEvalTimeout]. The default is
// [DefaultEvalTimeout]; d <= 0 means no bound other than the caller's
// context.
func WithEvalTimeout(d time.Duration) Option {
	return func(o *options) { o.timeout = d }
}

// New loads the policy bundle and prepares its queries.
func New(ctx context.Context, opts ...Option) (*Engine, error) {
	o := options{timeout: DefaultEvalTimeout}
	for _, opt := range opts {
		opt(&o)
	}
	p, err := loadPolicy(ctx, o.bundlePath, o.config)
	if err != nil {
		return nil, err
	}
	e := &Engine{audit: o.audit, config: o.config, timeout: o.timeout}
	e.install(p)
	return e, nil
}

// Reload loads the bundle at path (the embedded one when path is empty)
// and makes it the engine's policy. Decisions already under way finish
// with the bundle they started with; sessions recompile their context on
// their next batch. On an error the engine keeps its current bundle.
func (e *Engine) Reload(ctx context.Context, path string) error {
	p, err := loadPolicy(ctx, path, e.config)
	if err != nil {
		return fmt.Errorf("reload: %w", err)
	}
	e.install(p)
	return nil
}

// install makes p the engine's policy, with the next generation number.
func (e *Engine) install(p *policy) {
	p.generation = e.generations.Add(1)
	e.current.Store(p)
}

// bounded returns ctx limited by the engine's evaluation deadline.
func (e *Engine) bounded(ctx context.Context) (context.Context, context.CancelFunc) {
	if e.timeout <= 0 {
		return ctx, func() {}
	}
	return context.WithTimeoutCause(ctx, e.timeout, fmt.Errorf("%w (%s)", ErrEvalTimeout, e.timeout))
}

// Revision is the revision in the current bundle's manifest.
func (e *Engine) Revision() string { return e.current.Load().revision }

// loadPolicy loads a bundle, overlays the deployment's configuration and
// prepares the engine's queries on it.
func loadPolicy(ctx context.Context, path string, config Config) (*policy, error) {
	b, err := loadBundle(path)
	if err != nil {
		return nil, err
	}
	if err := applyConfig(b, config); err != nil {
		return nil, err
	}
	compiler, store, err := compileBundle(ctx, b)
	if err != nil {
		return nil, err
	}
	p := &policy{revision: b.Manifest.Revision}
	for query, target := range map[string]*rego.PreparedEvalQuery{
		decisionQuery: &p.decision,
		launchQuery:   &p.launch,
		compileQuery:  &p.compile,
		decideQuery:   &p.decide,
		checkQuery:    &p.check,
	} {
		*target, err = rego.New(rego.Query(query), rego.Compiler(compiler), rego.Store(store)).PrepareForEval(ctx)
		if err != nil {
			return nil, fmt.Errorf("prepare %s: %w", query, err)
		}
	}
	if p.paths, err = readPathArguments(ctx, compiler, store); err != nil {
		return nil, err
	}
	return p, nil
}

// loadBundle reads the bundle at path, or the embedded one when path is
// empty. Rego test files are left out.
func loadBundle(path string) (*bundle.Bundle, error) {
	l := loader.NewFileLoader().WithFilter(skipTests).WithSkipBundleVerification(true)
	var (
		b   *bundle.Bundle
		err error
	)
	if path == "" {
		b, err = l.WithFS(policies.Bundle()).AsBundle(".")
		path = "embedded bundle"
	} else {
		if _, statErr := os.Stat(path); statErr != nil {
			return nil, fmt.Errorf("load bundle: %w", statErr)
		}
		b, err = l.AsBundle(path)
	}
	if err != nil {
		return nil, fmt.Errorf("load %s: %w", path, err)
	}
	if len(b.Modules) == 0 {
		return nil, fmt.Errorf("load %s: the bundle has no policy", path)
	}
	return b, nil
}

func skipTests(_ string, info fs.FileInfo, _ int) bool {
	return !info.IsDir() && strings.HasSuffix(info.Name(), "_test.rego")
}

// compileBundle compiles the bundle's modules once and puts its data in
// an in-memory store that returns AST values, so that a policy look-up
// into a large data object reads one entry instead of converting it.
func compileBundle(ctx context.Context, b *bundle.Bundle) (*ast.Compiler, storage.Store, error) {
	modules := make(map[string]*ast.Module, len(b.Modules))
	for _, m := range b.Modules {
		modules[m.Path] = m.Parsed
	}
	compiler := ast.NewCompiler()
	if compiler.Compile(modules); compiler.Failed() {
		return nil, nil, fmt.Errorf("compile policy: %w", compiler.Errors)
	}
	store := inmem.NewFromObjectWithOpts(b.Data, inmem.OptRoundTripOnWrite(false), inmem.OptReturnASTValuesOnRead(true))
	if err := ctx.Err(); err != nil {
		return nil, nil, err
	}
	return compiler, store, nil
}
