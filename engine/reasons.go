package engine

// The reason codes of a refused call, in the order the contract checks
// them (docs/contract.md, "Decision output"): the first failing check
// gives a refused call's [CallDecision.Reason] and a refused tool's
// [ToolVerdict.Reason].
const (
	// ReasonInvalidInput: the call is malformed (its id or name is not a
	// string); layer input.
	ReasonInvalidInput = "invalid_input"
	// ReasonInvalidConfig: the request or configuration has errors, or
	// the policy could not decide; layer config.
	ReasonInvalidConfig = "invalid_config"
	// ReasonNotDeclared: no declared tool has the call's canonical name;
	// layer declaration.
	ReasonNotDeclared = "not_declared"
	// ReasonExcluded: a runtime exclusion removes the tool; the layer is
	// the exclusion's name.
	ReasonExcluded = "excluded"
	// ReasonDenied: a layer's deny list matched; the layer is its name.
	ReasonDenied = "denied"
	// ReasonNotAllowed: a layer's allow list is a list and did not match;
	// the layer is its name.
	ReasonNotAllowed = "not_allowed"
	// ReasonPath: a path argument broke a path rule (CallDecision.Rule
	// says which); layer workspace.
	ReasonPath = "path"
	// ReasonRunExhausted: the run's budget is spent; layer run.
	ReasonRunExhausted = "run_exhausted"
	// ReasonAsk: no check refuses the call and an inline layer's ask list
	// matches it: the outcome is [OutcomeAsk], the layer is the first
	// that asks. It is not a refusal, but a call with it is not allowed.
	ReasonAsk = "ask"
)

// Outcome is what a decision says of a call (docs/contract.md, "Decision
// output"): [OutcomeAllow], [OutcomeAsk] or [OutcomeDeny]. Precedence
// is deny, then ask, then allow.
type Outcome string

const (
	// OutcomeAllow: the call may go on to the runtime's own permission
	// and approval pipeline; the only outcome with Allowed true.
	OutcomeAllow Outcome = "allow"
	// OutcomeAsk: the call may run only once a person approves it; where
	// no person can be asked it is a refusal.
	OutcomeAsk Outcome = "ask"
	// OutcomeDeny: the call is refused.
	OutcomeDeny Outcome = "deny"
	// OutcomeConditional is a tool's, never a call's: the catalog
	// (data.tooleval.tools) lets the tool through by name, and argument
	// rules decide each of its calls ([ToolVerdict.Rules]).
	OutcomeConditional Outcome = "conditional"
)

// Reasons returns every reason code, in the contract's order.
func Reasons() []string {
	return []string{
		ReasonInvalidInput, ReasonInvalidConfig, ReasonNotDeclared, ReasonExcluded,
		ReasonDenied, ReasonNotAllowed, ReasonPath, ReasonRunExhausted, ReasonAsk,
	}
}
