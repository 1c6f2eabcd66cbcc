package tests

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// The URL strings of the fetch harness (url_fetch_test.go): spellings of
// a loopback target (localhost, 127.0.0.1, 127.0.0.2) with the port of its
// server, put in the URL forms parsers read differently, beside decoy
// hosts under .invalid (RFC 2606: never resolves). Nothing else is named.

// urlTarget is a host a URL aims at: its spellings and the IP address
// whose server it reaches.
type urlTarget struct {
	ip        string
	spellings []string
}

// urlTargets: localhost (a name that resolves to 127.0.0.1; curl also
// resolves any *.localhost name to loopback itself,
// https://everything.curl.dev/usingcurl/connections/name#name-resolve-tricks),
// and two IP addresses in the spellings the IPv4 parsers accept (the
// URL Standard's IPv4 parser, https://url.spec.whatwg.org/#concept-ipv4-parser,
// and inet_aton(3), which getaddrinfo uses: decimal, octal 0..., hex
// 0x..., with fewer than four parts the last filling the rest), the
// unspecified address (Linux connects 0.0.0.0 to 127.0.0.1:
// torvalds/linux net/ipv4/route.c, ip_route_output_key_hash_rcu, "if
// (!fl4->daddr)"), and IPv6 forms of them.
var urlTargets = []urlTarget{
	{ip: "127.0.0.1", spellings: []string{
		"localhost", "LOCALHOST", "LocalHost.", "localhost.", "a.localhost", "ｌｏｃａｌｈｏｓｔ", "localhost。",
		"127.0.0.1", "127.1", "127.0.1", "0x7f.1", "0x7F.0.0.1", "0177.0.0.1", "2130706433", "0x7f000001", "017700000001",
		"127.0.0.1.", "0", "0.0.0.0", "0x0", "[::ffff:127.0.0.1]", "[::ffff:7f00:1]", "[0:0:0:0:0:ffff:127.0.0.1]",
		"１２７.０.０.１", "127。0。0。1", "%6c%6f%63%61%6c%68%6f%73%74", "l%6fcalhost", "%31%32%37.0.0.1",
	}},
	{ip: "127.0.0.2", spellings: []string{
		"127.0.0.2", "127.2", "0x7f.0.0.2", "0177.0.0.02", "2130706434", "0x7f000002", "[::ffff:127.0.0.2]",
		"127.0.0.2.", "%31%32%37.0.0.2", "１２７.０.０.２",
	}},
}

// urlDecoys are hosts that never resolve.
var urlDecoys = []string{"a.invalid", "b.invalid", "x.a.invalid"}

// urlForms are the shapes a URL takes: $T is the target's spelling, $P
// its server's port, $D a decoy host; each puts the target where some parser
// reads the host and others may not. Sources for each reading are in
// docs/contract.md (the URL reading).
var urlForms = []string{
	"http://$T:$P/", "HTTP://$T:$P/x", "http://$T:$P", "https://$T:$P/", // https to an http server: reached, then fails
	"$T:$P", "$T:$P/x", "$T:$P?q", "//$T:$P/x", "///$T:$P/", "http:$T:$P/", "http:/$T:$P/", `http:\\$T:$P/`, `http:\$T:$P/`,
	`http:/\$T:$P/`, `http://$T:$P\x`, `http://$T:$P\@$D/`, `http://$D\@$T:$P/`,
	"http://$D@$T:$P/", "http://$D:$P@$T:$P/", "http://$T:$P@$D/", "http://$D@$D@$T:$P/", "http://$T:$P#@$D/", "http://$D#@$T:$P/",
	"http://$D?@$T:$P/", "http://$T:$P?@$D/", "http://$D;@$T:$P/", "http://$T;$D:$P/", "http://$D;$T:$P/", "http://$T:$P;$D/",
	"http://$T%3a$P/", "http://$T%3A$P/", "http://$T%3a$P%2fx", "http://$D%40$T:$P/", "http://$D%2f@$T:$P/", "http://$D%3a@$T:$P/",
	"http://$T%2e$D:$P/", "http://$T%00.$D:$P/", "http://$T%2f.$D:$P/", "http://$T%3a$P%23.$D/", "http://$T%3a$P%3f.$D/",
	"http://{$D,$T:$P}/", "http://{$T:$P,$D}/", "http://{$D,$T}:$P/", "{http://$D,http://$T:$P}/", "http://$D{,@$T:$P}/",
	"http://$T:$P/{a,b}", "http://[$D]@$T:$P/",
	"http://\t$T:$P/", "http://$T\t:$P/", "http://$T:\n$P/", "http://$T:$P\r/", " http://$T:$P/", "http://$T:$P/ ",
	"http://$T :$P/", "http:// $T:$P/", "\thttp://$T:$P/", "h\tttp://$T:$P/", "http:/\t/$T:$P/",
	"http://$T.:$P/", "http://$T..:$P/", "http://$T:0$P/", "http://$T:$P:$P/", "http://$T:+$P/",
	"http://$T:$P/../x", "http://$T:$P/?x=http://$D/", "http://$D/http://$T:$P/",
}

// urlGlobForms use curl's ranges on a target's spelling: [N-M] is a
// numeric range, [a-z] a letter range; $P is the port (https://curl.se/docs/manpage.html#-g).
var urlGlobForms = []string{
	"http://[k-l]ocalhost:$P/", "http://localhos[s-t]:$P/", "http://127.0.0.[1-2]:$P/", "http://127.0.0.[0-9]:$P/",
	"http://12[6-7].0.0.1:$P/", "http://[a-z].invalid{,}:$P/", "http://localhost:[$P-$P]/", "http://l{o,x}calhost:$P/",
}

// generateURLs returns the harness's URLs: the three that reached a
// denied host while tooleval allowed (exampleURLs), every glob form, and n
// drawn by rng from the targets, forms and decoys.
func generateURLs(rng *rand.Rand, n int, port map[string]string) []string {
	out := exampleURLs(port)
	for _, form := range urlGlobForms {
		out = append(out, strings.ReplaceAll(form, "$P", port["127.0.0.1"]))
	}
	for range n {
		target := urlTargets[rng.IntN(len(urlTargets))]
		spelling := target.spellings[rng.IntN(len(target.spellings))]
		form := urlForms[rng.IntN(len(urlForms))]
		p := port[target.ip]
		if rng.IntN(10) == 0 { // now and then the other server's port
			p = port[urlTargets[rng.IntN(len(urlTargets))].ip]
		}
		u := strings.NewReplacer("$T", spelling, "$P", p, "$D", urlDecoys[rng.IntN(len(urlDecoys))]).Replace(form)
		if rng.IntN(8) == 0 { // a tab, newline or carriage return anywhere
			i := rng.IntN(len(u) + 1)
			for i < len(u) && u[i]&0xc0 == 0x80 { // not inside a UTF-8 sequence
				i++
			}
			u = u[:i] + []string{"\t", "\n", "\r"}[rng.IntN(3)] + u[i:]
		}
		out = append(out, u)
	}
	return out
}

// exampleURLs are the three URLs that reached localhost while a deny of
// localhost let them through: schemeless host:port, a percent-encoded
// colon, and a curl glob.
func exampleURLs(port map[string]string) []string {
	p := port["127.0.0.1"]
	return []string{
		fmt.Sprintf("localhost:%s/path", p),
		fmt.Sprintf("http://localhost%%3a%s/", p),
		fmt.Sprintf("http://{a.invalid,localhost:%s}/", p),
	}
}
