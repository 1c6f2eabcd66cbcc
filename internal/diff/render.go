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

// WriteTable writes the report for a terminal: the groups of changes,
// then each changed call, effective tools and errors, and the calls that
// could not be replayed.
func WriteTable(w io.Writer, r *Report) error {
	fmt.Fprintf(w, "base:      %s\ncandidate: %s\n", label(r.Base), label(r.Candidate))
	fmt.Fprintf(w, "%d requests, %d calls replayed: %d calls in %d requests change\n", r.Requests, r.Calls, r.ChangedCalls, r.ChangedRequests)
	if len(r.Groups) > 0 {
		fmt.Fprintln(w)
		for _, g := range r.Groups {
			fmt.Fprintf(w, "  %d %s in %d %s: %s\n", g.Calls, plural(g.Calls, "call", "calls"), g.Requests, plural(g.Requests, "request", "requests"), g.Change)
		}
	}
	if len(r.Changes) > 0 {
		fmt.Fprintln(w)
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "REQUEST\tID\tNAME\tBEFORE\tAFTER")
		for _, c := range r.Changes {
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", c.Request, display.Value(c.ID), display.Value(c.Name), c.Before, c.After)
		}
		if err := tw.Flush(); err != nil {
			return err
		}
	}
	for _, e := range r.Effective {
		fmt.Fprintf(w, "\neffective %s: added [%s], removed [%s]", e.Request, strings.Join(e.Added, ", "), strings.Join(e.Removed, ", "))
	}
	for _, e := range r.Errors {
		fmt.Fprintf(w, "\nerrors %s: [%s] → [%s]", e.Request, strings.Join(e.Before, ", "), strings.Join(e.After, ", "))
	}
	if len(r.Effective)+len(r.Errors) > 0 {
		fmt.Fprintln(w)
	}
	if len(r.NotReplayable) > 0 {
		fmt.Fprintf(w, "\n%d calls not replayable (their verdicts as replayed are not compared):\n", len(r.NotReplayable))
		for _, u := range r.NotReplayable {
			if u.Call < 0 {
				fmt.Fprintf(w, "  %s: %s\n", u.Request, u.Why)
				continue
			}
			fmt.Fprintf(w, "  %s %s %s: %s\n", u.Request, display.Value(u.ID), display.Value(u.Name), u.Why)
		}
	}
	return nil
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
// report embeds (the first changed ones, in corpus order).
const maxMatrices = 200

// htmlData is what the HTML report embeds.
type htmlData struct {
	Report   *Report               `json:"report"`
	Matrices map[string]matrixPair `json:"matrices"`
	Omitted  int                   `json:"omitted_matrices"`
}

type matrixPair struct {
	Base      *matrix.Matrix `json:"base"`
	Candidate *matrix.Matrix `json:"candidate"`
}

// WriteHTML writes a self-contained HTML report (no network fetches):
// the summary, the changed calls with filters, and, for each request
// with a change (up to maxMatrices), its declared tools × checks under
// both policies.
func WriteHTML(ctx context.Context, w io.Writer, r *Report, base, candidate Policy) error {
	data := htmlData{Report: r, Matrices: map[string]matrixPair{}}
	sources := make([]string, 0, len(r.inputs))
	for source := range r.inputs {
		sources = append(sources, source)
	}
	sort.Strings(sources)
	for i, source := range sources {
		if i >= maxMatrices {
			data.Omitted = len(sources) - maxMatrices
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
		data.Matrices[source] = matrixPair{b, c}
	}
	payload, err := json.Marshal(data)
	if err != nil {
		return err
	}
	t, err := template.New("report").Parse(reportTemplate)
	if err != nil {
		return err
	}
	return t.Execute(w, struct {
		Title string
		Data  template.JS
	}{
		Title: fmt.Sprintf("tooleval diff: %s → %s", label(r.Base), label(r.Candidate)),
		Data:  template.JS(payload), // #nosec: JSON from encoding/json, which escapes <, > and &
	})
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
