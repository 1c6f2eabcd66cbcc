# Tests of the runtime presets (data.tooleval.config.presets, in
# config/presets/data.json), one file per runtime, with cases ported from
# that runtime's own tests and documentation: each row names its source.
# docs/presets.md maps every name and says where each preset differs
# from its runtime.
package tooleval.presets_test

import data.tooleval
import data.tooleval.configuration
import data.tooleval.context
import data.tooleval.forks

# outcome is "allowed", or [reason, layer] of the refusal of the first
# call of the request (for a path refusal, ["path", rule]), under the
# shipped configuration with the overlay merged in as the engine merges it;
# "undefined" when nothing came out (so that no row passes unseen).
outcome(overlay, request) := outcomes([[overlay, request]])[0]

# outcomes are the outcomes of cases [overlay, request], in order. The
# cases of one overlay are decided under one `with`, so that the policy
# prepares each configuration once (as an engine does), through
# tooleval.decide on the compiled context: what tooleval.decision is for
# a request it can compile, and every request here is one.
outcomes(cases) := [results[i] | some i, _ in cases] if {
	results := object.union_n([_outcomes_under(overlay, cases) | some overlay in {c[0] | some c in cases}])
}

_outcomes_under(overlay, cases) := os if {
	os := {i: _defined_outcome(request) |
		some i, [o, request] in cases
		o == overlay
	} with data.tooleval.config as configuration.overlay(data.tooleval.config, overlay)
}

_defined_outcome(request) := o if {
	d := tooleval.decide(context.compile(request), request).decisions[0]
	o := _outcome_of(d)
} else := "undefined"

_outcome_of(d) := "allowed" if {
	d.allowed == true
} else := ["path", d.rule] if {
	d.reason == "path"
} else := [d.reason, d.layer]

# launch_errors_each are the error codes of each launch under the
# overlay, with the configuration prepared once (as outcomes does):
# tooleval.launch is forks.launch on the compiled context.
launch_errors_each(overlay, requests) := es if {
	es := [[e.code | some e in l.errors] |
		some request in requests
		l := forks.launch(context.compile(request), request)
	] with data.tooleval.config as configuration.overlay(data.tooleval.config, overlay)
}

# failures are the rows of a table [source, test, overlay, request,
# expected] whose outcome is not the expected one, with what came out.
failures(rows) := [[row[0], row[1], got[i], row[4]] |
	got := outcomes([[row[2], row[3]] | some row in rows])
	some i, row in rows
	got[i] != row[4]
]

# request builds a decision input: agent, declared tool names (an MCP
# tool as [server, tool]), and one call of name with args.
request(agent, names, name, args) := {
	"agent": agent,
	"declared": [declaration(n) | some n in names],
	"calls": [{"id": "c", "name": name, "args": args}],
	"workspace": {"root": "/ws"},
}

declaration(n) := {"name": n} if is_string(n)

declaration([server, tool]) := {"name": mcp_name(server, tool), "mcp": {"server": server, "tool": tool}}

# mcp_name is the function name a provider shows: dots sanitized.
mcp_name(server, tool) := concat("", ["mcp__", replace(server, ".", "_"), "__", tool])

main_agent := {"role": "main", "depth": 0}

subagent(depth) := {"role": "subagent", "depth": depth}

fork := {"role": "fork", "depth": 1}

# In a preset's path tests: a written file under .ssh and a read of a
# file outside the workspace.
sensitive_write := "/ws/.ssh/authorized_keys"

outside_read := "/etc/shadow"

# path_failures checks, for a preset, that every [tool, argument, access]
# is a path argument in force and that a call sending that argument alone
# with a sensitive path is refused.
path_failures(preset, cases) := [[tool, arg, got[i]] |
	got := outcomes([[{"preset": preset}, request(main_agent, [tool], tool, {arg: probe(access)})] | some [tool, arg, access] in cases])
	some i, [tool, arg, access] in cases
	got[i] != ["path", refused_rule(access)]
]

probe("write") := sensitive_write

probe("read") := outside_read

probe("list") := ["/ws/README.md", outside_read]

probe("glob") := "../**/id_rsa"

probe("globs") := ["src/**/*.go", "/etc/*"]

