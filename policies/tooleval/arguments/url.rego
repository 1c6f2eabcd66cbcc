# Reading a URL's host exactly: the host a browser would connect to, or,
# where parsers could disagree, every host the URL could be read as. A
# domain allow rule matches only a URL read exactly; a deny (or ask) rule
# matches a URL any of whose possible hosts it names (issue 23).
package tooleval.arguments

import data.tooleval.canonical.canonical_or_null

# METADATA
# description: |
#   How url is read: {"scheme", "host", "port", "exact": true} for an
#   http or https URL whose host every parser reads alike (a lower-case
#   ASCII host name of letters, digits and hyphens, or a dotted-decimal
#   IPv4 address; one trailing dot dropped; port null when absent). Or
#   {"unreadable": why, "hosts": [...], "numeric": bool} for anything
#   else: not a string, over max_url_length characters, another scheme
#   or none, userinfo (@), backslashes, percent-encoding, white space or
#   control characters, non-ASCII, IPv6, and IPv4 spelled any way but
#   dotted decimal (a browser reads 2130706433, 0x7f.1 and 0177.0.0.1 as
#   127.0.0.1). hosts over-approximates the hosts such a URL could reach:
#   every piece of its authority around @, \, : and brackets, as written
#   and percent-decoded, lower case, without trailing dots, and an IPv6
#   address between its brackets whole; numeric says
#   that one of them could be an IP address spelled numerically.
#   Defined for every value.
read_url(url) := {"unreadable": "the URL is not a string", "hosts": [], "numeric": false} if {
	not is_string(url)
} else := _unreadable_url(url, sprintf("the URL is longer than %d characters", [max_url_length])) if {
	count(url) > max_url_length
} else := reading if {
	reading := _exact_url(url)
} else := _unreadable_url(url, _url_why(url))

# METADATA
# description: The longest URL read_url reads, in characters.
max_url_length := 8192

# An http or https URL with a plain authority: scheme, host, port; then
# a path, query or fragment of printable ASCII without \ or spaces.
_exact_url_regex := `^(?i)(https?)://([a-z0-9.-]+)(?::([0-9]{1,5}))?(?:[/?#][\x21-\x5b\x5d-\x7e]*)?$`

_exact_url(url) := {"scheme": lower(m[1]), "host": host, "port": _port(m[3]), "exact": true} if {
	m := regex.find_all_string_submatch_n(_exact_url_regex, url, 1)[0]
	host := trim_suffix(lower(m[2]), ".") # a fully qualified name's root dot
	_plain_host(host)
}

_port("") := null

_port(digits) := to_number(digits) if {
	digits != ""
	to_number(digits) <= 65535
}

# A host every parser reads alike: a host name whose labels are letters,
# digits and inner hyphens and whose last label is not numeric, or a
# dotted-decimal IPv4 address.
_plain_host(host) if {
	regex.match(`^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)*[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$`, host)
	not _numeric_ending(host)
}

_plain_host(host) if regex.match(`^(?:(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])\.){3}(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])$`, host)

# A host whose last label is a number (decimal, or 0x hexadecimal): the
# URL Standard parses it as an IPv4 address, in any of its spellings.
_numeric_ending(host) if regex.match(`(?i)(?:^|\.)(?:[0-9]+|0x[0-9a-f]*)\.?$`, host)

_unreadable_url(url, why) := {"unreadable": why, "hosts": hosts, "numeric": numeric} if {
	hosts := _possible_hosts(url)
	numeric := _any_numeric(hosts, url)
}

_any_numeric(hosts, url) if {
	some host in hosts
	_numeric_ending(host)
}

else if contains(_authority_text(_browser_text(url)), "[")

else := false

_url_why(url) := "the URL is not http or https" if {
	not regex.match(`^(?i)[ \t\n\r]*https?:`, url)
} else := why if {
	text := _authority_text(url)
	why := [why | some [pattern, why] in _url_unread_classes; regex.match(pattern, text)][0]
} else := "the URL's host is not a plain host name or a dotted-decimal IPv4 address"

# What makes an authority unreadable, in the order they are reported.
_url_unread_classes := [
	[`[\x00-\x20\x7f]`, "white space or a control character is removed or refused by parsers"],
	[`\\`, "a backslash is read as a slash by browsers and not by other parsers"],
	[`@`, "a URL with userinfo (@) is read differently by different parsers"],
	[`%`, "a percent-encoded host is decoded by browsers"],
	[`[^\x00-\x7f]`, "a non-ASCII host is converted (IDNA) by browsers"],
	[`\[`, "an IPv6 host is not read"],
]

# The text a browser parses: tabs and newlines removed, leading and
# trailing C0 controls and spaces trimmed.
_browser_text(url) := regex.replace(regex.replace(url, `[\t\n\r]`, ""), `^[\x00-\x20]+|[\x00-\x20]+$`, "")

# The text after the scheme and its slashes (either way round) up to the
# first /, ? or # (the generous end: a backslash does not end it here).
_authority_text(url) := regex.replace(regex.replace(url, `^(?:[^:/?#]*:)?[/\\]*`, ""), `(?s)[/?#].*$`, "")

_possible_hosts(url) := sort((({host |
	some text in {url, _browser_text(url)}
	some piece in regex.split(`[@\\:\[\] ]+`, _authority_text(text))
	some form in _host_forms(_percent_decoded(piece))
	host := trim_right(form, ".")
	host != ""
} | {host |
	some text in {url, _browser_text(url)}
	some piece in regex.split(`[@\\:\[\] ]+`, _authority_text(text))
	host := trim_right(lower(piece), ".")
	host != ""
}) | {lower(m[1]) |
	# an IPv6 address whole, as written between its brackets
	some text in {url, _browser_text(url)}
	some m in regex.find_all_string_submatch_n(`\[([^\]]+)\]`, _authority_text(text), -1)
}))

_percent_decoded(piece) := decoded if {
	decoded := urlquery.decode(piece)
} else := piece

# A host as written, lower case, and as IDNA would map it where it is
# not ASCII: its NFKC_Casefold form (canonical_or_null), with the full
# stops IDNA reads as dots (U+3002, U+FF0E, U+FF61) made dots.
_host_forms(host) := {lower(host)} if {
	regex.match(`^[\x00-\x7f]*$`, host)
} else := {lower(host), mapped} if {
	mapped := canonical_or_null(regex.replace(host, `[\x{3002}\x{ff0e}\x{ff61}]`, "."))
	mapped != null
} else := {lower(host)}

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
#   Whether a domain entry matches the URL reading (read_url) for a rule
#   of kind allow (only a URL read exactly, by its host) or deny and ask
#   (any host the URL could reach; an IP address entry, any URL whose host
#   could be an IP address spelled otherwise).
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

_reading_hosts(reading) := [reading.host] if reading.exact == true

else := reading.hosts

_ip_entry(entry) if regex.match(`^[0-9.]+$|:`, entry)
