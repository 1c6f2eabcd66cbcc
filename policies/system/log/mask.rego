# METADATA
# title: Decision log masking
# description: |
#   An OPA server with decision logging on asks data.system.log.mask which
#   parts of each decision log event to leave out (JSON pointers into the
#   event's input and result; the event lists them under "erased"). By
#   default nothing that identifies a person or a file reaches the logs:
#   call arguments (file contents, shell commands, paths), the message of
#   a path refusal (it quotes the path), caller.user, the requester and
#   handoff sessions, the workspace paths, and a configuration error that
#   names a user. Call ids and names, verdicts, reasons, layers and path
#   rules stay. Each rule below is one category: delete a rule to keep
#   that category in the logs (docs/deploy.md).
package system.log

# METADATA
# title: mask
# description: Call arguments.
mask contains sprintf("/input/calls/%d/args", [i]) if {
	some i, call in input.input.calls
	"args" in object.keys(call)
}

# METADATA
# description: The user who started the run (often an e-mail address).
mask contains "/input/caller/user" if {
	"user" in object.keys(input.input.caller)
}

# METADATA
# description: The requester and handoff of a continuation (session ids).
mask contains sprintf("/input/%s", [member]) if {
	some member in ["requester", "handoff"]
	member in object.keys(input.input)
}

# METADATA
# description: The workspace (root, read roots and excluded paths).
mask contains "/input/workspace" if {
	"workspace" in object.keys(input.input)
}

# METADATA
# description: The message of a path refusal, which quotes the path; reason, layer and rule stay.
mask contains sprintf("/result/decisions/%d/message", [i]) if {
	some i, decision in input.result.decisions
	"rule" in object.keys(decision)
	"message" in object.keys(decision)
}

# METADATA
# description: A configuration error located by a user name (config.mcp_user_services.<user>).
mask contains sprintf("/result/errors/%d/field", [i]) if {
	some i, problem in input.result.errors
	startswith(problem.field, "config.mcp_user_services.")
}
