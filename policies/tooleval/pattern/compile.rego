# Compiling a list of entries (grammar.rego) into a matcher (match.rego
# matches tools against it): groups expanded, aliases resolved, deny
# families added, and every kind of entry indexed so that matching a tool
# costs look-ups, not a scan of the entries.
package tooleval.pattern

import data.tooleval.canonical.canonical_or_null
import data.tooleval.canonical.plain_canonical
import data.tooleval.shape

# METADATA
# description: |
#   The list's entries that are not groups, then the members of each
#   group it names (once each, however often the list names it), each as
#   {entry, c, plain}: the entry, its canonical form (null when it has
#   none) and whether it is a plain exact entry (see _plain_exact).
#   Every entry is canonicalized once.
expand(list, groups) := array.concat(
	[f | some f in forms; not _group_form(f)],
	[_form(member) |
		some name in {substring(f.c, 6, -1) | some f in forms; _group_form(f)}
		is_array(groups[name])
		some member in groups[name]
	],
) if {
	forms := [_form(e) | some e in list]
}

_form(e) := {"entry": e, "c": c, "plain": true} if {
	c := _plain_exact(e)
} else := {"entry": e, "c": canonical_or_null(e), "plain": false}

_group_form(f) if {
	f.plain == false
	is_string(f.c)
	startswith(f.c, "group:")
}

# METADATA
# description: |
#   A matcher for a list of the given kind ("allow" or "deny"), built so
#   that matching one tool costs look-ups, not a scan of the entries:
#
#   | member            | holds                                            | from             |
#   | exact             | canonical built-in names, through the aliases     | exact entries    |
#   | names             | canonical names as written, for MCP tools        | exact entries; in deny lists also mcp__S__T and mcp__S |
#   | all_mcp           | true when the list has mcp__*                    | mcp__*           |
#   | raw               | raw server and tool-name prefix pairs (by length) | mcp__S__P*; in deny lists also mcp__S (prefix "") |
#   | raw_exact         | raw server and tool name pairs                   | deny: mcp__S__T  |
#   | prefixes          | name prefixes of non-MCP tools (by length)       | deny: P*         |
#   | mcp_name_prefixes | name prefixes of MCP tools (by length)           | deny: mcp__S__P*, mcp__S |
#
#   So in a deny list an MCP pattern bites on the raw identity and on the
#   model-visible name, and a bare mcp__S denies the whole server; in an
#   allow list only the raw identity counts and a bare mcp__S matches
#   nothing. A built-in and its aliases are one tool: exact entries are
#   stored as the tool they name, and a deny prefix bites if it matches
#   any of the tool's names. Invalid entries are left out (they are
#   reported as errors, which refuse every call). Every member is an
#   object or an array, so that a matcher can be kept as bundle data. A
#   list over the entry cap (too_many_entries, an error) is not read.
compile(list, kind, vocabulary) := _compile(array.concat(list, extra), kind, vocabulary) if {
	kind == "deny"
	extra := family_entries(list, vocabulary)
	count(extra) > 0
} else := _compile(list, kind, vocabulary)

_compile(list, kind, vocabulary) := _compile_simple(simple_forms(text, kind), kind, vocabulary.aliases) if {
	text := simple_list(list, kind) # within the cap
} else := _over_cap[kind] if {
	count(list) > shape.max_entries
} else := _compile_entries(list, kind, vocabulary)

# METADATA
# description: |
#   The entries a deny list also denies through the vocabulary's deny
#   families: for each built-in it names exactly (directly or in a group,
#   its aliases resolved), the members of that tool's family. Families
#   do not chain, and a wildcard entry has none.
family_entries(list, vocabulary) := [m |
	families := object.get(vocabulary, "families", {})
	count(families) > 0
	count(list) <= shape.max_entries # a list over the cap is not read
	keys := {object.get(vocabulary.aliases, f.c, f.c) |
		some f in expand(list, kind_groups(vocabulary, "deny"))
		is_string(f.c)
	}
	some k in sort(keys)
	some m in object.get(families, k, [])
]

# METADATA
# scope: document
# description: |
#   The groups a list of the given kind reads from a vocabulary: a deny
#   list reads deny_groups (where a preset and the configuration both
#   define a group, the union), an allow list groups.
kind_groups(vocabulary, "deny") := vocabulary.deny_groups if is_object(vocabulary.deny_groups)

else := vocabulary.groups

kind_groups(vocabulary, "allow") := vocabulary.groups

# The matcher of a simple list of the given kind (see simple_list),
# given its entries sorted by form (simple_forms): what _compile_entries
# gives for it, a member at a time instead of an entry at a time.
_compile_simple(forms, "allow", aliases) := {
	"exact": _through_aliases(forms.names, aliases),
	"names": object.union(_as_keys(forms.names), {e: true | some [e, _, _] in forms.mcp_tools}),
	"all_mcp": forms.all_mcp,
	"raw": raw_index([[s, p] | some [_, s, p] in forms.mcp_prefixes]),
	"raw_exact": {},
	"prefixes": _empty_index,
	"mcp_name_prefixes": _empty_index,
}

_compile_simple(forms, "deny", aliases) := {
	"exact": _through_aliases(forms.names, aliases),
	"names": object.union_n([
		_as_keys(forms.names),
		{e: true | some [e, _, _] in forms.mcp_tools},
		{e: true | some [e, _] in forms.mcp_servers},
	]),
	"all_mcp": forms.all_mcp,
	"raw": raw_index(array.concat(
		[[s, p] | some [_, s, p] in forms.mcp_prefixes],
		[[s, ""] | some [_, s] in forms.mcp_servers],
	)),
	"raw_exact": {raw_key(s, t): true | some [_, s, t] in forms.mcp_tools},
	"prefixes": _prefix_index(forms.wildcards),
	"mcp_name_prefixes": _prefix_index(array.concat(
		[trim_suffix(e, "*") | some [e, _, _] in forms.mcp_prefixes],
		[concat("", [e, "__"]) | some [e, _] in forms.mcp_servers],
	)),
}

