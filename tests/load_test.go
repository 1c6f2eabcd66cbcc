//go:build load

package tests

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/tooleval/tooleval/internal/benchload"
	"github.com/tooleval/tooleval/internal/corpus"
	"github.com/tooleval/tooleval/tests/harness"
)

// loadRates are the fixed request rates of the load test, per second.
var loadRates = []int{200, 500, 1000}

const (
	loadDuration = 20 * time.Second
	maxInFlight  = 512
)

// loadInputs are realistic requests: the decision examples and a
// generated corpus of valid and malformed ones.
func loadInputs(t *testing.T) [][]byte {
	t.Helper()
	var inputs [][]byte
	files, err := filepath.Glob("../inputs/*.json")
	require.NoError(t, err)
	for _, f := range files {
		data, err := os.ReadFile(f)
		require.NoError(t, err)
		inputs = append(inputs, data)
	}
	for _, doc := range corpus.New(99).Decisions(200) {
		data, err := json.Marshal(doc)
		require.NoError(t, err)
		inputs = append(inputs, data)
	}
	bodies := make([][]byte, len(inputs))
	for i, in := range inputs {
		bodies[i] = append(append([]byte(`{"input":`), in...), '}')
	}
	return bodies
}

// TestLoad drives one OPA server with the bundle at fixed request rates
// (open loop: requests start on schedule whether or not earlier ones have
// finished, at most maxInFlight at once) and prints latency percentiles.
// Run it with `make load`; it sends traffic to 127.0.0.1 only and stops by
// itself.
func TestLoad(t *testing.T) {
	server := harness.StartOPA(t, "--log-level", "error", "--bundle", harness.BundlePath(t))
	bodies := loadInputs(t)
	client := &http.Client{Timeout: 5 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: maxInFlight}}
	url := server.URL + "/v1/data/tooleval/decision"

	fmt.Printf("\n| rate (req/s) | sent | errors | dropped | p50 | p90 | p99 | max |\n|---|---|---|---|---|---|---|---|\n")
	for _, rate := range loadRates {
		var (
			mu        sync.Mutex
			latencies []time.Duration
			errors    int
			dropped   int
			wg        sync.WaitGroup
		)
		slots := make(chan struct{}, maxInFlight)
		interval := time.Second / time.Duration(rate)
		total := int(loadDuration / interval)
		start := time.Now()
		for i := range total {
			time.Sleep(time.Until(start.Add(time.Duration(i) * interval)))
			select {
			case slots <- struct{}{}:
			default:
				dropped++
				continue
			}
			wg.Add(1)
			go func(body []byte) {
				defer wg.Done()
				defer func() { <-slots }()
				t0 := time.Now()
				resp, err := client.Post(url, "application/json", bytes.NewReader(body))
				elapsed := time.Since(t0)
				ok := err == nil && resp.StatusCode == http.StatusOK
				if err == nil {
					var doc struct {
						Result json.RawMessage `json:"result"`
					}
					ok = ok && json.NewDecoder(resp.Body).Decode(&doc) == nil && doc.Result != nil
					resp.Body.Close()
				}
				mu.Lock()
				defer mu.Unlock()
				if !ok {
					errors++
					return
				}
				latencies = append(latencies, elapsed)
			}(bodies[i%len(bodies)])
		}
		wg.Wait()
		sort.Slice(latencies, func(i, j int) bool { return latencies[i] < latencies[j] })
		pct := func(p float64) string {
			if len(latencies) == 0 {
				return "-"
			}
			return fmtDuration(latencies[int(p*float64(len(latencies)-1))])
		}
		fmt.Printf("| %d | %d | %d | %d | %s | %s | %s | %s |\n", rate, total, errors, dropped, pct(0.50), pct(0.90), pct(0.99), pct(1))
	}
}

func fmtDuration(d time.Duration) string {
	return fmt.Sprintf("%.2f ms", float64(d.Microseconds())/1000)
}

// trivialPolicy is the floor of a REST decision: one rule that allows
// every call, answering the same request bodies with a document of the
// same shape.
const trivialPolicy = `package trivial

decision := {"decisions": [{"id": c.id, "name": c.name, "allowed": true} | some c in input.calls], "errors": []}
`

// TestLoadAgainstTrivialPolicy puts tooleval's decision next to a trivial
// policy on the same OPA server, in the same process, with the same
// request bodies (the benchmark workload at 100 and 1,000 declared tools),
// sending one request at a time and alternating the two, and reports the
// ratio of their median latencies.
func TestLoadAgainstTrivialPolicy(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, ".manifest"), []byte(`{"roots": ["trivial"]}`), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "trivial.rego"), []byte(trivialPolicy), 0o644))
	server := harness.StartOPA(t, "--log-level", "error", "--optimize-store-for-read-speed", "--bundle", harness.BundlePath(t), "--bundle", dir)
	client := &http.Client{Timeout: 30 * time.Second}
	post := func(path string, body []byte) time.Duration {
		t0 := time.Now()
		resp, err := client.Post(server.URL+"/v1/data/"+path, "application/json", bytes.NewReader(body))
		require.NoError(t, err)
		var doc struct {
			Result json.RawMessage `json:"result"`
		}
		require.NoError(t, json.NewDecoder(resp.Body).Decode(&doc))
		resp.Body.Close()
		require.NotNil(t, doc.Result, "%s is undefined", path)
		return time.Since(t0)
	}
	fmt.Printf("\n| declared | requests | tooleval p50 | trivial p50 | ratio |\n|---|---|---|---|---|\n")
	for _, n := range []int{100, 1000} {
		input, err := json.Marshal(benchload.Full(n))
		require.NoError(t, err)
		body := append(append([]byte(`{"input":`), input...), '}')
		const warmup, rounds = 50, 400
		var tooleval, trivial []time.Duration
		for i := range warmup + rounds {
			a, b := post("tooleval/decision", body), post("trivial/decision", body)
			if i >= warmup {
				tooleval, trivial = append(tooleval, a), append(trivial, b)
			}
		}
		p50 := func(ds []time.Duration) time.Duration {
			sort.Slice(ds, func(i, j int) bool { return ds[i] < ds[j] })
			return ds[len(ds)/2]
		}
		a, b := p50(tooleval), p50(trivial)
		fmt.Printf("| %d | %d | %s | %s | %.2f× |\n", n, rounds, fmtDuration(a), fmtDuration(b), float64(a)/float64(b))
	}
}
