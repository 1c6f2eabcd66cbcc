package diff

import (
	"fmt"
	"strings"

	"github.com/tooleval/tooleval/engine"
)

// Verdict is what a policy said of one call.
type Verdict struct {
	Allowed bool   `json:"allowed"`
	Outcome string `json:"outcome,omitempty"`
	Reason  string `json:"reason,omitempty"`
	Layer   string `json:"layer,omitempty"`
	Rule    string `json:"rule,omitempty"`
	// Argument is the reading of the call's arguments an argument rule
	// refused or asked on (command or url).
	Argument string `json:"argument,omitempty"`
	// Masked: the call's arguments were masked and this side's verdict
	// depends on them; it is the verdict replayed without them, and only
	// its passing every name-level check is certain.
	Masked bool `json:"masked,omitempty"`
	// From is "log" when the verdict is the one the decision log
	// recorded (the base's, when the base is the bundle revision that
	// wrote the log); empty when it was replayed.
	From string `json:"from,omitempty"`
}

func verdictOf(c engine.CallDecision) Verdict {
	return Verdict{Allowed: c.Allowed, Outcome: string(c.Outcome), Reason: c.Reason, Layer: c.Layer, Rule: c.Rule, Argument: c.Argument}
}

// same compares two verdicts (allowed, outcome, reason, layer, rule,
// argument).
func (v Verdict) same(o Verdict) bool {
	return v.Allowed == o.Allowed && v.outcome() == o.outcome() && v.Reason == o.Reason && v.Layer == o.Layer && v.Rule == o.Rule &&
		v.Argument == o.Argument
}

// outcome is the verdict's outcome; a verdict logged before outcomes
// has the one its allowed says.
func (v Verdict) outcome() string {
	switch {
	case v.Outcome != "":
		return v.Outcome
	case v.Allowed:
		return string(engine.OutcomeAllow)
	}
	return string(engine.OutcomeDeny)
}

// String reads "allowed", "asks a person (LAYER)" or "refused by LAYER
// (REASON)"; a masked verdict reads "passes the name-level checks
// (arguments masked)". So a change from allowed to an ask, or from an
// ask to a refusal, is a kind of its own in the report's groups.
func (v Verdict) String() string {
	if v.Masked {
		return "passes the name-level checks (arguments masked)"
	}
	if v.Allowed {
		return "allowed"
	}
	var why []string // what tells two verdicts of one outcome and layer apart
	if v.Rule != "" {
		why = append(why, v.Rule)
	}
	if v.Argument != "" {
		why = append(why, "argument "+v.Argument)
	}
	if v.outcome() == string(engine.OutcomeAsk) {
		if v.Reason != "" && v.Reason != string(engine.OutcomeAsk) {
			why = append([]string{v.Reason}, why...)
		}
		if len(why) == 0 {
			return fmt.Sprintf("asks a person (%s)", v.Layer)
		}
		return fmt.Sprintf("asks a person (%s: %s)", v.Layer, strings.Join(why, ", "))
	}
	reason := v.Reason
	if len(why) > 0 {
		reason += ": " + strings.Join(why, ", ")
	}
	return fmt.Sprintf("refused by %s (%s)", v.Layer, reason)
}

// reachesArguments reports whether a call with this verdict went through
// the argument checks (paths, read-only shell actions, argument rules)
// or the run budget, which read what a decision log masks. An ask may be
// an argument rule's: it passed every refusing check, so it does.
func (v Verdict) reachesArguments() bool {
	return v.Allowed || v.Reason == engine.ReasonPath || v.Reason == engine.ReasonRunExhausted ||
		(v.Reason == engine.ReasonNotAllowed && v.Layer == "read_only") || v.Argument != "" ||
		v.outcome() == string(engine.OutcomeAsk)
}

// decidingChecks are the checks whose matched entries tell why a call
// was let through: the name-level lists, and the argument rules it met.
var decidingChecks = map[string]bool{"exclusion": true, "stage": true, "layer": true, "arguments": true}

// why picks out of an explain trace the checks that decided a call:
// for a refusal, the check that refused it (the first, which carries the
// decision's reason); for an allowed call, and for a side whose verdict
// the replay did not see whole (masked arguments, or a logged verdict
// the trace does not show), the name-level checks whose list entries
// matched.
func why(trace []engine.TraceStep, v Verdict) []Step {
	if !v.Allowed && !v.Masked {
		for _, s := range trace {
			if s.Reason != "" && s.Outcome == "refused" {
				if v.From != "log" || (s.Reason == v.Reason && s.Layer == v.Layer) {
					return []Step{s}
				}
				break
			}
		}
	}
	out := []Step{}
	for _, s := range trace {
		matched := s.Entry != nil || len(s.Entries) > 0
		if matched && s.Outcome != "refused" && decidingChecks[s.Check] {
			out = append(out, s)
		}
	}
	return out
}
