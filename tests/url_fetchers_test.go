package tests

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"
)

// The fetchers of the URL harness (url_fetch_test.go): real programs, each
// started once for the whole list of URLs, fetching the URLs one after
// another with a marker request before each, so that the servers' log,
// read in order per fetcher, says which servers each URL reached. Every
// fetcher is told to use no proxy and to follow no redirect, with short
// time-outs; the URLs name only loopback addresses and .invalid names.

// hit is one request a loopback server received.
type hit struct {
	server string // the listener's address, 127.0.0.1:port
	host   string // the Host header: the host the fetcher read
	agent  string // the User-Agent: which fetcher sent it
	path   string
}

// hitLog is the servers' shared log, in the order requests arrived.
type hitLog struct {
	mu   sync.Mutex
	hits []hit
}

func (l *hitLog) add(h hit) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.hits = append(l.hits, h)
}

// loopbackServers are the servers the URLs aim at (by address) and the
// marker server the fetchers announce each URL to.
type loopbackServers struct {
	log     *hitLog
	targets map[string]string // the address each target server listens on, by its IP
	marker  string            // the marker server's address
}

// startLoopbackServers listens on 127.0.0.1 and 127.0.0.2 (random ports)
// for the targets and on 127.0.0.1 for the markers; every request is
// logged and answered 200 with an empty body.
func startLoopbackServers(t *testing.T) *loopbackServers {
	t.Helper()
	s := &loopbackServers{log: &hitLog{}, targets: map[string]string{}}
	for _, ip := range []string{"127.0.0.1", "127.0.0.2", "marker"} {
		addr := ip
		if ip == "marker" {
			addr = "127.0.0.1"
		}
		ln, err := net.Listen("tcp", addr+":0")
		if err != nil {
			t.Fatalf("listen on %s: %v", addr, err)
		}
		name := ln.Addr().String()
		srv := &http.Server{ReadHeaderTimeout: 2 * time.Second, Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			s.log.add(hit{server: name, host: r.Host, agent: r.UserAgent(), path: r.URL.Path})
			w.WriteHeader(http.StatusOK)
		})}
		go func() { _ = srv.Serve(ln) }()
		t.Cleanup(func() { _ = srv.Close() })
		if ip == "marker" {
			s.marker = name
		} else {
			s.targets[ip] = name
		}
	}
	return s
}

// markerURL is the URL a fetcher fetches before URL i (and after the last).
func (s *loopbackServers) markerURL(i int) string {
	return fmt.Sprintf("http://%s/__mark/%d", s.marker, i)
}

// reached splits the log of agent's requests at its markers: for URL i of
// n, the requests that arrived at a target server after marker i and
// before marker i+1. It fails the test when a marker is missing or out of
// order (the fetcher stopped early).
func (s *loopbackServers) reached(t *testing.T, agent string, n int) [][]hit {
	t.Helper()
	s.log.mu.Lock()
	defer s.log.mu.Unlock()
	out := make([][]hit, n)
	next := 0
	for _, h := range s.log.hits {
		if h.agent != agent {
			continue
		}
		if h.server == s.marker {
			if h.path != fmt.Sprintf("/__mark/%d", next) {
				t.Fatalf("%s: marker %s where /__mark/%d was due", agent, h.path, next)
			}
			next++
			continue
		}
		if next == 0 || next > n {
			t.Fatalf("%s: request %+v outside the URLs' markers", agent, h)
		}
		out[next-1] = append(out[next-1], h)
	}
	if next != n+1 {
		t.Fatalf("%s: %d of the %d markers arrived: the fetcher stopped early", agent, next, n+1)
	}
	return out
}

// markers is how many markers agent has fetched.
func (s *loopbackServers) markers(agent string) int {
	s.log.mu.Lock()
	defer s.log.mu.Unlock()
	n := 0
	for _, h := range s.log.hits {
		if h.agent == agent && h.server == s.marker {
			n++
		}
	}
	return n
}

// fetcher runs one real fetcher over urls, each after its marker
// (markers[i] before urls[i], markers[n] last), sending agent as its
// User-Agent.
type fetcher struct {
	name   string
	binary string // "" for one in this process
	run    func(ctx context.Context, dir, agent string, markers, urls []string) error
}

// fetcherEnv is the environment of a fetcher's process: no proxy
// variables, and a home of its own, so that no ~/.curlrc, ~/.wgetrc or
// the like applies.
func fetcherEnv(dir string) []string {
	env := []string{"HOME=" + dir, "LANG=C.UTF-8"}
	if p := os.Getenv("PATH"); p != "" {
		env = append(env, "PATH="+p)
	}
	return env
}

