package tests

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// docCommand is one command a page shows: a "$ " line of a code block,
// or a line of an sh or bash block without "$ " lines, with its
// continuation lines (a trailing \ or an open single quote) joined and a
// trailing comment dropped.
type docCommand struct{ page, command string }

// shownCommands lists the commands of README.md and docs/*.md.
func shownCommands(t *testing.T) []docCommand {
	t.Helper()
	pages, err := filepath.Glob("../docs/*.md")
	require.NoError(t, err)
	pages = append([]string{"../README.md"}, pages...)
	block := regexp.MustCompile("(?s)```([a-z]*)\n(.*?)```")
	var out []docCommand
	for _, page := range pages {
		data, err := os.ReadFile(page)
		require.NoError(t, err)
		name := strings.TrimPrefix(page, "../")
		for _, m := range block.FindAllStringSubmatch(string(data), -1) {
			lang, body := m[1], m[2]
			lines := strings.Split(body, "\n")
			dollar := slices.ContainsFunc(lines, func(l string) bool { return strings.HasPrefix(l, "$ ") })
			if !dollar && lang != "sh" && lang != "bash" {
				continue // output, a synopsis or a file
			}
			for i := 0; i < len(lines); i++ {
				line := lines[i]
				if dollar {
					var ok bool
					if line, ok = strings.CutPrefix(line, "$ "); !ok {
						continue
					}
				}
				line = strings.TrimSpace(line)
				if line == "" || strings.HasPrefix(line, "#") {
					continue
				}
				command := line
				for (strings.HasSuffix(command, "\\") || strings.Count(command, "'")%2 == 1) && i+1 < len(lines) {
					i++
					command = strings.TrimSpace(strings.TrimSuffix(command, "\\")) + " " + strings.TrimSpace(lines[i])
				}
				if c, _, found := strings.Cut(command, "  #"); found {
					command = c
				}
				out = append(out, docCommand{name, strings.TrimSpace(command)})
			}
		}
	}
	return out
}

// ranAsWritten says whether a test of its own runs a command as the page
// shows it: TestDocsCommandsRun (the tooleval and openssl lines of
// docCommands' pages), TestREADMEExamplesRun (the README's tooleval
// lines) and TestHooksDocRuns (every sh line of docs/hooks.md).
func ranAsWritten(c docCommand) bool {
	page := strings.TrimPrefix(c.page, "docs/")
	switch {
	case c.page == "README.md":
		return strings.HasPrefix(c.command, "tooleval ") || strings.HasPrefix(c.command, "bin/tooleval ")
	case c.page == "docs/hooks.md":
		return true
	}
	_, listed := docCommands[page]
	return listed && (strings.HasPrefix(c.command, "tooleval ") || strings.HasPrefix(c.command, "openssl "))
}

// TestEveryShownCommandHasARunner: every command README.md and docs/
// show is run by a test as written (ranAsWritten), or docCommandRunners
// names what runs it, or docCommandsNotRun says why nothing can. A
// runner is a test function of this repository, "make STAGE" (a stage
// make test runs) or "ci: LINE" (a line of .ci/run). An entry no page
// shows any longer fails, so the tables cannot go stale.
func TestEveryShownCommandHasARunner(t *testing.T) {
	t.Parallel()
	sources := goTestSources(t)
	makefile, err := os.ReadFile("../Makefile")
	require.NoError(t, err)
	ci, err := os.ReadFile("../.ci/run")
	require.NoError(t, err)
	stages := regexp.MustCompile(`(?m)^(?:REGO|GO)_STAGES\s*:=(.*)$`).FindAllStringSubmatch(string(makefile), -1)
	require.Len(t, stages, 2, "the Makefile's two lanes")
	inMakeTest := strings.Fields(stages[0][1] + " " + stages[1][1])
	used := map[string]bool{}
	for _, c := range shownCommands(t) {
		if ranAsWritten(c) {
			continue
		}
		if reason, ok := docCommandsNotRun[c.command]; ok {
			used[c.command] = true
			t.Logf("%s: not run: %q: %s", c.page, c.command, reason)
			continue
		}
		runner, ok := docCommandRunners[c.command]
		if !check(t, ok, "%s shows %q, which no test runs: run it in a test and name the test in docCommandRunners", c.page, c.command) {
			continue
		}
		used[c.command] = true
		switch {
		case strings.HasPrefix(runner, "make "):
			require.Contains(t, inMakeTest, strings.TrimPrefix(runner, "make "), "%s: %q: %s is not a stage of make test", c.page, c.command, runner)
		case strings.HasPrefix(runner, "ci: "):
			require.Contains(t, strings.Split(string(ci), "\n"), strings.TrimPrefix(runner, "ci: "), "%s: %q: .ci/run has no line %q", c.page, c.command, runner)
		default:
			require.Contains(t, sources, "func "+runner+"(", "%s: %q: no test %s", c.page, c.command, runner)
		}
	}
	for command := range docCommandRunners {
		require.True(t, used[command], "docCommandRunners names %q, which no page shows: remove it", command)
	}
	for command := range docCommandsNotRun {
		require.True(t, used[command], "docCommandsNotRun names %q, which no page shows: remove it", command)
	}
}

