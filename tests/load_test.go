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

	"github.com/tooleval/tooleval/internal/corpus"
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
	server := startOPA(t, "--log-level", "error", "--bundle", bundlePath(t))
	bodies := loadInputs(t)
	client := &http.Client{Timeout: 5 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: maxInFlight}}
	url := server.url + "/v1/data/tooleval/decision"

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
