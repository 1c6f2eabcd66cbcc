package tests

import (
	"encoding/json"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/open-policy-agent/opa/v1/rego"
)

// urlReader is tooleval.arguments.read_url prepared on the policies.
var urlReader = sync.OnceValues(func() (rego.PreparedEvalQuery, error) {
	return preparePolicyQuery("data.tooleval.arguments.read_url(input)")
})

// FuzzURLReading holds read_url to another parser, Go's net/url: for any
// string there is a reading; a URL read exactly has the scheme, host and
// port net/url reads, and no userinfo; and whatever host net/url reads
// from an http or https URL is among the hosts an unreadable URL's
// reading lists, so that a deny rule naming that host matches it. The
// seeds are the classes of the policy's tables; `make soak` runs the
// fuzzer.
func FuzzURLReading(f *testing.F) {
	for _, seed := range []string{
		"https://example.com/", "HTTPS://Example.COM./a?b#c", "http://example.com:8080/x", "https://evil.net/@example.com",
		"https://example.com@evil.net/", "https://user:pw@example.com/", `https://evil.net\@example.com/`,
		"https://ex%61mple.com/", "https://exa\tmple.com/", "https://ｅｘａｍｐｌｅ.com/", "http://2130706433/",
		"http://0x7f.1/", "http://[::1]:80/", "ftp://example.com/", "//example.com/x", "example.com", "",
		"https://a@b@c/", "http://127.0.0.1:3000/", "https://example.com:99999/",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		reading := evalObject(t, urlReader, raw)
		u, parseErr := url.Parse(raw)
		if reading["exact"] == true {
			if parseErr != nil {
				t.Fatalf("read_url(%q) is exact, net/url refuses it: %v", raw, parseErr)
			}
			if u.User != nil || strings.ToLower(u.Scheme) != reading["scheme"] || hostKey(u.Hostname()) != reading["host"] {
				t.Fatalf("read_url(%q) = %v, net/url reads scheme %q, host %q, user %v", raw, reading, u.Scheme, u.Hostname(), u.User)
			}
			if port := reading["port"]; (port == nil) != (u.Port() == "") || (port != nil && !samePort(port, u.Port())) {
				t.Fatalf("read_url(%q) port %v, net/url reads %q", raw, port, u.Port())
			}
			return
		}
		if parseErr != nil || (u.Scheme != "http" && u.Scheme != "https") || hostKey(u.Hostname()) == "" {
			return
		}
		hosts, _ := reading["hosts"].([]any)
		if !slices.Contains(hosts, any(hostKey(u.Hostname()))) {
			t.Fatalf("read_url(%q) lists hosts %v, not %q, the host net/url reads", raw, hosts, hostKey(u.Hostname()))
		}
	})
}

// samePort reports whether the reading's port (a JSON number) is the
// port net/url reads, by value (net/url keeps leading zeros).
func samePort(port any, read string) bool {
	n, ok := port.(json.Number)
	if !ok {
		return false
	}
	a, errA := n.Int64()
	b, errB := strconv.ParseInt(read, 10, 64)
	return errA == nil && errB == nil && a == b
}

// hostKey is a host as a domain rule compares it: lower case, without
// trailing dots.
func hostKey(host string) string { return strings.TrimRight(strings.ToLower(host), ".") }
