package tooleval.configuration.validate_test

import data.tooleval.configuration.validate

# The fields of problems, in order.
fields(problems) := [p.field | some p in problems]

# An object, or null where nullable; anything else is one problem.
test_object_errors if {
	every tc in [
		[{}, false, []],
		[{"a": 1}, false, []],
		[null, true, []],
		[null, false, ["config.x"]],
		[[], true, ["config.x"]],
		["text", true, ["config.x"]],
	] {
		fields(validate.object_errors(tc[0], "config.x", tc[1])) == tc[2]
	}
	validate.object_errors(1, "config.x", false)[0].message == "config.x must be an object"
}

# Each of keys present with a value other than a boolean is a problem;
# absent and null keys are not.
test_boolean_errors if {
	every tc in [
		[{"a": true, "b": false}, []],
		[{}, []],
		[{"a": null}, []],
		[{"a": "true", "b": 1, "c": "x"}, ["config.o.a", "config.o.b"]],
	] {
		fields(validate.boolean_errors(tc[0], ["a", "b"], "config.o")) == tc[1]
	}
}

# A member that is not one of known is an unknown_config_key error, with
# the closest known key suggested; a value that is not an object has none.
test_unknown_member_errors if {
	validate.unknown_member_errors({"allow": [], "deny": []}, {"allow", "deny", "ask"}, "config.tools") == []
	errors := validate.unknown_member_errors({"alow": [], "deny": [], "zz": 1}, {"allow", "deny", "ask"}, "config.tools")
	fields(errors) == ["config.tools.alow", "config.tools.zz"]
	startswith(errors[0].message, "config.tools.alow is not a configuration key (did you mean allow?")
	{e.code | some e in errors} == {"unknown_config_key"}
	validate.unknown_member_errors(["alow"], {"allow"}, "config.tools") == []
}

# The member of an object, or null for anything else.
test_value_at if {
	validate.value_at({"a": 1}, "a") == 1
	validate.value_at({"a": 1}, "b") == null
	validate.value_at(["a"], 0) == null
	validate.value_at(null, "a") == null
}
