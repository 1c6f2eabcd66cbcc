package tooleval.configuration_test

import data.tooleval

# [overlay, expected [code, field] of the errors]
error_cases := [
	[{"floor_exceptions": {"subagent_hard_deny": ["send_email"]}}, [["unknown_floor_exception", "config.floor_exceptions.subagent_hard_deny"]]],
	[{"floor_exceptions": {"hard_deny": ["gateway"]}}, [["unknown_config_key", "config.floor_exceptions.hard_deny"]]],
	[{"floor_exceptions": ["gateway"]}, [["invalid_config_value", "config.floor_exceptions"]]],
	[{"exclusions": {"hard_deny": ["x"]}}, [["unknown_config_key", "config.exclusions.hard_deny"]]],
	[{"exclusions": {"fork_no_spawn": "agent"}}, [["invalid_list", "config.exclusions.fork_no_spawn"]]],
	[{"exclusions": {"fork_no_spawn": ["*"]}}, [["bare_wildcard", "config.exclusions.fork_no_spawn"]]],
	[{"exclusions": []}, [["invalid_config_value", "config.exclusions"]]],
	[{"sensitive_paths": [".gnupg", "/etc", "a/../b", ".SSH", 3]}, [
		["invalid_sensitive_path", "config.sensitive_paths"],
		["invalid_sensitive_path", "config.sensitive_paths"],
		["invalid_sensitive_path", "config.sensitive_paths"],
		["invalid_sensitive_path", "config.sensitive_paths"],
	]],
	[{"path_arguments": []}, [["invalid_config_value", "config.path_arguments"]]],
	[{"path_arguments": {"Read_File": {"path": "read"}, "x": {"p": "exec"}}}, [
		["invalid_config_value", "config.path_arguments"],
		["invalid_config_value", "config.path_arguments"],
	]],
	[{"preset": "nope"}, [["unknown_preset", "config.preset"]]],
	[{"exlusions": {}}, [["unknown_config_key", "config.exlusions"]]],
]

test_configuration_errors if {
	got := [[overlay, codes, want] |
		some [overlay, want] in error_cases
		codes := [[e.code, e.field] | some e in check(overlay).errors]
	]
	count(got) == count(error_cases)
	[g | some g in got; g[1] != g[2]] == []
}

test_a_bundle_without_its_floor_refuses_every_call if {
	d := tooleval.decision with input as {"declared": [{"name": "read_file"}], "calls": [{"id": "x", "name": "read_file"}]}
		with data.tooleval.floor as null
	d.decisions[0].reason == "invalid_config"
	[e.code | some e in d.errors] == ["missing_floor"]
}

test_a_bundle_without_its_unicode_tables_refuses_every_call if {
	doc := {
		"agent": {"role": "subagent", "depth": 1},
		"declared": [{"name": "message"}],
		"calls": [{"id": "x", "name": "\uff4d\uff45\uff53\uff53\uff41\uff47\uff45"}],
	}
	full := tooleval.decision with input as doc
	full.decisions[0].reason == "excluded"
	every table in ["map", "ccc", "trail_ccc", "lead_ccc", "composable", "compositions", "skeleton"] {
		d := tooleval.decision with input as doc with data.tooleval.unicode as object.remove(data.tooleval.unicode, [table])
		d.decisions[0].reason == "invalid_config"
		[e.code | some e in d.errors] == ["missing_unicode_tables"]
	}
	d := tooleval.decision with input as doc with data.tooleval.unicode as null
	d.decisions[0].reason == "invalid_config"
}
