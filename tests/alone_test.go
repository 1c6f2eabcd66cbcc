package tests

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/tooleval/tooleval/engine"
	"github.com/tooleval/tooleval/tests/harness"
)

// aloneStatic is the static part of the requests of
// TestPropertyCallDecidedAlone: a layer whose argument rules depend on
// numbers (patterns over the canonical JSON, exact members, nested, in
// lists), as deny, ask and allow rules.
const aloneStatic = `"agent": {"role": "main", "depth": 0},
"declared": [{"name": "deploy"}, {"name": "read_file"}],
"layers": [{"name": "ops",
  "allow": ["read_file",
    {"tool": "deploy", "args_pattern": "^\\{\"env\":\"dev\""},
    {"tool": "deploy", "args": {"replicas": 100}},
    {"tool": "deploy", "args": {"mode": {"level": 1e-7}}},
    {"tool": "deploy", "args_pattern": "\"list\":\\[1e\\+21,"}],
  "deny": [
    {"tool": "deploy", "args_pattern": "\"replicas\":10000000[,}]"},
    {"tool": "deploy", "args": {"count": 0}},
    {"tool": "deploy", "args_pattern": "\"level\":0\\.000001[,}]"}],
  "ask": [
    {"tool": "deploy", "args_pattern": "\"list\":\\[[^\\]]*9007199254740992"},
    {"tool": "deploy", "args": {"count": 1}}]}]`

// aloneNumbers are spellings of equal numbers (each inner list one
// float64 value): the calls of a batch mix them.
var aloneNumbers = [][]string{
	{"10000000", "1e7", "1.0e7", "1E7", "10000000.0", "1e+7", "100000e2"},
	{"100", "1e2", "100.0", "1.00e2", "10e1"},
	{"1e21", "1000000000000000000000", "1e+21", "10e20", "1.0E21"},
	{"1e-7", "0.0000001", "1.0E-7", "10e-8"},
	{"0", "-0", "0.0", "-0.0", "0e3"},
	{"0.000001", "1e-6", "1.0e-6", "10e-7"},
	{"9007199254740992", "9007199254740993", "9.007199254740992e15"},
	{"1", "1.0", "1e0", "10e-1"},
	{"0.30000000000000004", "0.3000000000000000444"},
}

// aloneArgs is a call's args object as JSON text, its numbers spelled
// from aloneNumbers (the families in fams, so that the calls of a batch
// share values).
func aloneArgs(r *rand.Rand, fams []int) string {
	num := func() string {
		f := aloneNumbers[fams[r.IntN(len(fams))]]
		return f[r.IntN(len(f))]
	}
	var members []string
	if r.IntN(3) == 0 {
		members = append(members, `"env":"dev"`)
	}
	for _, name := range []string{"replicas", "count"} {
		if r.IntN(2) == 0 {
			members = append(members, fmt.Sprintf("%q:%s", name, num()))
		}
	}
	if r.IntN(2) == 0 {
		members = append(members, fmt.Sprintf(`"mode":{"level":%s}`, num()))
	}
	if r.IntN(2) == 0 {
		list := make([]string, 1+r.IntN(3))
		for i := range list {
			list[i] = num()
		}
		members = append(members, fmt.Sprintf(`"list":[%s]`, strings.Join(list, ",")))
	}
	r.Shuffle(len(members), func(i, j int) { members[i], members[j] = members[j], members[i] })
	return "{" + strings.Join(members, ",") + "}"
}

// decisionTexts are the decisions of a decision document (JSON) as JSON
// texts, numbers as written: equal texts are equal decisions, spelling
// included.
func decisionTexts(t *testing.T, doc []byte, member string) []string {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(doc))
	dec.UseNumber()
	var d map[string]any
	require.NoError(t, dec.Decode(&d))
	list, ok := d[member].([]any)
	require.True(t, ok, "no %s in %s", member, doc)
	out := make([]string, len(list))
	for i, x := range list {
		b, err := json.Marshal(x)
		require.NoError(t, err)
		out[i] = string(b)
	}
	return out
}

