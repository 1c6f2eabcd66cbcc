package tooleval.pattern_test

import data.tooleval.pattern

test_group_errors if {
	pattern.group_errors({}) == []
	pattern.group_errors({"groups": {"edit": ["write_file"]}}) == []
	[e.message | some e in pattern.group_errors({"groups": []})] == ["config.groups must be an object"]
	codes := [[e.code, e.group] | some e in pattern.group_errors({"groups": {"Edit": ["x"], "a": "x", "b": ["group:a", "*"]}})]
	codes == [
		["invalid_config_value", "Edit"],
		["invalid_list", "a"],
		["nested_group", "b"],
		["bare_wildcard", "b"],
	]
}
