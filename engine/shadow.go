package engine

import (
	"context"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/open-policy-agent/opa/v1/ast"
)

// Decider decides a full input document, in any of its forms (see
// [JSON]), as [Engine.Decide] does; an [*Engine] is one.
type Decider interface {
	Decide(ctx context.Context, input any) (*Decision, error)
}

// ShadowOptions configure a [Shadow].
type ShadowOptions struct {
	// Logger gets one record per call whose candidate verdict differs
	// from the live one (level Warn) and one per candidate failure
	// (level Error). Nil logs nothing; Stats still counts.
	Logger *slog.Logger
	// Queue bounds the decisions waiting for the candidate (default
	// 1024). A decision that finds it full is not shadowed, and counted
	// in ShadowStats.Dropped: the live path never waits for the
	// candidate.
	Queue int
	// Workers evaluate the candidate in parallel (default 1).
	Workers int
	// Timeout bounds one candidate evaluation (default
	// DefaultEvalTimeout).
	Timeout time.Duration
}

// ShadowStats are a Shadow's counters since it started. Once the shadow
// is closed, every live decision offered to it is counted once, in
// Compared, Failed or Dropped.
type ShadowStats struct {
	// Compared counts the live decisions the candidate also decided.
	Compared uint64
	// Differences counts the calls whose verdict, reason or layer the
	// candidate decided differently.
	Differences uint64
	// Dropped counts the live decisions not shadowed (the queue was full
	// or the shadow closed).
	Dropped uint64
	// Failed counts the candidate evaluations that failed (an error, a
	// timeout, or a different number of decisions).
	Failed uint64
}

// Shadow evaluates every decision of an engine also under a candidate
// policy, in the background, and reports where they differ, without ever
// enforcing the candidate: the live decision is returned before the
// candidate starts, whatever the candidate does. Attach it with
// [WithShadow]; stop it with [Shadow.Close].
type Shadow struct {
	candidate Decider
	opts      ShadowOptions
	queue     chan shadowJob
	stop      context.CancelFunc // cancels the candidate evaluations under way
	ctx       context.Context
	closeOnce sync.Once
	wg        sync.WaitGroup

	compared, differences, dropped, failed atomic.Uint64
}

// shadowJob is one live decision to compare: the input is static with
// request merged over it (a session's batch), or request alone.
type shadowJob struct {
	static  staticDoc
	request ast.Value
	live    *Decision
}

// NewShadow starts a shadow evaluation under candidate.
func NewShadow(candidate Decider, opts ShadowOptions) *Shadow {
	if opts.Queue <= 0 {
		opts.Queue = 1024
	}
	if opts.Workers <= 0 {
		opts.Workers = 1
	}
	if opts.Timeout <= 0 {
		opts.Timeout = DefaultEvalTimeout
	}
	ctx, stop := context.WithCancel(context.Background())
	s := &Shadow{candidate: candidate, opts: opts, queue: make(chan shadowJob, opts.Queue), ctx: ctx, stop: stop}
	for range opts.Workers {
		s.wg.Add(1)
		go s.work()
	}
	return s
}

// WithShadow makes every decision of the engine (one-shot and of its
// sessions) also go to the shadow's candidate. Explanations, launches,
// catalogs and checks are not shadowed.
func WithShadow(s *Shadow) Option {
	return func(o *options) { o.shadow = s }
}

// Close stops the shadow: candidate evaluations under way are
// cancelled and decisions queued are dropped. It returns once its
// workers have stopped.
func (s *Shadow) Close() {
	s.closeOnce.Do(func() {
		s.stop()
		s.wg.Wait()
		for {
			select {
			case <-s.queue:
				s.dropped.Add(1)
			default:
				return
			}
		}
	})
	s.wg.Wait()
}

// Stats returns the shadow's counters.
func (s *Shadow) Stats() ShadowStats {
	return ShadowStats{
		Compared:    s.compared.Load(),
		Differences: s.differences.Load(),
		Dropped:     s.dropped.Load(),
		Failed:      s.failed.Load(),
	}
}

// offer queues a live decision for the candidate, without waiting.
func (s *Shadow) offer(static staticDoc, request ast.Value, live *Decision) {
	select {
	case <-s.ctx.Done():
		s.dropped.Add(1)
		return
	default:
	}
	select {
	case s.queue <- shadowJob{static, request, live}:
	default:
		s.dropped.Add(1)
	}
}

func (s *Shadow) work() {
	defer s.wg.Done()
	for {
		select {
		case <-s.ctx.Done():
			return
		default:
		}
		select {
		case <-s.ctx.Done():
			return
		case job := <-s.queue:
			s.compare(job)
		}
	}
}

func (s *Shadow) compare(job shadowJob) {
	ctx, cancel := context.WithTimeout(s.ctx, s.opts.Timeout)
	defer cancel()
	static, err := job.static.get()
	var candidate *Decision
	if err == nil {
		candidate, err = s.candidate.Decide(ctx, sessionInput(static, job.request))
	}
	if err == nil && len(candidate.Decisions) != len(job.live.Decisions) {
		err = ErrShape
	}
	if err != nil && s.ctx.Err() != nil {
		s.dropped.Add(1) // closed while the candidate ran
		return
	}
	if err != nil {
		s.failed.Add(1)
		s.log(slog.LevelError, "shadow candidate failed", slog.String("error", err.Error()), slog.String("live_revision", job.live.Revision))
		return
	}
	defer s.compared.Add(1) // once the differences are logged and counted
	for i, live := range job.live.Decisions {
		c := candidate.Decisions[i]
		if live.SameVerdict(c) {
			continue
		}
		s.differences.Add(1)
		s.log(slog.LevelWarn, "shadow decision differs",
			slog.Int("call", i), slog.Any("id", live.ID), slog.Any("name", live.Name),
			slog.Group("live", verdictAttrs(live)...), slog.Group("candidate", verdictAttrs(c)...),
			slog.String("live_revision", job.live.Revision), slog.String("candidate_revision", candidate.Revision))
	}
}

// sessionInput is the full input document of a session's batch: its
// static document with the batch's members ({calls, run}) over it, or
// request alone when there is no static document.
func sessionInput(static, request ast.Value) ast.Value {
	obj, ok := static.(ast.Object)
	if !ok {
		return request
	}
	merged := obj.Copy()
	if r, ok := request.(ast.Object); ok {
		r.Foreach(func(k, v *ast.Term) { merged.Insert(k, v) })
	}
	return merged
}

func verdictAttrs(c CallDecision) []any {
	attrs := []any{slog.Bool("allowed", c.Allowed)}
	if !c.Allowed {
		attrs = append(attrs, slog.String("reason", c.Reason), slog.String("layer", c.Layer))
	}
	if c.Rule != "" {
		attrs = append(attrs, slog.String("rule", c.Rule))
	}
	return attrs
}

func (s *Shadow) log(level slog.Level, msg string, attrs ...slog.Attr) {
	if s.opts.Logger != nil {
		s.opts.Logger.LogAttrs(context.Background(), level, msg, attrs...)
	}
}
