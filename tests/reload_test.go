//go:build race

package tests

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/tooleval/tooleval/engine"
	"github.com/tooleval/tooleval/tests/harness"
)

// TestHotReloadUnderConcurrency: 16 goroutines (160 in make soak) share one engine and 16
// sessions while another goroutine swaps the bundle between two
// revisions whose not_allowed message differs. It is built only with
// -race (make test runs it so). Every
// decision must come from exactly one revision: its Revision and its
// message agree, and nothing is ever undecided.
func TestHotReloadUnderConcurrency(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	bundles := map[string]string{"rev-a": harness.PoliciesDir(), "rev-b": changedPolicies(t, "rev-b")}
	paths := map[string]string{}
	for rev, source := range bundles {
		// built by opa build: under the race detector an in-process build
		// takes seconds of CPU that the test is not about
		paths[rev] = filepath.Join(dir, rev+".tar.gz")
		harness.OPA(t, "build", "--bundle", source, "--ignore", "*_test.rego", "--revision", rev, "--output", paths[rev])
	}
	// Many goroutines on two cores under the race detector wait seconds for
	// the CPU: the evaluation deadline (wall-clock time) is raised so that
	// the test is about reloads, not about contention.
	e, err := engine.New(ctx, engine.WithBundle(paths["rev-a"]), engine.WithEvalTimeout(time.Minute))
	require.NoError(t, err)

	static := map[string]any{
		"declared": []any{map[string]any{"name": "read_file"}, map[string]any{"name": "write_file"}},
		"layers":   []any{map[string]any{"name": "tenant", "allow": []any{"read_file"}}},
	}
	calls := []any{map[string]any{"id": "r", "name": "read_file"}, map[string]any{"id": "w", "name": "write_file"}}
	sessions := make([]*engine.Session, 16)
	for i := range sessions {
		sessions[i], err = e.NewSession(ctx, static)
		require.NoError(t, err)
	}

	stop := make(chan struct{})
	var reloads atomic.Int64
	go func() {
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			rev := []string{"rev-b", "rev-a"}[i%2]
			if err := e.Reload(ctx, paths[rev]); err != nil {
				t.Error(err)
				return
			}
			reloads.Add(1)
			time.Sleep(20 * time.Millisecond)
		}
	}()

	var wg sync.WaitGroup
	var decided atomic.Int64
	seen := sync.Map{}
	goroutines := scaled(t, 8) // make soak: 80
	for g := range goroutines {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := 0; k < 10 || reloads.Load() < 2; k++ {
				var d *engine.Decision
				var err error
				if (g+k)%2 == 0 {
					d, err = sessions[(g+k)%len(sessions)].Decide(ctx, calls)
				} else {
					d, err = e.Decide(ctx, map[string]any{"declared": static["declared"], "layers": static["layers"], "calls": calls})
				}
				if err != nil {
					t.Error(err)
					return
				}
				if len(d.Decisions) != 2 || !d.Decisions[0].Allowed || d.Decisions[1].Allowed {
					t.Errorf("wrong verdicts from %s: %+v", d.Revision, d.Decisions)
					return
				}
				marked := strings.HasSuffix(d.Decisions[1].Message, "(rev-b)")
				if marked != (d.Revision == "rev-b") || (d.Revision != "rev-a" && d.Revision != "rev-b") {
					t.Errorf("torn decision: revision %q, message %q", d.Revision, d.Decisions[1].Message)
					return
				}
				seen.Store(d.Revision, true)
				decided.Add(1)
				if k >= 10 {
					// Past its ten, a goroutine goes on deciding until the
					// second reload, paced: a reload under -race takes
					// seconds, and unpaced the goroutines took the CPU it
					// needs (2,805 decisions, 71 CPU-s, for 2 reloads).
					time.Sleep(25 * time.Millisecond)
				}
			}
		}()
	}
	wg.Wait()
	close(stop)
	var revisions []string
	seen.Range(func(k, _ any) bool { revisions = append(revisions, fmt.Sprint(k)); return true })
	t.Logf("%d decisions during %d reloads, from revisions %v", decided.Load(), reloads.Load(), revisions)
	require.GreaterOrEqual(t, decided.Load(), int64(10*goroutines))
	require.GreaterOrEqual(t, reloads.Load(), int64(2))
	require.Len(t, revisions, 2, "decisions came from both revisions")
}
