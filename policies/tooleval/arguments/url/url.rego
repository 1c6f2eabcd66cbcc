# METADATA
# title: URL reader
# description: |
#   Reading a URL's host exactly: the host a browser would connect to, or,
#   where fetchers could disagree, every host the URL could be read as. A
#   domain allow rule matches only a URL read exactly; a deny (or ask) rule
#   matches a URL any of whose possible hosts it names.
package tooleval.arguments.url

import data.tooleval.canonical.canonical_or_null

# METADATA
# description: |
#   How url is read: {"scheme", "host", "port", "exact": true} for an
#   http or https URL whose host every fetcher reads alike (a lower-case
#   ASCII host name of letters, digits and hyphens, or a dotted-decimal
#   IPv4 address outside 0.0.0.0/8; one trailing dot dropped; port null
#   when absent). Or {"unreadable": why, "hosts": [...], "numeric": bool}
#   for anything else: not a string, over max_url_length characters,
#   another scheme or none, userinfo (@), backslashes, percent-encoding,
#   white space or control characters, non-ASCII, IPv6, IPv4 spelled any
#   way but dotted decimal (a browser reads 2130706433, 0x7f.1 and
#   0177.0.0.1 as 127.0.0.1), curl globs. hosts over-approximates the
#   hosts browsers and Node (the URL Standard), curl, wget, Python's
#   urllib and Go's net/http could reach (docs/contract.md): every piece
#   of the text where a host may stand, as written, percent-decoded and
#   IDNA-mapped, lower case, without trailing dots; none when the URL
#   may reach any host (a curl glob, a piece with no canonical form).
#   numeric says that one of them could be an IP address spelled
#   numerically. Defined for every value.
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
# dotted-decimal IPv4 address outside 0.0.0.0/8 (connecting to 0.0.0.0
# reaches this host: torvalds/linux net/ipv4/route.c,
# ip_route_output_key_hash_rcu, "if (!fl4->daddr)" makes it 127.0.0.1).
_plain_host(host) if {
	regex.match(`^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)*[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$`, host)
	not _numeric_ending(host)
}

_plain_host(host) if {
	regex.match(`^(?:(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])\.){3}(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])$`, host)
	not startswith(host, "0.") # 0.0.0.0/8, "this host": Linux connects 0.0.0.0 to 127.0.0.1
}

# A host whose last label is a number (decimal, or 0x hexadecimal): the
# URL Standard parses it as an IPv4 address, in any of its spellings.
_numeric_ending(host) if regex.match(`(?i)(?:^|\.)(?:[0-9]+|0x[0-9a-f]*)\.?$`, host)

_unreadable_url(url, why) := {"unreadable": why, "hosts": [], "numeric": true} if {
	_curl_glob(url)
} else := _unreadable_pieces(why, [_mapped_pieces(piece) | some piece in _authority_pieces(url)], url)

# A piece with no canonical form to compare (null): the URL may reach any
# host. Otherwise every form of every piece, without trailing dots (and
# without leading ones too).
_unreadable_pieces(why, mapped, url) := {"unreadable": why, "hosts": [], "numeric": true} if {
	null in mapped
} else := {"unreadable": why, "hosts": hosts, "numeric": _any_numeric(hosts, url)} if {
	hosts := sort({host |
		some forms in mapped
		some form in forms
		some host in {trim_right(form, "."), trim_left(trim_right(form, "."), ".")}
		host != ""
	})
}

_any_numeric(hosts, url) if {
	some host in hosts
	_numeric_ending(host)
}

else if contains(url, "[")

else := false

_url_why(url) := "curl expands {} and [] in a URL into other URLs (globbing)" if {
	_curl_glob(url)
} else := "the URL is not http or https" if {
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
	[`%`, "a percent-encoded host is decoded by browsers and by Python's urllib"],
	[`[^\x00-\x7f]`, "a non-ASCII host is converted (IDNA) by browsers"],
	[`\[`, "an IPv6 host is not read"],
	[`^0\.`, "the address 0.0.0.0 connects to this host (Linux: 127.0.0.1)"],
]

