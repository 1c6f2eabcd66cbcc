# METADATA
# title: Configured stages
# description: |
#   The layers tooleval computes from data.tooleval.config and the fields
#   that say who is asking (agent, tenant, caller, mcp_services, handoff),
#   for the subject of the request (tooleval.subject.of). They are
#   evaluated in this order, before the runtime's inline layers, and each
#   can only narrow, like any layer; a refusal names the stage. The stages
#   are documented in docs/configuration.md, "The stages, in evaluation
#   order", one section each.
#
#   | stage                 | applies when                                   | package   |
#   | all_agents            | a sub-agent                                    | agents    |
#   | custom_agents         | a sub-agent whose definition is not builtin    | agents    |
#   | async_agents          | an async or background sub-agent               | agents    |
#   | coordinator_mode      | agent.coordinator is true                      | agents    |
#   | agent_definition      | config.agents has the agent's name             | agents    |
#   | profile               | a profile is selected (tools or agent)         | profiles  |
#   | global_policy         | config.tools allow, deny or ask state something | profiles |
#   | subagent_policy       | a sub-agent (config.subagents)                 | profiles  |
#   | tenant                | input.tenant names a tenant                    | tenants   |
#   | caller                | input.caller.scopes is a list                  | tenants   |
#   | mcp_services          | input.mcp_services is a list                   | mcp       |
#   | mcp_user_services     | config.mcp_user_services is an object          | mcp       |
#   | read_only             | the agent runs in read-only mode               | read_only |
#   | requester_policy      | a verified handoff resumes a requester         | requester |
#   | continuation_restricted | any other handoff                            | requester |
#
#   Each package (tooleval.stages.NAME) has the same four rules: layers
#   (its stages that apply to a request), request_errors (what is wrong
#   with the request's fields and the configuration the request reads),
#   config_errors (every error in its part of the configuration) and
#   sources (where each entry of its stages comes from, for explain).
#   This package is the one the rest of the policy imports: it joins those
#   rules over the stage packages and passes on what else of them is read
#   elsewhere (agent_tools, action_policy).
#
#   A stage is {name, allow, deny, ask?, exempt?, servers?, message?,
#   source?}: allow null states
#   nothing, deny wins, exempt ("mcp" or "non_mcp") names the kind of tool
#   the stage lets through untouched, servers (canonical raw MCP server
#   names) allows the MCP tools of those servers, and message is quoted in
#   the refusal message of the calls the stage refuses. A stage with a
#   source (where its lists are: config.tools, config.subagents) may have
#   an ask list and argument rules in its lists (see compile).
package tooleval.stages

import data.tooleval.arguments
import data.tooleval.pattern
import data.tooleval.stages.agents
import data.tooleval.stages.mcp
import data.tooleval.stages.profiles
import data.tooleval.stages.read_only
import data.tooleval.stages.requester
import data.tooleval.stages.tenants

# METADATA
# description: The configured stages that apply to this request, in evaluation order, for its subject.
layers(doc, s, conf) := array.flatten([
	agents.layers(doc, s, conf),
	profiles.layers(doc, s, conf),
	tenants.layers(doc, s, conf),
	mcp.layers(doc, s, conf),
	read_only.layers(doc, s, conf),
	requester.layers(doc, s, conf),
])

# METADATA
# description: |
#   What is wrong with the fields that say who is asking, and the errors
#   in the parts of the configuration the stages of this request read:
#   its agent's definition, its tenant's plan, the scopes its caller
#   names, the selected profile, and the lists of the stages that apply.
#   A decision refuses every call on any of them; tooleval check reports
#   every error of the configuration (config_errors).
request_errors(doc, s, conf) := array.flatten([
	agents.request_errors(doc, s, conf),
	profiles.request_errors(doc, s, conf),
	tenants.request_errors(doc, s, conf),
	mcp.request_errors(doc, s, conf),
	read_only.request_errors(doc, s, conf),
	requester.request_errors(doc, s, conf),
])

# METADATA
# description: |
#   Where the entries of the stages that apply to this request come from,
#   by stage name and list, one source per entry: config.tenants.acme.tools[4],
#   config.scopes.repo:read[0], ... (tooleval.tracing).
sources(doc, s, conf) := object.union_n([
	agents.sources(doc, s, conf),
	profiles.sources(doc, s, conf),
	tenants.sources(doc, s, conf),
	mcp.sources(doc, s, conf),
	read_only.sources(doc, s, conf),
	requester.sources(doc, s, conf),
])

