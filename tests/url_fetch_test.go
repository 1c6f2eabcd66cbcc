package tests

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"golang.org/x/net/idna"

	"github.com/tooleval/tooleval/engine"
)

// fetchEntries are the domain entries the harness decides every URL
// under, as a deny and as an allow.
var fetchEntries = []string{"localhost", "*.localhost", "127.0.0.1", "127.0.0.2"}

// TestURLFetchersAgreeWithDomainRules fetches generated URLs (url_gen_test.go)
// for real with curl, wget, CPython's urllib, Node's fetch and Go's
// net/http (url_fetchers_test.go), records which loopback server each
// fetch reached and with which Host header, and holds the policy to it:
// whenever a fetcher reached a server, a deny of the host it named (the
// name; for an IP address spelled any way, the server's address) bites
// the URL, and whenever an allow of an entry holds, every fetcher that
// reached anything reached a server of that entry, naming it, and
// read_url reads the URL exactly as that host. make test fetches a few
// dozen URLs (TOOLEVAL_URL_FETCH_CASES, drawn with
// TOOLEVAL_URL_FETCH_SEED); make soak thousands.
func TestURLFetchersAgreeWithDomainRules(t *testing.T) {
	t.Parallel()
	servers := startLoopbackServers(t)
	port := map[string]string{}
	for ip, addr := range servers.targets {
		_, p, err := net.SplitHostPort(addr)
		require.NoError(t, err)
		port[ip] = p
	}
	seed := uint64(envInt(t, "TOOLEVAL_URL_FETCH_SEED", 23))
	urls := generateURLs(rand.New(rand.NewPCG(seed, 0)), envInt(t, "TOOLEVAL_URL_FETCH_CASES", 40), port)
	markers := make([]string, len(urls)+1)
	for i := range markers {
		markers[i] = servers.markerURL(i)
	}
	verdicts := fetchVerdicts(t, urls)

	ctx := context.Background()
	errs := map[string]error{}
	var mu sync.Mutex
	var wg sync.WaitGroup
	for _, f := range fetchers {
		if f.binary != "" {
			if _, err := exec.LookPath(f.binary); err != nil {
				continue
			}
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			start := time.Now()
			err := fetchAll(ctx, t.TempDir(), f, servers, markers, urls)
			t.Logf("%s fetched %d URLs in %v", f.name, len(urls), time.Since(start).Round(time.Millisecond))
			mu.Lock()
			errs[f.name] = err
			mu.Unlock()
		}()
	}
	wg.Wait()

	for _, f := range fetchers {
		t.Run(f.name, func(t *testing.T) {
			err, ran := errs[f.name]
			if !ran {
				t.Skipf("%s is not installed (%s not on PATH)", f.name, f.binary)
			}
			require.NoError(t, err)
			reached := servers.reached(t, "tooleval-harness-"+f.name, len(urls))
			count := 0
			for i, hits := range reached {
				for _, h := range hits {
					count++
					checkFetch(t, f.name, urls[i], h, verdicts[i])
				}
			}
			t.Logf("%s: %d requests reached a server from %d URLs (seed %d)", f.name, count, len(urls), seed)
		})
	}
}

// fetchAll runs f over urls, and again from the next URL whenever it
// stopped early: curl ends on a URL it cannot glob ("bad range", exit
// status 3) without fetching the URLs after it.
func fetchAll(ctx context.Context, dir string, f fetcher, servers *loopbackServers, markers, urls []string) error {
	agent := "tooleval-harness-" + f.name
	for start := 0; ; {
		if err := f.run(ctx, dir, agent, markers[start:], urls[start:]); err != nil {
			return err
		}
		seen := servers.markers(agent)
		if seen > len(urls) || seen <= start {
			return nil // done, or stopped without progress: reached says which
		}
		start = seen
	}
}

// urlVerdict is how tooleval decides one URL: read_url's reading, and
// for each entry whether a deny of it bites and an allow of it holds.
type urlVerdict struct {
	reading map[string]any
	denied  map[string]bool
	allowed map[string]bool
}

// fetchVerdicts decides every URL with the embedded engine, one request
// per entry and kind (a deny beside a plain allow of the tool; an allow
// alone), and reads it with read_url.
func fetchVerdicts(t *testing.T, urls []string) []urlVerdict {
	t.Helper()
	ctx := context.Background()
	e, err := engine.New(ctx)
	require.NoError(t, err)
	out := make([]urlVerdict, len(urls))
	for i, u := range urls {
		out[i] = urlVerdict{reading: evalObject(t, urlReader, u), denied: map[string]bool{}, allowed: map[string]bool{}}
	}
	for _, entry := range fetchEntries {
		for _, kind := range []string{"deny", "allow"} {
			layer := map[string]any{"name": "harness", "allow": []any{map[string]any{"tool": "web_fetch", "domain": entry}}}
			if kind == "deny" {
				layer = map[string]any{"name": "harness", "allow": []any{"web_fetch"},
					"deny": []any{map[string]any{"tool": "web_fetch", "domain": entry}}}
			}
			for i, c := range decideURLs(t, e, layer, urls) {
				if kind == "deny" {
					out[i].denied[entry] = c.Reason == "denied"
					require.True(t, c.Allowed || c.Reason == "denied", "%q under a deny of %s: %s %s", urls[i], entry, c.Reason, c.Message)
				} else {
					out[i].allowed[entry] = c.Outcome == engine.OutcomeAllow
				}
			}
		}
	}
	return out
}

