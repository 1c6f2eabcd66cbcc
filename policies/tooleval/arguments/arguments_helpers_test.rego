# The requests and outcomes the argument tests share (rules_test.rego,
# exceptions_test.rego, and the families' tests, which import this
# package): decisions under the shipped configuration, where
# run_shell_command's command and web_fetch's url are the arguments the
# rules read (config rule_arguments).
package tooleval.arguments_test

import data.tooleval

shell := "run_shell_command"

# A decision input: the layers, and one call of each [tool, args].
rule_request(layers, calls) := {
	"agent": {"role": "main", "depth": 0},
	"declared": [{"name": shell}, {"name": "web_fetch"}, {"name": "read_file"}],
	"layers": layers,
	"calls": [{"id": sprintf("c%d", [i]), "name": call[0], "args": call[1]} | some i, call in calls],
}

# [outcome, reason, layer] of each call of the request.
rule_outcomes(layers, calls) := [[d.outcome, object.get(d, "reason", null), object.get(d, "layer", null)] |
	some d in decisions
] if {
	decisions := tooleval.decision.decisions with input as rule_request(layers, calls)
}

cmd(text) := [shell, {"command": text}]

url(text) := ["web_fetch", {"url": text}]

# A decision input with a workspace at /ws that may also read /etc.
path_request(layers, calls) := object.union(rule_request(layers, calls), {
	"declared": [{"name": "read_file"}, {"name": "write_file"}],
	"workspace": {"root": "/ws", "read_roots": ["/etc"]},
})

read_call(path) := ["read_file", {"path": path}]

write_call(path) := ["write_file", {"path": path, "content": "x"}]

allowed := ["allow", null, null]

denied(layer) := ["deny", "denied", layer]

not_allowed(layer) := ["deny", "not_allowed", layer]

asked(layer) := ["ask", "ask", layer]
