package engine

import (
	"context"
	"runtime"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestIdleSessionsDoNotPinOldPolicies: a session that decided once and
// then sits idle must not keep the policy it used alive across reloads.
// Twenty reloads with one idle session each may not grow the live heap
// by more than a few policies' worth (it grew by twenty: 10.5 to 200 MiB).
func TestIdleSessionsDoNotPinOldPolicies(t *testing.T) {
	ctx := context.Background()
	e := newEngine(t)
	before := liveHeap()
	extra := newEngine(t) // the size of one loaded policy
	policySize := int64(liveHeap()) - int64(before)
	runtime.KeepAlive(extra)

	static := SessionConfig{Declared: []Declaration{{Name: "read_file"}, {Name: "write_file"}}}
	base := liveHeap()
	var idle []*Session
	for range 5 {
		require.NoError(t, e.Reload(ctx, ""))
		s, err := e.NewSession(ctx, static)
		require.NoError(t, err)
		_, err = s.Decide(ctx, []Call{{ID: "a", Name: "read_file"}})
		require.NoError(t, err)
		idle = append(idle, s)
	}
	growth := int64(liveHeap()) - int64(base)
	t.Logf("one policy: %.1f MiB; 5 reloads with an idle session each grew the heap by %.1f MiB",
		float64(policySize)/(1<<20), float64(growth)/(1<<20))
	require.Positive(t, policySize)
	require.Less(t, growth, 3*policySize, "idle sessions keep old policies alive")
	runtime.KeepAlive(idle)
}
