package tooleval.tracing_test

import data.tooleval
import data.tooleval.configuration

declared := [
	{"name": "read_file"},
	{"name": "write_file"},
	{"name": "grep"},
	{"name": "bash"},
	{"name": "gateway"},
	{"name": "debug_dump"},
	{"name": "mcp__github__read_issue", "mcp": {"server": "github", "tool": "read_issue"}},
	{"name": "mcp__jira__get", "mcp": {"server": "jira", "tool": "get"}},
]

calls := [
	{"id": "c1", "name": "read_file", "args": {"path": "/ws/a"}},
	{"id": "c2", "name": "write_file", "args": {"path": "/etc/passwd"}},
	{"id": "c3", "name": "gateway"},
	{"id": "c4", "name": "debug_dump"},
	{"id": "c5", "name": "grep"},
	{"id": "c6", "name": "mcp__jira__get"},
	{"id": "c7", "name": "mcp__github__read_issue"},
	{"id": "c8", "name": "nope"},
	{"id": 8, "name": "grep"},
	{"id": "c9", "name": "bash", "args": {"action": "exec"}},
]

layers := [
	{"name": "agent", "allow": ["read_file", "write_file", "gateway", "debug_dump", "group:read_only", "bash", "mcp__github__*"], "deny": ["debug_*"]},
	{"name": "tenant", "deny": ["mcp__jira__*"]},
]

# [note, input]
documents := [
	["main agent, workspace, run", {
		"agent": {"role": "main", "depth": 0}, "declared": declared, "layers": layers, "calls": calls,
		"workspace": {"root": "/ws"}, "run": {"attempts": 0, "refusals": 0, "max_attempts": 5},
	}],
	["sub-agent", {"agent": {"role": "subagent", "depth": 1}, "declared": declared, "layers": layers, "calls": calls}],
	["fork in read-only mode", {
		"agent": {"role": "fork", "depth": 2, "read_only": true}, "declared": declared, "layers": layers, "calls": calls,
		"workspace": {"root": "/ws"},
	}],
	["a configuration error", {"agent": {"role": "main", "depth": 0}, "declared": declared, "layers": [{"name": "x", "allow": ["*"]}], "calls": calls}],
	["no layers", {"agent": {"role": "main", "depth": 0}, "declared": declared, "calls": calls}],
	["calls that are not a list", {"agent": {"role": "main", "depth": 0}, "declared": declared, "calls": {"id": "c"}}],
	["not an object", ["x"]],
]

# The reason and layer a refused step stands for.
refusal_of(step) := [step.reason, step.layer]

test_decisions_without_trace_are_the_decision if {
	every case in documents {
		doc := case[1]
		explained := tooleval.explain with input as doc
		decided := tooleval.decision with input as doc
		without := object.union(explained, {"decisions": [object.remove(d, {"trace"}) | some d in explained.decisions]})
		without == decided
	}
}

test_every_decision_has_a_trace if {
	every case in documents {
		doc := case[1]
		explained := tooleval.explain with input as doc
		every d in explained.decisions {
			count(d.trace) > 0
		}
	}
}

test_the_first_refused_step_is_the_decisions_reason if {
	every case in documents {
		doc := case[1]
		explained := tooleval.explain with input as doc
		every d in explained.decisions {
			first_refusal_agrees(d)
		}
	}
}

first_refusal_agrees(d) if {
	d.allowed == true
	every step in d.trace {
		step.outcome != "refused"
	}
}

first_refusal_agrees(d) if {
	d.allowed == false
	refused := [step | some step in d.trace; step.outcome == "refused"]
	refusal_of(refused[0]) == [d.reason, d.layer]
}

first_refusal_agrees(d) if {
	d.allowed == false
	d.trace == data.tooleval.tracing.untraced
}

explained_main := e if {
	e := tooleval.explain with input as documents[0][1]
}

step(id, check, name) := s if {
	some d in explained_main.decisions
	d.id == id
	some s in d.trace
	s.check == check
	name_of(s) == name
	not s.list
}

name_of(s) := s.name

name_of(s) := null if not s.name

list_step(id, name, list) := s if {
	some d in explained_main.decisions
	d.id == id
	some s in d.trace
	s.check == "layer"
	s.name == name
	s.list == list
}