probe("patch") := "*** Begin Patch\n*** Update File: /ws/a.go\n*** Move to: /ws/.git/hooks/pre-commit\n*** End Patch"

refused_rule("write") := "sensitive"

refused_rule("read") := "not_readable"

refused_rule("list") := "not_readable"

refused_rule("patch") := "sensitive"

refused_rule("glob") := "unresolved"

refused_rule("globs") := "not_readable"

test_every_preset_is_a_valid_configuration_with_no_warnings if {
	every name, _ in data.tooleval.config.presets {
		every profile in ["minimal", "coding", "messaging", "full"] {
			c := tooleval.check with input as {} with data.tooleval.config as configuration.overlay(
				data.tooleval.config,
				{"preset": name, "tools": {"profile": profile}},
			)
			c.errors == []
			c.warnings == []
		}
	}
}

# A preset only adds to the floor: none of the shipped exclusions is
# missing from what is in force under it.
test_every_preset_keeps_the_floor if {
	every name, _ in data.tooleval.config.presets {
		conf := configuration.with_preset(configuration.overlay(data.tooleval.config, {"preset": name}))
		every list, entries in data.tooleval.floor.exclusions {
			every entry in entries {
				entry in configuration.exclusion_entries(conf, list)
			}
		}
		every p in data.tooleval.floor.sensitive_paths {
			p in configuration.sensitive_paths(conf)
		}
	}
}

test_every_preset_names_its_source if {
	every _, preset in data.tooleval.config.presets {
		is_string(preset.source.runtime)
		preset.source.notes != ""
	}
}

# A preset never takes an entry out of what is in force: where the
# configuration and the preset define a group of one name, a deny list
# or an exclusion naming it reads both; a deny-list agent filter is
# joined with the preset's, not replaced by it.
union_rows := [
	["group in subagent_hard_deny", "openclaw", {"exclusions": {"subagent_hard_deny": ["group:messaging"]}}, "send_email"],
	["group in subagent_hard_deny", "openclaw", {"exclusions": {"subagent_hard_deny": ["group:messaging"]}}, "post_to_slack"],
	["group in subagents.deny", "qwen_code", {"subagents": {"deny": ["group:edit"]}}, "apply_patch"],
	["group in tools.deny", "claude_code", {"tools": {"deny": ["group:execution"]}}, "run_shell_command"],
	["all_agents_disallowed", "claude_code", {"agent_filters": {"all_agents_disallowed": ["send_email"]}}, "send_email"],
	["custom_agents_disallowed", "qwen_code", {"agent_filters": {"custom_agents_disallowed": ["send_email"]}}, "send_email"],
]

union_overlay(base) := object.union(base, {"groups": {
	"messaging": ["send_email", "post_to_slack"],
	"edit": ["apply_patch"],
	"execution": ["run_shell_command"],
}})

test_a_preset_never_takes_an_entry_out_of_a_deny_list_or_an_exclusion if {
	without := outcomes([[union_overlay(base), request(subagent(1), [tool, "read_file"], tool, {})] | some [_, _, base, tool] in union_rows])
	with_preset := outcomes([[object.union(union_overlay(base), {"preset": preset}), request(subagent(1), [tool, "read_file"], tool, {})] |
		some [_, preset, base, tool] in union_rows
	])
	failed := [[what, preset, tool, without[i], with_preset[i]] |
		some i, [what, preset, _, tool] in union_rows
		not _both_refused(without[i], with_preset[i])
	]
	failed == []
}

_both_refused(without, with_preset) if {
	without != "allowed"
	without[0] != "not_allowed"
	with_preset != "allowed"
	with_preset[0] == without[0]
}

# In an allow list the preset's group of a name replaces the
# configuration's (the runtime's names), so it is the preset's alone.
test_a_preset_group_replaces_the_configuration_s_in_allow_lists if {
	overlay := {"preset": "openclaw", "groups": {"messaging": ["send_email"]}, "tools": {"allow": ["group:messaging"]}}
	outcome(overlay, request(main_agent, ["send_email", "message"], "send_email", {})) == ["not_allowed", "global_policy"]
	outcome(overlay, request(main_agent, ["send_email", "message"], "message", {})) == "allowed"
}
