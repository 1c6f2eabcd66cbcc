package tests

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"reflect"
	"runtime"
	"strconv"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/tooleval/tooleval/engine"
	"github.com/tooleval/tooleval/internal/corpus"
	"github.com/tooleval/tooleval/tests/harness"
	"github.com/tooleval/tooleval/tests/oracle"
)

// differentialCases is how many generated documents the differential
// test compares: 2,500 in `make test`, or TOOLEVAL_DIFFERENTIAL_CASES
// (`make soak` sets ten million).
func differentialCases(t *testing.T) int {
	return envInt(t, "TOOLEVAL_DIFFERENTIAL_CASES", 2500)
}

// differentialSeed seeds the document generator: 7 in `make test`, so a
// run is repeatable, or TOOLEVAL_DIFFERENTIAL_SEED (`make soak` draws one
// and prints it, so a failure it finds can be replayed).
func differentialSeed(t *testing.T) uint64 {
	s := os.Getenv("TOOLEVAL_DIFFERENTIAL_SEED")
	if s == "" {
		return 7
	}
	seed, err := strconv.ParseUint(s, 10, 64)
	require.NoError(t, err, "TOOLEVAL_DIFFERENTIAL_SEED must be a whole number")
	return seed
}

// envInt reads a whole number from the environment variable name, or
// gives def when it is unset.
func envInt(t *testing.T, name string, def int) int {
	t.Helper()
	s := os.Getenv(name)
	if s == "" {
		return def
	}
	n, err := strconv.Atoi(s)
	require.NoErrorf(t, err, "%s must be a whole number", name)
	return n
}

func oracleConfig(t *testing.T) oracle.Config {
	t.Helper()
	cfg, err := oracle.LoadConfig(harness.PoliciesDir())
	require.NoError(t, err)
	return cfg
}

// engineView is the part of an engine decision and catalog the oracle
// models.
func engineView(d *engine.Decision, c *engine.Catalog) oracle.Result {
	r := oracle.Result{Effective: c.Effective, HasErrors: len(d.Errors) > 0}
	for _, c := range d.Decisions {
		r.Verdicts = append(r.Verdicts, oracle.Verdict{ID: c.ID, Name: c.Name, Allowed: c.Allowed, Outcome: string(c.Outcome), Reason: c.Reason, Layer: c.Layer, Rule: c.Rule})
	}
	if d.Run != nil {
		attempts, errA := d.Run.Attempts.Float64()
		refusals, errR := d.Run.Refusals.Float64()
		if errA != nil || errR != nil { // not a number: the oracle never agrees
			attempts, refusals = math.NaN(), math.NaN()
		}
		r.Run = &oracle.Run{Attempts: attempts, Refusals: refusals, Exhausted: d.Run.Exhausted}
	}
	if r.Effective == nil {
		r.Effective = []string{}
	}
	return r
}

// compare decides a document both ways; it returns the two results and
// whether they agree.
func compare(t *testing.T, e *engine.Engine, cfg oracle.Config, doc any) (oracle.Result, oracle.Result, bool) {
	data, err := json.Marshal(doc)
	require.NoError(t, err)
	var generic any
	require.NoError(t, json.Unmarshal(data, &generic))
	d, err := e.Decide(context.Background(), engine.JSON(data))
	require.NoError(t, err)
	want := oracle.Decide(cfg, generic)
	// The catalog (data.tooleval.tools) is compared on one document in
	// twenty, picked by its bytes: about 500 catalogs in make test. Its
	// name-level verdicts are the decisions' (tooleval.verdict.tool_refusals
	// equals verdict.tool_refusal, a Rego test), which every document checks.
	c := &engine.Catalog{Effective: want.Effective}
	if catalogSample(data) {
		c, err = e.Tools(context.Background(), engine.JSON(data))
		require.NoError(t, err)
	}
	got := engineView(d, c)
	agree := reflect.DeepEqual(normalize(got), normalize(want))
	if explainSample(data) {
		x, err := e.Explain(context.Background(), engine.JSON(data))
		require.NoError(t, err)
		if problem := explainDisagrees(d, x); problem != "" {
			t.Errorf("explain disagrees with the decision: %s\ninput: %s", problem, data)
		}
	}
	return got, want, agree
}

// explainSample picks the documents whose explanation is checked against
// their decision: one in twenty in make test (other bits of the hash than
// the catalog's), every one with TOOLEVAL_EXPLAIN_EVERY=1 (make soak).
func explainSample(data []byte) bool {
	if os.Getenv("TOOLEVAL_EXPLAIN_EVERY") == "1" {
		return true
	}
	return fnv32(data)/20%20 == 0
}

