package tooleval.configuration.suggest_test

import data.tooleval.configuration
import data.tooleval.configuration.suggest

# [the unknown name, the valid names, what the error adds]
suggestion_cases := [
	["tenant", {"tenants", "tools"}, " (did you mean tenants? valid: tenants, tools)"],
	["claude", {"claude_code", "qwen_code"}, " (did you mean claude_code? valid: claude_code, qwen_code)"],
	["Tools", {"tenants", "tools"}, " (did you mean tools? valid: tenants, tools)"],
	["toosl", {"tenants", "tools"}, " (did you mean tools? valid: tenants, tools)"],
	["tols", {"tenants", "tools"}, " (did you mean tools? valid: tenants, tools)"],
	["toolz", {"tenants", "tools"}, " (did you mean tools? valid: tenants, tools)"],
	["scope", {"scopes", "shell"}, " (did you mean scopes? valid: scopes, shell)"],
	["color", {"tenants", "tools"}, " (valid: tenants, tools)"],
	["", {"tenants", "tools"}, " (valid: tenants, tools)"],
	[7, {"tenants"}, " (valid: tenants)"],
]

test_unknown_names_suggest_the_close_valid_ones if {
	got := [[name, suggest.suggestion(name, known), want] | some [name, known, want] in suggestion_cases]
	count(got) == count(suggestion_cases)
	[[name, g, want] | some [name, g, want] in got; g != want] == []
}

test_unknown_keys_and_presets_name_the_valid_ones if {
	[e.message | some e in configuration.errors({"tenant": {}}); e.code == "unknown_config_key"] == [concat("", [
		"config.tenant is not a configuration key (did you mean tenants? valid: ",
		concat(", ", sort(configuration._known_keys)), ")",
	])]
	some e in configuration.errors(object.union(data.tooleval.config, {"preset": "claude"}))
	e.code == "unknown_preset"
	contains(e.message, "(did you mean claude_code? valid: ")
}
