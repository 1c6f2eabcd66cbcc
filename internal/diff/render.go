package diff

import (
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"html/template"
	"io"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/tooleval/tooleval/internal/display"
	"github.com/tooleval/tooleval/internal/matrix"
)

// arrow joins the two sides of a change ("allowed → refused ..."): the
// one character outside ASCII a report writes as it stands.
const arrow = " → "

// WriteTable writes the report for a terminal: the policies by resolved
// revision and when the report was made, the groups of changes, each
// changed call and why each side decided it, effective tools and errors,
// and the calls that could not be replayed, with why. Ids and names are
// shown by display.Value, so that look-alikes cannot hide.
func WriteTable(w io.Writer, r *Report) error {
	fmt.Fprintf(w, "base:      %s\ncandidate: %s\nmade:      %s\n", r.BasePolicy, r.CandidatePolicy, r.GeneratedAt)
	fmt.Fprintf(w, "%d requests, %d calls replayed: %d calls in %d requests change\n", r.Requests, r.Calls, r.ChangedCalls, r.ChangedRequests)
	if r.BaseFromLog > 0 {
		fmt.Fprintf(w, "the base verdicts of %d calls with masked arguments are the decision log's (the base is the bundle revision that wrote it)\n", r.BaseFromLog)
	}
	if len(r.Groups) > 0 {
		fmt.Fprintln(w)
		for _, g := range r.Groups {
			fmt.Fprintf(w, "  %d %s in %d %s: %s\n", g.Calls, plural(g.Calls, "call", "calls"), g.Requests, plural(g.Requests, "request", "requests"), display.EscapeAround(g.Change, arrow))
		}
	}
	if len(r.Changes) > 0 {
		fmt.Fprintln(w)
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "REQUEST\tID\tNAME\tBEFORE\tAFTER")
		for _, c := range r.Changes {
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", display.Text(c.Request), display.Value(c.ID), display.Value(c.Name), display.Escape(verdictText(c.Before)), display.Escape(verdictText(c.After)))
		}
		if err := tw.Flush(); err != nil {
			return err
		}
		fmt.Fprintln(w, "\nwhy:")
		for _, c := range r.Changes {
			fmt.Fprintf(w, "  %s %s %s\n    before: %s\n    after:  %s\n", display.Text(c.Request), display.Value(c.ID), display.Value(c.Name), stepsText(c.BeforeWhy), stepsText(c.AfterWhy))
		}
	}
	for _, e := range r.Effective {
		fmt.Fprintf(w, "\neffective %s: %s", display.Text(e.Request), effectiveText(e))
	}
	for _, e := range r.Errors {
		fmt.Fprintf(w, "\nerrors %s: [%s]"+arrow+"[%s]", display.Text(e.Request), strings.Join(e.Before, ", "), strings.Join(e.After, ", "))
	}
	if len(r.Effective)+len(r.Errors) > 0 {
		fmt.Fprintln(w)
	}
	if len(r.NotReplayable) > 0 {
		fmt.Fprintf(w, "\n%d %s not replayable (not compared):\n", len(r.NotReplayable), plural(len(r.NotReplayable), "call", "calls"))
		for _, u := range r.NotReplayable {
			if u.Call < 0 {
				fmt.Fprintf(w, "  %s: %s\n", display.Text(u.Request), display.Escape(u.Why))
				continue
			}
			fmt.Fprintf(w, "  %s %s %s: %s\n", display.Text(u.Request), display.Value(u.ID), display.Value(u.Name), display.Escape(u.Why))
		}
	}
	return nil
}

// verdictText is a verdict with "(logged)" when it is the log's.
func verdictText(v Verdict) string {
	if v.From == "log" {
		return v.String() + " (logged)"
	}
	return v.String()
}

// stepText reads one deciding check: "stage global_policy deny refused:
// entry web_search (config.tools.deny[0])".
func stepText(s Step) string {
	parts := []string{s.Check}
	for _, x := range []string{s.Name, s.List} {
		if x != "" {
			parts = append(parts, display.Text(x))
		}
	}
	out := strings.Join(parts, " ") + " " + s.Outcome
	switch {
	case s.Entry == nil && len(s.Entries) > 0 && s.Outcome == "refused":
		out += ": meets none of " + entriesText(s.Entries, s.Sources)
	case s.Entry == nil && len(s.Entries) > 0:
		out += ": " + entriesText(s.Entries, s.Sources)
	case s.Entry == nil && s.List == "allow" && s.Outcome == "refused":
		out += ": no entry matched"
	}
	if s.Entry != nil {
		out += ": entry " + display.Value(s.Entry)
		if s.Source != "" {
			out += " (" + display.Text(s.Source) + ")"
		}
		if s.Member != nil {
			out += ", member " + display.Value(s.Member)
			if s.MemberSource != "" {
				out += " (" + display.Text(s.MemberSource) + ")"
			}
		}
	}
	if s.Rule != "" {
		out += ", rule " + s.Rule
	}
	return out
}

