# A deployment's own tests: the decisions its configuration overlay must
# make, run with the policy (see docs/authoring.md):
#
#   go tool opa test policies docs/authoring
package deploy_test

import data.tooleval
import data.tooleval.configuration

# The overlay under test, as it would be given to tooleval check --config,
# bundle build --config or engine.WithConfig.
overlay := {
	"tenants": {"acme": {"tools": ["read_file", "search", "mcp__github__*"]}},
	"tools": {"deny": ["mcp__github__delete_*"]},
	"builtin_tools": ["search"],
}

# decide is the decision for a request under the overlay, merged the way
# the engine and tooleval bundle build merge it.
decide(request) := d if {
	d := tooleval.decision with input as request
		with data.tooleval.config as configuration.overlay(data.tooleval.config, overlay)
}

declared := [
	{"name": "read_file"},
	{"name": "refund"},
	{"name": "mcp__github__read_issue", "mcp": {"server": "github", "tool": "read_issue"}},
	{"name": "mcp__github__delete_repo", "mcp": {"server": "github", "tool": "delete_repo"}},
]

# [call name, expected verdict: "allowed" or [reason, layer]]
cases := [
	["read_file", "allowed"],
	["mcp__github__read_issue", "allowed"],
	["refund", ["not_allowed", "tenant"]],
	["mcp__github__delete_repo", ["denied", "global_policy"]],
]

verdict(d) := "allowed" if d.allowed == true

verdict(d) := [d.reason, d.layer] if d.allowed == false

test_acme if {
	every case in cases {
		[name, want] := case
		d := decide({"tenant": "acme", "declared": declared, "calls": [{"id": "c", "name": name}]})
		verdict(d.decisions[0]) == want
	}
}

test_the_overlay_has_no_problems if {
	c := tooleval.check with input as {}
		with data.tooleval.config as configuration.overlay(data.tooleval.config, overlay)
	c.errors == []
	c.warnings == []
}
