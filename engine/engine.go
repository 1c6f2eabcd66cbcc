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
	"log/slog"
	"sync/atomic"
	"time"

	"github.com/open-policy-agent/opa/v1/bundle"
	"github.com/open-policy-agent/opa/v1/rego"
	"go.opentelemetry.io/otel/metric"
)

// Engine evaluates the tooleval policy. Create one with [New]; swap its
// bundle with [Engine.Reload]. Every decision is made by exactly one
// loaded bundle.
type Engine struct {
	current     atomic.Pointer[policy]
	generations atomic.Uint64 // the last generation handed out
	audit       *slog.Logger
	auditQueue  *AuditQueue // nil: records are written as evaluations end
	config      Config
	timeout     time.Duration
	verify      *bundle.VerificationConfig
	shadow      *Shadow
	meters      *meters
	strict      bool // WithStrictConfig
}

// policy is one loaded bundle with its prepared queries. It is never
// modified once built; a reload replaces it as a whole.
type policy struct {
	// generation numbers the engine's policies in load order; sessions
	// remember it instead of a pointer to the policy.
	generation uint64
	revision   string
	decision   rego.PreparedEvalQuery
	tools      rego.PreparedEvalQuery
	launch     rego.PreparedEvalQuery
	session    rego.PreparedEvalQuery
	decide     rego.PreparedEvalQuery
	catalog    rego.PreparedEvalQuery
	check      rego.PreparedEvalQuery
	explain    rego.PreparedEvalQuery
	mask       rego.PreparedEvalQuery
	// verify holds tooleval verify's queries; nil when the bundle does
	// not define them.
	verify *verifyQueries
	// hooks holds the hook queries; nil when the bundle does not define
	// them.
	hooks *hookQueries
	// overCap holds the over-cap queries; nil when the bundle does not
	// define them.
	overCap *overCapQueries
	// host is the policy's host interface, read when it was loaded.
	host hostInterface
}

type options struct {
	bundlePath string
	audit      *slog.Logger
	auditQueue *AuditQueue
	config     Config
	timeout    time.Duration
	keys       []VerificationKey
	shadow     *Shadow
	meters     metric.MeterProvider
	strict     bool
}

// Option configures [New].
type Option func(*options)

// WithBundle loads the policy from a bundle directory or tarball instead
// of the bundle embedded in the binary. The bundle is read into memory
// before it is compiled (a directory must still be replaced atomically,
// see [Engine.Reload]), must hold every module and data document the
// policy refers to (else the error wraps [ErrIncompleteBundle]), and,
// with [WithVerificationKey], must be signed.
func WithBundle(path string) Option {
	return func(o *options) { o.bundlePath = path }
}

// WithAuditLogger logs every decision, explanation, launch and check as
// one structured record to l, with the members of an OPA decision log
// event, masked by the bundle's own decision log mask (see
// [AuditMessage]). Each record is written before the evaluation
// returns; [WithAuditQueue] writes them after. Auditing is off by
// default.
func WithAuditLogger(l *slog.Logger) Option {
	return func(o *options) { o.audit, o.auditQueue = l, nil }
}

// WithStrictConfig makes [New] and [Engine.Reload] refuse a policy whose
// configuration (the bundle's, with the [WithConfig] overlay) has errors:
// the error wraps [ErrInvalidConfig] and lists them, and Reload keeps the
// current policy. Without it such an engine loads and refuses every call
// as invalid_config, which is what a gateway that must stay up wants;
// an embedder that would rather not start wants this option.
func WithStrictConfig() Option {
	return func(o *options) { o.strict = true }
}

// DefaultEvalTimeout is how long one decision, launch or check may
// evaluate unless [WithEvalTimeout] says otherwise. A session's batch
// takes about a millisecond and a one-shot decision over 10,000 declared
// tools about 0.3 s on a 2-core machine (docs/performance.md); hostile
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
// context. The bound is wall-clock time, waiting for a CPU included: a
// process that runs far more evaluations at once than it has cores (or
// runs under the race detector) needs a larger one.
func WithEvalTimeout(d time.Duration) Option {
	return func(o *options) { o.timeout = d }
}

// New loads the policy bundle and prepares its queries.
func New(ctx context.Context, opts ...Option) (*Engine, error) {
	o := options{timeout: DefaultEvalTimeout}
	for _, opt := range opts {
		opt(&o)
	}
	vc, err := verificationConfig(o.keys)
	if err != nil {
		return nil, err
	}
	p, err := loadPolicy(ctx, o.bundlePath, o.config, vc)
	if err != nil {
		return nil, err
	}
	if o.strict {
		if err := configurationErrors(ctx, p); err != nil {
			return nil, err
		}
	}
	m, err := newMeters(o.meters)
	if err != nil {
		return nil, err
	}
	e := &Engine{audit: o.audit, auditQueue: o.auditQueue, config: o.config, timeout: o.timeout, verify: vc, shadow: o.shadow, meters: m, strict: o.strict}
	e.install(p)
	return e, nil
}

// Reload loads the bundle at path (the embedded one when path is empty)
// and makes it the engine's policy. Decisions already under way finish
// with the bundle they started with; sessions recompile their context on
// their next batch. On an error (an unreadable, incomplete, unsigned or
// tampered bundle) the engine keeps its current bundle.
//
// The bundle's files are read into memory before anything is compiled,
// and a directory is read twice to catch changes made while it is read
// (the error then wraps [ErrBundleChanged]); a tarball is read once.
// Still, replace a bundle atomically: write the new tarball beside the
// old one and rename it over it, or build the new directory beside the
// old one and rename a symbolic link to point at it (ln -s new tmp &&
// mv -T tmp current). Changed in place, a directory can be caught half
// old and half new on both readings; with [WithVerificationKey] such a
// bundle fails verification.
func (e *Engine) Reload(ctx context.Context, path string) error {
	p, err := loadPolicy(ctx, path, e.config, e.verify)
	if err != nil {
		return fmt.Errorf("reload: %w", err)
	}
	if e.strict {
		if err := configurationErrors(ctx, p); err != nil {
			return fmt.Errorf("reload: %w", err)
		}
	}
	e.install(p)
	return nil
}

// install makes p the engine's policy, with the next generation number.
func (e *Engine) install(p *policy) {
	p.generation = e.generations.Add(1)
	e.current.Store(p)
}

// unboundedKey marks a context whose evaluations the engine's deadline
// does not bound ([WithoutEvalTimeout]).
type unboundedKey struct{}

// WithoutEvalTimeout returns ctx marked so that every evaluation an
// engine makes under it is bounded by ctx alone, not by the engine's
// per-evaluation deadline ([WithEvalTimeout]). It is for offline
// analyses that make large evaluations on purpose (tooleval verify,
// whose budget is its caller's context); a decision on the hot path
// keeps the engine's deadline. Input cannot set it: only the Go caller
// that owns ctx can.
func WithoutEvalTimeout(ctx context.Context) context.Context {
	return context.WithValue(ctx, unboundedKey{}, true)
}

// bounded returns ctx limited by the engine's evaluation deadline
// (unless ctx comes from [WithoutEvalTimeout]).
func (e *Engine) bounded(ctx context.Context) (context.Context, context.CancelFunc) {
	if e.timeout <= 0 || ctx.Value(unboundedKey{}) != nil {
		return ctx, func() {}
	}
	return context.WithTimeoutCause(ctx, e.timeout, fmt.Errorf("%w (%s)", ErrEvalTimeout, e.timeout))
}

// Revision is the revision in the current bundle's manifest.
func (e *Engine) Revision() string { return e.current.Load().revision }
