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

# [check, index in its list, canonical name]: every refusal of the
# example checks; every other (check, index, name) lets the tool through.
refused := {
	["exclusion", 0, "gateway"],
	["exclusion", 0, "mcp__admin__reset"],
	["exclusion", 1, "agent"],
	["deny", 0, "read_file"], # the stage exempts MCP tools only
	["deny", 1, "write_file"],
	["deny", 1, "debug_dump"],
	["allow", 2, "agent"],
	["allow", 2, "debug_dump"],
	["allow", 2, "grep"],
	["allow", 2, "mcp__admin__reset"],
	["allow", 2, "mcp__wiki__read"],
}

# The compiled checks each name-level check runs over.
lists := {"exclusion": "exclusions", "deny": "layers", "allow": "layers"}

test_refuses if {
	{[check, k, name] |
		some check, list in lists
		some k, c in example_checks[list]
		some name, record in catalog
		checks.refuses(check, c, name, record)
	} == refused
}

# A catalog's matches give what matching each tool gives.
test_refuses_matched if {
	matched := checks.matched(example_checks, catalog)
	{[check, k, name] |
		some check, list in lists
		some k, c in example_checks[list]
		some name, record in catalog
		checks.refuses_matched(check, c, k, matched, name, record)
	} == refused
}

# A check that cannot be matched leaves no matches, not a shorter list.
test_matched_undefined_for_a_broken_check if {
	broken := checks.checks([], [{"name": "x", "allow": null, "deny": "not a matcher", "exempt": null}])
	not checks.matched(broken, catalog)
}

test_notes_skip_names_that_more_than_one_check_has if {
	with_messages := checks.checks([], [
		{"name": "tenant", "message": "ask the admin"},
		{"name": "agent", "message": "first"},
		{"name": "agent", "message": "second"},
		{"name": "caller", "message": null},
	])
	checks.notes(with_messages) == {"tenant": "ask the admin"}
}

# A deny list that compiled to nothing refuses no tool and is not matched;
# a check whose deny list is not a compiled list refuses nothing either,
# and the catalog path leaves no matches for it (see above).
test_an_empty_deny_list_refuses_nothing if {
	empty := check("empty", null, [], null)
	empty.deny == pattern.nothing
	every name, record in catalog {
		not checks.refuses("deny", empty, name, record)
		not checks.refuses("allow", empty, name, record)
	}
	closed := check("closed", [], [], null)
	every name, record in catalog {
		checks.refuses("allow", closed, name, record)
	}
}

# denying is the layers whose deny list can match a tool, in order.
test_denying_is_the_layers_with_a_deny_list if {
	[c.name | some c in example_checks.denying] == ["all_agents", "tenant"]
	checks.checks([], [check("a", null, [], null), check("b", null, ["x"], null), check("c", ["y"], [], null)]).denying[0].name == "b"
	count(checks.checks([], [check("a", ["x"], [], null)]).denying) == 0
}
