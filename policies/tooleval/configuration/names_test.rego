package tooleval.configuration_test

import data.tooleval
import data.tooleval.canonical.canonical_or_null
import data.tooleval.configuration

# Names that cannot be canonicalized refuse in every table
# (tooleval.configuration.tables): a property over every name-keyed
# table, on both sides, for spellings of a key that the policy cannot
# canonicalize exactly.

_repeat(s, n) := concat("", [s | some _ in numbers.range(1, n)])

# METADATA
# description: |
#   Spellings of key that have no exact canonical form here: over the
#   name cap by default-ignorable code points (U+200B, U+00AD, U+FE0F),
#   white space or full-width letters, all of which canonicalize to the
#   key's own form below the cap; and spellings the Rego cannot map
#   exactly (a mark composing with the starter before it, marks out of
#   canonical order).
uncanonicalizable_spellings(key) := [
	concat("", [key, _repeat("\u200b", (256 - count(key)) + 1)]),
	concat("", [_repeat("\u00ad", 256), upper(key)]),
	concat("", [key, _repeat("\ufe0f", 300)]),
	concat("", [_repeat(" ", 128), key, _repeat("\t", 128)]),
	concat("", [key, _repeat("\uff41", 256)]),
	concat("", [key, "e\u0301"]),
	concat("", [key, "a\u0345\u0323"]),
]

test_the_spellings_have_no_canonical_form if {
	keys := {"explore", "acme", "repo", "alice", "coding", "read_file"}
	[[key, s] | some key in keys; some s in uncanonicalizable_spellings(key); canonical_or_null(s) != null] == []

	# the first is canonically the key: one character more than the cap
	every key in keys {
		count(uncanonicalizable_spellings(key)[0]) == 257
		canonical_or_null(replace(uncanonicalizable_spellings(key)[0], "\u200b", "")) == key
	}
}

name_declared := [
	{"name": "read_file"},
	{"name": "edit"},
	{"name": "mcp__github__read_issue", "mcp": {"server": "github", "tool": "read_issue"}},
]

name_calls := [
	{"id": "1", "name": "read_file"},
	{"id": "2", "name": "edit"},
	{"id": "3", "name": "mcp__github__read_issue"},
]

# One configuration in which every name-keyed table has an entry named
# key (the agent explore, the tenant acme, ...), and the tables that a
# request's names select from, each with the request fields that name S.
name_config := {
	"agents": {"explore": {"disallowed_tools": ["edit"]}, "coder": {"profile": "coding"}},
	"tenants": {"acme": {"tools": null}},
	"scopes": {"repo": ["read_file", "edit", "mcp__github__*"]},
	"profiles": {"coding": null},
	"mcp_user_services": {"alice": ["github"]},
}

# [table, its key in name_config, the request fields naming S (each a
# function of the spelling), the field the error names]
request_tables := [
	["agents", "explore", "agent.name"],
	["tenants", "acme", "tenant"],
	["scopes", "repo", "caller.scopes[0]"],
	["mcp_user_services", "alice", "caller.user"],
]

request_fields("agents", s) := {"agent": {"name": s, "role": "subagent", "depth": 1}}

request_fields("tenants", s) := {"tenant": s}

request_fields("scopes", s) := {"caller": {"scopes": [s]}}

request_fields("mcp_user_services", s) := {"caller": {"user": s}}

name_request(fields) := object.union(fields, {"declared": name_declared, "calls": name_calls})

with_config(conf) := configuration.overlay(data.tooleval.config, conf)

# Every call refused (invalid_config), and errors name the culprit. The
# configuration is prepared once per case, as the engine does on load
# (every entry point's refusal under errors is tested through the
# engine: TestNamesThatCannotBeCanonicalizedRefuseEverywhere).
refused_everywhere(conf, doc, code, field) if {
	c := with_config(conf)
	p := configuration.prepare(c)
	d := tooleval.decision with input as doc with data.tooleval.config as c with data.tooleval.prepared as p
	count(d.decisions) == count(name_calls)
	every x in d.decisions {
		x.allowed == false
		x.reason == "invalid_config"
	}
	some e in d.errors
	e.code == code
	e.field == field
}