// check reports a failure without stopping the test (so that one run
// lists every command without a runner) and returns ok.
func check(t *testing.T, ok bool, format string, args ...any) bool {
	t.Helper()
	if !ok {
		t.Errorf(format, args...)
	}
	return ok
}

// goTestSources is the text of every Go test file of the repository.
func goTestSources(t *testing.T) string {
	t.Helper()
	var b strings.Builder
	require.NoError(t, filepath.WalkDir("..", func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "build" || d.Name() == "node_modules" || strings.HasPrefix(d.Name(), ".")) && path != ".." {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(path, "_test.go") {
			data, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			b.Write(data)
		}
		return nil
	}))
	return b.String()
}

// docCommandRunners names, for each shown command no test runs as
// written, what runs it: the test (which runs it with a free port or a
// temporary path where the page has a fixed one), the make test stage
// or the .ci/run line.
var docCommandRunners = map[string]string{
	"claude mcp add --scope project filesystem -- tooleval mcp proxy --server-name filesystem --config /etc/tooleval/filesystem.json --tenant acme --layer /etc/tooleval/operator.json --workspace /home/me/project --audit-log /home/me/.local/state/tooleval/filesystem.jsonl -- npx -y @modelcontextprotocol/server-filesystem /home/me/project": "TestMCPGatewayDocRegistersWithClaudeCode",
	"opa run --server --addr 0.0.0.0:8181 --skip-version-check --optimize-store-for-read-speed --config-file bundle/opa-config.yaml":                    "TestDeployBundleServiceTemplateServes",
	"go test -run '^$' -bench '^BenchmarkNew$' -benchtime 20x -count 8 ./engine/":                                                                       "TestShownBenchmarksRun",
	"make bundle && TOOLEVAL_BUNDLE=$PWD/bundle/tooleval.tar.gz go test -run '^$' -bench BenchmarkProxyCall -benchtime 2000x -count 3 ./tests/e2e/cli/": "TestShownBenchmarksRun",
	"go test -run '^$' -bench ProxyCallInProcess -benchtime 1000x -count 3 ./internal/mcpproxy/":                                                        "TestShownBenchmarksRun",
	"go test -run '^$' -bench Hook -benchtime 200x -count 3 ./internal/hooks/":                                                                          "TestShownBenchmarksRun",
	"go test -run '^$' -bench DeciderAnswer -benchtime 2000x -count 3 ./internal/hooks/":                                                                "TestShownBenchmarksRun",
	"make run":  "ci: make run",
	"make test": "ci: make test",

	"go tool opa fmt -w policies":         "make fmt-check", // fmt --list: -w would change nothing
	"go tool opa check --strict policies": "make check",
	"go tool opa test policies":           "make coverage", // opa test --coverage policies
	"make lint":                           "make lint",
	"go tool opa test policies docs/authoring -r data.deploy_test": "TestAuthoringExampleRuns",

	"make bundle":                                          "make bundle",
	"make bundle SIGNING_KEY=signing.pem":                  "TestMakeBundleSignsWithSigningKey",
	"go build -o bin/opa github.com/open-policy-agent/opa": "TestDeployPinnedOPASnippetRuns",
	"bin/opa run --server --addr 127.0.0.1:8181 --skip-version-check --bundle bundle/tooleval.tar.gz &": "TestDeployPinnedOPASnippetRuns",
	"echo $! > opa.pid": "TestDeployPinnedOPASnippetRuns",
	"curl -s --retry 30 --retry-connrefused --retry-delay 1 localhost:8181/health?bundles": "TestDeployPinnedOPASnippetRuns",
	`kill "$(cat opa.pid)"`: "TestDeployPinnedOPASnippetRuns",
	"opa run --server --addr 0.0.0.0:8181 --skip-version-check --optimize-store-for-read-speed --bundle bundle/tooleval.tar.gz": "TestDeployOPARunCommandsServe",
	"opa run --server --addr 0.0.0.0:8181 --skip-version-check --optimize-store-for-read-speed --bundle tooleval.tar.gz":        "TestDeployOPARunCommandsServe",
	"ln -s bundles/rev-42 current.tmp && mv -T current.tmp current":                                                             "TestDeploySymlinkSwapRunsAsShown",
	`curl -s -X POST http://localhost:8181/v1/data/tooleval/decision -H 'Content-Type: application/json' -d '{"input": {"declared": [{"name": "read_file"}, {"name": "Refund"}], "layers": [{"name": "tenant", "allow": ["read_file"]}], "calls": [{"id": "call_1", "name": "read_file"}, {"id": "call_2", "name": "Refund"}]}}'`: "TestDeployRESTExamplesAnswerAsShown",
	`curl -s -X POST http://localhost:8181/v1/data/tooleval/tools -H 'Content-Type: application/json' -d '{"input": {"declared": [{"name": "read_file"}, {"name": "Refund"}], "layers": [{"name": "tenant", "allow": ["read_file"]}]}}'`:                                                                                          "TestDeployRESTExamplesAnswerAsShown",
	`curl -s -X POST http://localhost:8181/v1/data/tooleval/launch -d '{"input": {"subagent_type": "fork", "fork_tools": ["read_file"], "declared": [{"name": "read_file"}]}}'`:                                                                                                                                                   "TestDeployRESTExamplesAnswerAsShown",
	"opa run --server --addr 127.0.0.1:8181 --skip-version-check --set bundles.tooleval.resource=file://$PWD/tooleval.tar.gz --set bundles.tooleval.service=":                                                                                                                                                                     "TestDeployDocRevisionLookUps",
	"curl -s localhost:8181/v1/data/system/bundles/tooleval/manifest/revision":                                "TestDeployDocRevisionLookUps",
	`curl -s -X POST localhost:8181/v1/query -d '{"query": "x := data.system.bundles[_].manifest.revision"}'`: "TestDeployDocRevisionLookUps",

	"tooleval import claude-code inputs/import/claude-code/project.json > overlay.json":                                   "TestImportExamplesCheckClean",
	"tooleval import codex inputs/import/codex/default.rules > overlay.json":                                              "TestImportExamplesCheckClean",
	"tooleval import gemini --admin-policy inputs/import/gemini/admin.toml inputs/import/gemini/user.toml > overlay.json": "TestImportExamplesCheckClean",
	"tooleval check --strict --config overlay.json":                                                                       "TestImportExamplesCheckClean",

	"git clone . /tmp/fresh && cd /tmp/fresh && time make test": "ci: make test", // CI runs it on a clean clone
}

// docCommandsNotRun are the shown commands no test runs, and why: none
// today. A template is run with the page's blanks filled in
// (TestDeployBundleServiceTemplateServes), a benchmark once
// (TestShownBenchmarksRun).
var docCommandsNotRun = map[string]string{}
