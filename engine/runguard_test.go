package engine

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/tooleval/tooleval/internal/corpus"
)

// trials is how many times a race test repeats: a short default for
// make test, more with TOOLEVAL_RACE_TRIALS.
func trials(t *testing.T, short int) int {
	t.Helper()
	if s := os.Getenv("TOOLEVAL_RACE_TRIALS"); s != "" {
		n, err := strconv.Atoi(s)
		require.NoError(t, err)
		return n
	}
	return short
}

// scaled is n generated documents times the scale of make test (1) or
// make soak (10): corpus.Scaled.
func scaled(t *testing.T, n int) int {
	t.Helper()
	k, err := corpus.Scaled(n)
	require.NoError(t, err)
	return k
}

// TestRunGuardSharedBySessionsNeverOverspends: 16 sessions of one run
// share a guard capped at 10 attempts and each decides a batch of 10
// calls at the same moment. Whatever the interleaving, at most 10 calls
// are allowed, and the guard counts all 160 attempts.
func TestRunGuardSharedBySessionsNeverOverspends(t *testing.T) {
	e := newEngine(t, WithEvalTimeout(time.Minute)) // 16 batches at once on 2 cores under -race wait for a CPU
	ctx := context.Background()
	static := SessionConfig{Declared: []Declaration{{Name: "read_file"}}}
	calls := make([]Call, 10)
	for i := range calls {
		calls[i] = Call{ID: fmt.Sprint("c", i), Name: "read_file"}
	}
	n := trials(t, 10)
	for trial := range n {
		guard := NewRunGuard(10, 0)
		sessions := make([]*Session, 16)
		for i := range sessions {
			var err error
			sessions[i], err = e.NewSession(ctx, static, WithRunGuard(guard))
			require.NoError(t, err)
		}
		var wg sync.WaitGroup
		start := make(chan struct{})
		allowedCalls := make(chan int, len(sessions))
		for _, s := range sessions {
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				d, err := s.Decide(ctx, calls)
				if err != nil {
					t.Error(err)
					return
				}
				k := 0
				for _, c := range d.Decisions {
					if c.Allowed {
						k++
					}
				}
				allowedCalls <- k
			}()
		}
		close(start)
		wg.Wait()
		close(allowedCalls)
		total := 0
		for k := range allowedCalls {
			total += k
		}
		require.Equal(t, 10, total, "trial %d: calls allowed under a cap of 10", trial)
		totals := guard.Totals()
		require.Equal(t, json.Number("160"), totals.Attempts, "trial %d", trial)
		require.Equal(t, json.Number("150"), totals.Refusals, "trial %d", trial)
		require.True(t, totals.Exhausted, "trial %d", trial)
	}
}