# The key itself selects its entry without error (the control): the
# spellings are refused for having no canonical form, not for naming
# something unknown.
test_request_names_select_their_entry_when_canonical if {
	bad := [table |
		some [table, key, _] in request_tables
		d := tooleval.decision with input as name_request(request_fields(table, upper(key)))
			with data.tooleval.config as with_config(name_config)
		d.errors != []
	]
	bad == []
}

# Request side: a name the policy cannot canonicalize refuses every call.
test_uncanonicalizable_request_names_refuse_every_call if {
	failures := [[table, s] |
		some [table, key, field] in request_tables
		some s in uncanonicalizable_spellings(key)
		not refused_everywhere(name_config, name_request(request_fields(table, s)), "uncanonicalizable_name", field)
	]
	failures == []
}

# The issue's case: explore followed by 250 zero-width spaces is explore,
# whose definition disallows edit; it must not run edit.
test_an_over_long_agent_name_does_not_escape_its_definition if {
	doc := name_request(request_fields("agents", concat("", ["explore", _repeat("\u200b", 250)])))
	d := tooleval.decision with input as doc with data.tooleval.config as with_config(name_config)
	d.decisions[1].allowed == false
	[e.code | some e in d.errors] == ["uncanonicalizable_name"]
}

# A profile is named by the configuration (config.tools.profile, an
# agent's profile): a reference with no canonical form is a located
# error, and refuses every request that selects it.
test_uncanonicalizable_profile_references_refuse if {
	failures := [s |
		some s in uncanonicalizable_spellings("coding")
		not refused_everywhere(object.union(name_config, {"tools": {"profile": s}}), name_request({}), "uncanonicalizable_name", "config.tools.profile")
	]
	failures == []
	agent_failures := [s |
		some s in uncanonicalizable_spellings("coding")
		conf := object.union(name_config, {"agents": {"coder": {"profile": s}}})
		not refused_everywhere(conf, name_request(request_fields("agents", "coder")), "uncanonicalizable_name", "config.agents.coder.profile")
	]
	agent_failures == []
}

# Configuration side: a table key with no canonical form is a located
# error (config.TABLE.KEY), which refuses every request that looks a name
# up in that table, whatever name it looks up.
test_uncanonicalizable_table_keys_are_located_errors if {
	failures := [[table, s] |
		some [table, key, _] in array.concat(request_tables, [["profiles", "coding", ""]])
		some s in uncanonicalizable_spellings(key)
		conf := object.union(name_config, {table: object.union(object.remove(name_config[table], {key}), {s: name_config[table][key]})})
		doc := _table_request(table, key)
		not refused_everywhere(conf, doc, "uncanonicalizable_name", sprintf("config.%s.%s", [table, s]))
	]
	failures == []
}

_table_request("profiles", _) := name_request(request_fields("agents", "coder"))

_table_request(table, key) := name_request(request_fields(table, key)) if table != "profiles"

# Every name-keyed table a request reads (tooleval.configuration
# table_members), and profiles, is covered above: a new table must join
# the property.
test_the_property_covers_every_table if {
	covered := {table | some [table, _, _] in request_tables} | {"profiles"}
	configuration.table_members | {"profiles"} == covered
}

# The configuration's other name-keyed members: group names, path
# argument tools and a preset's aliases. A key with no canonical form is
# a located error and refuses every call.
test_uncanonicalizable_config_keys_are_errors if {
	failures := [[member, s] |
		some s in uncanonicalizable_spellings("read_file")
		some [member, conf, field] in [
			["groups", {"groups": {s: ["read_file"]}}, "config.groups"],
			["path_arguments", {"path_arguments": {s: {"path": "read"}}}, "config.path_arguments"],
			["aliases", {"preset": "openclaw", "presets": {"openclaw": {"aliases": {s: "exec"}}}}, sprintf("config.presets.openclaw.aliases.%s", [s])],
		]
		not refused_everywhere(conf, name_request({}), _config_key_code[member], field)
	]
	failures == []
}

