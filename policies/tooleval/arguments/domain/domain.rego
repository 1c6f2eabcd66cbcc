# METADATA
# title: Domain rules
# description: |
#   Argument rules over the host of a call's URL (tooleval.arguments.url
#   reads it): domain names a host (any case, one trailing dot aside),
#   *.NAME any host below NAME, * every host. An allow rule matches only
#   a URL read exactly, by its host; a deny or ask rule any host the URL
#   could reach. One of the condition families joined by
#   tooleval.arguments (rules.rego), with the same rules as the
#   others: problem, compile, example, example_reading, bites, permits
#   and lets_through.
package tooleval.arguments.domain

import data.tooleval.arguments.url

# METADATA
# description: |
#   Why value is not a domain rule's value, as a code of
#   tooleval.arguments.rule_problem_messages; undefined when it is one: a
#   lower-case host name or IPv4 address, *.NAME or *.
problem(_, value, _) := "invalid_domain_rule" if not _domain_entry(value) # regal ignore:argument-always-wildcard

_domain_entry("*")

_domain_entry(value) if {
	is_string(value)
	regex.match(`^(?:\*\.)?[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*$`, value)
}

# METADATA
# description: A domain rule as matching reads it (its value; no words, no matcher).
compile(_, value) := {"value": value, "words": null, "matcher": null} # regal ignore:argument-always-wildcard

# METADATA
# description: Whether x is an example a domain rule reads (a URL).
example(x) if is_string(x)

# METADATA
# description: An example URL read as a call that carries it.
example_reading(x) := url.read_url(x)

# METADATA
# description: Whether a deny or ask domain rule bites on a URL reading (url_matches).
bites(rule, reading) if url_matches(reading, rule.value, "deny")

# METADATA
# description: Whether allow domain rules (rules) permit a URL reading, one naming the host of a URL read exactly.
permits(rules, reading) if {
	some rule in rules
	url_matches(reading, rule.value, "allow")
}

# METADATA
# description: Whether an allow domain rule lets a URL reading through (permits, of the rule alone).
lets_through(rule, reading) if url_matches(reading, rule.value, "allow")

# METADATA
# scope: document
# description: |
#   Whether host is named by a domain entry: entry itself (any case, one
#   trailing dot aside), or, for *.NAME, any host below NAME (not NAME
#   itself); * names every host.
domain_matches(_, "*")

domain_matches(host, entry) if {
	startswith(entry, "*.")
	endswith(host, substring(lower(trim_suffix(entry, ".")), 1, -1))
}

domain_matches(host, entry) if host == lower(trim_suffix(entry, "."))

# METADATA
# scope: document
# description: |
#   Whether a domain entry matches the URL reading (url.read_url) for a rule
#   of kind allow (only a URL read exactly, by its host) or deny and ask
#   (any host the URL could reach; an IP address entry, any URL whose host
#   could be an IP address spelled otherwise; every entry, a URL that
#   lists no host it could reach: it may reach any).
url_matches(reading, entry, "allow") if {
	reading.exact == true
	domain_matches(reading.host, entry)
}

url_matches(reading, entry, kind) if {
	kind in {"deny", "ask"}
	some host in _reading_hosts(reading)
	domain_matches(host, entry)
}

url_matches(reading, entry, kind) if {
	kind in {"deny", "ask"}
	reading.numeric == true
	_ip_entry(entry)
}

url_matches(reading, _, kind) if {
	kind in {"deny", "ask"}
	reading.unreadable
	count(reading.hosts) == 0
}

_reading_hosts(reading) := [reading.host] if reading.exact == true

else := reading.hosts

_ip_entry(entry) if regex.match(`^[0-9.]+$|:`, entry)
