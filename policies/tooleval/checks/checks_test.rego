package tooleval.checks_test

import data.tooleval.checks
import data.tooleval.pattern

vocabulary := pattern.vocabulary({"edit": ["write_file", "edit"]}, {"bash": "exec"})

check(name, allow, deny, exempt) := {
	"name": name,
	"allow": _allow(allow),
	"deny": pattern.compile(deny, "deny", vocabulary),
	"exempt": exempt,
}

_allow(null) := null

_allow(list) := pattern.compile(list, "allow", vocabulary) if list != null

# Two exclusions, then a configured stage that lets MCP tools through, a
# layer with a deny list and a layer with an allow list.
example_checks := checks.checks(
	[
		check("subagent_hard_deny", null, ["gateway", "mcp__admin"], null),
		check("subagent_depth_cap", null, ["agent"], null),
	],
	[
		check("all_agents", null, ["read_file", "mcp__gh__delete_*"], "mcp"),
		check("tenant", null, ["group:edit", "debug_*"], null),
		check("agent", ["read_file", "exec", "gateway", "mcp__gh__*", "write_file"], [], null),
	],
)

catalog := {
	"read_file": {"name": "Read_File", "kind": "builtin", "server": null, "tool": null},
	"write_file": {"name": "write_file", "kind": "builtin", "server": null, "tool": null},
	"gateway": {"name": "gateway", "kind": "builtin", "server": null, "tool": null},
	"agent": {"name": "agent", "kind": "agent", "server": null, "tool": null},
	"debug_dump": {"name": "debug_dump", "kind": "builtin", "server": null, "tool": null},
	"bash": {"name": "bash", "kind": "builtin", "server": null, "tool": null, "key": "exec", "names": {"bash": true, "exec": true}},
	"grep": {"name": "grep", "kind": "builtin", "server": null, "tool": null},
	"mcp__gh__read": {"name": "mcp__gh__read", "kind": "mcp", "server": "gh", "tool": "read"},
	"mcp__gh__delete_repo": {"name": "mcp__gh__delete_repo", "kind": "mcp", "server": "gh", "tool": "delete_repo"},
	"mcp__admin__reset": {"name": "mcp__admin__reset", "kind": "mcp", "server": "admin", "tool": "reset"},
	"mcp__wiki__read": {"name": "mcp__wiki__read", "kind": "mcp", "server": "wiki", "tool": "read"},
}

# [canonical name, the refusal or null]
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
	r := checks.refusal(example_checks, name, catalog[name])
} else := null

test_refusal if {
	mismatches := {[name, got, want] |
		some [name, want] in refusal_cases
		got := refusal_or_null(name)
		got != want
	}
	mismatches == set()
}

# refusals answers for a whole catalog what refusal answers tool by tool.
test_refusals_is_refusal_over_the_catalog if {
	checks.refusals(example_checks, catalog) == {name: r |
		some name, record in catalog
		r := checks.refusal(example_checks, name, record)
	}
	count(checks.refusals(example_checks, catalog)) == count([c | some c in refusal_cases; c[1] != null])
}

# A check that cannot be matched leaves no refusals, not a shorter list
# of checks.
test_refusals_undefined_for_a_broken_check if {
	broken := checks.checks([], [{"name": "x", "allow": null, "deny": "not a matcher", "exempt": null}])
	not checks.refusals(broken, catalog)
}