// effectiveText reads an effective change: "added [a], removed [b]",
// then each tool whose outcome changes, "Bash allow → conditional".
func effectiveText(e EffectiveChange) string {
	text := "added [" + names(e.Added) + "], removed [" + names(e.Removed) + "]"
	for _, t := range e.Outcomes {
		text += ", " + t.String()
	}
	return text
}

// entriesText reads the entries of a step that names several, each
// with its source: "entry {...} (config.tools.allow[2]), entry ...".
func entriesText(entries []any, sources []string) string {
	parts := make([]string, len(entries))
	for i, e := range entries {
		parts[i] = "entry " + display.Value(e)
		if i < len(sources) && sources[i] != "" {
			parts[i] += " (" + display.Text(sources[i]) + ")"
		}
	}
	return strings.Join(parts, ", ")
}

func stepsText(steps []Step) string {
	if len(steps) == 0 {
		return "no check refused, no list entry matched"
	}
	parts := make([]string, len(steps))
	for i, s := range steps {
		parts[i] = stepText(s)
	}
	return strings.Join(parts, "; ")
}

func names(xs []string) string {
	out := make([]string, len(xs))
	for i, x := range xs {
		out[i] = display.Text(x)
	}
	return strings.Join(out, ", ")
}

// WriteJSON writes the report as one JSON document.
func WriteJSON(w io.Writer, r *Report) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(r)
}

//go:embed report.html.tmpl
var reportTemplate string

// maxMatrices bounds the requests whose tools × checks matrices an HTML
// report holds (the first changed ones, in lexical order of source).
const maxMatrices = 200

// page is what the HTML template renders: every table is in the HTML
// itself; the page's script only filters rows and matrices.
type page struct {
	Title        string
	Report       *Report
	Policies     []pagePolicy
	Changes      []pageChange
	Lists        []pageList
	Unreplayable []pageUnreplayable
	Matrices     []pageMatrices
	Omitted      int
}

type pagePolicy struct {
	Side string
	Identity
}

type pageChange struct {
	Request, ID, Name, Group, Filter string
	Before, After                    pageVerdict
	BeforeWhy, AfterWhy              []string
}

// verdictClass is the style of each tool verdict of a matrix.
var verdictClass = map[string]string{"allowed": "allowed", "conditional": "masked", "asks": "masked", "refused": "denied"}

type pageVerdict struct {
	Text, Class string
}

type pageList struct {
	Request, What, Change string
}

type pageUnreplayable struct {
	Request, ID, Name, Why string
	Before, After          pageVerdict
}

// pageMatrices are one request's matrices under both policies.
type pageMatrices struct {
	Request, Label string
	Sides          []pageMatrix
	Differs        int
}

type pageMatrix struct {
	Side   string
	Checks []string
	Rows   []pageRow
	Errors []string
}

type pageRow struct {
	Tool    string
	Verdict pageVerdict
	Differs bool
	Cells   []pageCell
}

type pageCell struct {
	Text, Class, Entry, Other string
	Differs                   bool
}

func pageVerdictOf(v Verdict) pageVerdict {
	if v.Masked {
		return pageVerdict{display.Escape(verdictText(v)), "masked"}
	}
	if v.Allowed {
		return pageVerdict{display.Escape(verdictText(v)), "allowed"}
	}
	return pageVerdict{display.Escape(verdictText(v)), "denied"}
}

