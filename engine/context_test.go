package engine

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// refusesAll checks that d refuses every one of n calls because the
// engine could not decide.
func refusesAll(t *testing.T, d *Decision, n int, msg string) {
	t.Helper()
	require.Len(t, d.Decisions, n, msg)
	for _, c := range d.Decisions {
		require.False(t, c.Allowed, msg)
	}
	require.Equal(t, "internal_error", d.Errors[0].Code(), msg)
}

// TestEndedContextFailsClosed: under GOMAXPROCS=1, where a fast
// evaluation used to finish before OPA's cancellation goroutine ran, a
// cancelled context or an expired deadline refuses every call and
// returns the context's error, on every entry point, every time.
func TestEndedContextFailsClosed(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	e := newEngine(t)
	static := SessionConfig{Declared: []Declaration{{Name: "read_file"}}}
	calls := []Call{{ID: "a", Name: "read_file"}, {ID: "b", Name: "read_file"}}
	doc := map[string]any{"declared": static.Declared, "calls": calls}
	s, err := e.NewSession(context.Background(), static, WithRunGuard(NewRunGuard(100, 0)))
	require.NoError(t, err)
	request, err := toValue(map[string]any{"calls": calls})
	require.NoError(t, err)

	ended := map[string]func() (context.Context, context.CancelFunc){
		"cancelled": func() (context.Context, context.CancelFunc) {
			ctx, cancel := context.WithCancel(context.Background())
			cancel()
			return ctx, cancel
		},
		"1µs deadline": func() (context.Context, context.CancelFunc) {
			return context.WithTimeout(context.Background(), time.Microsecond)
		},
	}
	const rounds = 100
	for name, makeCtx := range ended {
		answered := 0
		for i := range rounds {
			ctx, cancel := makeCtx()
			msg := fmt.Sprintf("%s, round %d", name, i)
			for entry, decide := range map[string]func() (*Decision, error){
				"Engine.Decide":         func() (*Decision, error) { return e.Decide(ctx, doc) },
				"Session.Decide":        func() (*Decision, error) { return s.Decide(ctx, calls) },
				"Session.DecideRequest": func() (*Decision, error) { return s.DecideRequest(ctx, request) },
				"Engine.Decide(JSON)": func() (*Decision, error) {
					return e.Decide(ctx, JSON([]byte(`{"declared":[{"name":"read_file"}],"calls":[{"id":"a","name":"read_file"},{"id":"b","name":"read_file"}]}`)))
				},
			} {
				d, err := decide()
				if err == nil {
					answered++
					continue
				}
				require.True(t, errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded), "%s %s: %v", msg, entry, err)
				refusesAll(t, d, 2, msg+" "+entry)
			}
			l, err := e.Launch(ctx, map[string]any{"subagent_type": "fork", "fork_tools": []string{"read_file"}})
			if err == nil {
				answered++
			} else {
				require.False(t, l.Valid, msg)
				require.Equal(t, []any{}, l.ExecutionAllowedTools, msg)
			}
			if _, err := e.Check(ctx, nil); err == nil {
				answered++
			}
			cancel()
		}
		require.Zero(t, answered, "%s: %d of %d evaluations answered with an ended context", name, answered, rounds*6)
	}
	require.Equal(t, RunTotals{Attempts: "0", Refusals: "0"}, s.guard.Totals(), "a refused batch must not be recorded as decided")
}

// TestEvalTimeoutFailsClosed: an evaluation that runs past the engine's
// deadline stops, refuses every call and says so; opening a session
// that cannot compile in time fails too. The default deadline is set.
func TestEvalTimeoutFailsClosed(t *testing.T) {
	require.Equal(t, DefaultEvalTimeout, newEngine(t).timeout)
	e := newEngine(t, WithEvalTimeout(50*time.Millisecond))
	declared := make([]Declaration, 10000)
	for i := range declared {
		declared[i] = Declaration{Name: fmt.Sprintf("tool_%d", i)}
	}
	doc := map[string]any{"declared": declared, "calls": []Call{{ID: "a", Name: "tool_1"}, {ID: "b", Name: "tool_2"}}}
	start := time.Now()
	d, err := e.Decide(context.Background(), doc)
	elapsed := time.Since(start)
	require.ErrorIs(t, err, ErrEvalTimeout)
	require.ErrorIs(t, err, context.DeadlineExceeded)
	require.Contains(t, err.Error(), "50ms")
	refusesAll(t, d, 2, "one-shot past the deadline")
	require.Less(t, elapsed, 1500*time.Millisecond, "the evaluation was not stopped at the deadline")

	_, err = e.NewSession(context.Background(), SessionConfig{Declared: declared})
	require.ErrorIs(t, err, ErrEvalTimeout)

	// Without a bound the same request decides.
	unbounded := newEngine(t, WithEvalTimeout(0))
	d, err = unbounded.Decide(context.Background(), doc)
	require.NoError(t, err)
	require.Equal(t, []bool{true, true}, allowed(d))

	// Nor does a context that lifts the engine's bound, for the whole
	// evaluation (the session too), and for nothing else.
	tiny := newEngine(t, WithEvalTimeout(time.Nanosecond))
	small := map[string]any{"declared": declared[:3], "calls": []Call{{ID: "a", Name: "tool_1"}}}
	_, err = tiny.Decide(context.Background(), small)
	require.ErrorIs(t, err, ErrEvalTimeout)
	free := WithoutEvalTimeout(context.Background())
	d, err = tiny.Decide(free, small)
	require.NoError(t, err)
	require.Equal(t, []bool{true}, allowed(d))
	_, err = tiny.NewSession(free, SessionConfig{Declared: declared[:3]})
	require.NoError(t, err)
}
