package tooleval.arguments.url_test

import data.tooleval.arguments.url

# URLs every parser reads alike, and their reading. Sources: [cc] Claude
# Code's permissions page (https://code.claude.com/docs/en/permissions:
# WebFetch(domain:example.com) rules); [url] the WHATWG URL Standard
# (https://url.spec.whatwg.org/: host parsing lower-cases ASCII hosts; a
# fragment or query ends the authority).
exact_urls := [
	# [cc] a fetch of example.com
	["https://example.com/", {"scheme": "https", "host": "example.com", "port": null, "exact": true}],
	# [url] scheme and host are case-insensitive; the root dot is the same host
	["HTTPS://Example.COM./a?b#c", {"scheme": "https", "host": "example.com", "port": null, "exact": true}],
	["http://example.com:8080/x%20y?q=@z", {"scheme": "http", "host": "example.com", "port": 8080, "exact": true}],
	# [url] an @ after the authority's end is not userinfo
	["https://evil.net/@example.com", {"scheme": "https", "host": "evil.net", "port": null, "exact": true}],
	["https://evil.net#@example.com", {"scheme": "https", "host": "evil.net", "port": null, "exact": true}],
	["https://evil.net?@example.com", {"scheme": "https", "host": "evil.net", "port": null, "exact": true}],
	["http://127.0.0.1:3000/", {"scheme": "http", "host": "127.0.0.1", "port": 3000, "exact": true}],
	["https://docs.example.co.uk", {"scheme": "https", "host": "docs.example.co.uk", "port": null, "exact": true}],
	["https://xn--bcher-kva.example/", {"scheme": "https", "host": "xn--bcher-kva.example", "port": null, "exact": true}],
]

test_exact_urls if {
	every row in exact_urls {
		url.read_url(row[0]) == row[1]
	}
}

# URLs that parsers read differently, or that a browser reads as another
# spelling: unreadable, with the hosts a deny must consider (every piece
# of the authority, as written, percent-decoded and IDNA-mapped). [url]: a
# backslash is a slash in special URLs; userinfo precedes an @; tabs and
# newlines are removed; percent-encoded hosts are decoded; a host ending
# in a number is an IPv4 address (2130706433, 0x7f.1 and 0177.0.0.1 are
# 127.0.0.1); IDNA maps full-width letters and ideographic full stops;
# http:host, http:/host and http:\\host are http://host. [curl]: a URL
# without a scheme is http (https://curl.se/docs/url-syntax.html, "Without
# scheme"; wget alike: https://www.gnu.org/software/wget/manual/wget.html,
# "URL Format"). [py]: urllib.request unquotes the host and http.client
# splits host:port at its last colon (cpython Lib/urllib/request.py,
# Request._parse: unquote(self.host)). [linux]: 0.0.0.0 connects to
# 127.0.0.1. [split]: a piece ends at any character no host name holds,
# so a host some parser reads up to it is listed.
unreadable_urls := [
	["https://example.com@evil.net/", "userinfo", ["evil.net", "example.com"], false],
	["https://user:pw@example.com/", "userinfo", ["example.com", "pw", "user"], false],
	["https://evil.net\\@example.com/", "backslash", ["evil.net", "example.com"], false],
	["https://example.com\\.evil.net/", "backslash", [".evil.net", "evil.net", "example.com"], false],
	["https://ex%61mple.com/", "percent", ["ex%61mple.com", "example.com"], false],
	["https://exa\tmple.com/", "white space", ["exa", "example.com", "mple.com"], false],
	["https://exa\nmple.com/", "white space", ["exa", "example.com", "mple.com"], false],
	["https://ｅｘａｍｐｌｅ.com/", "non-ASCII", ["example.com", "ｅｘａｍｐｌｅ.com"], false],
	["https://example。com/", "non-ASCII", ["example.com", "example。com"], false],
	["http://2130706433/", "plain host", ["2130706433"], true],
	["http://0x7f.1/", "plain host", ["0x7f.1"], true],
	["http://0177.0.0.1/", "plain host", ["0177.0.0.1"], true],
	["http://127.1/", "plain host", ["127.1"], true],
	["http://1.2.3.4.5/", "plain host", ["1.2.3.4.5"], true],
	["http://[::ffff:127.0.0.1]/", "IPv6", ["127.0.0.1", "ffff"], true],
	["http://[::1]:8080/", "IPv6", ["1", "8080"], true],
	["https://a..b/", "plain host", ["a..b"], false],
	["https://-a.example/", "plain host", ["-a.example"], false],
	["https://a_b.example/", "plain host", ["a_b.example"], false],
	["https://example.com:99999/", "plain host", ["99999", "example.com"], true],
	["ftp://example.com/", "not http", ["example.com"], false],
	["//example.com/x", "not http", ["example.com"], false],
	["example.com", "not http", ["example.com"], false],
	["javascript:alert(1)", "not http", ["1", "alert", "javascript"], true],
	["", "not http", [], false],
	# [curl] [wget] host:port without a scheme
	["localhost:8080/path", "not http", ["8080", "localhost"], true],
	["LocalHost.:8080", "not http", ["8080", "localhost"], true],
	# [url] special schemes without their slashes, or with backslashes
	["http:localhost/", "plain host", ["http", "localhost"], false],
	["http:/localhost/", "plain host", ["http", "localhost"], false],
	["http:\\\\localhost/", "plain host", ["http", "localhost"], false],
	["h\tttp://localhost/", "not http", ["h", "localhost", "ttp"], false],
	# [py] a percent-encoded delimiter in the host, once or twice
	["http://localhost%3a8080/", "percent", ["8080", "localhost", "localhost%3a8080"], true],
	["http://localhost%253a8080/", "percent", ["8080", "localhost", "localhost%253a8080", "localhost%3a8080"], true],
	["http://a.invalid%2f@localhost/", "userinfo", ["a.invalid", "a.invalid%2f", "localhost"], false],
	["http://%6c%6f%63%61%6c%68%6f%73%74/", "percent", ["%6c%6f%63%61%6c%68%6f%73%74", "localhost"], false],
	["http://local%zzhost/", "percent", ["local%zzhost"], false],
	# [url] IDNA maps a full-width colon to a colon
	["http://localhost：8080/", "non-ASCII", ["8080", "localhost", "localhost：8080"], true],
	# [split] ; is no host name's character
	["http://localhost;.a.invalid/", "plain host", [".a.invalid", "a.invalid", "localhost"], false],
	# [url] ? and # end the authority: no userinfo, but a deny still looks
	["http://a.invalid;?@localhost/", "plain host", ["a.invalid", "localhost"], false],
	# [linux] the unspecified address
	["http://0.0.0.0:8080/", "0.0.0.0", ["0.0.0.0", "8080"], true],
	["http://0/", "plain host", ["0"], true],
]

