package tooleval.configuration.tables_test

import data.tooleval
import data.tooleval.configuration.tables

# Configurations whose tables have keys that collide canonically.
colliding := {
	"agents": {"Explore": {"disallowed_tools": ["edit"]}, "explore": {"tools": ["read_file"]}, "Auditor": {"disallowed_tools": ["write_file"]}},
	"tenants": {"ACME": {"tools": ["read_file"]}, "acme": {"tools": null}, "Globex": {"tools": ["read_file"]}},
	"scopes": {"Repo": ["read_file"], "repo": ["write_file"], "Files": ["read_file"]},
	"profiles": {"Coding": ["read_file"], "coding": null, "Lean": ["read_file"]},
}

table_declared := [{"name": "read_file"}, {"name": "write_file"}, {"name": "edit"}]

request(fields) := object.union(fields, {"declared": table_declared, "calls": [{"id": "c", "name": "write_file"}]})

# [note, request fields, expected error codes, expected verdict of write_file]
table_cases := [
	["agent EXPLORE collides", {"agent": {"name": "EXPLORE"}}, ["colliding_names"], "invalid_config"],
	["agent explore collides", {"agent": {"name": "explore"}}, ["colliding_names"], "invalid_config"],
	["agent auditor selects Auditor", {"agent": {"name": "auditor"}}, [], "denied"],
	["agent \uff21uditor selects Auditor", {"agent": {"name": "\uff21uditor"}}, [], "denied"],
	["tenant acme collides", {"tenant": "acme"}, ["colliding_names", "unknown_tenant"], "invalid_config"],
	["tenant globex selects Globex", {"tenant": "globex"}, [], "not_allowed"],
	["scope REPO collides", {"caller": {"scopes": ["REPO"]}}, ["colliding_names"], "invalid_config"],
	["scope files selects Files", {"caller": {"scopes": ["files"]}}, [], "not_allowed"],
	["profile coding collides", {"agent": {"name": "coder"}}, ["colliding_names"], "invalid_config"],
	["profile lean selects Lean", {"agent": {"name": "lean"}}, [], "not_allowed"],
]

table_config := object.union(colliding, {"agents": {"coder": {"profile": "coding"}, "lean": {"profile": "LEAN"}}})

test_tables_are_read_canonically_and_collisions_refuse if {
	got := [[note, codes, reason, want_codes, want_reason] |
		some [note, fields, want_codes, want_reason] in table_cases
		d := decide_with(table_config, request(fields))
		codes := sort({e.code | some e in d.errors})
		reason := verdict_reason(d.decisions[0])
	]
	count(got) == count(table_cases)
	[g | some g in got; [g[1], g[2]] != [g[3], g[4]]] == []
}

verdict_reason(d) := "allowed" if d.allowed == true

else := d.reason

decide_with(conf, doc) := d if {
	d := tooleval.decision with input as doc with data.tooleval.config as configuration_overlay(conf)
}

configuration_overlay(conf) := data.tooleval.configuration.overlay(data.tooleval.config, conf)

# Every entry point stays defined when a request names a colliding key.
test_entry_points_stay_defined_on_collisions if {
	doc := request({"agent": {"name": "EXPLORE", "role": "subagent", "depth": 1}, "tenant": "acme"})
	conf := configuration_overlay(colliding)
	c := tooleval.check with input as doc with data.tooleval.config as conf
	"colliding_names" in {e.code | some e in c.errors}
	l := tooleval.launch with input as object.union(doc, {"subagent_type": "fork", "fork_tools": ["read_file"]})
		with data.tooleval.config as conf
	l.valid == false
	d := tooleval.decision with input as doc with data.tooleval.config as conf
	d.decisions[0].reason == "invalid_config"
}

long_agent_name := concat("", [x | some _ in numbers.range(1, 257); x := "a"])

# [table, names looked up, expected [code, field] errors]: an empty table
# or one that is not a table reports only the names, non-string names
# look nothing up, a table with keys also reports its keys.
lookup_cases := [
	[{}, [["agent.name", "x"]], []],
	[{}, [["agent.name", long_agent_name]], [["uncanonicalizable_name", "agent.name"]]],
	[null, [["agent.name", long_agent_name]], [["uncanonicalizable_name", "agent.name"]]],
	[{}, [], []],
	[{"A": 1, "a": 2}, [["tenant", null], ["tenant", 5]], []],
	[{"A": 1, "a": 2}, [], []],
	[{"A": 1, "a": 2}, [["tenant", "a"]], [["colliding_names", "config.t"]]],
	[{"A": 1, "a": 2}, [["tenant", null], ["tenant", "A"]], [["colliding_names", "config.t"]]],
	[{"b": 1, long_agent_name: 2}, [["tenant", "b"]], [["uncanonicalizable_name", concat(".", ["config.t", long_agent_name])]]],
	[{"b": 1, long_agent_name: 2}, [["tenant", 1]], []],
	[{"b": 1}, [["tenant", long_agent_name]], [["uncanonicalizable_name", "tenant"]]],
]

test_lookup_errors if {
	mismatches := [[table, names, got, want] |
		some [table, names, want] in lookup_cases
		got := [[e.code, e.field] | some e in data.tooleval.configuration.tables.lookup_errors(table, "config.t", names)]
		got != want
	]
	mismatches == []
}

# Keys one name in canonical form collide (which a request selects would
# depend on spelling); distinct names do not.
test_key_collision_errors if {
	tables.key_collision_errors({"acme": 1, "globex": 2}, "config.tenants") == []
	[p.names | some p in tables.key_collision_errors({"ACME": 1, "acme": 2, "globex": 3}, "config.tenants")] == [["ACME", "acme"]]
}
