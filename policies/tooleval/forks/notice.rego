# The restriction notice a fork receives in its task prompt, after the
# inherited cacheable prefix, so that it does not learn its allowlist by
# trial and error.
package tooleval.forks

# METADATA
# description: The restriction notice for a fork that may execute exactly these tool names.
_notice(names) := sprintf(
	"Tool restriction: in this fork you may execute only these tools: %s. Calls to any other tool are refused before they run.",
	[concat(", ", names)],
) if {
	count(names) > 0
} else := "Tool restriction: in this fork you may not execute any tool. Every tool call is refused before it runs."