// TestPropertyCallDecidedAlone: over generated batches whose calls spell
// equal numbers differently (nested, in lists) under rules that depend
// on them, every call's decision in its batch equals its decision alone
// (a batch of that call only), one-shot (engine Decide, and Explain's
// decisions), in a session, and through a stock OPA server (REST). 15
// batches (ten times more in make soak). OPA's function cache equates
// numbers by value, so a call must never be read with a neighbour's
// spelling.
func TestPropertyCallDecidedAlone(t *testing.T) {
	t.Parallel()
	server := harness.StartOPA(t, "--log-level", "error", "--bundle", harness.BundlePath(t))
	e, err := engine.New(context.Background())
	require.NoError(t, err)
	ctx := context.Background()
	static, err := engine.DecodeInput([]byte("{" + aloneStatic + "}"))
	require.NoError(t, err)
	session, err := e.NewSession(ctx, static, engine.WithPathResolution(false))
	require.NoError(t, err)

	r := rand.New(rand.NewPCG(2026, 1204))
	batches := scaled(t, 10)
	calls, refused, differ := 0, 0, 0
	for b := range batches {
		fams := []int{r.IntN(len(aloneNumbers)), r.IntN(len(aloneNumbers))}
		n := 2 + r.IntN(5)
		texts := make([]string, n)
		for i := range texts {
			name := "deploy"
			if r.IntN(8) == 0 {
				name = "read_file"
			}
			texts[i] = fmt.Sprintf(`{"id":"c%d","name":%q,"args":%s}`, i, name, aloneArgs(r, fams))
		}
		request := func(calls ...string) []byte {
			return []byte("{" + aloneStatic + `,"calls":[` + strings.Join(calls, ",") + "]}")
		}
		batchOnly := func(calls ...string) []byte {
			return []byte(`{"calls":[` + strings.Join(calls, ",") + "]}")
		}
		decide := func(data []byte) map[string][]string {
			out := map[string][]string{}
			d, err := e.Decide(ctx, engine.JSON(data))
			require.NoError(t, err)
			j, err := d.JSON()
			require.NoError(t, err)
			out["one-shot"] = decisionTexts(t, j, "decisions")
			x, err := e.Explain(ctx, engine.JSON(data))
			require.NoError(t, err)
			j, err = x.JSON()
			require.NoError(t, err)
			out["explain"] = decisionTexts(t, j, "decisions") // each with its trace
			return out
		}
		viaSession := func(data []byte) []string {
			v, err := engine.DecodeInput(data)
			require.NoError(t, err)
			d, err := session.DecideRequest(ctx, v)
			require.NoError(t, err)
			j, err := d.JSON()
			require.NoError(t, err)
			return decisionTexts(t, j, "decisions")
		}
		viaREST := func(data []byte) []string {
			got, ok, err := server.Query("tooleval/decision", data)
			require.NoError(t, err)
			require.True(t, ok)
			return decisionTexts(t, got, "decisions")
		}
		together := decide(request(texts...))
		together["session"] = viaSession(batchOnly(texts...))
		together["REST"] = viaREST(request(texts...))
		for i, text := range texts {
			alone := decide(request(text))
			alone["session"] = viaSession(batchOnly(text))
			alone["REST"] = viaREST(request(text))
			for way, got := range alone {
				if together[way][i] != got[0] {
					differ++
					if differ <= 5 {
						t.Errorf("batch %d, call %d, %s: in the batch %s\nalone %s\nbatch: %s", b, i, way, together[way][i], got[0], request(texts...))
					}
				}
			}
			require.Equal(t, alone["one-shot"][0], alone["session"][0], "one-shot and session differ: %s", text)
			require.Equal(t, alone["one-shot"][0], alone["REST"][0], "one-shot and REST differ: %s", text)
			if strings.Contains(alone["one-shot"][0], `"allowed":false`) {
				refused++
			}
			calls++
		}
	}
	t.Logf("%d batches, %d calls (%d refused) decided in their batch and alone: %d differences", batches, calls, refused, differ)
	require.Zero(t, differ)
	require.Greater(t, refused, calls/5, "too few refusals: the rules do not bite")
	require.Less(t, refused, calls*4/5, "too few calls allowed")
}