# curl reads {a,b} and [m-n] in a URL as a glob, unless the brackets hold
# an IPv6 address (https://curl.se/docs/manpage.html#-g, "globbing";
# curl/curl src/tool_urlglob.c, peek_ipv6). A glob expands into URLs with
# other hosts (http://{a.invalid,localhost}/, http://[k-l]ocalhost/).
_curl_glob(url) if regex.match(`[{}]`, url)

_curl_glob(url) if regex.match(`[\[\]]`, regex.replace(url, `\[[0-9A-Fa-f.]*:[0-9A-Fa-f:.]*(?:%[^\]]*)?\]`, ""))

# The text a browser parses: tabs and newlines removed, leading and
# trailing C0 controls and spaces trimmed.
_browser_text(url) := regex.replace(regex.replace(url, `[\t\n\r]`, ""), `^[\x00-\x20]+|[\x00-\x20]+$`, "")

# The text after the scheme and its slashes (either way round) up to the
# first /, ? or # (the generous end: a backslash does not end it here).
_authority_text(url) := regex.replace(regex.replace(url, `^(?:[^:/?#]*:)?[/\\]*`, ""), `(?s)[/?#].*$`, "")

# Where some fetcher may read the host, generously: after a scheme (or
# after none: curl and wget read host:port/path as http://host:port/path)
# and the slashes (either way round), up to the first slash (a ? or #
# does not end it here), in the text as written and as a browser reads
# it. Pieces are split at every ASCII character that is not a letter,
# digit, ".", "-", "_", "~" or "%": a host a parser reads is one piece or
# ends with a piece that is a domain entry's end.
_authority_pieces(url) := {piece |
	some text in {url, _browser_text(url)}
	some pattern in _authority_starts(text)
	some piece in _pieces(regex.replace(regex.replace(text, pattern, ""), `(?s)/.*$`, ""))
}

# Where the authority may start: after a scheme and slashes, or, for a
# URL without "scheme://", at its start too.
_authority_starts(text) := [`^(?:[^:/?#]*:)?[/\\]*`] if {
	regex.match(`^[A-Za-z][A-Za-z0-9+.-]*://`, text)
} else := [`^(?:[^:/?#]*:)?[/\\]*`, `^[/\\]*`]

_pieces(text) := {lower(piece) |
	some piece in regex.split(`[\x00-\x24\x26-\x2c/:-@\[-\x5e\x60\x7b-\x7d\x7f]+`, text)
	piece != ""
}

# A piece as written and as parsers map it: percent-decoded (once, as
# browsers and Python's urllib.request do, and twice), IDNA-mapped where
# it is not ASCII (its NFKC_Casefold form, canonical_or_null, with the
# full stops IDNA reads as dots made dots), each split again into pieces.
# null when a non-ASCII piece has no canonical form here.
_mapped_pieces(piece) := null if {
	some decoded in _decoded_pieces(piece)
	_idna_mapped(decoded) == null
} else := {piece} | {form |
	some decoded in _decoded_pieces(piece)
	some form in _pieces(_idna_mapped(decoded))
}

_decoded_pieces(piece) := {piece} | {twice |
	some once in _pieces(_percent_decoded(piece))
	some twice in ({once} | _pieces(_percent_decoded(once)))
}

# A % not followed by two hexadecimal digits is left as it is (as
# browsers leave it).
_percent_decoded(piece) := urlquery.decode(regex.replace(regex.replace(piece, `%`, "%25"), `%25([0-9A-Fa-f]{2})`, "%$1"))

_idna_mapped(piece) := piece if {
	regex.match(`^[\x00-\x7f]*$`, piece)
} else := canonical_or_null(regex.replace(piece, `[\x{3002}\x{ff0e}\x{ff61}]`, "."))