_as_keys(names) := {n: true | some n in names}

# The canonical names as the tools they name: each name an alias stands
# for replaced by the alias's tool.
_through_aliases(names, aliases) := _as_keys(names) if {
	object.filter(aliases, names) == {}
} else := object.union(
	object.remove(_as_keys(names), aliased),
	{tool: true | some tool in aliased},
) if {
	aliased := object.filter(aliases, names)
}

_empty_index := {"lengths": [], "prefixes": {}}

# METADATA
# description: |
#   The matcher of an empty list, of either kind: it matches no tool. A
#   caller may skip matching a list that compiled to it.
nothing := _compile_simple(simple_forms("", "deny"), "deny", {})

# The matcher of a list over the entry cap, by kind, compiled without
# reading it: its request already has an error that refuses every call,
# and on its own it fails closed too: as an allow list it matches no
# tool, as a deny list every tool (every name has the prefix "", and
# every MCP tool is one).
_over_cap := {
	"allow": _compile_simple(simple_forms("", "allow"), "allow", {}),
	"deny": object.union(nothing, {"all_mcp": true, "prefixes": {"lengths": [0], "prefixes": {"": true}}}),
}

# The matcher of any list (see compile), entry by entry.
_compile_entries(list, kind, vocabulary) := {
	"exact": object.union(
		{object.get(vocabulary.aliases, c, c): true | some c, _ in plain},
		{object.get(vocabulary.aliases, p.name, p.name): true | some p in parsed; p.kind == "exact"},
	),
	"names": object.union(plain, {p.name: true | some p in parsed; _exact_kinds[kind][p.kind]}),
	"all_mcp": count([p | some p in parsed; p.kind == "all_mcp"]) > 0,
	"raw": raw_index([[p.server, _raw_prefix(p)] | some p in parsed; _raw_prefix_kinds[kind][p.kind]]),
	"raw_exact": {raw_key(p.server, p.tool): true | some p in parsed; kind == "deny"; p.kind == "mcp_exact"},
	"prefixes": _prefix_index([p.prefix | some p in parsed; p.kind == "prefix"; kind == "deny"]),
	"mcp_name_prefixes": _prefix_index([_mcp_name_prefix(p) | some p in parsed; kind == "deny"; p.kind in {"mcp_prefix", "mcp_server"}]),
} if {
	groups := kind_groups(vocabulary, kind)
	forms := expand(list, groups)
	plain := {f.c: true | some f in forms; f.plain == true}
	parsed := [parse(f.c) |
		some f in forms
		f.plain == false
		not _problem(f.entry, f.c, kind, groups)
		not startswith(f.c, "group:")
	]
}

# The canonical form of a plain entry (a valid exact entry that does not
# start with mcp__); undefined for any other entry.
_plain_exact(e) := c if {
	c := plain_canonical(e)
	not startswith(c, "mcp__")
}

# METADATA
# description: |
#   What compiling a list needs besides the list: groups (name to
#   entries) and aliases (canonical alias to the canonical tool it names).
#   tooleval.configuration.vocabulary gives the configuration's.
vocabulary(groups, aliases) := full_vocabulary(groups, groups, aliases, {})

# METADATA
# description: |
#   What compiling a list needs: the groups an allow list reads, the
#   groups a deny list reads, the aliases (canonical alias to canonical
#   tool), and the deny families (canonical tool to the entries a deny of
#   it also denies; see family_entries).
full_vocabulary(groups, deny_groups, aliases, families) := {
	"groups": groups,
	"deny_groups": deny_groups,
	"aliases": aliases,
	"families": families,
}

# The parsed kinds that each kind of list matches by canonical name.
_exact_kinds := {
	"allow": {"exact", "mcp_exact"},
	"deny": {"exact", "mcp_exact", "mcp_server"},
}

# The parsed kinds that each kind of list matches by raw server and tool prefix.
_raw_prefix_kinds := {
	"allow": {"mcp_prefix"},
	"deny": {"mcp_prefix", "mcp_server"},
}

_raw_prefix(p) := p.prefix if p.kind == "mcp_prefix"

else := ""

_mcp_name_prefix(p) := concat("", ["mcp__", p.server, "__", _raw_prefix(p)])

# METADATA
# description: |
#   A set of prefixes as {lengths, prefixes}: whether a name starts with
#   one of them is one look-up per distinct length, however many there are.
_prefix_index(prefixes) := {
	"lengths": sort({count(p) | some p in prefixes}),
	"prefixes": {p: true | some p in prefixes},
}

# METADATA
# description: |
#   [server, prefix] pairs of raw MCP identities as a prefix index whose
#   keys carry the server (see raw_key), so that no entry is grouped by
#   server: a tool is matched with one look-up per distinct prefix length.
raw_index(pairs) := {
	"lengths": sort({count(p) | some [_, p] in pairs}),
	"prefixes": {raw_key(server, p): true | some [server, p] in pairs},
}

# METADATA
# description: |
#   One key for a raw server and a text after it (a tool name or prefix):
#   the server's length first, so that no two pairs share a key.
raw_key(server, text) := concat("", [format_int(count(server), 10), ":", server, text])
