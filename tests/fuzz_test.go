package tests

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/tooleval/tooleval/engine"
	"github.com/tooleval/tooleval/tests/harness"
	"github.com/tooleval/tooleval/tests/oracle"
)

var fuzzEngine = sync.OnceValues(func() (*engine.Engine, error) {
	return engine.New(context.Background())
})

// FuzzDecideJSON: for any bytes, the engine returns a decision (never a
// panic); undecodable input allows nothing; and for any JSON document the
// engine and the independent oracle agree on every verdict, effective and
// run. The seeds are the examples in inputs/.
func FuzzDecideJSON(f *testing.F) {
	files, _ := filepath.Glob("../inputs/*.json")
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err == nil {
			f.Add(data)
		}
	}
	for _, seed := range []string{
		`{}`, `null`, `{"calls":[{"id":"a","name":"x"}]}`, `{"calls":[`, `1e400`,
		`{"tenant":"acme","declared":[{"name":"a"}],"calls":[{"id":"1","name":"a"}]}`,
		`{"caller":{"scopes":["a"]},"mcp_services":[],"declared":[{"name":"a"},{"name":"mcp__s__t","mcp":{"server":"s","tool":"t"}}],"calls":[{"id":"1","name":"a"},{"id":"2","name":"mcp__s__t"}]}`,
		`{"agent":{"read_only":true},"declared":[{"name":"bash"}],"calls":[{"id":"1","name":"bash","args":{"action":"status"}}]}`,
		`{"handoff":{},"declared":[{"name":"a"}],"calls":[{"id":"1","name":"a"}]}`,
		`{"agent":{"name":"explore` + strings.Repeat(`\u200b`, 250) + `","role":"subagent","depth":1},"declared":[{"name":"a"}],"calls":[{"id":"1","name":"a"}]}`,
	} {
		f.Add([]byte(seed))
	}
	cfg, err := oracle.LoadConfig(harness.PoliciesDir())
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, input []byte) {
		e, err := fuzzEngine()
		if err != nil {
			t.Fatal(err)
		}
		d, decideErr := e.Decide(context.Background(), engine.JSON(input))
		if d == nil {
			t.Fatal("no decision")
		}
		if decideErr != nil {
			for _, c := range d.Decisions {
				if c.Allowed {
					t.Fatalf("allowed a call of an input that failed: %s", input)
				}
			}
			return
		}
		var generic any
		if json.Unmarshal(input, &generic) != nil {
			return // decodable by OPA (e.g. huge numbers), not by encoding/json
		}
		// The oracle models the contract, whose layers are inline. Fields
		// that say who is asking add configured stages, which may only
		// narrow: without them the engine must agree with the oracle, and
		// with them it must allow nothing more.
		if plain, ok := withoutIdentifyingFields(generic); ok {
			p, err := e.Decide(context.Background(), plain)
			if err != nil {
				t.Fatal(err)
			}
			for i, c := range d.Decisions {
				if c.Allowed && (i >= len(p.Decisions) || !p.Decisions[i].Allowed) {
					t.Fatalf("call %d allowed only with identifying fields: %s", i, input)
				}
			}
			withFields, err := e.Tools(context.Background(), engine.JSON(input))
			if err != nil {
				t.Fatal(err)
			}
			plainTools, err := e.Tools(context.Background(), plain)
			if err != nil {
				t.Fatal(err)
			}
			for _, name := range withFields.Effective {
				if !slices.Contains(plainTools.Effective, name) {
					t.Fatalf("effective %q only with identifying fields: %s", name, input)
				}
			}
			d, generic = p, plain
		}
		c, err := e.Tools(context.Background(), generic)
		if err != nil {
			t.Fatal(err)
		}
		got, want := engineView(d, c), oracle.Decide(cfg, generic)
		if normalize(got) != normalize(want) {
			t.Fatalf("engine and oracle differ\ninput:  %s\nengine: %s\noracle: %s", input, normalize(got), normalize(want))
		}
	})
}

// withoutIdentifyingFields returns a copy of a document without the
// fields that add configured stages (docs/configuration.md), and whether
// it had any.
func withoutIdentifyingFields(doc any) (any, bool) {
	obj, ok := doc.(map[string]any)
	if !ok {
		return doc, false
	}
	out := make(map[string]any, len(obj))
	found := false
	for k, v := range obj {
		switch k {
		case "tenant", "caller", "mcp_services", "requester", "handoff":
			found = true
			continue
		case "agent":
			if agent, ok := v.(map[string]any); ok {
				stripped := make(map[string]any, len(agent))
				for ak, av := range agent {
					switch ak {
					case "async", "teammate", "coordinator", "read_only":
						found = true
					default:
						stripped[ak] = av
					}
				}
				v = stripped
			}
		}
		out[k] = v
	}
	return out, found
}
