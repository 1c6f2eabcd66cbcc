package engine

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"log/slog"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/open-policy-agent/opa/v1/ast"
)

// AuditMessage is the message of every audit record: the message of
// OPA's console decision logger, so that one log pipeline reads the
// engine's records and OPA servers' decision logs alike.
const AuditMessage = "Decision Log"

// The members of an audit record (slog attributes), named as in an OPA
// decision log event:
//
//	decision_id  a random id for this evaluation
//	path         the entry point: tooleval/decision, tooleval/explain,
//	             tooleval/launch or tooleval/check
//	bundles      {"tooleval": {"revision": ...}}: the bundle that decided
//	timestamp    when the evaluation ended (RFC 3339, UTC)
//	input        the input document (a session's batch: its static
//	             document with the batch), masked
//	result       the document returned, masked
//	erased       the JSON pointers the mask removed, sorted
//	error        why the evaluation failed, when it did (result is then
//	             the fail-closed document)
//
// The mask is the bundle's own data.system.log.mask, the one OPA servers
// apply: arguments, paths, users and continuation sessions never reach
// the log by default (docs/deploy.md says how to keep more). If the mask
// cannot be evaluated, the whole input and result are erased.
const auditBundle = "tooleval"

// The entry points an audit record names in path.
const (
	auditDecision = "tooleval/decision"
	auditExplain  = "tooleval/explain"
	auditLaunch   = "tooleval/launch"
	auditCheck    = "tooleval/check"
)

// record logs one evaluation: request is the input document, result the
// document returned (any JSON-compatible value or ast.Value).
func (e *Engine) record(ctx context.Context, p *policy, path string, request ast.Value, result any, evalErr error) {
	e.recordAt(ctx, slog.LevelInfo, p, path, request, result, evalErr)
}

// auditRecord is one evaluation to log: what it was given and gave, and
// when it ended. The mask is applied when the record is written (at
// once, or by an [AuditQueue]); the values are not changed meanwhile.
type auditRecord struct {
	level     slog.Level
	policy    *policy
	path      string
	input     ast.Value // the input document, the record's own copy when queued
	result    ast.Value
	evalErr   error
	id        string
	timestamp time.Time
}

// recordAt is record at a level: a decision that refuses a call, or any
// evaluation that failed, is logged at warning level.
func (e *Engine) recordAt(ctx context.Context, level slog.Level, p *policy, path string, request ast.Value, result any, evalErr error) {
	if e.audit == nil {
		return
	}
	var resultValue ast.Value
	switch r := result.(type) {
	case ast.Value:
		resultValue = r
	default:
		v, err := ast.InterfaceToValue(r)
		if err != nil {
			v = ast.Null{}
		}
		resultValue = v
	}
	if evalErr != nil {
		level = slog.LevelWarn
	}
	r := auditRecord{
		level: level, policy: p, path: path, input: request, result: resultValue, evalErr: evalErr,
		id: newDecisionID(), timestamp: time.Now().UTC(),
	}
	if e.auditQueue != nil {
		// The caller may change its input value once the evaluation has
		// returned: the queued record keeps what was evaluated.
		if request != nil {
			r.input = ast.NewTerm(request).Copy().Value
		}
		if e.auditQueue.offer(r) {
			return
		}
	}
	writeRecord(ctx, e.audit, r)
}

// writeRecord masks a record and logs it to l.
func writeRecord(ctx context.Context, l *slog.Logger, r auditRecord) {
	request := r.input
	if request == nil {
		request = ast.Null{}
	}
	event := map[string]any{"input": jsonOf(request), "result": jsonOf(r.result)}
	erased := r.policy.maskPointers(ctx, r.path, request, r.result)
	for _, pointer := range erased {
		erase(event, pointer)
	}
	attrs := []slog.Attr{
		slog.String("decision_id", r.id),
		slog.String("path", r.path),
		slog.Any("bundles", map[string]any{auditBundle: map[string]any{"revision": r.policy.revision}}),
		slog.String("timestamp", r.timestamp.Format(time.RFC3339Nano)),
		slog.Any("input", event["input"]),
		slog.Any("result", event["result"]),
		slog.Any("erased", erased),
	}
	if r.evalErr != nil {
		attrs = append(attrs, slog.String("error", r.evalErr.Error()))
	}
	l.LogAttrs(ctx, r.level, AuditMessage, attrs...)
}

// auditDecision is record for a decision (nil d: nothing to log).
func (e *Engine) auditDecision(ctx context.Context, p *policy, path string, request ast.Value, d *Decision, evalErr error) {
	if e.audit == nil || d == nil {
		return
	}
	var result any = d.value
	if d.value == nil {
		result = d.document
	}
	level := slog.LevelInfo
	if len(d.Errors) > 0 || !d.AllAllowed() {
		level = slog.LevelWarn // a refusal is worth a look
	}
	e.recordAt(ctx, level, p, path, request, result, evalErr)
}

// maskPointers evaluates the bundle's decision log mask for one event
// (its path, input and result, as OPA gives them to the mask): the JSON
// pointers to erase, sorted. If it cannot, everything is.
func (p *policy) maskPointers(ctx context.Context, path string, request, result ast.Value) []string {
	everything := []string{"/input", "/result"}
	maskInput := ast.NewObject(
		[2]*ast.Term{ast.StringTerm("path"), ast.StringTerm(path)},
		[2]*ast.Term{ast.StringTerm("input"), ast.NewTerm(request)},
		[2]*ast.Term{ast.StringTerm("result"), ast.NewTerm(result)},
	)
	value, err := evalAST(ctx, p.mask, maskInput)
	if err != nil {
		return everything
	}
	set, ok := value.(ast.Set)
	if !ok {
		return everything
	}
	var pointers []string
	var bad bool
	set.Foreach(func(t *ast.Term) {
		s, ok := t.Value.(ast.String)
		if !ok {
			bad = true
			return
		}
		pointers = append(pointers, string(s))
	})
	if bad {
		return everything
	}
	sort.Strings(pointers)
	return pointers
}

func jsonOf(v ast.Value) any {
	x, err := ast.JSON(v)
	if err != nil {
		return nil
	}
	return x
}

// erase removes the member a JSON pointer names from doc, as OPA's
// decision logger does: an array element is removed and the elements
// after it move up (the bundle's mask never names one). A pointer that
// names nothing changes nothing.
func erase(doc map[string]any, pointer string) {
	parts := strings.Split(strings.TrimPrefix(pointer, "/"), "/")
	for i, p := range parts {
		parts[i] = pointerUnescaper.Replace(p)
	}
	// set replaces the node just walked into in its parent.
	var set func(any)
	var node any = doc
	for i, key := range parts {
		last := i == len(parts)-1
		switch n := node.(type) {
		case map[string]any:
			if last {
				delete(n, key)
				return
			}
			set = func(v any) { n[key] = v }
			node = n[key]
		case []any:
			index, err := strconv.Atoi(key)
			if err != nil || index < 0 || index >= len(n) {
				return
			}
			if last {
				if set != nil {
					set(append(n[:index:index], n[index+1:]...))
				}
				return
			}
			set = func(v any) { n[index] = v }
			node = n[index]
		default:
			return
		}
	}
}

// pointerUnescaper reads a JSON pointer token (RFC 6901: ~1 is /, ~0 is ~).
var pointerUnescaper = strings.NewReplacer("~1", "/", "~0", "~")

func newDecisionID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}
