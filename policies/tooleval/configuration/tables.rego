# Name-keyed tables of the configuration (agents, tenants, scopes,
# profiles). A request names an entry, and names compare canonically, as
# tool names do: Explore, explore and a full-width spelling select one
# agent definition. Two keys with one canonical form are a collision: a
# request that names either is refused (colliding_names), because which
# entry it read would depend on spelling.
package tooleval.configuration

import data.tooleval.canonical.canonical_or_null
import data.tooleval.shape

# METADATA
# description: |
#   The keys of table whose canonical form is name's, sorted: one when
#   name selects an entry, more on a collision, none otherwise.
_table_keys(table, name) := sort([k | some k, _ in table; canonical_or_null(k) == c]) if {
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
