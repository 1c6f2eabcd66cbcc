package tests

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/tooleval/tooleval/engine"
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
	for _, seed := range []string{`{}`, `null`, `{"calls":[{"id":"a","name":"x"}]}`, `{"calls":[`, `1e400`} {
		f.Add([]byte(seed))
	}
	data, err := os.ReadFile("../policies/tooleval/config/data.json")
	if err != nil {
		f.Fatal(err)
	}
	var cfg oracle.Config
	if err := json.Unmarshal(data, &cfg); err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, input []byte) {
		e, err := fuzzEngine()
		if err != nil {
			t.Fatal(err)
		}
		d, decideErr := e.DecideJSON(context.Background(), input)
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
		got, want := engineView(d), oracle.Decide(cfg, generic)
		if normalize(got) != normalize(want) {
			t.Fatalf("engine and oracle differ\ninput:  %s\nengine: %s\noracle: %s", input, normalize(got), normalize(want))
		}
	})
}
