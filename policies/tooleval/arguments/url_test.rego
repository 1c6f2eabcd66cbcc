package tooleval.arguments_test

import data.tooleval.arguments

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
		arguments.read_url(row[0]) == row[1]
	}
}

# URLs that parsers read differently, or that a browser reads as another
# spelling: unreadable, with the hosts a deny must consider. [url]: a
# backslash is a slash in special URLs; userinfo precedes an @; tabs and
# newlines are removed; percent-encoded hosts are decoded; a host ending
# in a number is an IPv4 address (2130706433, 0x7f.1 and 0177.0.0.1 are
# 127.0.0.1); IDNA maps full-width letters and ideographic full stops.
unreadable_urls := [
	["https://example.com@evil.net/", "userinfo", ["evil.net", "example.com"]],
	["https://user:pw@example.com/", "userinfo", ["example.com", "pw", "user"]],
	["https://evil.net\\@example.com/", "backslash", ["evil.net", "example.com"]],
	["https://example.com\\.evil.net/", "backslash", [".evil.net", "example.com"]],
	["https://ex%61mple.com/", "percent", ["ex%61mple.com", "example.com"]],
	["https://exa\tmple.com/", "white space", ["exa\tmple.com", "example.com"]],
	["https://exa\nmple.com/", "white space", ["exa\nmple.com", "example.com"]],
	["https://ｅｘａｍｐｌｅ.com/", "non-ASCII", ["example.com", "ｅｘａｍｐｌｅ.com"]],
	["https://example。com/", "non-ASCII", ["example.com", "example。com"]],
	["http://2130706433/", "plain host", ["2130706433"]],
	["http://0x7f.1/", "plain host", ["0x7f.1"]],
	["http://0177.0.0.1/", "plain host", ["0177.0.0.1"]],
	["http://127.1/", "plain host", ["127.1"]],
	["http://1.2.3.4.5/", "plain host", ["1.2.3.4.5"]],
	["http://[::ffff:127.0.0.1]/", "IPv6", ["127.0.0.1", "::ffff:127.0.0.1", "ffff"]],
	["https://a..b/", "plain host", ["a..b"]],
	["https://-a.example/", "plain host", ["-a.example"]],
	["https://a_b.example/", "plain host", ["a_b.example"]],
	["https://example.com:99999/", "plain host", ["99999", "example.com"]],
	["ftp://example.com/", "not http", ["example.com"]],
	["//example.com/x", "not http", ["example.com"]],
	["example.com", "not http", ["example.com"]],
	["javascript:alert(1)", "not http", ["alert(1)"]],
	["", "not http", []],
]

test_unreadable_urls if {
	every row in unreadable_urls {
		reading := arguments.read_url(row[0])
		contains(reading.unreadable, row[1])
		reading.hosts == row[2]
	}
}

test_unreadable_url_values if {
	every value in [null, 7, ["https://example.com"], {"url": "https://example.com"}] {
		arguments.read_url(value) == {"unreadable": "the URL is not a string", "hosts": [], "numeric": false}
	}
	long := concat("", ["https://example.com/", concat("", ["a" | some _ in numbers.range(1, arguments.max_url_length)])])
	contains(arguments.read_url(long).unreadable, "longer than")
}

# Domain entries: exact names, *.NAME below NAME, * every host.
test_domain_matches if {
	arguments.domain_matches("example.com", "example.com")
	arguments.domain_matches("example.com", "Example.COM.")
	not arguments.domain_matches("docs.example.com", "example.com")
	arguments.domain_matches("docs.example.com", "*.example.com")
	arguments.domain_matches("a.b.example.com", "*.example.com")
	not arguments.domain_matches("example.com", "*.example.com")
	not arguments.domain_matches("evilexample.com", "*.example.com")
	not arguments.domain_matches("example.com.evil.net", "*.example.com")
	arguments.domain_matches("anything.net", "*")
}

# An allow entry matches only a URL read exactly; a deny or ask entry
# matches any host the URL could reach, and an IP entry any host that
# could be an IP address spelled otherwise.
url_rule_cases := [
	["https://docs.example.com/x", "*.example.com", true, true],
	["https://example.com@evil.net/", "evil.net", false, true],
	["https://example.com@evil.net/", "example.com", false, true],
	["https://evil.net\\@example.com/", "example.com", false, true],
	["https://ex%61mple.com/", "example.com", false, true],
	["https://ｅｘａｍｐｌｅ.com/", "example.com", false, true],
	["http://2130706433/", "127.0.0.1", false, true],
	["http://0x7f.1/", "127.0.0.1", false, true],
	["http://127.0.0.1/", "127.0.0.1", true, true],
	["https://example.com/", "evil.net", false, false],
	["https://example.com.evil.net/", "*.example.com", false, false],
]

test_url_rules if {
	every row in url_rule_cases {
		reading := arguments.read_url(row[0])
		_matches(reading, row[1], "allow") == row[2]
		_matches(reading, row[1], "deny") == row[3]
		_matches(reading, row[1], "ask") == row[3]
	}
}

_matches(reading, entry, kind) if arguments.url_matches(reading, entry, kind)

else := false
