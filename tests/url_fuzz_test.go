package tests

import (
	"encoding/json"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/open-policy-agent/opa/v1/rego"
)

// urlReader is tooleval.arguments.url.read_url prepared on the policies.
var urlReader = sync.OnceValues(func() (rego.PreparedEvalQuery, error) {
	return preparePolicyQuery("data.tooleval.arguments.url.read_url(input)")
})

// FuzzURLReading holds read_url to another parser, Go's net/url: for any
// string there is a reading; a URL read exactly has the scheme, host and
// port net/url reads, and no userinfo; and whatever host net/url reads
// from an http or https URL is among the hosts an unreadable URL's
// reading lists (unless it lists none: any host), so that a deny rule
// naming that host, or the domain of its last piece, matches it. The
// seeds are the classes of the policy's tables; `make soak` runs the
// fuzzer.
func FuzzURLReading(f *testing.F) {
	for _, seed := range []string{
		"https://example.com/", "HTTPS://Example.COM./a?b#c", "http://example.com:8080/x", "https://evil.net/@example.com",
		"https://example.com@evil.net/", "https://user:pw@example.com/", `https://evil.net\@example.com/`,
		"https://ex%61mple.com/", "https://exa\tmple.com/", "https://ｅｘａｍｐｌｅ.com/", "http://2130706433/",
		"http://0x7f.1/", "http://[::1]:80/", "ftp://example.com/", "//example.com/x", "example.com", "",
		"https://a@b@c/", "http://127.0.0.1:3000/", "https://example.com:99999/",
		"localhost:8080/path", "http://localhost%3a8080/", "http://{a.invalid,localhost:8080}/", "http://[k-l]ocalhost/",
		"http://a.invalid;localhost/", "http:localhost", `http:\\localhost`, "http://0.0.0.0/", "http://ｌｏｃａｌｈｏｓｔ：80/",
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
		if len(hosts) == 0 {
			return // it may reach any host: every deny bites it
		}
		host := hostKey(u.Hostname())
		if plainEntry.MatchString(host) && !slices.Contains(hosts, any(host)) {
			t.Fatalf("read_url(%q) lists hosts %v, not %q, the host net/url reads", raw, hosts, host)
		}
		// a deny of *.NAME for the host's last piece's domain bites too
		pieces := strings.FieldsFunc(host, func(r rune) bool { return r < 0x80 && !plainPieceChar(r) })
		if len(pieces) == 0 {
			return
		}
		if _, below, ok := strings.Cut(pieces[len(pieces)-1], "."); ok && plainEntry.MatchString(below) &&
			!slices.ContainsFunc(hosts, func(h any) bool { s, _ := h.(string); return strings.HasSuffix(s, "."+below) }) {
			t.Fatalf("read_url(%q) lists hosts %v, none below %q, where net/url reads %q", raw, hosts, below, host)
		}
	})
}

// plainEntry is a domain entry's name (policies/tooleval/arguments/domain/domain.rego, _domain_entry).
var plainEntry = regexp.MustCompile(`^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*$`)

// plainPieceChar: an ASCII character a piece of a host holds (letters,
// digits, ".", "-", "_", "~", "%").
func plainPieceChar(r rune) bool {
	return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune(".-_~%", r)
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