// decideURLs decides a call of web_fetch on each URL under layer, a
// hundred calls a request.
func decideURLs(t *testing.T, e *engine.Engine, layer map[string]any, urls []string) []engine.CallDecision {
	t.Helper()
	var out []engine.CallDecision
	for start := 0; start < len(urls); start += 100 {
		var calls []any
		for i := start; i < min(start+100, len(urls)); i++ {
			calls = append(calls, map[string]any{"id": strconv.Itoa(i), "name": "web_fetch", "args": map[string]any{"url": urls[i]}})
		}
		d, err := e.Decide(context.Background(), map[string]any{"declared": []any{map[string]any{"name": "web_fetch"}}, "layers": []any{layer}, "calls": calls})
		require.NoError(t, err)
		require.Empty(t, d.Errors)
		require.Len(t, d.Decisions, len(calls))
		out = append(out, d.Decisions...)
	}
	return out
}

// checkFetch holds the verdict on url to one request a fetcher made for it.
func checkFetch(t *testing.T, name, url string, h hit, v urlVerdict) {
	t.Helper()
	addr, _, err := net.SplitHostPort(h.server)
	require.NoError(t, err)
	key, ip := hostHeaderKey(h.host)
	var entry string
	switch {
	case ip != "":
		entry = addr // an IP address, spelled any way, is the server's
	case key == "localhost":
		entry = "localhost"
	case strings.HasSuffix(key, ".localhost"):
		entry = "*.localhost"
	default:
		t.Errorf("%s reached %s from %q naming %q, a host the harness never aims at", name, h.server, url, h.host)
		return
	}
	if !v.denied[entry] {
		t.Errorf("%s reached %s from %q (Host %q), yet a deny of %s lets it through: read_url = %v", name, h.server, url, h.host, entry, v.reading)
	}
	for allowed, ok := range v.allowed {
		if ok && allowed != entry {
			t.Errorf("%s reached %s from %q (Host %q), yet an allow of %s holds: read_url = %v", name, h.server, url, h.host, allowed, v.reading)
		}
	}
	if v.reading["exact"] == true {
		read := fmt.Sprint(v.reading["host"])
		if read != key && !(ip != "" && read == addr) {
			t.Errorf("%s reached %s from %q (Host %q), read_url reads it exactly as %s", name, h.server, url, h.host, read)
		}
	}
}

// hostHeaderKey is the host of a Host header as a domain entry compares
// it (lower case, no port, no trailing dots), and the IPv4 address it
// spells when it is an IP address: inet_aton's forms (decimal, 0 octal,
// 0x hexadecimal parts, the last filling the rest) or an IPv6 literal.
func hostHeaderKey(header string) (key, ip string) {
	host := header
	if strings.HasPrefix(host, "[") {
		end := strings.Index(host, "]")
		if end < 0 {
			return strings.ToLower(host), ""
		}
		parsed := net.ParseIP(host[1:end])
		if parsed == nil {
			return strings.ToLower(host[:end+1]), ""
		}
		return strings.ToLower(host[:end+1]), parsed.String()
	}
	if i := strings.LastIndex(host, ":"); i >= 0 {
		host = host[:i]
	}
	key = strings.TrimRight(strings.ToLower(host), ".")
	// Go's net/http sends a non-ASCII host as Punycode of it unmapped
	// (cleanHost) but dials it mapped (idna.Lookup, canonicalAddr):
	// the key is the host it dialed.
	if strings.Contains(key, "xn--") {
		if u, err := idna.Punycode.ToUnicode(key); err == nil {
			if mapped, err := idna.Lookup.ToASCII(u); err == nil {
				key = mapped
			}
		}
	}
	return key, inetAton(key)
}

// inetAton reads s as inet_aton(3) does, or returns "".
func inetAton(s string) string {
	parts := strings.Split(s, ".")
	if s == "" || len(parts) > 4 {
		return ""
	}
	var values []uint64
	for _, p := range parts {
		base := 10
		switch {
		case strings.HasPrefix(p, "0x"):
			base, p = 16, p[2:]
			if p == "" {
				p = "0"
			}
		case len(p) > 1 && p[0] == '0':
			base, p = 8, p[1:]
		}
		n, err := strconv.ParseUint(p, base, 32)
		if err != nil {
			return ""
		}
		values = append(values, n)
	}
	var v uint64
	for i, n := range values[:len(values)-1] {
		if n > 255 {
			return ""
		}
		v |= n << (24 - 8*i)
	}
	last := values[len(values)-1]
	if last >= 1<<(8*(5-len(values))) {
		return ""
	}
	v |= last
	return net.IPv4(byte(v>>24), byte(v>>16), byte(v>>8), byte(v)).String()
}
