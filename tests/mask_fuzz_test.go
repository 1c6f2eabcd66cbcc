package tests

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/tooleval/tooleval/engine"
	"github.com/tooleval/tooleval/tests/harness"
)

// maskKeptStrings are the places of the input whose strings may reach a
// decision log (docs/deploy.md, "Decision logs and masking"), stated here
// independently of policies/system/log/mask.rego: member names, and [] for
// any element of an array.
var maskKeptStrings = map[string]bool{
	"agent.name": true, "agent.role": true,
	"declared[].name": true, "declared[].mcp.server": true, "declared[].mcp.tool": true,
	"layers[].name": true, "layers[].allow[]": true, "layers[].deny[]": true, "layers[].message": true,
	"calls[].id": true, "calls[].name": true,
	"tenant": true, "caller.scopes[]": true, "mcp_services[]": true,
	"subagent_type": true, "fork_tools[]": true, "teammate": true,
}

// maskShape is the input's expected shape, for the generator: each
// object's members (with the shape of each) and each array's element.
var maskShape = map[string][]string{
	"":               {"agent", "declared", "layers", "calls", "run", "tenant", "caller", "mcp_services", "subagent_type", "fork_tools", "teammate", "workspace", "requester", "handoff"},
	"agent":          {"name", "role", "depth", "leaf"},
	"declared[]":     {"name", "mcp", "agent"},
	"declared[].mcp": {"server", "tool"},
	"layers[]":       {"name", "allow", "deny", "message"},
	"calls[]":        {"id", "name", "args"},
	"calls[].args":   {"path", "content", "command"},
	"run":            {"attempts", "refusals", "max_attempts", "max_refusals"},
	"caller":         {"user", "scopes"},
	"workspace":      {"root", "read_roots", "excluded"},
	"requester":      {"session", "batch"},
	"handoff":        {"session", "children"},
}

var maskArrays = map[string]bool{
	"declared": true, "layers": true, "calls": true, "layers[].allow": true, "layers[].deny": true,
	"caller.scopes": true, "mcp_services": true, "fork_tools": true, "workspace.read_roots": true,
	"workspace.excluded": true, "handoff.children": true,
}

// plainName is a member name that may reach the log in the list of
// erased pointers: a plain identifier, never an address or a path.
var plainName = regexp.MustCompile(`^[A-Za-z0-9_]+$`)

// maskGen generates input documents whose every string carries a unique
// token zqNzq, and records which tokens are allowed in the log.
type maskGen struct {
	r       *rand.Rand
	n       int
	allowed map[string]bool
	tokens  []string
}

func (g *maskGen) token(place string, allowed bool) string {
	g.n++
	tok := fmt.Sprintf("zq%dzq", g.n)
	g.tokens = append(g.tokens, tok)
	g.allowed[tok] = allowed
	return tok
}

// str is a string at place: an address, a path, a command or a plain word.
func (g *maskGen) str(place string) string {
	tok := g.token(place, maskKeptStrings[place])
	switch g.r.IntN(4) {
	case 0:
		return "alice." + tok + "@example.com"
	case 1:
		return "/home/alice/" + tok + "/.ssh/id_ed25519"
	case 2:
		return "cat ~/.aws/" + tok
	default:
		return tok
	}
}

// name is a member name that no shape knows: a plain one (it may show
// in the erased pointers) or one a pointer cannot carry.
func (g *maskGen) name(place string) string {
	switch g.r.IntN(6) {
	case 0:
		return "extra_" + g.token(place, true)
	case 1:
		return "alice." + g.token(place, false) + "@example.com"
	case 2:
		return "/home/" + g.token(place, false)
	case 3:
		return "%!d(" + g.token(place, false) + ")"
	case 4:
		return "a~1" + g.token(place, false)
	default:
		return ""
	}
}

// any is a value of a random shape at place.
func (g *maskGen) any(place string, depth int) any {
	k := g.r.IntN(7)
	if depth > 3 {
		k = g.r.IntN(4)
	}
	switch k {
	case 0:
		return nil
	case 1:
		return g.r.IntN(3) == 0
	case 2:
		return float64(g.r.IntN(5))
	case 3:
		return g.str(place)
	case 4, 5:
		n := g.r.IntN(3)
		a := make([]any, n)
		for i := range a {
			a[i] = g.value(place+"[]", depth+1)
		}
		return a
	default:
		o := map[string]any{}
		for range g.r.IntN(3) {
			o[g.name(place)] = g.any(place+".?", depth+1)
		}
		return o
	}
}

// value is, most of the time, a value of the shape expected at place
// (whose members and elements are values again), else any shape.
func (g *maskGen) value(place string, depth int) any {
	if depth > 5 || g.r.IntN(5) == 0 {
		return g.any(place, depth)
	}
	if members, ok := maskShape[place]; ok {
		o := map[string]any{}
		for _, m := range members {
			if g.r.IntN(2) == 0 {
				o[m] = g.value(join(place, m), depth+1)
			}
		}
		if g.r.IntN(4) == 0 {
			o[g.name(place)] = g.any(place+".?", depth+1)
		}
		return o
	}
	if maskArrays[place] {
		a := make([]any, g.r.IntN(4))
		for i := range a {
			a[i] = g.value(place+"[]", depth+1)
		}
		return a
	}
	switch place {
	case "agent.depth", "run.attempts", "run.refusals", "run.max_attempts", "run.max_refusals":
		return float64(g.r.IntN(4))
	case "agent.leaf", "declared[].agent":
		return g.r.IntN(2) == 0
	case "calls[].name", "declared[].name", "layers[].allow[]", "layers[].deny[]", "fork_tools[]":
		if g.r.IntN(2) == 0 { // a name the policy knows, so that calls get far
			return []string{"read_file", "write_file", "bash", "*"}[g.r.IntN(4)]
		}
	case "agent.role":
		return []string{"main", "subagent", "fork"}[g.r.IntN(3)]
	case "subagent_type":
		return "fork"
	}
	return g.str(place)
}

