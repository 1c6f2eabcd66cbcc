# METADATA
# title: Name-keyed tables
# description: |
#   Name-keyed tables of the configuration (agents, tenants, scopes,
#   profiles, mcp_user_services). A request names an entry, and names
#   compare canonically, as tool names do: Explore, explore and a
#   full-width spelling select one agent definition.
#
#   One rule for every look-up of a name in a table, on both sides:
#
#     - a request name that has no exact canonical form (a string over the
#       length cap, say explore followed by 250 zero-width spaces, whose
#       canonical form would be explore) selects nothing, and the entry its
#       spelling means may be the one that restricts it: the request is
#       refused (uncanonicalizable_name, at the request's field);
#     - a table key that has no exact canonical form can be selected by no
#       request, though a request may mean it: it is a configuration error
#       located at the key (uncanonicalizable_name), which refuses every
#       request that looks a name up in that table;
#     - two keys with one canonical form are a collision: a request that
#       names either is refused (colliding_names), because which entry it
#       read would depend on spelling.
#
#   Every stage reads a table with table_key or table_entry and reports
#   lookup_errors for the names it looked up, and key_errors for the whole
#   table in its configuration errors.
package tooleval.configuration.tables

import data.tooleval.canonical.canonical_or_null
import data.tooleval.canonical.plain_name_chars
import data.tooleval.shape

# METADATA
# description: |
#   The keys of table whose canonical form is name's, sorted: one when
#   name selects an entry, more on a collision, none otherwise.
_table_keys(table, name) := [] if {
	table == {}
} else := sort([k | some k, _ in table; canonical_or_null(k) == c]) if {
	is_object(table)
	c := canonical_or_null(name)
	c != null
} else := []

# METADATA
# description: The key of table that name selects; undefined when none does or on a collision.
table_key(table, name) := keys[0] if {
	keys := _table_keys(table, name)
	count(keys) == 1
}

# METADATA
# description: The entry of table that name selects; undefined when none does or on a collision.
table_entry(table, name) := table[table_key(table, name)]

# METADATA
# description: |
#   What refuses a request that looks names up in the table at location:
#   each name is a pair [field, name], where field says where the request
#   (or the configuration) gave it. A name that is a string with no
#   exact canonical form, any key of the table with none (when a string
#   name is looked up at all), and keys that collide with a name. A name
#   that is not a string looks nothing up (its own shape error refuses).
lookup_errors(table, location, names) := [] if {
	every name in names {
		not is_string(name[1])
	}
} else := _name_list_errors(names) if {
	not _has_keys(table)
} else := array.flatten([
	_name_list_errors(names),
	_looked_up_key_errors(table, location, names),
	[e |
		some [_, name] in names
		some e in collision_errors(table, location, name)
	],
])

# A table with no key (or not a table) has no key errors and no
# collisions: only the names looked up in it can be wrong.
_has_keys(table) if {
	is_object(table)
	count(table) > 0
}

_name_list_errors(names) := [e |
	some [field, name] in names
	some e in _name_errors(name, field)
]

_looked_up_key_errors(table, location, names) := unreadable_key_errors(table, location) if {
	some [_, name] in names
	is_string(name)
} else := []

# The uncanonicalizable_name error of a name a request (or a reference
# in the configuration) gives at field, or none.
_name_errors(name, field) := [shape.problem(
	"uncanonicalizable_name",
	sprintf("%s has no exact canonical form (longer than the name cap, or not canonicalizable exactly): it selects no entry, so every call is refused", [field]),
	{"field": field, "name": name},
)] if {
	is_string(name)
	canonical_or_null(name) == null
} else := []

# METADATA
# description: |
#   An uncanonicalizable_name error for each key of the table at location
#   that has no exact canonical form, located at the key
#   (location.KEY): no request can select it.
unreadable_key_errors(table, location) := [] if {
	_plain_keys(table)
} else := [shape.problem(
	"uncanonicalizable_name",
	sprintf(
		"%s has a key with no exact canonical form: no request can select its entry, so every request that looks a name up in %s is refused",
		[location, location],
	),
	{"field": sprintf("%s.%s", [location, key]), "name": key},
) |
	is_object(table)
	some key in sort(object.keys(table))
	canonical_or_null(key) == null
]

# The keys of table are all plain names (tooleval.canonical.plain_name),
# which have a canonical form: checked with one match over the keys'
# JSON text instead of canonicalizing each key, as most tables are.
_plain_keys(table) if {
	is_object(table)
	regex.match(_plain_keys_text, json.marshal(object.keys(table)))
}

_plain_keys_text := sprintf(`^\[("%s"(,"%s")*)?\]$`, [plain_name_chars, plain_name_chars])

# METADATA
# description: |
#   Every error in the keys of the table at location: keys with no exact
#   canonical form (unreadable_key_errors) and keys that share one
#   (key_collision_errors).
key_errors(table, location) := array.concat(unreadable_key_errors(table, location), key_collision_errors(table, location))

# METADATA
# description: |
#   A colliding_names error when more than one key of the table at
#   location has name's canonical form (for the request that names it).
collision_errors(table, location, name) := [shape.problem(
	"colliding_names",
	sprintf("%s has keys %v that are one name in canonical form: which one a request selects would depend on spelling", [location, keys]),
	{"field": location, "names": keys},
)] if {
	keys := _table_keys(table, name)
	count(keys) > 1
} else := []

# METADATA
# description: |
#   Where each entry of a list at base comes from: base[0], base[1], ...
#   (none when list is not an array). tooleval.explain names matched
#   entries with these.
indexed_sources(base, list) := [sprintf("%s[%d]", [base, i]) | some i, _ in list] if {
	is_array(list)
} else := []

# METADATA
# description: |
#   A problem for each key of obj whose canonical form another key
#   shares: which of them a request selects would depend on spelling.
key_collision_errors(obj, location) := [shape.problem(
	"colliding_names",
	sprintf("%s has keys %v that are one name in canonical form", [location, keys]),
	{"field": location, "names": keys},
) |
	some c, keys in _keys_by_canonical(obj)
	count(keys) > 1
]

_keys_by_canonical(obj) := {c: sort([k | some k, _ in obj; canonical_or_null(k) == c]) |
	some key, _ in obj
	c := canonical_or_null(key)
	c != null
}
