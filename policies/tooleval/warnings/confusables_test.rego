package tooleval.warnings_test

# [declared names, expected groups of confusable names]
confusable_cases := [
	[["read_file", "re\u0430d_file"], [["read_file", "re\u0430d_file"]]],
	[["scope", "\u0455c\u03bfpe"], [["scope", "\u0455c\u03bfpe"]]],
	[["tool1", "tooll", "tool"], [["tool1", "tooll"]]],
	[["read_file", "READ_FILE_"], []],
	[["read_file", "write_file"], []],
]

test_confusable_declared_names if {
	got := [[names, groups, want] |
		some [names, want] in confusable_cases
		doc := {"declared": [{"name": n} | some n in names]}
		groups := [w.names | some w in check({}, doc).warnings; w.code == "confusable_names"]
	]
	count(got) == count(confusable_cases)
	[g | some g in got; g[1] != g[2]] == []
}
