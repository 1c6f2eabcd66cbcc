package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/tooleval/tooleval/engine"
	"github.com/tooleval/tooleval/internal/display"
	"github.com/tooleval/tooleval/internal/matrix"
)

func writeDecisionTable(w io.Writer, d *engine.Decision) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tNAME\tVERDICT\tREASON\tLAYER\tMESSAGE")
	for _, c := range d.Decisions {
		verdict, reason := "allowed", "-"
		switch {
		case c.Outcome == engine.OutcomeAsk:
			verdict, reason = "ask (refused here)", c.Reason
		case !c.Allowed:
			verdict, reason = "refused", c.Reason
			if c.Rule != "" {
				reason += " (" + c.Rule + ")"
			}
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", display.Value(c.ID), display.Value(c.Name), verdict, reason, dash(c.Layer), dash(display.Escape(c.Message)))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	writeProblems(w, "errors", d.Errors)
	if d.Run != nil {
		fmt.Fprintf(w, "run: attempts %s, refusals %s, exhausted %t\n", d.Run.Attempts, d.Run.Refusals, d.Run.Exhausted)
	}
	for _, c := range d.Decisions {
		if c.Trace != nil {
			if err := writeTrace(w, c); err != nil {
				return err
			}
		}
	}
	return nil
}

// writeTrace prints an explained call's checks, one per line, in
// evaluation order.
func writeTrace(w io.Writer, c engine.CallDecision) error {
	verdict := "allowed"
	switch {
	case c.Outcome == engine.OutcomeAsk:
		verdict = "ask: a person must approve it (asked by " + c.Layer + "); refused where no one can be asked"
	case !c.Allowed:
		verdict = "refused: " + c.Reason + " by " + c.Layer
	}
	fmt.Fprintf(w, "\ncall %s %s: %s\n", display.Value(c.ID), display.Value(c.Name), verdict)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "  CHECK\tNAME\tLIST\tOUTCOME\tENTRY\tSOURCE")
	for _, step := range c.Trace {
		outcome := step.Outcome
		if step.Rule != "" {
			outcome += " (" + step.Rule + ")"
		}
		entry, source := "-", dash(step.Source)
		switch {
		case step.Entry != nil:
			entry = display.Value(step.Entry)
		case len(step.Entries) > 0:
			// the argument rules a call met, or did not meet
			entries := make([]string, len(step.Entries))
			for i, e := range step.Entries {
				entries[i] = display.Value(e)
			}
			entry, source = strings.Join(entries, ", "), strings.Join(step.Sources, ", ")
		}
		if step.Member != nil {
			entry += " > " + display.Value(step.Member)
			source += " > " + step.MemberSource
		}
		fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\t%s\t%s\n", step.Check, dash(step.Name), dash(step.List), outcome, entry, source)
	}
	return tw.Flush()
}

func writeCatalogTable(w io.Writer, c *engine.Catalog) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tVERDICT\tREASON\tLAYER")
	var conditional []engine.ToolVerdict
	for _, t := range c.Tools {
		reason := "-"
		if !t.Allowed {
			reason = t.Reason
		}
		if t.Outcome == engine.OutcomeConditional {
			conditional = append(conditional, t)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", display.Value(t.Name), matrix.Verdict(t.Allowed, t.Outcome), reason, dash(t.Layer))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	writeConditional(w, conditional)
	writeProblems(w, "errors", c.Errors)
	fmt.Fprintf(w, "effective: %s\n", strings.Join(c.Effective, ", "))
	return nil
}

func writeLaunchTable(w io.Writer, l *engine.Launch) {
	fmt.Fprintf(w, "valid: %t\n", l.Valid)
	switch {
	case l.ExecutionAllowedTools == nil:
		fmt.Fprintln(w, "execution_allowed_tools: unrestricted")
	case len(l.ExecutionAllowedTools) == 0:
		fmt.Fprintln(w, "execution_allowed_tools: [] (deny-all)")
	default:
		fmt.Fprintf(w, "execution_allowed_tools: %v\n", l.ExecutionAllowedTools)
	}
	if l.Notice != "" {
		fmt.Fprintf(w, "notice: %s\n", l.Notice)
	}
	writeProblems(w, "errors", l.Errors)
}

func writeProblems(w io.Writer, title string, problems []engine.Problem) {
	if len(problems) == 0 {
		return
	}
	fmt.Fprintf(w, "%s:\n", title)
	for _, p := range problems {
		fmt.Fprintf(w, "  %s: %s%s\n", p.Code(), p.Message(), location(p))
	}
}

// location renders the members of a problem that locate its culprit:
// first the path of the culprit itself (at config.tools.deny[1],
// at layers[0].allow[2]), then every other member as name=value.
func location(p engine.Problem) string {
	path, used := problemPath(p)
	keys := make([]string, 0, len(p))
	for k := range p {
		if k != "code" && k != "message" && !used[k] {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s=%s", k, display.Value(p[k]))
	}
	rest := strings.Join(parts, " ")
	switch {
	case path != "" && rest != "":
		return " (at " + path + "; " + rest + ")"
	case path != "":
		return " (at " + path + ")"
	case rest != "":
		return " (" + rest + ")"
	}
	return ""
}

// problemPath returns the path in the configuration or the request of a
// problem's culprit, from its field, index, and for an inline layer its
// layer_index and list, with the members it was made of; "" when the
// problem names no field.
func problemPath(p engine.Problem) (string, map[string]bool) {
	field, ok := p["field"].(string)
	if !ok || field == "" {
		return "", nil
	}
	used := map[string]bool{"field": true}
	path := display.Value(field)
	if layer, ok := wholeNumber(p["layer_index"]); ok && field == "layers" {
		path += fmt.Sprintf("[%s]", layer)
		used["layer_index"] = true
		if list, ok := p["list"].(string); ok && (list == "allow" || list == "deny") {
			path += "." + list
			used["list"] = true
		}
	}
	if index, ok := wholeNumber(p["index"]); ok {
		path += fmt.Sprintf("[%s]", index)
		used["index"] = true
	}
	return path, used
}

// wholeNumber returns v as written when it is a non-negative whole JSON number.
func wholeNumber(v any) (string, bool) {
	var s string
	switch n := v.(type) {
	case json.Number:
		s = n.String()
	case int:
		s = strconv.Itoa(n)
	case float64:
		if n != math.Trunc(n) || n < 0 || n > 1e15 {
			return "", false
		}
		s = strconv.FormatFloat(n, 'f', 0, 64)
	default:
		return "", false
	}
	if s == "" || strings.Trim(s, "0123456789") != "" {
		return "", false
	}
	return s, true
}

func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// writeConditional lists, under a catalog's table, the argument rules
// that decide the calls of each conditional tool, with their sources.
func writeConditional(w io.Writer, tools []engine.ToolVerdict) {
	if len(tools) == 0 {
		return
	}
	fmt.Fprintln(w, "conditional: argument rules decide each call")
	for _, t := range tools {
		fmt.Fprintf(w, "  %s:\n", display.Value(t.Name))
		for _, r := range t.Rules {
			rule, _ := json.Marshal(r.Rule) // decoded from JSON: never fails
			fmt.Fprintf(w, "    %s %s (%s, %s)\n", r.List, rule, r.Source, r.Reads)
		}
	}
}
