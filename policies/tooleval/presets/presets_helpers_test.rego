# Tests of the runtime presets (data.tooleval.config.presets, in
# config/presets/data.json), one file per runtime, with cases ported from
# that runtime's own tests and documentation: each row names its source.
# docs/presets.md maps every name and says where each preset differs
# from its runtime.
package tooleval.presets_test

import data.tooleval
import data.tooleval.configuration

# outcome is "allowed", or [reason, layer] of the refusal of the first
# call of the request (for a path refusal, ["path", rule]), under the
# shipped configuration with the overlay merged in as the engine merges it.
outcome(overlay, request) := "allowed" if {
	decision(overlay, request).decisions[0].allowed == true
} else := ["path", d.rule] if {
	d := decision(overlay, request).decisions[0]
	d.reason == "path"
} else := [d.reason, d.layer] if {
	d := decision(overlay, request).decisions[0]
}

decision(overlay, request) := d if {
	d := tooleval.decision with input as request
		with data.tooleval.config as configuration.overlay(data.tooleval.config, overlay)
}

# launch_errors are the error codes of a launch under the overlay.
launch_errors(overlay, request) := [e.code | some e in l.errors] if {
	l := tooleval.launch with input as request
		with data.tooleval.config as configuration.overlay(data.tooleval.config, overlay)
}

# failures are the rows of a table [source, test, overlay, request,
# expected] whose outcome is not the expected one, with what came out.
failures(rows) := [[row[0], row[1], got, row[4]] |
	some row in rows
	got := outcome(row[2], row[3])
	got != row[4]
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
path_failures(preset, cases) := [[tool, arg, got] |
	some [tool, arg, access] in cases
	got := outcome({"preset": preset}, request(main_agent, [tool], tool, {arg: probe(access)}))
	got != ["path", refused_rule(access)]
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
