package tooleval.verdict_test

import data.tooleval

declared := [
	{"name": "read_file"},
	{"name": "write_file"},
	{"name": "read_issue"},
	{"name": "gateway"},
	{"name": "sessions_spawn"},
	{"name": "agent"},
	{"name": "conversations_list"},
	{"name": "Refund"},
	{"name": "mcp__github__read_issue", "mcp": {"server": "github", "tool": "read_issue"}},
	{"name": "mcp__github__create_issue", "mcp": {"server": "github", "tool": "create_issue"}},
	{"name": "researcher", "agent": true},
]

main := {"role": "main", "depth": 0}

subagent(depth) := {"role": "subagent", "depth": depth}

fork(depth) := {"role": "fork", "depth": depth}

# verdict is "allowed", or [reason, layer] of a refusal, for one call.
verdict(agent, layers, name) := "allowed" if {
	d := first_decision(agent, layers, name)
	d.allowed == true
} else := [d.reason, d.layer] if {
	d := first_decision(agent, layers, name)
}

first_decision(agent, layers, name) := d if {
	doc := {"agent": agent, "declared": declared, "layers": layers, "calls": [{"id": "c", "name": name}]}
	d := tooleval.decision.decisions[0] with input as doc
}

# [note, agent, layers, call name, expected verdict]
name_cases := [
	["no layers allow a declared tool", main, [], "read_file", "allowed"],
	["undeclared", main, [], "delete_everything", ["not_declared", "declaration"]],
	["canonical call name", main, [{"name": "agent", "allow": ["read_file"]}], "\uff32\uff25\uff21\uff24_FILE", "allowed"],
	["canonical entry", main, [{"name": "agent", "allow": ["REFUND"]}], "refund", "allowed"],
	["hard deny for sub-agents", subagent(1), [], "gateway", ["excluded", "subagent_hard_deny"]],
	["hard deny prefix", fork(1), [], "conversations_list", ["excluded", "subagent_hard_deny"]],
	["hard deny ignores allow", subagent(1), [{"name": "agent", "allow": ["gateway"]}], "gateway", ["excluded", "subagent_hard_deny"]],
	["main agent keeps gateway", main, [], "gateway", "allowed"],
	["below the depth cap", subagent(4), [], "sessions_spawn", "allowed"],
	["at the depth cap", subagent(5), [], "sessions_spawn", ["excluded", "subagent_depth_cap"]],
	["past the depth cap", fork(9), [], "sessions_spawn", ["excluded", "subagent_depth_cap"]],
	["fork cannot spawn", fork(1), [], "sessions_spawn", ["excluded", "fork_no_spawn"]],
	["fork cannot use agent", fork(2), [], "agent", ["excluded", "fork_no_spawn"]],
	["sub-agent may use agent", subagent(2), [], "agent", "allowed"],
	["deny wins in its layer", main, [{"name": "tenant", "allow": ["read_file"], "deny": ["read_file"]}], "read_file", ["denied", "tenant"]],
	[
		"any deny before any allow",
		main, [{"name": "agent", "allow": []}, {"name": "tenant", "deny": ["read_file"]}],
		"read_file", ["denied", "tenant"],
	],
	[
		"first allow that refuses",
		main, [{"name": "agent", "allow": null}, {"name": "tenant", "allow": ["write_file"]}, {"name": "caller", "allow": []}],
		"read_file", ["not_allowed", "tenant"],
	],
	["null allow narrows nothing", main, [{"name": "tenant", "allow": null}], "read_file", "allowed"],
	["absent allow narrows nothing", main, [{"name": "tenant"}], "read_file", "allowed"],
	["empty allow refuses everything", main, [{"name": "fork", "allow": []}], "read_file", ["not_allowed", "fork"]],
	["mcp__* matches MCP tools", main, [{"name": "a", "allow": ["mcp__*"]}], "mcp__github__create_issue", "allowed"],
	["mcp__* matches no built-in", main, [{"name": "a", "allow": ["mcp__*"]}], "read_file", ["not_allowed", "a"]],
	["mcp__* matches no peer agent", main, [{"name": "a", "allow": ["mcp__*"]}], "researcher", ["not_allowed", "a"]],
	["server wildcard", main, [{"name": "a", "allow": ["mcp__github__*"]}], "mcp__github__create_issue", "allowed"],
	["server prefix wildcard", main, [{"name": "a", "allow": ["mcp__github__read_*"]}], "mcp__github__read_issue", "allowed"],
	["server prefix misses", main, [{"name": "a", "allow": ["mcp__github__read_*"]}], "mcp__github__create_issue", ["not_allowed", "a"]],
	["other server", main, [{"name": "a", "allow": ["mcp__gitlab__*"]}], "mcp__github__read_issue", ["not_allowed", "a"]],
	["MCP exact entry is not the built-in stem", main, [{"name": "a", "allow": ["mcp__github__read_issue"]}], "read_issue", ["not_allowed", "a"]],
	["built-in entry is not the MCP tool", main, [{"name": "a", "allow": ["read_issue"]}], "mcp__github__read_issue", ["not_allowed", "a"]],
	["deny prefix on built-ins", main, [{"name": "a", "deny": ["read_*"]}], "read_issue", ["denied", "a"]],
	["deny prefix spares MCP tools", main, [{"name": "a", "deny": ["mcp__github__read*", "mcp_*"]}], "mcp__github__create_issue", "allowed"],
	["deny MCP prefix", main, [{"name": "a", "deny": ["mcp__github__read*"]}], "mcp__github__read_issue", ["denied", "a"]],
	["peer agent by name", main, [{"name": "a", "allow": ["researcher"]}], "researcher", "allowed"],
	["group in allow", main, [{"name": "a", "allow": ["group:edit"]}], "write_file", "allowed"],
	["group in deny", main, [{"name": "a", "deny": ["group:read_only"]}], "read_file", ["denied", "a"]],
	["unknown exact entry matches nothing", main, [{"name": "a", "allow": ["no_such_tool"]}], "read_file", ["not_allowed", "a"]],
	["invalid layer refuses every call", main, [{"name": "a", "allow": ["*"]}], "read_file", ["invalid_config", "config"]],
	["invalid_input before invalid_config", main, [{"name": "a", "allow": ["*"]}], 7, ["invalid_input", "input"]],
]

