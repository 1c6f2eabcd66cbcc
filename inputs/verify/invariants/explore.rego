# An invariant of one's own for tooleval verify (docs/verify.md): the
# explore agent reads and searches; it never changes a file, whatever
# its depth, mode, tenant or caller.
package tooleval.invariants

# METADATA
# description: The invariants of this file, reported even when they hold.
invariants := {"explore.never_writes": "explore is refused every tool that changes a file, in every request"}

_writes := {"edit", "write_file", "notebook_edit", "apply_patch", "replace"}

# METADATA
# description: A request of explore that is allowed, or may ask for, a tool that writes.
violation contains {
	"id": "explore.never_writes",
	"tool": tool.name,
	"message": sprintf("explore gets %s: %s", [tool.name, tool.outcome]),
} if {
	input.subject.agent.name == "explore"
	some tool in input.tools
	tool.name in _writes
	tool.outcome != "deny"
}
