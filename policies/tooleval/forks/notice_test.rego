package tooleval.forks_test

import data.tooleval.forks

# The notice names the tools a fork may execute, in the order given, or
# says it may execute none.
test_notice_names_the_tools_or_none if {
	every tc in [
		{
			"names": ["read_file"],
			"want": "Tool restriction: in this fork you may execute only these tools: read_file. Calls to any other tool are refused before they run.",
		},
		{
			"names": ["grep", "read_file"],
			"want": "Tool restriction: in this fork you may execute only these tools: grep, read_file. Calls to any other tool are refused before they run.",
		},
		{
			"names": [],
			"want": "Tool restriction: in this fork you may not execute any tool. Every tool call is refused before it runs.",
		},
	] {
		forks._notice(tc.names) == tc.want
	}
}
