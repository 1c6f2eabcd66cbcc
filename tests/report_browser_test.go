package tests

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

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"
)

// chromiumPath is Debian's chromium; make test installs it when missing.
const chromiumPath = "/usr/bin/chromium"

// TestDiffReportInABrowser opens the HTML report of tooleval diff in
// headless Chromium (no network: the report fetches nothing) and checks
// that its summary, a filtered view and a tools × checks matrix show
// what the JSON report says. It saves a screenshot as
// build/diff-report.png.
func TestDiffReportInABrowser(t *testing.T) {
	_, err := os.Stat(chromiumPath)
	require.NoError(t, err, "the browser test needs Debian's chromium (make test installs it: apt-get install chromium)")

	candidate := overlay(t, "", map[string]any{"tools": map[string]any{"deny": []any{"web_search", "write_file"}, "allow": nil}})
	inputs := exampleInputs(t, "../inputs/*.json")
	report, code := runDiffJSON(t, append([]string{"--candidate", candidate}, inputs...)...)
	require.Equal(t, 1, code)
	require.GreaterOrEqual(t, len(report.Groups), 2, "the report needs more than one kind of change to filter")
	html := filepath.Join(t.TempDir(), "report.html")
	_, stderr, code := cli(t, "", append([]string{"diff", "--candidate", candidate, "--format", "html", "-o", html}, inputs...)...)
	require.Equal(t, 1, code, stderr)

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
	defer cancelAlloc()
	ctx, cancel := chromedp.NewContext(allocCtx)
	defer cancel()
	ctx, cancelTimeout := context.WithTimeout(ctx, 90*time.Second)
	defer cancelTimeout()

	run := func(a chromedp.Action[chromedp.Void]) {
		t.Helper()
		_, err := chromedp.Run(ctx, a)
		require.NoError(t, err, "chromium: %s", chromiumVersion())
	}
	text := func(id string) string {
		t.Helper()
		s, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(id)))
		require.NoError(t, err, id)
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

	run(chromedp.Navigate("file://" + html))
	run(chromedp.WaitVisible(chromedp.CSS("#changes")))
	require.Equal(t, [4]string{
		strconv.Itoa(report.Requests), strconv.Itoa(report.Calls),
		strconv.Itoa(report.ChangedCalls), strconv.Itoa(report.ChangedRequests),
	}, [4]string{text("#summary-requests"), text("#summary-calls"), text("#summary-changed-calls"), text("#summary-changed-requests")})

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

	// The matrix of the first request lists its declared tools.
	matrixRows := evaluate(`document.querySelectorAll("#matrix tr").length`)
	firstMatrix, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.getElementById("matrix-request").value`))
	require.NoError(t, err)
	var firstRequest struct {
		Declared []any `json:"declared"`
	}
	data, err := os.ReadFile(firstMatrix)
	require.NoError(t, err, "the matrix request names a corpus file")
	require.NoError(t, json.Unmarshal(data, &firstRequest))
	require.Equal(t, len(firstRequest.Declared)+1, matrixRows, "a header and one row per declared tool")
	screenshot, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	require.NoError(t, err)

	require.NoError(t, os.MkdirAll("../build", 0o755))
	require.NoError(t, os.WriteFile("../build/diff-report.png", screenshot, 0o644))
	t.Logf("screenshot: build/diff-report.png (%d bytes)", len(screenshot))
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