test_unreadable_urls if {
	every row in unreadable_urls {
		reading := url.read_url(row[0])
		contains(reading.unreadable, row[1])
		reading.hosts == row[2]
		reading.numeric == row[3]
	}
}

# [curl] curl expands {a,b} and [m-n] (not an IPv6 address) into other
# URLs (https://curl.se/docs/manpage.html#-g): such a URL may reach any
# host, so it lists none and every deny or ask domain rule bites it. So
# does a URL with a non-ASCII piece that has no canonical form here.
any_host_urls := [
	"http://{a.invalid,localhost:8080}/",
	"http://[k-l]ocalhost/",
	"http://localhos[s-t]/",
	"http://127.0.0.[1-2]/",
	"http://[a.invalid]@localhost/",
	"{http://a.invalid,http://localhost}/",
	"ex%61mple.com/{a,b}",
	"http://[::1]/[a-b]",
	"http://a.invalid]/",
	concat("", ["http://a.invalid@ｌｏｃａｌｈｏｓｔ", concat("", ["ｘ" | some _ in numbers.range(1, 300)]), "/"]),
]

test_any_host_urls if {
	every u in any_host_urls {
		reading := url.read_url(u)
		reading.unreadable
		reading.hosts == []
	}
}

# A glob after the authority of an exact URL expands into URLs with the
# same host: the URL is read exactly.
test_glob_after_authority_exact if {
	url.read_url("https://example.com/{a,b}/[1-2]").host == "example.com"
	url.read_url("http://[::1]/").hosts == ["1"]
}

test_unreadable_url_values if {
	every value in [null, 7, ["https://example.com"], {"url": "https://example.com"}] {
		url.read_url(value) == {"unreadable": "the URL is not a string", "hosts": [], "numeric": false}
	}
	long := concat("", ["https://example.com/", concat("", ["a" | some _ in numbers.range(1, url.max_url_length)])])
	contains(url.read_url(long).unreadable, "longer than")
}