_config_key_code := {"groups": "invalid_config_value", "path_arguments": "invalid_config_value", "aliases": "invalid_alias"}

# A preset's aliases that collide (Bash and bash naming two tools), chain
# (an alias of an alias) or loop are located configuration errors: the
# decision stays defined and refuses every call, never a conflict.
# [note, the preset's aliases overlay, expected [code, field] pairs]
alias_cases := [
	[
		"two spellings of one alias, two tools",
		{"Bash": "read_file"},
		[["colliding_names", "config.presets.openclaw.aliases.Bash"], ["colliding_names", "config.presets.openclaw.aliases.bash"]],
	],
	["a chain", {"exec": "run"}, [["invalid_alias", "config.presets.openclaw.aliases.bash"]]],
	[
		"a loop",
		{"exec": "bash"},
		[["invalid_alias", "config.presets.openclaw.aliases.bash"], ["invalid_alias", "config.presets.openclaw.aliases.exec"]],
	],
	[
		"a full-width spelling of a tool that is an alias",
		{"\uff45xec": "bash"},
		[["invalid_alias", "config.presets.openclaw.aliases.bash"], ["invalid_alias", "config.presets.openclaw.aliases.\uff45xec"]],
	],
]

test_colliding_aliases_are_located_errors if {
	failures := [[note, got] |
		some [note, aliases, want] in alias_cases
		c := with_config({"preset": "openclaw", "presets": {"openclaw": {"aliases": aliases}}})
		doc := {"declared": [{"name": "exec"}, {"name": "read_file"}], "calls": [{"id": "1", "name": "bash"}, {"id": "2", "name": "read_file"}]}
		got := _alias_outcome(c, doc)
		got != {"errors": want, "refused": true}
	]
	failures == []
}

# Two spellings of one alias for one tool (Qwen Code's Task and task,
# both agent) are one pair: no error, and the alias reaches its tool.
test_two_spellings_of_one_alias_for_one_tool_are_one_pair if {
	c := with_config({"preset": "openclaw", "presets": {"openclaw": {"aliases": {"BASH": "exec"}}}})
	doc := {"declared": [{"name": "exec"}, {"name": "read_file"}], "calls": [{"id": "1", "name": "bash"}, {"id": "2", "name": "read_file"}]}
	_alias_outcome(c, doc) == {"errors": [], "refused": false}
}

# The errors of the case's kinds, and whether the decision refuses every
# call (every entry point is exercised through the engine, on prepared
# configurations: TestConfigurationFuzzNeverConflicts).
_alias_outcome(c, doc) := {
	"errors": [[e.code, e.field] | some e in p.errors; e.code in {"colliding_names", "invalid_alias"}],
	"refused": every_refused,
} if {
	p := configuration.prepare(c)
	d := tooleval.decision with input as doc with data.tooleval.config as c with data.tooleval.prepared as p
	every_refused := count([1 |
		every y in d.decisions {
			y.allowed == false
		}
	]) == 1
}

# Under qwen_code, Shell, Bash and run_shell_command are one tool. A
# request that declares two of them and calls the third reaches two
# declared tools: it is refused (which one ran would depend on order),
# never a conflict; a call of a declared name reaches that one.
test_a_call_reaching_two_declared_names_of_one_tool_is_refused if {
	doc := {
		"declared": [{"name": "Shell"}, {"name": "run_shell_command"}],
		"calls": [{"id": "1", "name": "Bash"}, {"id": "2", "name": "shell"}],
	}
	d := tooleval.decision with input as doc with data.tooleval.config as with_config({"preset": "qwen_code"})
	d.errors == []
	d.decisions[0].reason == "not_declared"
	contains(d.decisions[0].message, "more than one declared tool")
	d.decisions[1].allowed == true
}