test_matched_entries_and_their_sources if {
	list_step("c1", "agent", "allow") == {
		"check": "layer", "name": "agent", "outcome": "pass", "list": "allow",
		"entry": "read_file", "source": "layers[0].allow[0]",
	}
	list_step("c4", "agent", "deny") == {
		"check": "layer", "name": "agent", "outcome": "refused", "reason": "denied", "layer": "agent",
		"list": "deny", "entry": "debug_*", "source": "layers[0].deny[0]",
	}
	list_step("c5", "agent", "allow").member == "grep"
	startswith(list_step("c5", "agent", "allow").member_source, "groups.read_only[")
	list_step("c5", "agent", "allow").source == "layers[0].allow[4]"
	list_step("c6", "tenant", "deny").source == "layers[1].deny[0]"
	list_step("c6", "agent", "allow") == {
		"check": "layer", "name": "agent", "outcome": "refused", "reason": "not_allowed", "layer": "agent",
		"list": "allow", "source": "layers[0].allow",
	}
	list_step("c7", "agent", "allow").entry == "mcp__github__*"
	list_step("c7", "tenant", "deny") == {"check": "layer", "name": "tenant", "list": "deny", "outcome": "pass"}
	list_step("c7", "tenant", "allow").outcome == "not_applicable"
}

test_argument_and_run_steps if {
	step("c1", "paths", null).outcome == "pass"
	step("c2", "paths", null) == {"check": "paths", "outcome": "refused", "reason": "path", "layer": "workspace", "rule": "outside_workspace"}
	step("c8", "declaration", null).outcome == "refused"
	list_step("c8", "agent", "deny").outcome == "not_applicable"
	step("c8", "paths", null).outcome == "not_applicable"
	step("c1", "run", null).outcome == "pass"
	step("c1", "exclusion", "subagent_hard_deny").outcome == "not_applicable"
}

test_exclusions_name_the_floor if {
	explained := tooleval.explain with input as documents[1][1]
	some d in explained.decisions
	d.id == "c3"
	some s in d.trace
	s.check == "exclusion"
	s.name == "subagent_hard_deny"
	s.outcome == "refused"
	s.entry == "gateway"
	startswith(s.source, "floor.exclusions.subagent_hard_deny[")
}

test_read_only_shell_actions if {
	explained := tooleval.explain with input as documents[2][1]
	some d in explained.decisions
	d.id == "c9"
	some s in d.trace
	s.check == "action"
	s.outcome == "refused"
}

test_malformed_calls_refuse_at_input if {
	some d in explained_main.decisions
	d.id == 8
	d.trace[0].check == "input"
	d.trace[0].outcome == "refused"
}

test_mcp_services_name_the_server if {
	doc := {
		"agent": {"role": "main", "depth": 0}, "declared": declared, "mcp_services": ["GitHub"],
		"calls": [{"id": "a", "name": "mcp__github__read_issue"}, {"id": "b", "name": "mcp__jira__get"}, {"id": "c", "name": "grep"}],
	}
	explained := tooleval.explain with input as doc
	stage_steps := [[d.id, s] | some d in explained.decisions; some s in d.trace; s.name == "mcp_services"; s.list == "allow"]
	stage_steps == [
		["a", {"check": "stage", "name": "mcp_services", "list": "allow", "outcome": "pass", "entry": "github", "source": "stages.mcp_services.servers"}],
		["b", {
			"check": "stage", "name": "mcp_services", "list": "allow", "outcome": "refused", "reason": "not_allowed",
			"layer": "mcp_services", "source": "stages.mcp_services.servers",
		}],
		["c", {"check": "stage", "name": "mcp_services", "list": "allow", "outcome": "exempt"}],
	]
}

test_configured_exclusions_name_the_configuration if {
	conf := {"exclusions": {"subagent_hard_deny": ["deploy"]}}
	doc := {"agent": {"role": "subagent", "depth": 1}, "declared": [{"name": "deploy"}], "calls": [{"id": "a", "name": "deploy"}]}
	explained := tooleval.explain with input as doc with data.tooleval.config as configuration.overlay(data.tooleval.config, conf)
	some s in explained.decisions[0].trace
	s.name == "subagent_hard_deny"
	s == {
		"check": "exclusion", "name": "subagent_hard_deny", "outcome": "refused", "reason": "excluded",
		"layer": "subagent_hard_deny", "entry": "deploy", "source": "config.exclusions.subagent_hard_deny[0]",
	}
}

