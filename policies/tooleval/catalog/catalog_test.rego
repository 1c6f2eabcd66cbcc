package tooleval.catalog_test

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

fork(depth) := {"role": "fork", "depth": depth}

test_tools_gives_every_declared_verdict_and_the_effective_names if {
	doc := {
		"agent": fork(1),
		"declared": declared,
		"layers": [{"name": "agent", "allow": ["Refund", "agent", "gateway", "read_file", "mcp__github__*"]}],
		"calls": [{"id": "ignored", "name": "read_file"}],
	}
	t := tooleval.tools with input as doc
	t.errors == []
	t.effective == ["Refund", "mcp__github__create_issue", "mcp__github__read_issue", "read_file"]
	t.tools == [
		{"name": "read_file", "allowed": true, "outcome": "allow"},
		{"name": "write_file", "allowed": false, "outcome": "deny", "reason": "not_allowed", "layer": "agent"},
		{"name": "read_issue", "allowed": false, "outcome": "deny", "reason": "not_allowed", "layer": "agent"},
		{"name": "gateway", "allowed": false, "outcome": "deny", "reason": "excluded", "layer": "subagent_hard_deny"},
		{"name": "sessions_spawn", "allowed": false, "outcome": "deny", "reason": "excluded", "layer": "fork_no_spawn"},
		{"name": "agent", "allowed": false, "outcome": "deny", "reason": "excluded", "layer": "fork_no_spawn"},
		{"name": "conversations_list", "allowed": false, "outcome": "deny", "reason": "excluded", "layer": "subagent_hard_deny"},
		{"name": "Refund", "allowed": true, "outcome": "allow"},
		{"name": "mcp__github__read_issue", "allowed": true, "outcome": "allow"},
		{"name": "mcp__github__create_issue", "allowed": true, "outcome": "allow"},
		{"name": "researcher", "allowed": false, "outcome": "deny", "reason": "not_allowed", "layer": "agent"},
	]
}

test_tools_under_errors_refuses_every_tool if {
	t := tooleval.tools with input as {"declared": [{"name": "read_file"}, {"name": 5}], "layers": [{"name": "a", "allow": "read_file"}]}
	t.effective == []
	t.tools == [
		{"name": "read_file", "allowed": false, "outcome": "deny", "reason": "invalid_config", "layer": "config"},
		{"name": 5, "allowed": false, "outcome": "deny", "reason": "invalid_config", "layer": "config"},
	]
	count(t.errors) == 2
}

# A tool a layer asks for is not allowed by name, with reason ask, and is
# not effective; a refusal wins over an ask.
test_an_asked_tool_is_not_effective if {
	t := tooleval.tools with input as {
		"declared": [{"name": "read_file"}, {"name": "write_file"}, {"name": "Refund"}],
		"layers": [{"name": "tenant", "ask": ["write_file", "refund"], "deny": ["Refund"]}],
	}
	t.effective == ["read_file"]
	t.tools == [
		{"name": "read_file", "allowed": true, "outcome": "allow"},
		{"name": "write_file", "allowed": false, "outcome": "ask", "reason": "ask", "layer": "tenant"},
		{"name": "Refund", "allowed": false, "outcome": "deny", "reason": "denied", "layer": "tenant"},
	]
}

# [layers, tool, its catalog entry less its name]: a tool the name-level
# rules let through is conditional when argument rules are asked of its
# calls, with those rules in the order of the checks and lists.
conditional_cases := [
	[
		[{"name": "net", "allow": [{"tool": "web_fetch", "domain": "example.org"}]}],
		"web_fetch",
		{"allowed": true, "outcome": "conditional", "rules": [{
			"layer": "net", "list": "allow", "source": "layers[0].allow[0]",
			"rule": {"tool": "web_fetch", "domain": "example.org"}, "reads": "url",
		}]},
	],
	[
		# allowed outright, a deny rule still bites some calls
		[{"name": "shell", "allow": ["bash"], "deny": ["write_file", {"tool": "bash", "command_prefix": "rm"}]}],
		"bash",
		{"allowed": true, "outcome": "conditional", "rules": [{
			"layer": "shell", "list": "deny", "source": "layers[0].deny[1]",
			"rule": {"tool": "bash", "command_prefix": "rm"}, "reads": "command",
		}]},
	],
	[
		# an allow rule is not asked of a tool its list names outright
		[{"name": "shell", "allow": ["bash", {"tool": "bash", "command_prefix": "ls"}]}],
		"bash",
		{"allowed": true, "outcome": "allow"},
	],
	[
		[
			{"name": "a", "ask": [{"tool": "bash", "command_prefix": "git push"}]},
			{"name": "b", "allow": [{"tool": "bash", "command_prefix": "git"}]},
		],
		"bash",
		{"allowed": true, "outcome": "conditional", "rules": [
			{
				"layer": "a", "list": "ask", "source": "layers[0].ask[0]",
				"rule": {"tool": "bash", "command_prefix": "git push"}, "reads": "command",
			},
			{
				"layer": "b", "list": "allow", "source": "layers[1].allow[0]",
				"rule": {"tool": "bash", "command_prefix": "git"}, "reads": "command",
			},
		]},
	],
	[
		# rules of another tool ask nothing of this one
		[{"name": "shell", "deny": [{"tool": "bash", "command_prefix": "rm"}]}],
		"read_file",
		{"allowed": true, "outcome": "allow"},
	],
	[
		# a refusal by name wins
		[{"name": "net", "deny": ["web_fetch"], "allow": [{"tool": "web_fetch", "domain": "example.org"}]}],
		"web_fetch",
		{"allowed": false, "outcome": "deny", "reason": "denied", "layer": "net"},
	],
	[
		# so does an ask by name
		[{"name": "net", "ask": ["web_fetch"], "deny": [{"tool": "web_fetch", "domain": "evil.example"}]}],
		"web_fetch",
		{"allowed": false, "outcome": "ask", "reason": "ask", "layer": "net"},
	],
]

test_a_tool_decided_by_its_arguments_is_conditional if {
	every case in conditional_cases {
		conditional_case_holds(case[0], case[1], case[2])
	}
}

conditional_case_holds(layers, tool, want) if {
	t := tooleval.tools with input as {"declared": [{"name": tool}], "layers": layers}
	t.errors == []
	t.tools == [object.union({"name": tool}, want)]
	t.effective == effective_names(tool, want.allowed)
}

effective_names(tool, true) := [tool]

effective_names(_, false) := []
