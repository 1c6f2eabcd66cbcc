package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"
	"github.com/tooleval/tooleval/tests/harness"
)

// chromiumPath is Debian's chromium; make test installs it when missing.
const chromiumPath = "/usr/bin/chromium"

// TestDiffReportInABrowser opens the HTML report of tooleval diff in
// headless Chromium (no network: the report fetches nothing) and checks
// that its summary, the policies by resolved revision, a filtered view,
// the reasons of each change, the calls not replayable and the tools ×
// checks matrices (with the cells that differ marked) show what the JSON
// report says, that look-alike names are escaped, and that with scripts
// disabled every table is still there. It saves screenshots as
// build/diff-report.png and build/diff-report-noscript.png.
func TestDiffReportInABrowser(t *testing.T) {
	t.Parallel()
	_, err := os.Stat(chromiumPath)
	require.NoError(t, err, "the browser test needs Debian's chromium (make test installs it: apt-get install chromium)")

	candidate := harness.ConfigFile(t, "", map[string]any{"tools": map[string]any{"deny": []any{"web_search", "write_file", "search"}, "allow": nil}})
	inputs := exampleInputs(t, "../../../inputs/*.json")
	// A look-alike name (a zero-width space) and a decision log event
	// whose masked arguments leave a call not replayable.
	dir := t.TempDir()
	lookalike := filepath.Join(dir, "lookalike.json")
	require.NoError(t, os.WriteFile(lookalike, []byte(`{"declared": [{"name": "se\u200barch"}], "calls": [{"id": "z1", "name": "se\u200barch"}]}`), 0o600))
	logged := filepath.Join(dir, "decisions.log")
	require.NoError(t, os.WriteFile(logged, []byte(`{"decision_id": "d1", "path": "tooleval/decision", "erased": ["/input/calls/0/args", "/input/workspace"], "input": {"declared": [{"name": "read_file"}], "calls": [{"id": "m1", "name": "read_file"}]}}`+"\n"), 0o600))
	inputs = append(inputs, lookalike, logged)
	report, code := runDiffJSON(t, append([]string{"--candidate", candidate}, inputs...)...)
	require.Equal(t, 1, code)
	require.GreaterOrEqual(t, len(report.Groups), 2, "the report needs more than one kind of change to filter")
	require.Len(t, report.NotReplayable, 1)
	html := filepath.Join(t.TempDir(), "report.html")
	_, stderr, code := harness.CLI(t, "", append([]string{"diff", "--candidate", candidate, "--format", "html", "-o", html}, inputs...)...)
	require.Equal(t, 1, code, stderr)

	ctx := browser(t)
	run := func(a chromedp.Action[chromedp.Void]) {
		t.Helper()
		_, err := chromedp.Run(ctx, a)
		require.NoError(t, err, "chromium: %s", chromiumVersion())
	}
	text := func(sel string) string {
		t.Helper()
		s, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(sel)))
		require.NoError(t, err, sel)
		return s
	}
	evaluate := func(js string) int {
		t.Helper()
		n, err := chromedp.Run(ctx, chromedp.Evaluate[int](js))
		require.NoError(t, err, js)
		return n
	}
	visibleRows := `[...document.querySelectorAll("#changes tbody tr")].filter(r => !r.hidden).length`
	chooseGroup := func(change string) {
		t.Helper()
		evaluate(fmt.Sprintf(`(() => { const s = document.getElementById("group-filter"); s.value = %s; s.dispatchEvent(new Event("change")); return 1; })()`, jsString(change)))
	}

	// everything checks what the page shows with or without its script.
	everything := func(scripted bool) {
		t.Helper()
		require.Equal(t, [5]string{
			strconv.Itoa(report.Requests), strconv.Itoa(report.Calls),
			strconv.Itoa(report.ChangedCalls), strconv.Itoa(report.ChangedRequests), "1",
		}, [5]string{text("#summary-requests"), text("#summary-calls"), text("#summary-changed-calls"), text("#summary-changed-requests"), text("#summary-not-replayable")})
		require.Equal(t, len(report.Changes), evaluate(`document.querySelectorAll("#changes tbody tr").length`))
		require.Equal(t, len(report.Groups), evaluate(`document.querySelectorAll("#groups tbody tr").length`))
		// The policies by resolved revision, and when the report was made.
		require.Equal(t, report.BasePolicy.BundleRevision, text("#policy-base .revision"))
		require.Equal(t, report.CandidatePolicy.ConfigDigest, text("#policy-candidate .digest"))
		made, err := time.Parse(time.RFC3339, text("#generated-at"))
		require.NoError(t, err)
		require.WithinDuration(t, time.Now(), made, 5*time.Minute)
		// Each change says why on both sides: the deny entry and its source.
		require.Equal(t, len(report.Changes), evaluate(`[...document.querySelectorAll("#changes tbody tr td.why-after")].filter(td => /stage global_policy deny refused: entry .* \(config\.tools\.deny\[\d\]\)/.test(td.textContent)).length`))
		require.Equal(t, len(report.Changes), evaluate(`[...document.querySelectorAll("#changes tbody tr td.why-before")].filter(td => td.querySelector("li").textContent.length > 0).length`))
		// The look-alike is escaped, never shown raw.
		require.Positive(t, evaluate(`[...document.querySelectorAll("#changes td.name")].filter(td => td.textContent === "se\\u200barch").length`))
		require.Equal(t, 0, evaluate(`document.body.textContent.includes("\u200b") ? 1 : 0`))
		// The call not replayable, with why.
		require.Equal(t, "m1", text("#not-replayable tbody td.id"))
		require.Contains(t, text("#not-replayable tbody td.why-not"), "the log masked /input/calls/0/args")
		// A matrix pair per changed request, both drawn, the cells that
		// differ marked: a denied tool's cells differ on the deny column.
		require.Equal(t, report.ChangedRequests, evaluate(`document.querySelectorAll("section.matrices").length`))
		require.Equal(t, 2*report.ChangedRequests, evaluate(`document.querySelectorAll("section.matrices table.matrix").length`))
		require.Positive(t, evaluate(`document.querySelectorAll("table.matrix[data-side=candidate] td.refused.differs").length`))
		require.Equal(t, 0, evaluate(`document.querySelectorAll("table.matrix td.differs:not(.refused):not(.pass):not(.exempt):not(.not_applicable)").length`))
		// Filters are offered only where the script runs.
		controls := 0
		if scripted {
			controls = 2
		}
		require.Equal(t, controls, evaluate(`[...document.querySelectorAll(".controls")].filter(c => !c.hidden).length`))
	}

	// Scripts off: everything is in the HTML itself.
	disableScripts := chromedp.Action[chromedp.Void](func(ctx context.Context, t *chromedp.Target) (chromedp.Void, error) {
		_, err := cdp.Call(ctx, t, emulation.SetScriptExecutionDisabled, emulation.SetScriptExecutionDisabledParams{Value: true})
		return chromedp.Void{}, err
	})
	run(disableScripts)
	run(chromedp.Navigate("file://" + html))
	run(chromedp.WaitVisible(chromedp.CSS("#changes")))
	everything(false)
	saveScreenshot(t, ctx, "../../../build/diff-report-noscript.png")

	// Scripts on: the same, and the filters work.
	enableScripts := chromedp.Action[chromedp.Void](func(ctx context.Context, t *chromedp.Target) (chromedp.Void, error) {
		_, err := cdp.Call(ctx, t, emulation.SetScriptExecutionDisabled, emulation.SetScriptExecutionDisabledParams{Value: false})
		return chromedp.Void{}, err
	})
	run(enableScripts)
	run(chromedp.Navigate("file://" + html))
	run(chromedp.WaitVisible(chromedp.CSS("#group-filter")))
	everything(true)

	// Every kind of change, chosen in the filter, shows its own calls.
	for _, g := range report.Groups {
		chooseGroup(g.Change)
		require.Equal(t, strconv.Itoa(g.Calls), text("#visible-count"), g.Change)
		require.Equal(t, g.Calls, evaluate(visibleRows), g.Change)
	}

	// A text filter on a request narrows to its calls.
	chooseGroup("")
	first := report.Changes[0].Request
	want := 0
	for _, c := range report.Changes {
		if c.Request == first {
			want++
		}
	}
	run(chromedp.SendKeys(chromedp.CSS("#text-filter"), filepath.Base(first)))
	require.Equal(t, want, evaluate(visibleRows))

	// Choosing a request shows its matrices only: a header and one row
	// per declared tool, under each policy.
	evaluate(fmt.Sprintf(`(() => { const s = document.getElementById("matrix-request"); s.value = %s; s.dispatchEvent(new Event("change")); return 1; })()`, jsString(first)))
	require.Equal(t, 1, evaluate(`[...document.querySelectorAll("section.matrices")].filter(s => !s.hidden).length`))
	var firstRequest struct {
		Declared []any `json:"declared"`
	}
	data, err := os.ReadFile(first)
	require.NoError(t, err, "the matrix request names a corpus file")
	require.NoError(t, json.Unmarshal(data, &firstRequest))
	for _, side := range []string{"base", "candidate"} {
		rows := evaluate(fmt.Sprintf(`[...document.querySelectorAll("section.matrices")].find(s => !s.hidden).querySelectorAll("table[data-side=%s] tr").length`, side))
		require.Equal(t, len(firstRequest.Declared)+1, rows, "%s: a header and one row per declared tool", side)
	}
	saveScreenshot(t, ctx, "../../../build/diff-report.png")
}

// browser starts headless Chromium for one test.
func browser(t *testing.T) context.Context {
	t.Helper()
	profile := t.TempDir()
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(chromiumPath),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.UserDataDir(profile),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-quic", true),
		chromedp.WindowSize(1400, 1000),
	}
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	t.Cleanup(cancelAlloc)
	ctx, cancel := chromedp.NewContext(allocCtx)
	t.Cleanup(cancel)
	ctx, cancelTimeout := context.WithTimeout(ctx, 120*time.Second)
	t.Cleanup(cancelTimeout)
	return ctx
}

func saveScreenshot(t *testing.T, ctx context.Context, path string) {
	t.Helper()
	screenshot, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	require.NoError(t, err)
	require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
	require.NoError(t, os.WriteFile(path, screenshot, 0o644))
	t.Logf("screenshot: %s (%d bytes)", path, len(screenshot))
}

func jsString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// chromiumVersion is for failure messages.
func chromiumVersion() string {
	out, err := exec.Command(chromiumPath, "--version").Output()
	if err != nil {
		return err.Error()
	}
	return string(out)
}
