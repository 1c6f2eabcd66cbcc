package diff

import (
	"strings"

	"github.com/tooleval/tooleval/engine"
)

// unreplayableWhy says why a call with masked arguments is not compared.
func unreplayableWhy(arguments string, vb, va Verdict, baseCertain, candidateCertain bool, loggedWhy string) string {
	var sides []string
	if !baseCertain {
		why := "the base " + passesByName(vb)
		if loggedWhy != "" {
			why += " (its logged verdict is not used: " + loggedWhy + ")"
		}
		sides = append(sides, why)
	}
	if !candidateCertain {
		sides = append(sides, "the candidate "+passesByName(va))
	}
	if len(sides) == 1 { // the other side is certain but is no refusal by name either
		other := "the candidate's"
		v := va
		if baseCertain {
			other, v = "the base's", vb
			if vb.From == "log" {
				other = "the base's logged"
			}
		}
		sides = append(sides, other+" verdict ("+v.String()+") is no refusal by name either")
	}
	return "the log masked " + arguments + ": " + strings.Join(sides, "; ") + "; argument checks (path rules, read-only actions, the run budget) are not replayed"
}

func passesByName(v Verdict) string {
	if v.Allowed {
		return "allows the call by name and checks its arguments"
	}
	return "passes the name-level checks and refuses the call by its arguments or the run budget (" + v.String() + " as replayed)"
}

// NotReplayable says which calls of a decision, decided from a decision
// log event whose mask removed the pointers masked (inputs.Document's
// Masked), cannot be replayed and why: request is set when no call can
// (the log masked who is asking, or the calls themselves), and calls[i]
// is set for the i-th call when it reaches a check that reads what the
// log masked (its arguments, the workspace). tooleval eval re-decides
// no such document.
func NotReplayable(masked []string, d *engine.Decision) (request string, calls []string) {
	whole, arguments := maskedParts(masked)
	calls = make([]string, len(d.Decisions))
	for i, c := range d.Decisions {
		switch {
		case whole != "":
			calls[i] = "the log masked " + whole
		case arguments != "" && verdictOf(c).reachesArguments():
			calls[i] = "the log masked " + arguments + ": argument checks are not replayed"
		}
	}
	if whole != "" {
		request = "the log masked " + whole
	}
	return request, calls
}

// maskedParts sorts a decision log's masked pointers into what makes the
// whole request unreplayable (who is asking: the caller's user, a
// continuation's requester or handoff, anything else) and what only the
// argument checks read (call arguments, the workspace).
func maskedParts(masked []string) (whole, arguments string) {
	var w, a []string
	for _, p := range masked {
		switch {
		case p == "/input/workspace" || strings.HasPrefix(p, "/input/workspace/"):
			a = append(a, p)
		case strings.HasPrefix(p, "/input/calls/") && strings.Contains(strings.TrimPrefix(p, "/input/calls/"), "/args"):
			a = append(a, p)
		default:
			w = append(w, p)
		}
	}
	return strings.Join(w, ", "), strings.Join(a, ", ")
}
