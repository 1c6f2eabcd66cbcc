package engine

import (
	"context"
	"log/slog"
	"sync"
)

// AuditQueue writes the audit records of one or more engines in the
// background, so that masking and writing a record is not part of the
// time a decision takes. Records are written in the order their
// evaluations ended, by one goroutine; none is dropped: an evaluation
// that finds the queue full waits for room. A record still queued when
// the process dies is lost, as with OPA's buffered decision logger, so
// call [AuditQueue.Close] before exiting. Attach it with
// [WithAuditQueue]; engines reloaded or replaced may share one queue.
type AuditQueue struct {
	logger *slog.Logger
	jobs   chan auditRecord
	done   chan struct{}

	mu     sync.RWMutex // held for reading while a record is offered
	closed bool
}

// DefaultAuditQueue is how many records an [AuditQueue] holds when
// [NewAuditQueue] is given size <= 0.
const DefaultAuditQueue = 1024

// NewAuditQueue starts a queue writing to l, holding up to size records
// ([DefaultAuditQueue] when size <= 0).
func NewAuditQueue(l *slog.Logger, size int) *AuditQueue {
	if size <= 0 {
		size = DefaultAuditQueue
	}
	q := &AuditQueue{logger: l, jobs: make(chan auditRecord, size), done: make(chan struct{})}
	go q.work()
	return q
}

// WithAuditQueue logs as [WithAuditLogger] does to the queue's logger,
// each record written by the queue after the evaluation has returned.
// A queued record holds its own copy of the input the evaluation was
// given, so a caller may change its value once the call has returned.
func WithAuditQueue(q *AuditQueue) Option {
	return func(o *options) { o.audit, o.auditQueue = q.logger, q }
}

// Close writes the records queued and returns once they are written.
// Records of evaluations that end after Close are written at once, by
// the evaluation itself.
func (q *AuditQueue) Close() {
	q.mu.Lock()
	if !q.closed {
		q.closed = true
		close(q.jobs)
	}
	q.mu.Unlock()
	<-q.done
}

// offer queues a record; false once the queue is closed.
func (q *AuditQueue) offer(r auditRecord) bool {
	q.mu.RLock()
	defer q.mu.RUnlock()
	if q.closed {
		return false
	}
	q.jobs <- r
	return true
}

func (q *AuditQueue) work() {
	defer close(q.done)
	for r := range q.jobs {
		ctx, cancel := context.WithTimeout(context.Background(), DefaultEvalTimeout)
		writeRecord(ctx, q.logger, r)
		cancel()
	}
}
