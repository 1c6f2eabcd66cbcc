package oracle

import (
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// The oracle's URL reader: policies/tooleval/arguments/url/url.rego's
// read_url as docs/contract.md states it, written independently.

// urlReading is how the oracle reads a URL: exact with its host, or the
// hosts it could reach.
type urlReading struct {
	exact bool
	host  string
	hosts []string
}

var schemeAndSlashes = regexp.MustCompile(`^([^:/?#]*:)?[/\\]*`)

var plainHost = regexp.MustCompile(`^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$`)

// maxURLLength is the longest URL (in characters) read at all.
const maxURLLength = 8192

// readURL reads a URL exactly when a browser and every other parser agree
// on its host (http or https, a plain lower-cased host name or a
// dotted-decimal IPv4 address outside 0.0.0.0/8, no userinfo, no
// escapes); otherwise it lists every host some fetcher could read in it
// (urlHosts), or none when it may reach any.
func readURL(x any) (urlReading, bool) {
	s, isString := x.(string)
	if !isString {
		return urlReading{}, false
	}
	scheme, _, hasScheme := strings.Cut(s, "://")
	// the authority: after the scheme (if any) and its slashes, up to
	// the first /, ? or #
	authority := schemeAndSlashes.ReplaceAllString(s, "")
	if i := strings.IndexAny(authority, "/?#"); i >= 0 {
		authority = authority[:i]
	}
	lower := strings.ToLower(scheme)
	// userinfo and percent-encoding in the authority, a backslash
	// anywhere (a browser reads it as a slash), and anything but
	// printable ASCII
	exact := hasScheme && (lower == "http" || lower == "https") && utf8.RuneCountInString(s) <= maxURLLength &&
		!strings.ContainsAny(authority, "@%") && !strings.Contains(s, "\\") && isPrintableASCII(s)
	host, port, _ := strings.Cut(authority, ":")
	host = strings.TrimSuffix(strings.ToLower(host), ".")
	exact = exact && plainHost.MatchString(host) && len(port) <= 5 && (port == "" || allDigits(port)) &&
		(!numericLast(host) || dottedDecimal(host) && !strings.HasPrefix(host, "0."))
	if exact {
		return urlReading{exact: true, host: host}, true
	}
	return urlReading{hosts: urlHosts(s)}, true
}

// ipv6Literal is a bracketed IPv6 address (with a zone), which curl does
// not glob.
var ipv6Literal = regexp.MustCompile(`\[[0-9A-Fa-f.]*:[0-9A-Fa-f:.]*(%[^\]]*)?\]`)

// urlHosts over-approximates the hosts the fetchers could read in s: nil
// when curl would glob it (braces, or brackets around anything but an
// IPv6 address) or a non-ASCII piece has no canonical form; otherwise
// every piece of each place its authority could be (urlAuthorities), as
// written, percent-decoded once and twice and IDNA-mapped, each split at
// the ASCII characters no host name holds, without trailing dots (and
// also without leading ones).
func urlHosts(s string) []string {
	if strings.ContainsAny(s, "{}") || strings.ContainsAny(ipv6Literal.ReplaceAllString(s, ""), "[]") {
		return nil
	}
	set := map[string]bool{}
	for _, authority := range urlAuthorities(s) {
		for _, piece := range hostPieces(authority) {
			forms := []string{piece}
			for _, decoded := range decodedForms(piece) {
				mapped, ok := idnaMapped(decoded)
				if !ok {
					return nil
				}
				forms = append(forms, hostPieces(mapped)...)
			}
			for _, form := range forms {
				trimmed := strings.TrimRight(form, ".")
				for _, h := range []string{trimmed, strings.TrimLeft(trimmed, ".")} {
					if h != "" {
						set[h] = true
					}
				}
			}
		}
	}
	return slices.Sorted(maps.Keys(set))
}

// urlAuthorities are the texts a fetcher may read a host from: in s and
// in s as a browser reads it (tabs and newlines removed, C0 controls and
// spaces trimmed), after a scheme and slashes and, without "scheme://",
// from the start (curl and wget read host:port/path as http), up to the
// first slash.
func urlAuthorities(s string) []string {
	browser := strings.Trim(strings.NewReplacer("\t", "", "\n", "", "\r", "").Replace(s), controlsAndSpace)
	var out []string
	for _, text := range []string{s, browser} {
		starts := []string{schemeAndSlashes.ReplaceAllString(text, "")}
		if !schemeWithSlashes.MatchString(text) {
			starts = append(starts, strings.TrimLeft(text, "/\\"))
		}
		for _, start := range starts {
			authority, _, _ := strings.Cut(start, "/")
			out = append(out, authority)
		}
	}
	return out
}

var schemeWithSlashes = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9+.-]*://`)

// controlsAndSpace are U+0000 to U+0020.
var controlsAndSpace = func() string {
	var b strings.Builder
	for r := rune(0); r <= 0x20; r++ {
		b.WriteRune(r)
	}
	return b.String()
}()

// hostPieces splits text at every ASCII character other than letters,
// digits, ".", "-", "_", "~" and "%", in lower case.
func hostPieces(text string) []string {
	return strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return r < 0x80 && !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune(".-_~%", r))
	})
}

// decodedForms: the piece, and the pieces of it percent-decoded once and
// of those decoded again.
func decodedForms(piece string) []string {
	out := []string{piece}
	for _, once := range hostPieces(percentDecode(piece)) {
		out = append(out, once)
		out = append(out, hostPieces(percentDecode(once))...)
	}
	return out
}

// percentDecode replaces each % and two hexadecimal digits by its byte
// and leaves any other % as it is.
func percentDecode(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]) {
			n, _ := strconv.ParseUint(s[i+1:i+3], 16, 8)
			b.WriteByte(byte(n))
			i += 2
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

// idnaMapped is an ASCII piece as it is, or another piece's canonical
// form with U+3002, U+FF0E and U+FF61 as full stops (IDNA reads them as
// dots); false when it has none.
func idnaMapped(piece string) (string, bool) {
	if isASCII(piece) {
		return piece, true
	}
	return Canonical(strings.NewReplacer("\u3002", ".", "\uff0e", ".", "\uff61", ".").Replace(piece))
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

func isPrintableASCII(s string) bool {
	for _, r := range s {
		if r < 0x21 || r > 0x7e {
			return false
		}
	}
	return true
}

func allDigits(s string) bool {
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return s != ""
}

// numericLast: the host's last label is a number, so a browser reads the
// host as an IPv4 address.
func numericLast(host string) bool {
	labels := strings.Split(host, ".")
	last := labels[len(labels)-1]
	return allDigits(last) || strings.HasPrefix(last, "0x")
}

var dottedDecimalRE = regexp.MustCompile(`^(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])(\.(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])){3}$`)

func dottedDecimal(host string) bool { return dottedDecimalRE.MatchString(host) }