# METADATA
# description: |
#   Like resolveAgentTools, for the subject s and the declared tools index:
#   which exact names its definition lists are valid and which invalid, or
#   null (tooleval.stages.agents.agent_tools).
agent_tools(s, index) := agents.agent_tools(s, index)

# METADATA
# description: The runtime's spawn tool under conf (tooleval.stages.agents.agent_tool).
agent_tool(conf) := agents.agent_tool(conf)

# METADATA
# description: |
#   What deciding a shell call's action needs for the subject s, or null
#   when no call's action is checked (tooleval.stages.read_only.action_policy).
action_policy(s, conf) := read_only.action_policy(s, conf)

# METADATA
# description: |
#   Every error in the configuration the stages read, with its location,
#   each once (a table's key errors are reported by the table and by each
#   reference that looks a name up in it).
config_errors(conf) := [e |
	some i, e in errors
	not _reported_before(errors, i, e)
] if {
	errors := array.flatten([
		agents.config_errors(conf),
		profiles.config_errors(conf),
		tenants.config_errors(conf),
		mcp.config_errors(conf),
		read_only.config_errors(conf),
		requester.config_errors(conf),
	])
}

# METADATA
# description: |
#   The stages with compiled matchers, as the checks of tooleval.checks:
#   {name, allow, deny, ask, exempt, message, arguments, judges}, as
#   tooleval.layers.compile compiles an inline layer (otherwise "deny"
#   but for a policy stage that asks otherwise), plus exempt. Only
#   configured stages carry exempt: an inline layer from the input can
#   never let a tool through. A stage with a source (the global policy,
#   config.tools, and the sub-agent stage, config.subagents) may have an
#   ask list, argument rules (tooleval.arguments.compile_lists) and
#   otherwise (tooleval.checks.asks_otherwise): its
#   name-level lists are then its name entries, its allow list's with
#   the tool of each allow rule, and arguments its rules (null when it
#   has none); judges is whether a call of a tool it lets through by name
#   can still be refused or asked by it.
compile(stages, vocabulary) := [_compile_stage(s, vocabulary) | some s in stages]

_compile_stage(s, vocabulary) := {
	"name": s.name,
	"allow": _allow_matcher(s, vocabulary),
	"deny": pattern.compile(object.get(s, "deny", []), "deny", vocabulary),
	"ask": pattern.nothing,
	"exempt": object.get(s, "exempt", null),
	"message": object.get(s, "message", null),
	"otherwise": "deny",
	"arguments": null,
	"judges": false,
} if {
	not s.source
} else := {
	"name": s.name,
	"allow": _allow_matcher(object.union(s, {"allow": arguments.names_and_rule_tools(lists.allow)}), vocabulary),
	"deny": pattern.compile(arguments.names(lists.deny), "deny", vocabulary),
	"ask": arguments.ask_matcher(arguments.names(lists.ask), vocabulary),
	"exempt": object.get(s, "exempt", null),
	"message": object.get(s, "message", null),
	"otherwise": otherwise,
	"arguments": rules,
	"judges": arguments.judges(arguments.names(lists.ask), rules, otherwise),
} if {
	lists := {
		"allow": _list_or_null(object.get(s, "allow", null)),
		"deny": _list_or_empty(object.get(s, "deny", [])),
		"ask": _list_or_empty(object.get(s, "ask", [])),
	}
	rules := arguments.compile_lists(_list_or_empty(lists.allow), lists.deny, lists.ask, s.source, vocabulary)
	otherwise := _otherwise(object.get(s, "otherwise", null))
}

# A policy stage's otherwise: "ask", or "deny" for anything else (a value
# other than "deny", "ask" or null is a configuration error, which
# refuses every call).
_otherwise("ask") := "ask"

_otherwise(x) := "deny" if x != "ask"

# A malformed list is a configuration error that refuses every call; it
# compiles as the closest list that narrows (an allow list that matches
# nothing, no deny or ask entry).
_list_or_null(x) := x if {
	x == null
} else := x if {
	is_array(x)
} else := []

_list_or_empty(x) := x if is_array(x)

else := []

_allow_matcher(s, vocabulary) := object.union(
	pattern.compile([], "allow", vocabulary),
	{"raw": pattern.raw_index([[server, ""] | some server in s.servers])},
) if {
	s.servers
} else := pattern.compile(s.allow, "allow", vocabulary) if {
	is_array(s.allow)
} else := null

# A table's unreadable keys are reported by the table and by each
# reference that looks a name up in it (uncanonicalizable_name): once is
# enough. Only those are compared, so the cost follows them.
_reported_before(errors, i, e) if {
	e.code == "uncanonicalizable_name"
	e in array.slice(errors, 0, i)
}
