package engine

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"log/slog"

	"github.com/open-policy-agent/opa/v1/ast"
)

// AuditRecord is what the audit logger receives for every decision, as
// the attributes of one "tooleval decision" record.
type AuditRecord struct {
	DecisionID string      `json:"decision_id"`
	Revision   string      `json:"revision"`
	Agent      any         `json:"agent"`
	Calls      []AuditCall `json:"calls"`
	Errors     int         `json:"errors"`
	Failure    string      `json:"failure,omitempty"`
}

// AuditCall is one call of an [AuditRecord]. Arguments are never logged.
type AuditCall struct {
	ID      any    `json:"id"`
	Name    any    `json:"name"`
	Allowed bool   `json:"allowed"`
	Reason  string `json:"reason,omitempty"`
	Layer   string `json:"layer,omitempty"`
}

func (e *Engine) auditDecision(ctx context.Context, p *policy, request ast.Value, d *Decision, evalErr error) {
	if e.audit == nil || d == nil {
		return
	}
	rec := AuditRecord{
		DecisionID: newDecisionID(),
		Revision:   p.revision,
		Agent:      fieldOrNull(request, "agent"),
		Calls:      make([]AuditCall, len(d.Decisions)),
		Errors:     len(d.Errors),
	}
	for i, c := range d.Decisions {
		rec.Calls[i] = AuditCall{ID: c.ID, Name: c.Name, Allowed: c.Allowed, Reason: c.Reason, Layer: c.Layer}
	}
	if evalErr != nil {
		rec.Failure = evalErr.Error()
	}
	e.audit.LogAttrs(ctx, slog.LevelInfo, "tooleval decision",
		slog.String("decision_id", rec.DecisionID),
		slog.String("revision", rec.Revision),
		slog.Any("agent", rec.Agent),
		slog.Any("calls", rec.Calls),
		slog.Int("errors", rec.Errors),
		slog.String("failure", rec.Failure),
	)
}

func newDecisionID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}
