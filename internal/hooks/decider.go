package hooks

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/tooleval/tooleval/engine"
	"github.com/tooleval/tooleval/internal/hookwire"
)

// Defaults of [Options].
const (
	DefaultMaxSessions = 4096
	DefaultIdleTimeout = time.Hour
)

// Options configure a [Decider].
type Options struct {
	// MaxAttempts and MaxRefusals are each runtime session's run budget
	// (engine.RunGuard): kept across the session's calls, its sub-agents'
	// included; 0 is no cap. Without either, no budget is kept.
	MaxAttempts, MaxRefusals int64
	// MaxSessions bounds the sessions and the run budgets kept; the least
	// recently used goes first (DefaultMaxSessions when 0).
	MaxSessions int
	// IdleTimeout drops a session or run budget unused for this long
	// (DefaultIdleTimeout when 0).
	IdleTimeout time.Duration
	// Now is the clock (time.Now when nil); tests set it.
	Now func() time.Time
}

// Decider answers hooks with an engine: it reads a payload with the
// policy, decides its call in a session of the runtime's session and
// agent (a session's static part is compiled once), keeps the run budget
// of each runtime session, and answers in the runtime's form. It is safe
// for concurrent use.
type Decider struct {
	opts Options

	mu       sync.Mutex
	engine   *engine.Engine
	loadErr  error
	sessions map[sessionKey]*sessionEntry
	runs     map[runKey]*runEntry
	swept    time.Time // when idle entries were last dropped
}

type sessionKey struct {
	runtime, session, agent, static string
}

type sessionEntry struct {
	session *engine.Session
	used    time.Time
}

type runKey struct{ runtime, session string }

type runEntry struct {
	guard *engine.RunGuard
	used  time.Time
}

// NewDecider returns a decider; it answers every hook with a deny until
// [Decider.SetEngine] gives it an engine.
func NewDecider(opts Options) *Decider {
	if opts.MaxSessions <= 0 {
		opts.MaxSessions = DefaultMaxSessions
	}
	if opts.IdleTimeout <= 0 {
		opts.IdleTimeout = DefaultIdleTimeout
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	return &Decider{
		opts:     opts,
		loadErr:  errors.New("no policy is loaded"),
		sessions: map[sessionKey]*sessionEntry{},
		runs:     map[runKey]*runEntry{},
	}
}

// SetEngine makes e the decider's policy (a reload): the sessions of the
// previous engine are dropped, the run budgets kept. A nil e with err
// keeps the policy in force when there is one, and otherwise answers every
// hook with a deny that says err.
func (d *Decider) SetEngine(e *engine.Engine, err error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if e == nil {
		if d.engine == nil && err != nil {
			d.loadErr = err
		}
		return
	}
	d.engine, d.loadErr = e, nil
	clear(d.sessions)
}

// Engine returns the engine in force, or nil.
func (d *Decider) Engine() *engine.Engine {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.engine
}

// Sessions returns how many sessions and run budgets are kept.
func (d *Decider) Sessions() (sessions, runs int) {
	d.mu.Lock()
	defer d.mu.Unlock()
	return len(d.sessions), len(d.runs)
}

// Answer answers one hook of a runtime (the policy's name) whose payload
// is the raw JSON the runtime sent. It always answers: whatever fails
// (no policy, a payload that is not JSON, an evaluation error or timeout,
// an answer that cannot be read) is the runtime's deny form with a reason.
func (d *Decider) Answer(ctx context.Context, runtime string, payload []byte) *hookwire.Answer {
	a, err := d.answer(ctx, runtime, payload)
	if err != nil {
		return hookwire.Denial(runtime, "tooleval could not answer this hook, so the call is refused: "+err.Error())
	}
	return wire(a)
}

func (d *Decider) answer(ctx context.Context, runtime string, payload []byte) (*engine.HookAnswer, error) {
	d.mu.Lock()
	e, loadErr := d.engine, d.loadErr
	d.mu.Unlock()
	if e == nil {
		return nil, loadErr
	}
	value, err := engine.DecodeInput(payload)
	if err != nil {
		return nil, fmt.Errorf("the hook payload is not one JSON document: %w", err)
	}
	req, err := e.HookRequest(ctx, runtime, value)
	if err != nil {
		return nil, err
	}
	var decision *engine.Decision
	if req.Refusal == "" {
		s, err := d.session(ctx, e, req)
		if err != nil {
			return nil, err
		}
		if decision, err = s.Decide(ctx, req.Calls); err != nil {
			return nil, err
		}
	}
	return e.HookAnswer(ctx, req, decision)
}

// session returns the session of a request's runtime session, agent and
// static document, opening it (with the runtime session's run budget)
// when there is none.
func (d *Decider) session(ctx context.Context, e *engine.Engine, req *engine.HookRequest) (*engine.Session, error) {
	key := sessionKey{runtime: req.Runtime, session: req.SessionID, agent: req.AgentID, static: req.Static.String()}
	now := d.opts.Now()
	d.mu.Lock()
	d.expire(now)
	if entry, ok := d.sessions[key]; ok && d.engine == e {
		entry.used = now
		d.mu.Unlock()
		return entry.session, nil
	}
	guard := d.guard(runKey{req.Runtime, req.SessionID}, now)
	d.mu.Unlock()

	var opts []engine.SessionOption
	if guard != nil {
		opts = append(opts, engine.WithRunGuard(guard))
	}
	s, err := e.NewSession(ctx, req.Static, opts...)
	if err != nil {
		return nil, fmt.Errorf("open the session: %w", err)
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.engine == e { // not reloaded meanwhile
		if len(d.sessions) >= d.opts.MaxSessions {
			evictOldest(d.sessions, func(e *sessionEntry) time.Time { return e.used })
		}
		d.sessions[key] = &sessionEntry{session: s, used: now}
	}
	return s, nil
}

// guard returns the run budget of a runtime session (nil without caps),
// making it when there is none. d.mu is held.
func (d *Decider) guard(key runKey, now time.Time) *engine.RunGuard {
	if d.opts.MaxAttempts <= 0 && d.opts.MaxRefusals <= 0 {
		return nil
	}
	if entry, ok := d.runs[key]; ok {
		entry.used = now
		return entry.guard
	}
	if len(d.runs) >= d.opts.MaxSessions {
		evictOldest(d.runs, func(e *runEntry) time.Time { return e.used })
	}
	g := engine.NewRunGuard(d.opts.MaxAttempts, d.opts.MaxRefusals)
	d.runs[key] = &runEntry{guard: g, used: now}
	return g
}

// expire drops the sessions and run budgets idle for longer than the
// idle timeout. d.mu is held.
func (d *Decider) expire(now time.Time) {
	if now.Sub(d.swept) < d.opts.IdleTimeout/16 {
		return // at most 16 sweeps per idle timeout, not one per call
	}
	d.swept = now
	for k, e := range d.sessions {
		if now.Sub(e.used) > d.opts.IdleTimeout {
			delete(d.sessions, k)
		}
	}
	for k, e := range d.runs {
		if now.Sub(e.used) > d.opts.IdleTimeout {
			delete(d.runs, k)
		}
	}
}

// evictOldest deletes the least recently used entry of m.
func evictOldest[K comparable, V any](m map[K]V, used func(V) time.Time) {
	var oldest K
	var at time.Time
	first := true
	for k, v := range m {
		if t := used(v); first || t.Before(at) {
			oldest, at, first = k, t, false
		}
	}
	if !first {
		delete(m, oldest)
	}
}