// explainDisagrees says how an explained decision x differs from the
// decision d of the same input, or "" when it does not: without its
// traces it is d, every call has a trace, and a trace's first refused
// step has the reason and layer of its call's refusal (an allowed call's
// trace refuses nothing).
func explainDisagrees(d, x *engine.Decision) string {
	if len(d.Decisions) != len(x.Decisions) {
		return "a different number of decisions"
	}
	for i, c := range x.Decisions {
		if len(c.Trace) == 0 {
			return fmt.Sprintf("call %d has no trace", i)
		}
		// the first step that refuses, or, when none does, the first that asks
		var first, firstAsk *engine.TraceStep
		for j := range c.Trace {
			if c.Trace[j].Outcome == "refused" && first == nil {
				first = &c.Trace[j]
			}
			if c.Trace[j].Outcome == "ask" && firstAsk == nil {
				firstAsk = &c.Trace[j]
			}
		}
		if first == nil {
			first = firstAsk
		}
		switch {
		case c.Allowed && first != nil:
			return fmt.Sprintf("call %d is allowed but its trace refuses it or asks at %s %s", i, first.Check, first.Name)
		case !c.Allowed && (first == nil || first.Reason != c.Reason || first.Layer != c.Layer):
			return fmt.Sprintf("call %d is refused %s by %s but its trace says otherwise", i, c.Reason, c.Layer)
		}
		c.Trace = nil
		if !reflect.DeepEqual(c, d.Decisions[i]) {
			return fmt.Sprintf("call %d: explained %+v, decided %+v", i, c, d.Decisions[i])
		}
	}
	if !reflect.DeepEqual(x.Errors, d.Errors) || !reflect.DeepEqual(x.Run, d.Run) {
		return "errors or run differ"
	}
	return ""
}

// catalogSample picks one document in twenty, by its bytes.
func catalogSample(data []byte) bool { return fnv32(data)%20 == 0 }

// fnv32 is the FNV-1a hash of data: the samples of the differential test
// depend on the documents, not on the order the workers take them in.
func fnv32(data []byte) uint32 {
	var h uint32 = 2166136261
	for _, b := range data {
		h = (h ^ uint32(b)) * 16777619
	}
	return h
}

// normalize renders a result for comparison, numbers as JSON float64 so
// that ids and names decoded differently (1e2 and 100) compare equal.
func normalize(r oracle.Result) string {
	b, _ := json.Marshal(r)
	var x any
	_ = json.Unmarshal(b, &x)
	b, _ = json.Marshal(x)
	return string(b)
}

// TestDifferentialAgainstOracle compares the engine with the independent
// oracle on generated documents, valid and malformed. On a divergence it
// shrinks the document and prints it with both results.
func TestDifferentialAgainstOracle(t *testing.T) {
	t.Parallel()
	e, err := engine.New(context.Background())
	require.NoError(t, err)
	cfg := oracleConfig(t)
	cases := differentialCases(t)
	seed := differentialSeed(t)
	t.Logf("differential: seed %d (replay with TOOLEVAL_DIFFERENTIAL_SEED=%d TOOLEVAL_DIFFERENTIAL_CASES=%d)", seed, seed, cases)
	gen := corpus.New(seed)

	var (
		mu        sync.Mutex
		divergent []map[string]any // the first ten, to shrink and print
		diverged  int
		calls     int
		wg        sync.WaitGroup
	)
	// The generator is sequential; workers take documents from a channel.
	docs := make(chan map[string]any, 64)
	go func() {
		for range cases {
			docs <- gen.Decision()
		}
		close(docs)
	}()
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for doc := range docs {
				got, _, ok := compare(t, e, cfg, doc)
				mu.Lock()
				calls += len(got.Verdicts)
				if !ok {
					diverged++
					if len(divergent) < 10 {
						divergent = append(divergent, doc)
					}
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	t.Logf("differential: %d documents (%d calls) compared with the oracle, %d divergent", cases, calls, diverged)
	for _, doc := range divergent[:min(3, len(divergent))] {
		small := shrink(t, e, cfg, doc)
		got, want, _ := compare(t, e, cfg, small)
		input, _ := json.Marshal(small)
		t.Errorf("divergence\ninput:  %s\nengine: %s\noracle: %s", input, normalize(got), normalize(want))
	}
}

// shrink removes members, list items and object fields from a divergent
// document for as long as it keeps diverging.
func shrink(t *testing.T, e *engine.Engine, cfg oracle.Config, doc map[string]any) map[string]any {
	diverges := func(d map[string]any) bool {
		_, _, ok := compare(t, e, cfg, d)
		return !ok
	}
	for changed := true; changed; {
		changed = false
		for _, candidate := range smaller(doc) {
			if diverges(candidate) {
				doc, changed = candidate, true
				break
			}
		}
	}
	return doc
}

// smaller lists documents with one piece of doc removed.
func smaller(doc map[string]any) []map[string]any {
	var out []map[string]any
	for key, value := range doc {
		out = append(out, without(doc, key))
		if list, ok := value.([]any); ok {
			for i := range list {
				shorter := append(append([]any{}, list[:i]...), list[i+1:]...)
				out = append(out, with(doc, key, shorter))
			}
			for i, item := range list {
				if obj, ok := item.(map[string]any); ok {
					for field := range obj {
						replaced := append([]any{}, list...)
						replaced[i] = without(obj, field)
						out = append(out, with(doc, key, replaced))
					}
				}
			}
		}
	}
	return out
}

func without(m map[string]any, key string) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		if k != key {
			out[k] = v
		}
	}
	return out
}

func with(m map[string]any, key string, value any) map[string]any {
	out := without(m, key)
	out[key] = value
	return out
}
