package engine

import (
	"encoding/json"
	"fmt"

	"github.com/open-policy-agent/opa/v1/ast"
)

// Decision is the decision document of the contract, decoded. The
// document exactly as the policy produced it is available from
// [Decision.JSON].
type Decision struct {
	// Decisions has one entry per input call, in input order.
	Decisions []CallDecision `json:"decisions"`
	// Errors lists configuration and input-shape errors; when it is not
	// empty every call is refused with reason invalid_config.
	Errors []Problem `json:"errors"`
	// Run holds the new run totals; nil when the input had no run.
	Run *RunTotals `json:"run,omitempty"`
	// Revision is the manifest revision of the bundle that decided; it
	// is not part of the decision document.
	Revision string `json:"-"`

	value    ast.Value // the document as the policy returned it
	document any       // or, for a decision the engine made, as Go values
	// fromEntries counts the calls a session answered from its context's
	// entries (see lookupBatch), for the tests that hold that path to the
	// policy.
	fromEntries int
	// fromMemo counts the calls a session answered from its memo of the
	// policy's verdicts (see lookupBatch).
	fromMemo int
}

// CallDecision is the decision for one call.
type CallDecision struct {
	// ID and Name echo the call's id and name exactly as asked; they are
	// strings unless the call was malformed.
	ID   any `json:"id"`
	Name any `json:"name"`
	// Allowed is true when the call may go on to the runtime's own
	// permission and approval pipeline: exactly when Outcome is
	// [OutcomeAllow].
	Allowed bool `json:"allowed"`
	// Outcome is allow, ask or deny. A runtime that reads only Allowed
	// treats ask as a refusal.
	Outcome Outcome `json:"outcome"`
	// Reason, Layer and Message explain a refusal; Rule names the path
	// rule of a path refusal; Argument ("command", "url", "path" or
	// "args") says that an argument rule refused or asked for the call,
	// and which reading of its arguments it looked at (the message quotes
	// that reading).
	Reason   string `json:"reason,omitempty"`
	Layer    string `json:"layer,omitempty"`
	Message  string `json:"message,omitempty"`
	Rule     string `json:"rule,omitempty"`
	Argument string `json:"argument,omitempty"`
	// Trace is every check of the call in evaluation order, given only
	// by [Engine.Explain] (data.tooleval.explain).
	Trace []TraceStep `json:"trace,omitempty"`
}

// TraceStep is one check of an explained call: what it said and, for a
// list entry that matched, which entry and where it came from.
type TraceStep struct {
	// Check is input, config, declaration, exclusion, stage, layer,
	// action, paths, run or arguments (policy when the call could not be
	// traced).
	Check string `json:"check"`
	// Name names the exclusion, stage or layer.
	Name string `json:"name,omitempty"`
	// List is the stage's or layer's list the step checks: deny, allow or
	// ask.
	List string `json:"list,omitempty"`
	// Outcome is pass, refused, exempt, not_applicable, or ask (an ask
	// list that matches).
	Outcome string `json:"outcome"`
	// Reason and Layer are those of the call's decision when this check
	// is the first that refused it.
	Reason string `json:"reason,omitempty"`
	Layer  string `json:"layer,omitempty"`
	// Entry is the list entry that matched and Source where it came from
	// (layers[2].deny[0], floor.exclusions.NAME[3], ...); for a group,
	// Member is the group's member that matched and MemberSource where.
	Entry        any    `json:"entry,omitempty"`
	Source       string `json:"source,omitempty"`
	Member       any    `json:"member,omitempty"`
	MemberSource string `json:"member_source,omitempty"`
	// Rule is the path rule of a refused paths step.
	Rule string `json:"rule,omitempty"`
	// Reading is how the call's command or URL was read (a refused
	// arguments step, an ask step of an argument rule); a refusal by an
	// allow list's argument rules names the rules (Entries, Sources) and
	// the readings they looked at (Readings, by command or url).
	Reading  any      `json:"reading,omitempty"`
	Entries  []any    `json:"entries,omitempty"`
	Sources  []string `json:"sources,omitempty"`
	Readings any      `json:"readings,omitempty"`
	// Tool is the declared name a call reached (declaration step).
	Tool any `json:"tool,omitempty"`
	// Detail says what is wrong with a malformed call (input step).
	Detail string `json:"detail,omitempty"`
	// Errors counts the request's errors (a refused config step).
	Errors int `json:"errors,omitempty"`
}

func stringOrEmpty(v any) string {
	s, _ := v.(string)
	return s
}

// Problem is one entry of Decision.Errors or Launch.Errors: a code, a
// message, and the members that locate the culprit (field, index,
// layer, entry, ...).
type Problem map[string]any

// Code is the problem's error code.
func (p Problem) Code() string { return stringOrEmpty(p["code"]) }

