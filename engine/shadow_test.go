package engine

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

const shadowInput = `{
	"declared": [{"name": "read_file"}, {"name": "web_search"}, {"name": "grep"}],
	"calls": [{"id": "a", "name": "read_file"}, {"id": "b", "name": "web_search"}, {"id": "c", "name": "grep"}]
}`

// waitFor polls the shadow's counters until cond holds.
func waitFor(t *testing.T, s *Shadow, cond func(ShadowStats) bool) ShadowStats {
	t.Helper()
	var st ShadowStats
	require.Eventually(t, func() bool {
		st = s.Stats()
		return cond(st)
	}, 20*time.Second, 5*time.Millisecond)
	return st
}

// TestShadowReportsDifferencesAndNeverEnforces: a candidate that denies
// web_search is compared with every one-shot and session decision; each
// differing call is one structured record and one count, and the live
// decisions are those of an engine without a shadow.
func TestShadowReportsDifferencesAndNeverEnforces(t *testing.T) {
	ctx := context.Background()
	candidate, err := New(ctx, WithConfig(Config{"tools": map[string]any{"deny": []any{"web_search"}}}))
	require.NoError(t, err)
	var logs bytes.Buffer
	shadow := NewShadow(candidate, ShadowOptions{Logger: slog.New(slog.NewJSONHandler(&logs, nil))})
	defer shadow.Close()
	live, err := New(ctx, WithShadow(shadow))
	require.NoError(t, err)
	plain := newEngine(t)

	d, err := live.Decide(ctx, JSON([]byte(shadowInput)))
	require.NoError(t, err)
	want, err := plain.Decide(ctx, JSON([]byte(shadowInput)))
	require.NoError(t, err)
	require.Equal(t, want.Decisions, d.Decisions, "the live decision is the policy's, not the candidate's")
	require.True(t, d.Decisions[1].Allowed)

	s, err := live.NewSession(ctx, SessionConfig{Declared: []Declaration{{Name: "read_file"}, {Name: "web_search"}}})
	require.NoError(t, err)
	batch, err := s.Decide(ctx, []Call{{ID: "x", Name: "web_search"}, {ID: "y", Name: "read_file"}})
	require.NoError(t, err)
	require.True(t, batch.Decisions[0].Allowed)

	st := waitFor(t, shadow, func(st ShadowStats) bool { return st.Compared == 2 })
	require.Equal(t, ShadowStats{Compared: 2, Differences: 2}, st)

	var records []map[string]any
	for _, line := range strings.Split(strings.TrimSpace(logs.String()), "\n") {
		var r map[string]any
		require.NoError(t, json.Unmarshal([]byte(line), &r), line)
		records = append(records, r)
	}
	require.Len(t, records, 2)
	for i, id := range []string{"b", "x"} {
		r := records[i]
		require.Equal(t, "shadow decision differs", r["msg"])
		require.Equal(t, "WARN", r["level"])
		require.Equal(t, id, r["id"])
		require.Equal(t, "web_search", r["name"])
		require.Equal(t, map[string]any{"allowed": true}, r["live"])
		require.Equal(t, map[string]any{"allowed": false, "reason": "denied", "layer": "global_policy"}, r["candidate"])
	}
}

// failingCandidate is a candidate whose every evaluation fails, as one
// whose bundle cannot be evaluated would.
type failingCandidate struct{}

func (failingCandidate) Decide(context.Context, any) (*Decision, error) {
	return nil, errors.New("the candidate bundle cannot be evaluated")
}

// slowCandidate is a real engine that takes delay longer per decision.
type slowCandidate struct {
	engine *Engine
	delay  time.Duration
}

func (c slowCandidate) Decide(ctx context.Context, input any) (*Decision, error) {
	select {
	case <-time.After(c.delay):
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	return c.engine.Decide(ctx, input)
}

// TestShadowFailuresAndSlowCandidatesDoNotTouchTheLivePath: a failing
// candidate is counted and logged; a slow one fills the bounded queue and
// the rest are dropped, never waited for; Close stops the workers.
func TestShadowFailuresAndSlowCandidatesDoNotTouchTheLivePath(t *testing.T) {
	ctx := context.Background()
	var logs bytes.Buffer
	failing := NewShadow(failingCandidate{}, ShadowOptions{Logger: slog.New(slog.NewJSONHandler(&logs, nil))})
	e, err := New(ctx, WithShadow(failing))
	require.NoError(t, err)
	d, err := e.Decide(ctx, JSON([]byte(shadowInput)))
	require.NoError(t, err)
	require.True(t, d.AllAllowed())
	waitFor(t, failing, func(st ShadowStats) bool { return st.Failed == 1 })
	failing.Close()
	require.Contains(t, logs.String(), `"msg":"shadow candidate failed"`)

	slow := NewShadow(slowCandidate{newEngine(t), time.Hour}, ShadowOptions{Queue: 2, Timeout: time.Hour})
	e, err = New(ctx, WithShadow(slow))
	require.NoError(t, err)
	start := time.Now()
	for range 10 {
		_, err := e.Decide(ctx, JSON([]byte(shadowInput)))
		require.NoError(t, err)
	}
	require.Less(t, time.Since(start), 30*time.Second, "the live path waited for the candidate")
	// One decision is with the worker, two wait in the queue, the rest
	// were dropped.
	st := waitFor(t, slow, func(st ShadowStats) bool { return st.Dropped >= 7 })
	require.Equal(t, uint64(0), st.Compared)
	slow.Close() // cancels the evaluation under way and drops the queue
	closed := slow.Stats()
	require.Equal(t, ShadowStats{Dropped: 10}, closed, "every decision is counted once")
	_, err = e.Decide(ctx, JSON([]byte(shadowInput)))
	require.NoError(t, err)
	require.Equal(t, closed.Dropped+1, slow.Stats().Dropped, "a closed shadow drops")
}

// BenchmarkShadow measures the live decision with no shadow, with a
// shadow whose candidate is a real engine, and with one whose candidate
// never answers: the live cost stays that of the decision.
func BenchmarkShadow(b *testing.B) {
	ctx := context.Background()
	input, err := DecodeInput([]byte(shadowInput))
	require.NoError(b, err)
	candidate, err := New(ctx, WithConfig(Config{"tools": map[string]any{"deny": []any{"web_search"}}}))
	require.NoError(b, err)
	for _, tc := range []struct {
		name   string
		shadow func() *Shadow
	}{
		{"none", func() *Shadow { return nil }},
		{"candidate", func() *Shadow { return NewShadow(candidate, ShadowOptions{}) }},
		{"stalled-candidate", func() *Shadow {
			return NewShadow(slowCandidate{candidate, time.Hour}, ShadowOptions{Queue: 16, Timeout: time.Hour})
		}},
	} {
		b.Run(tc.name, func(b *testing.B) {
			shadow := tc.shadow()
			opts := []Option{}
			if shadow != nil {
				opts = append(opts, WithShadow(shadow))
				defer shadow.Close()
			}
			e, err := New(ctx, opts...)
			require.NoError(b, err)
			d, err := e.Decide(ctx, input)
			require.NoError(b, err)
			require.Equal(b, []bool{true, true, true}, allowed(d))
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				if _, err := e.Decide(ctx, input); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