// WriteHTML writes a self-contained HTML report (no network fetches):
// the policies by resolved revision, the summary, the changed calls with
// why each side decided them, effective tools and errors, the calls not
// replayable with why, and, for each request with a change (up to
// maxMatrices), its declared tools × checks under both policies with the
// cells that differ marked. Everything is in the HTML itself: a viewer
// that runs no script shows all of it, and the script only filters.
func WriteHTML(ctx context.Context, w io.Writer, r *Report, base, candidate Policy) error {
	p := page{
		Title:    fmt.Sprintf("tooleval diff: %s → %s", label(r.Base), label(r.Candidate)),
		Report:   r,
		Policies: []pagePolicy{{"base", r.BasePolicy}, {"candidate", r.CandidatePolicy}},
	}
	for _, c := range r.Changes {
		id, name := display.Value(c.ID), display.Value(c.Name)
		pc := pageChange{
			Request: c.Request, ID: id, Name: name, Group: c.Group,
			Filter: strings.ToLower(strings.Join([]string{c.Request, id, name, fmt.Sprint(c.ID), fmt.Sprint(c.Name)}, " ")),
			Before: pageVerdictOf(c.Before), After: pageVerdictOf(c.After),
		}
		for _, s := range c.BeforeWhy {
			pc.BeforeWhy = append(pc.BeforeWhy, stepText(s))
		}
		for _, s := range c.AfterWhy {
			pc.AfterWhy = append(pc.AfterWhy, stepText(s))
		}
		p.Changes = append(p.Changes, pc)
	}
	for _, e := range r.Effective {
		p.Lists = append(p.Lists, pageList{e.Request, "effective tools", effectiveText(e)})
	}
	for _, e := range r.Errors {
		p.Lists = append(p.Lists, pageList{e.Request, "errors", "[" + strings.Join(e.Before, ", ") + "] → [" + strings.Join(e.After, ", ") + "]"})
	}
	for _, u := range r.NotReplayable {
		p.Unreplayable = append(p.Unreplayable, pageUnreplayable{u.Request, display.Value(u.ID), display.Value(u.Name), display.Escape(u.Why), pageVerdictOf(u.Before), pageVerdictOf(u.After)})
	}
	sources := make([]string, 0, len(r.inputs))
	for source := range r.inputs {
		sources = append(sources, source)
	}
	sort.Strings(sources)
	for i, source := range sources {
		if i >= maxMatrices {
			p.Omitted = len(sources) - maxMatrices
			break
		}
		b, err := matrix.Build(ctx, base.Engine, r.inputs[source])
		if err != nil {
			return fmt.Errorf("%s: base matrix: %w", source, err)
		}
		c, err := matrix.Build(ctx, candidate.Engine, r.inputs[source])
		if err != nil {
			return fmt.Errorf("%s: candidate matrix: %w", source, err)
		}
		p.Matrices = append(p.Matrices, matrixPair(source, b, c))
	}
	t, err := template.New("report").Funcs(template.FuncMap{"escape": display.Escape, "change": func(s string) string { return display.EscapeAround(s, arrow) }}).Parse(reportTemplate)
	if err != nil {
		return err
	}
	return t.Execute(w, p)
}

// matrixPair lays out one request's matrices, each cell marked when the
// other policy's cell for the same tool and check (by title) differs in
// outcome or entry, or, where the other policy has no such check, when
// the check refuses or exempts the tool (one that passes or does not
// apply changes nothing).
func matrixPair(source string, base, candidate *matrix.Matrix) pageMatrices {
	pm := pageMatrices{Request: source, Label: display.Text(source)}
	side := func(name string, m, other *matrix.Matrix) pageMatrix {
		out := pageMatrix{Side: name, Checks: m.Checks}
		for _, e := range m.Errors {
			out.Errors = append(out.Errors, e.Code())
		}
		column := map[string]int{}
		for j, c := range other.Checks {
			if _, seen := column[c]; !seen {
				column[c] = j
			}
		}
		for i, row := range m.Rows {
			var twin *matrix.Row
			if i < len(other.Rows) {
				twin = &other.Rows[i]
			}
			verdict := pageVerdict{row.Verdict(), verdictClass[row.Verdict()]}
			pr := pageRow{Tool: display.Value(row.Tool), Verdict: verdict, Differs: twin == nil || twin.Verdict() != row.Verdict()}
			for k, outcome := range row.Cells {
				cell := pageCell{Text: outcome, Class: outcome, Entry: display.Text(row.Entries[k])}
				if outcome == matrix.NotApplicable {
					cell.Text = "–"
				}
				if row.Entries[k] == "" {
					cell.Entry = ""
				}
				j, ok := column[m.Checks[k]]
				switch {
				case twin == nil:
					cell.Differs, cell.Other = true, "the "+otherSide(name)+" has no such tool"
				case !ok || j >= len(twin.Cells):
					// A check the other policy does not have differs
					// where it refuses or exempts the tool.
					if outcome == matrix.Refused || outcome == matrix.Exempt {
						cell.Differs, cell.Other = true, "the "+otherSide(name)+" has no such check"
					}
				case twin.Cells[j] != outcome || twin.Entries[j] != row.Entries[k]:
					cell.Differs, cell.Other = true, otherSide(name)+": "+twin.Cells[j]
					if twin.Entries[j] != "" {
						cell.Other += " " + display.Text(twin.Entries[j])
					}
				}
				if cell.Differs && name == "candidate" {
					pm.Differs++
				}
				pr.Cells = append(pr.Cells, cell)
			}
			out.Rows = append(out.Rows, pr)
		}
		return out
	}
	pm.Sides = []pageMatrix{side("base", base, candidate), side("candidate", candidate, base)}
	return pm
}

func otherSide(side string) string {
	if side == "base" {
		return "candidate"
	}
	return "base"
}

func label(spec string) string {
	if spec == "" {
		return "embedded"
	}
	return spec
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
