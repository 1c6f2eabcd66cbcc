# METADATA
# title: Decision log masking
# description: |
#   An OPA server with decision logging on asks data.system.log.mask which
#   parts of each decision log event to leave out. Call arguments (file
#   contents, shell commands, paths) never reach the logs; call ids and
#   names, and the decision itself, stay.
package system.log

# METADATA
# title: mask
# description: JSON pointers OPA removes from a decision log event (input is the event).
mask contains sprintf("/input/calls/%d/args", [i]) if {
	some i, call in input.input.calls
	"args" in object.keys(call)
}
