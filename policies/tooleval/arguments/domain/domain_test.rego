package tooleval.arguments.domain_test

import data.tooleval.arguments.domain
import data.tooleval.arguments.url

# Domain entries: exact names, *.NAME below NAME, * every host.
test_domain_matches if {
	domain.domain_matches("example.com", "example.com")
	domain.domain_matches("example.com", "Example.COM.")
	not domain.domain_matches("docs.example.com", "example.com")
	domain.domain_matches("docs.example.com", "*.example.com")
	domain.domain_matches("a.b.example.com", "*.example.com")
	not domain.domain_matches("example.com", "*.example.com")
	not domain.domain_matches("evilexample.com", "*.example.com")
	not domain.domain_matches("example.com.evil.net", "*.example.com")
	domain.domain_matches("anything.net", "*")
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
	# the three URLs that reached localhost past a deny of it, and their
	# kin under a deny of its address and of a domain's subdomains
	["localhost:8080/path", "localhost", false, true],
	["http://localhost%3a8080/", "localhost", false, true],
	["http://{a.invalid,localhost:8080}/", "localhost", false, true],
	["http://[k-l]ocalhost:8080/", "localhost", false, true],
	["127.0.0.1:8080/path", "127.0.0.1", false, true],
	["http://127.0.0.1%3a8080/", "127.0.0.1", false, true],
	["http://0.0.0.0:8080/", "127.0.0.1", false, true],
	["http://0x7f.1%3a8080/", "127.0.0.1", false, true],
	["db.internal.example:5432/", "*.internal.example", false, true],
	["http://db.internal.example%3a5432/", "*.internal.example", false, true],
	["http://a.invalid;db.internal.example/", "*.internal.example", false, true],
	["http://ｄｂ.internal.example/", "*.internal.example", false, true],
	["http://{a,db.internal}.example/", "*.internal.example", false, true],
	["http://a.invalid/db.internal.example/", "*.internal.example", false, false],
	["https://a.invalid?@localhost/", "localhost", false, false],
	["https://a.invalid?@localhost/", "a.invalid", true, true],
]

test_url_rules if {
	every row in url_rule_cases {
		reading := url.read_url(row[0])
		_matches(reading, row[1], "allow") == row[2]
		_matches(reading, row[1], "deny") == row[3]
		_matches(reading, row[1], "ask") == row[3]
	}
}

_matches(reading, entry, kind) if domain.url_matches(reading, entry, kind)

else := false