func join(place, member string) string {
	if place == "" {
		return member
	}
	return place + "." + member
}

func maskCases(t *testing.T) (n int, seed uint64) {
	n, seed = 60, 21
	if s := os.Getenv("TOOLEVAL_MASK_CASES"); s != "" { // e.g. 5000
		v, err := strconv.Atoi(s)
		require.NoError(t, err)
		n = v
	}
	if s := os.Getenv("TOOLEVAL_MASK_SEED"); s != "" {
		v, err := strconv.ParseUint(s, 10, 64)
		require.NoError(t, err)
		seed = v
	}
	return n, seed
}

// leaks returns the tokens of g that are not allowed and appear in line.
func (g *maskGen) leaks(line string) []string {
	var out []string
	for _, tok := range g.tokens {
		if !g.allowed[tok] && strings.Contains(line, tok) {
			out = append(out, tok)
		}
	}
	return out
}

var maskEntryPoints = []string{"tooleval/decision", "tooleval/explain", "tooleval/launch", "tooleval/check", "tooleval/tools"}

// TestMaskFuzzedShapesOnOPA: inputs of random shapes (every member of
// every shape, known members and unknown ones, names a pointer cannot
// carry), each string carrying a unique token, are sent to every entry
// point of a stock OPA server with decision logging to the console.
// Every decision is logged (none is dropped, no mask rule is skipped),
// and no string of the input other than the allow-listed members reaches
// its log event. Seeded; TOOLEVAL_MASK_CASES (default 60) and
// TOOLEVAL_MASK_SEED make it larger or different.
func TestMaskFuzzedShapesOnOPA(t *testing.T) {
	t.Parallel()
	n, seed := maskCases(t)
	server := harness.StartOPA(t, "--log-level", "info", "--bundle", harness.BundlePath(t), "--set", "decision_logs.console=true")
	g := &maskGen{r: rand.New(rand.NewPCG(seed, 0)), allowed: map[string]bool{}}
	type sent struct {
		id, path string
		input    []byte
	}
	var all []sent
	for i := range n {
		input, err := json.Marshal(g.value("", 0))
		require.NoError(t, err)
		path := maskEntryPoints[i%len(maskEntryPoints)]
		body := append(append([]byte(`{"input":`), input...), '}')
		resp, err := server.Client.Post(server.URL+"/v1/data/"+path, "application/json", bytes.NewReader(body))
		require.NoError(t, err)
		var doc struct {
			DecisionID string `json:"decision_id"`
		}
		require.NoError(t, json.NewDecoder(resp.Body).Decode(&doc))
		resp.Body.Close()
		require.NotEmpty(t, doc.DecisionID, "%s %s", path, input)
		all = append(all, sent{doc.DecisionID, path, input})
	}
	events := map[string]string{}
	require.Eventually(t, func() bool {
		for _, line := range strings.Split(server.Output.String(), "\n") {
			var ev struct {
				Msg        string `json:"msg"`
				DecisionID string `json:"decision_id"`
			}
			if json.Unmarshal([]byte(line), &ev) == nil && ev.Msg == "Decision Log" {
				events[ev.DecisionID] = line
			}
		}
		return len(events) >= len(all)
	}, 30*time.Second, 200*time.Millisecond, "decision log events dropped: %d of %d logged", len(events), len(all))
	for _, word := range []string{"masking failed", "mask rule skipped"} {
		require.NotContains(t, server.Output.String(), word)
	}
	for _, s := range all {
		line, ok := events[s.id]
		require.True(t, ok, "event of %s %s dropped", s.path, s.input)
		require.Empty(t, g.leaks(line), "%s %s\nlogged as %s", s.path, s.input, line)
	}
}

// TestMaskFuzzedShapesInTheAuditLog: the same inputs through the engine
// with its audit log: one record each (also when the evaluation fails),
// and nothing that is not allow-listed reaches it.
func TestMaskFuzzedShapesInTheAuditLog(t *testing.T) {
	t.Parallel()
	n, seed := maskCases(t)
	var buf bytes.Buffer
	e, err := engine.New(context.Background(), engine.WithAuditLogger(slog.New(slog.NewJSONHandler(&buf, nil))))
	require.NoError(t, err)
	g := &maskGen{r: rand.New(rand.NewPCG(seed, 0)), allowed: map[string]bool{}}
	ctx := context.Background()
	for i := range n {
		input, err := json.Marshal(g.value("", 0))
		require.NoError(t, err)
		buf.Reset()
		switch i % 4 {
		case 0:
			_, err = e.Decide(ctx, engine.JSON(input))
		case 1:
			_, err = e.Explain(ctx, engine.JSON(input))
		case 2:
			_, err = e.Launch(ctx, engine.JSON(input))
		default:
			_, err = e.Check(ctx, engine.JSON(input))
		}
		// An error (Explain refuses a trace naming a layer that is
		// not a string) still leaves its record, with the error.
		_ = err
		lines := bytes.Split(bytes.TrimSpace(buf.Bytes()), []byte("\n"))
		require.Len(t, lines, 1, "one record for %s", input)
		require.Empty(t, g.leaks(string(lines[0])), "%s\nlogged as %s", input, lines[0])
	}
}