test_name_level_reasons if {
	mismatches := {[note, got, want] |
		some [note, agent, layers, name, want] in name_cases
		got := verdict(agent, layers, name)
		got != want
	}
	mismatches == set()
}

test_every_case_is_decided if {
	every c in name_cases {
		verdict(c[1], c[2], c[3])
	}
}

test_duplicate_call_ids_are_refused if {
	calls := [{"id": "x", "name": "read_file"}, {"id": "y", "name": "read_file"}, {"id": "x", "name": "write_file"}]
	d := tooleval.decision with input as {"declared": declared, "calls": calls}
	[[x.id, x.allowed, object.get(x, "reason", "")] | some x in d.decisions] == [
		["x", false, "invalid_input"],
		["y", true, ""],
		["x", false, "invalid_input"],
	]
}

test_huge_name_is_refused if {
	name := concat("", ["read_file" | some _ in numbers.range(1, 120000)])
	d := tooleval.decision with input as {"declared": declared, "calls": [{"id": "x", "name": name}]}
	d.decisions[0].reason == "not_declared"
}

test_without_workspace_no_path_rule_applies if {
	d := tooleval.decision with input as {"declared": [{"name": "write_file"}], "calls": [{"id": "1", "name": "write_file", "args": {"path": "../../etc/passwd"}}]}
	d.decisions[0].allowed
}

# Cherokee folds to upper case: a deny on one case stops the other, and
# the two spellings are one declared name.
test_cherokee_cases_are_one_name if {
	doc := {
		"declared": [{"name": "\uabb3\uab83\uab79"}],
		"layers": [{"name": "tenant", "deny": ["\u13e3\u13b3\u13a9"]}],
		"calls": [{"id": "c", "name": "\uabb3\uab83\uab79"}],
	}
	d := tooleval.decision with input as doc
	[d.decisions[0].reason, d.decisions[0].layer] == ["denied", "tenant"]
	dup := tooleval.decision with input as {"declared": [{"name": "\u13e3\u13b3\u13a9"}, {"name": "\uabb3\uab83\uab79"}], "calls": []}
	[e.code | some e in dup.errors] == ["duplicate_declaration", "duplicate_declaration"]
}

# Canonically equivalent names never get different canonical forms: a
# name whose marks NFD would reorder is refused, never guessed.
test_mark_order_is_never_guessed if {
	doc := {
		"declared": [{"name": "read_file"}],
		"layers": [{"name": "tenant", "deny": ["a\u0323\u0345"]}],
		"calls": [{"id": "c", "name": "a\u0345\u0323"}],
	}
	d := tooleval.decision with input as doc
	[e.code | some e in d.errors] == ["uncanonicalizable_entry"]
	d2 := tooleval.decision with input as {"declared": [{"name": "read_file"}], "calls": [{"id": "c", "name": "a\u0345\u0323"}]}
	d2.decisions[0].reason == "not_declared"
}

# The name-level refusals of the example checks of tooleval.checks_test:
# [canonical name, the refusal or null].
refusal_cases := [
	["read_file", {"reason": "denied", "layer": "all_agents"}], # the stage exempts MCP tools only
	["write_file", {"reason": "denied", "layer": "tenant"}],
	["gateway", {"reason": "excluded", "layer": "subagent_hard_deny"}],
	["agent", {"reason": "excluded", "layer": "subagent_depth_cap"}],
	["debug_dump", {"reason": "denied", "layer": "tenant"}],
	["bash", null], # an alias of exec, which the agent allows
	["grep", {"reason": "not_allowed", "layer": "agent"}],
	["mcp__gh__read", null],
	["mcp__gh__delete_repo", null], # all_agents exempts MCP tools
	["mcp__admin__reset", {"reason": "excluded", "layer": "subagent_hard_deny"}],
	["mcp__wiki__read", {"reason": "not_allowed", "layer": "agent"}],
]

refusal_or_null(name) := r if {
	r := data.tooleval.verdict.tool_refusal(data.tooleval.checks_test.example_checks, name, data.tooleval.checks_test.catalog[name])
} else := null

test_tool_refusal if {
	mismatches := {[name, got, want] |
		some [name, want] in refusal_cases
		got := refusal_or_null(name)
		got != want
	}
	mismatches == set()
}

# tool_refusals answers for a whole catalog what tool_refusal answers tool by tool.
test_tool_refusals_is_tool_refusal_over_the_catalog if {
	example_checks := data.tooleval.checks_test.example_checks
	catalog := data.tooleval.checks_test.catalog
	data.tooleval.verdict.tool_refusals(example_checks, catalog) == {name: r |
		some name, record in catalog
		r := data.tooleval.verdict.tool_refusal(example_checks, name, record)
	}
	count(data.tooleval.verdict.tool_refusals(example_checks, catalog)) == count([c | some c in refusal_cases; c[1] != null])
}

# A check that cannot be matched leaves no refusals, not a shorter list
# of checks.
test_tool_refusals_undefined_for_a_broken_check if {
	broken := data.tooleval.checks.checks([], [{"name": "x", "allow": null, "deny": "not a matcher", "exempt": null}])
	not data.tooleval.verdict.tool_refusals(broken, data.tooleval.checks_test.catalog)
}
