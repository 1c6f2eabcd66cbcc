package engine

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"sync"
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/stretchr/testify/require"
)

// auditLines parses a JSON Lines audit log into its records.
func auditLines(t *testing.T, log []byte) []map[string]any {
	t.Helper()
	var records []map[string]any
	for _, line := range bytes.Split(bytes.TrimSpace(log), []byte("\n")) {
		if len(line) == 0 {
			continue
		}
		var rec map[string]any
		require.NoError(t, json.Unmarshal(line, &rec))
		records = append(records, rec)
	}
	return records
}

// callIDs returns the id of the first call of each record's input.
func callIDs(records []map[string]any) []string {
	ids := make([]string, 0, len(records))
	for _, rec := range records {
		calls, _ := rec["input"].(map[string]any)["calls"].([]any)
		if len(calls) == 0 {
			ids = append(ids, "")
			continue
		}
		id, _ := calls[0].(map[string]any)["id"].(string)
		ids = append(ids, id)
	}
	return ids
}

// TestAuditQueueWritesEveryRecordInOrder: with room for one record,
// fifty decisions in a row are all written, in the order they were
// decided, by the time Close returns; none is dropped when the queue is
// full (the decision waits for room).
func TestAuditQueueWritesEveryRecordInOrder(t *testing.T) {
	var buf bytes.Buffer
	q := NewAuditQueue(slog.New(slog.NewJSONHandler(&buf, nil)), 1)
	e := newEngine(t, WithAuditQueue(q))
	s, err := e.NewSession(context.Background(), SessionConfig{Declared: []Declaration{{Name: "read_file"}}})
	require.NoError(t, err)
	want := make([]string, 0, 50)
	for i := range 50 {
		id := fmt.Sprintf("c%02d", i)
		want = append(want, id)
		_, err := s.Decide(context.Background(), []Call{{ID: id, Name: "read_file"}})
		require.NoError(t, err)
	}
	q.Close()
	require.Equal(t, want, callIDs(auditLines(t, buf.Bytes())))
}

// TestAuditQueueRecordsAreTheSynchronousOnes: a record written by the
// queue is the record the engine writes at once (the same masked input,
// result, erased pointers, path, level and revision), for a one-shot
// decision that the mask erases parts of and for a session's batch.
func TestAuditQueueRecordsAreTheSynchronousOnes(t *testing.T) {
	run := func(opt func(l *slog.Logger) (Option, func())) []map[string]any {
		var buf bytes.Buffer
		o, done := opt(slog.New(slog.NewJSONHandler(&buf, nil)))
		e := newEngine(t, o)
		ctx := context.Background()
		_, err := e.Decide(ctx, JSON([]byte(`{"workspace": {"root": "/home/alice/ws"}, "caller": {"user": "alice@example.com"},
			"declared": [{"name": "read_file"}], "calls": [{"id": "c1", "name": "read_file", "args": {"path": "/secret"}}]}`)))

		require.NoError(t, err)
		s, err := e.NewSession(ctx, SessionConfig{Declared: []Declaration{{Name: "read_file"}}})
		require.NoError(t, err)
		_, err = s.Decide(ctx, []Call{{ID: "b1", Name: "read_file"}, {ID: "b2", Name: "write_file"}})
		require.NoError(t, err)
		done()
		records := auditLines(t, buf.Bytes())
		for _, rec := range records {
			delete(rec, "decision_id")
			delete(rec, "timestamp")
			delete(rec, "time")
		}
		return records
	}
	direct := run(func(l *slog.Logger) (Option, func()) { return WithAuditLogger(l), func() {} })
	queued := run(func(l *slog.Logger) (Option, func()) {
		q := NewAuditQueue(l, 0)
		return WithAuditQueue(q), q.Close
	})
	require.Len(t, direct, 2)
	require.Equal(t, direct, queued)
	require.NotEmpty(t, direct[0]["erased"], "the one-shot decision's record is masked")
}

// blockingHandler is a slog handler whose writes wait until release is
// closed.
type blockingHandler struct {
	slog.Handler
	release chan struct{}
}

func (h blockingHandler) Handle(ctx context.Context, r slog.Record) error {
	<-h.release
	return h.Handler.Handle(ctx, r)
}

// TestAuditQueueDoesNotHoldTheAnswer: a decision returns while the
// audit log cannot be written (its handler blocks), and the record is
// written once it can. Written synchronously, the decision would wait
// for the handler and this test would not end.
func TestAuditQueueDoesNotHoldTheAnswer(t *testing.T) {
	var buf bytes.Buffer
	release := make(chan struct{})
	q := NewAuditQueue(slog.New(blockingHandler{slog.NewJSONHandler(&buf, nil), release}), 4)
	e := newEngine(t, WithAuditQueue(q))
	d, err := e.Decide(context.Background(), JSON([]byte(`{"declared": [{"name": "read_file"}], "calls": [{"id": "c1", "name": "read_file"}]}`)))
	require.NoError(t, err)
	require.True(t, d.AllAllowed())
	close(release)
	q.Close()
	require.Equal(t, []string{"c1"}, callIDs(auditLines(t, buf.Bytes())))
}

// TestAuditQueueAfterCloseWritesAtOnce: an evaluation that ends after
// Close writes its record itself, before it returns; concurrent
// decisions racing Close are each written once.
func TestAuditQueueAfterCloseWritesAtOnce(t *testing.T) {
	var buf bytes.Buffer // slog's handler writes under its own lock
	q := NewAuditQueue(slog.New(slog.NewJSONHandler(&buf, nil)), 2)
	e := newEngine(t, WithAuditQueue(q))
	s, err := e.NewSession(context.Background(), SessionConfig{Declared: []Declaration{{Name: "read_file"}}})
	require.NoError(t, err)
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() {
			_, err := s.Decide(context.Background(), []Call{{ID: fmt.Sprintf("r%d", i), Name: "read_file"}})
			require.NoError(t, err)
		})
	}
	q.Close()
	wg.Wait()
	require.Len(t, auditLines(t, buf.Bytes()), 8, "every decision racing Close is written once")

	_, err = s.Decide(context.Background(), []Call{{ID: "late", Name: "read_file"}})
	require.NoError(t, err)
	ids := callIDs(auditLines(t, buf.Bytes()))
	require.Len(t, ids, 9)
	require.Equal(t, "late", ids[8], "written before Decide returned")
	q.Close() // a second Close is harmless
}

// TestAuditQueueKeepsWhatWasEvaluated: a caller that changes its input
// value once Decide has returned does not change the queued record
// (written later, here once the handler is released): the record holds
// the call that was decided.
func TestAuditQueueKeepsWhatWasEvaluated(t *testing.T) {
	var buf bytes.Buffer
	release := make(chan struct{})
	q := NewAuditQueue(slog.New(blockingHandler{slog.NewJSONHandler(&buf, nil), release}), 4)
	e := newEngine(t, WithAuditQueue(q))
	input, err := DecodeInput([]byte(`{"declared": [{"name": "read_file"}], "calls": [{"id": "decided", "name": "read_file"}]}`))
	require.NoError(t, err)
	_, err = e.Decide(context.Background(), input)
	require.NoError(t, err)
	call, err := input.Find(ast.MustParseRef("x.calls[0]")[1:])
	require.NoError(t, err)
	call.(ast.Object).Insert(ast.StringTerm("id"), ast.StringTerm("changed afterwards"))
	close(release)
	q.Close()
	require.Equal(t, []string{"decided"}, callIDs(auditLines(t, buf.Bytes())))
}