# The configuration the stage sources are tested under.
stage_config := {
	"tenants": {"acme": {"tools": ["read_file", "grep"]}},
	"scopes": {"files:read": ["read_file"]},
	"tools": {"deny": ["debug_*"]},
}

test_configured_stages_name_the_configuration if {
	doc := {
		"agent": {"role": "main", "depth": 0}, "tenant": "acme", "caller": {"scopes": ["files:read", "grep"]},
		"declared": [{"name": "read_file"}, {"name": "grep"}, {"name": "debug_dump"}],
		"calls": [{"id": "a", "name": "read_file"}, {"id": "b", "name": "grep"}, {"id": "c", "name": "debug_dump"}],
	}
	explained := tooleval.explain with input as doc with data.tooleval.config as configuration.overlay(data.tooleval.config, stage_config)
	sources := {[d.id, s.name, s.list]: [s.entry, s.source] |
		some d in explained.decisions
		some s in d.trace
		s.check == "stage"
		s.source
	}
	sources[["a", "tenant", "allow"]] == ["read_file", "config.tenants.acme.tools[0]"]
	sources[["b", "tenant", "allow"]] == ["grep", "config.tenants.acme.tools[1]"]
	sources[["a", "caller", "allow"]] == ["read_file", "config.scopes.files:read[0]"]
	sources[["b", "caller", "allow"]] == ["grep", "input.caller.scopes[1]"]
	sources[["c", "global_policy", "deny"]] == ["debug_*", "config.tools.deny[0]"]
}

# [url, the allow step's and the arguments step's {entries, sources}, the
# arguments step's outcome]: an explanation names the argument rules a
# call met, not the first rule of its tool; a call that meets none is
# shown against all of them.
rule_attribution_cases := [
	[
		"https://example.org/a",
		{"entries": [{"tool": "web_fetch", "domain": "example.org"}], "sources": ["layers[0].allow[2]"]},
		"pass",
	],
	[
		"https://docs.example.com/",
		{"entries": [{"tool": "web_fetch", "domain": "docs.example.com"}], "sources": ["layers[0].allow[1]"]},
		"pass",
	],
	[
		"https://evil.example/",
		{
			"entries": [{"tool": "web_fetch", "domain": "docs.example.com"}, {"tool": "web_fetch", "domain": "example.org"}],
			"sources": ["layers[0].allow[1]", "layers[0].allow[2]"],
		},
		"refused",
	],
]

test_an_explanation_names_the_argument_rule_that_decided if {
	every case in rule_attribution_cases {
		attribution_holds(case[0], case[1], case[2])
	}
}

attribution_holds(url, want, arguments_outcome) if {
	e := tooleval.explain with input as {
		"declared": [{"name": "read_file"}, {"name": "web_fetch"}],
		"layers": [{"name": "net", "allow": [
			"read_file",
			{"tool": "web_fetch", "domain": "docs.example.com"},
			{"tool": "web_fetch", "domain": "example.org"},
		]}],
		"calls": [{"id": "1", "name": "web_fetch", "args": {"url": url}}],
	}
	some allow_step in e.decisions[0].trace
	allow_step.list == "allow"
	allow_step.check == "layer"
	object.filter(allow_step, {"entries", "sources"}) == want
	some arguments_step in e.decisions[0].trace
	arguments_step.check == "arguments"
	arguments_step.outcome == arguments_outcome
	object.filter(arguments_step, {"entries", "sources"}) == want
}

# A batch over the call cap is traced by the config check alone: none of
# its calls is read, so no other check is asked.
test_a_batch_over_the_call_cap_is_traced_by_its_config_check if {
	x := tooleval.explain with input as {"declared": [{"name": "read_file"}], "calls": [{"id": "a", "name": "read_file"}, 5, {"id": "a"}]}
		with data.tooleval.shape.max_calls as 2
	[d.trace | some d in x.decisions] == [
	[{"check": "config", "outcome": "refused", "reason": "invalid_config", "layer": "config", "errors": 1}] |
		some _ in x.decisions
	]
	[[d.id, d.reason] | some d in x.decisions] == [["a", "invalid_config"], [null, "invalid_config"], ["a", "invalid_config"]]
}