// Message is the problem's human-readable message.
func (p Problem) Message() string { return stringOrEmpty(p["message"]) }

// RunTotals is the run member of a decision. The totals are numbers
// exactly as the policy computed them (a JSON number's text): a run's
// input totals can be any JSON number, and an OPA server answers for
// totals above 2^63 as well, where an int64 would overflow. Use
// json.Number's Int64 method where the totals are known to fit, as they
// do for a [RunGuard]'s.
type RunTotals struct {
	Attempts  json.Number `json:"attempts"`
	Refusals  json.Number `json:"refusals"`
	Exhausted bool        `json:"exhausted"`
}

// SameVerdict reports whether c and o decide alike: allowed, or refused
// with the same outcome for the same reason by the same layer and rule
// (ids, names and messages aside).
func (c CallDecision) SameVerdict(o CallDecision) bool {
	return c.Allowed == o.Allowed && c.Outcome == o.Outcome && c.Reason == o.Reason && c.Layer == o.Layer && c.Rule == o.Rule &&
		c.Argument == o.Argument
}

// AllAllowed reports whether every call of the batch was allowed.
func (d *Decision) AllAllowed() bool {
	for _, c := range d.Decisions {
		if !c.Allowed {
			return false
		}
	}
	return true
}

// JSON is the decision document exactly as the policy produced it: the
// same bytes, up to key order, that opa eval or an OPA server returns
// for the same input (keys are sorted).
func (d *Decision) JSON() ([]byte, error) {
	if d.value != nil {
		x, err := ast.JSON(d.value)
		if err != nil {
			return nil, fmt.Errorf("encode decision: %w", err)
		}
		return json.Marshal(x)
	}
	return json.Marshal(d.document)
}

// Launch is the launch document of the contract, decoded.
type Launch struct {
	// Valid is true when the launch may proceed.
	Valid bool `json:"valid"`
	// Errors says what is wrong with an invalid launch.
	Errors []Problem `json:"errors"`
	// ExecutionAllowedTools is the fork's execution allowlist to persist
	// and reapply on revival: nil means unrestricted, an empty slice
	// means deny-all.
	ExecutionAllowedTools []any `json:"execution_allowed_tools"`
	// Notice is the restriction hint for the fork's task prompt ("" when
	// there is no restriction).
	Notice string `json:"notice"`
	// Revision is the manifest revision of the bundle that decided.
	Revision string `json:"-"`

	document any
}

// JSON is the launch document exactly as the policy produced it.
func (l *Launch) JSON() ([]byte, error) {
	return json.Marshal(l.document)
}

// Catalog is the tools document of the contract, decoded: what the
// name-level rules make of every declared tool.
type Catalog struct {
	// Errors lists configuration and input-shape errors; when it is not
	// empty every tool is refused with reason invalid_config.
	Errors []Problem `json:"errors"`
	// Effective is the sorted list of declared names (as declared) that
	// the exclusions, configured stages and layers let execute.
	Effective []string `json:"effective"`
	// Tools has one entry per declared tool, in declaration order.
	Tools []ToolVerdict `json:"tools"`
	// Revision is the manifest revision of the bundle that decided.
	Revision string `json:"-"`

	document any
}

// ToolVerdict is the catalog entry of one declared tool.
type ToolVerdict struct {
	// Name is the declared name, exactly as declared (a string unless the
	// declaration was malformed).
	Name any `json:"name"`
	// Allowed is true when the name-level rules let the tool execute; its
	// calls may still be refused for their arguments or the run budget.
	Allowed bool `json:"allowed"`
	// Outcome is allow (every call is let through by name),
	// conditional (let through by name, argument rules decide each call:
	// Rules), ask (a layer asks for the tool by name: each of its calls
	// needs a person's approval) or deny.
	Outcome Outcome `json:"outcome"`
	// Reason and Layer explain a refusal.
	Reason string `json:"reason,omitempty"`
	Layer  string `json:"layer,omitempty"`
	// Rules are, for a conditional tool, the argument rules asked of its
	// calls, in the order the checks ask them.
	Rules []RuleInForce `json:"rules,omitempty"`
}

// RuleInForce is an argument rule a conditional tool's calls are asked
// of, with where it is.
type RuleInForce struct {
	// Layer is the stage or layer the rule belongs to.
	Layer string `json:"layer"`
	// List is allow, deny or ask.
	List string `json:"list"`
	// Source is where the rule is: config.tools.allow[1], layers[0].deny[2].
	Source string `json:"source"`
	// Rule is the entry as written.
	Rule ArgumentRule `json:"rule"`
	// Reads is the reading its condition looks at: command, url, path or
	// args.
	Reads string `json:"reads"`
}

// JSON is the tools document exactly as the policy produced it.
func (c *Catalog) JSON() ([]byte, error) {
	return json.Marshal(c.document)
}
