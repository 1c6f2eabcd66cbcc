package tooleval.verdict_test

import data.tooleval

# [layers, declared names, the tools tool_argument_rules keys, with the
# sources of their rules]: every rule is matched against the whole
# catalog; a tool no rule is asked of has no key.
arguing_cases := [
	[
		[{"name": "net", "allow": ["read_file", {"tool": "web_fetch", "domain": "example.org"}]}],
		["read_file", "web_fetch"],
		{"web_fetch": ["layers[0].allow[1]"]},
	],
	[
		[{"name": "shell", "deny": [{"tool": "bash*", "command_prefix": "rm"}], "ask": [{"tool": "bash", "command_prefix": "git push"}]}],
		["bash", "bash_exec", "read_file"],
		{"bash": ["layers[0].deny[0]", "layers[0].ask[0]"], "bash_exec": ["layers[0].deny[0]"]},
	],
	[
		[{"name": "plain", "allow": ["read_file"], "deny": ["bash"]}],
		["bash", "read_file"],
		{},
	],
]

test_tool_argument_rules_keys_the_tools_rules_are_asked_of if {
	every case in arguing_cases {
		argument_rule_sources(case[0], case[1]) == case[2]
	}
}

argument_rule_sources(layers, names) := {name: [r.source | some r in rules] |
	some name, rules in tooleval.verdict.tool_argument_rules(ctx.checks, ctx.tools)
} if {
	ctx := tooleval.context.compile({"declared": [{"name": n} | some n in names], "layers": layers})
}