func runFetcher(ctx context.Context, dir, stdin string, name string, args ...string) error {
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Env = fetcherEnv(dir)
	cmd.Dir = dir
	cmd.Stdin = strings.NewReader(stdin)
	var stderr bytes.Buffer
	cmd.Stdout = io.Discard
	cmd.Stderr = &stderr
	err := cmd.Run()
	var exit *exec.ExitError
	if errors.As(err, &exit) && exit.ExitCode() > 0 && ctx.Err() == nil {
		return nil // a fetcher reports failed fetches in its exit status
	}
	if err != nil {
		return fmt.Errorf("%s: %w: %s", name, err, stderr.String())
	}
	return nil
}

// interleave is markers[0], urls[0], markers[1], ... markers[n].
func interleave(markers, urls []string, flag string) []string {
	var out []string
	for i, u := range urls {
		out = append(out, flag, markers[i], flag, u)
	}
	return append(out, flag, markers[len(urls)])
}

// fetchers: curl (URLs given as --url arguments, globbing on as by
// default: https://curl.se/docs/manpage.html#-g), wget (URLs as
// arguments), CPython's urllib.request, Node's fetch (the WHATWG URL
// parser) and Go's net/http, each fetching sequentially.
var fetchers = []fetcher{
	{name: "curl", binary: "curl", run: func(ctx context.Context, dir, agent string, markers, urls []string) error {
		args := []string{"-q", "-s", "--noproxy", "*", "--connect-timeout", "3", "--max-time", "10", "-A", agent, "--max-redirs", "0"}
		return runFetcher(ctx, dir, "", "curl", append(args, interleave(markers, urls, "--url")...)...)
	}},
	{name: "wget", binary: "wget", run: func(ctx context.Context, dir, agent string, markers, urls []string) error {
		args := []string{"--no-config", "-q", "-O", "/dev/null", "--no-proxy", "--tries=1", "--timeout=5", "-U", agent, "--max-redirect=0", "--"}
		list := interleave(markers, urls, "")
		for _, u := range list {
			if u != "" {
				args = append(args, u)
			}
		}
		return runFetcher(ctx, dir, "", "wget", args...)
	}},
	{name: "python", binary: "python3", run: func(ctx context.Context, dir, agent string, markers, urls []string) error {
		return runFetcher(ctx, dir, fetchList(agent, markers, urls), "python3", "-c", pythonFetcher)
	}},
	{name: "node", binary: "node", run: func(ctx context.Context, dir, agent string, markers, urls []string) error {
		return runFetcher(ctx, dir, fetchList(agent, markers, urls), "node", "-e", nodeFetcher)
	}},
	{name: "go", run: goFetch},
}

// fetchList is the JSON a script fetcher reads on its standard input.
func fetchList(agent string, markers, urls []string) string {
	b, _ := json.Marshal(map[string]any{"agent": agent, "markers": markers, "urls": urls})
	return string(b)
}

// pythonFetcher: urllib.request.urlopen as a program calls it, with no
// proxy (ProxyHandler({})) and no redirect followed.
const pythonFetcher = `
import json, sys, urllib.request
class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None
opener = urllib.request.build_opener(urllib.request.ProxyHandler({}), NoRedirect)
job = json.load(sys.stdin)
def get(u):
    try:
        opener.open(urllib.request.Request(u, headers={"User-Agent": job["agent"]}), timeout=5).read()
    except Exception:
        pass
for i, u in enumerate(job["urls"]):
    get(job["markers"][i])
    get(u)
get(job["markers"][-1])
`

// nodeFetcher: Node's global fetch (undici, WHATWG URL parsing), no
// redirect followed; Node's fetch uses no proxy from the environment.
const nodeFetcher = `
const chunks = [];
process.stdin.on('data', (c) => chunks.push(c)).on('end', async () => {
  const job = JSON.parse(Buffer.concat(chunks).toString('utf8'));
  const get = async (u) => {
    try {
      const r = await fetch(u, {headers: {'user-agent': job.agent}, redirect: 'manual', signal: AbortSignal.timeout(5000)});
      await r.arrayBuffer();
    } catch (e) {}
  };
  for (let i = 0; i < job.urls.length; i++) {
    await get(job.markers[i]);
    await get(job.urls[i]);
  }
  await get(job.markers[job.urls.length]);
});
`

// goFetch: Go's net/http client (net/url parsing), no proxy, no
// redirect followed.
func goFetch(ctx context.Context, _, agent string, markers, urls []string) error {
	client := &http.Client{
		Timeout:       10 * time.Second,
		Transport:     &http.Transport{Proxy: nil, DialContext: (&net.Dialer{Timeout: 3 * time.Second}).DialContext},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
	defer client.CloseIdleConnections()
	get := func(u string) {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
		if err != nil {
			return
		}
		req.Header.Set("User-Agent", agent)
		if resp, err := client.Do(req); err == nil {
			_, _ = io.Copy(io.Discard, resp.Body)
			_ = resp.Body.Close()
		}
	}
	for i, u := range urls {
		get(markers[i])
		get(u)
	}
	get(markers[len(urls)])
	return nil
}
