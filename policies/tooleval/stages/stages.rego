# METADATA
# title: Configured stages
# description: |
#   The layers tooleval computes from data.tooleval.config and the fields
#   that say who is asking (agent, tenant, caller, mcp_services, handoff).
#   They are evaluated in this order, before the runtime's inline layers,
#   and each can only narrow, like any layer; a refusal names the stage.
#
#   | stage                 | applies when                                   | file          |
#   | all_agents            | a sub-agent                                    | agents.rego   |
#   | custom_agents         | a sub-agent whose definition is not builtin    | agents.rego   |
#   | async_agents          | an async or background sub-agent               | agents.rego   |
#   | coordinator_mode      | agent.coordinator is true                      | agents.rego   |
#   | agent_definition      | config.agents has the agent's name             | agents.rego   |
#   | profile               | a profile is selected (tools or agent)         | profiles.rego |
#   | global_policy         | always (config.tools allow and deny)           | profiles.rego |
#   | subagent_policy       | a sub-agent (config.subagents)                 | profiles.rego |
#   | tenant                | input.tenant names a tenant                    | tenants.rego  |
#   | caller                | input.caller.scopes is a list                  | tenants.rego  |
#   | mcp_services          | input.mcp_services is a list                   | mcp.rego      |
#   | mcp_user_services     | config.mcp_user_services is an object          | mcp.rego      |
#   | read_only             | the agent runs in read-only mode               | read_only.rego |
#   | requester_policy      | a verified handoff resumes a requester         | requester.rego |
#   | continuation_restricted | any other handoff                            | requester.rego |
#
#   A stage is {name, allow, deny, exempt?, servers?}: allow null states
#   nothing, deny wins, exempt ("mcp" or "non_mcp") names the kind of tool
#   the stage lets through untouched, and servers (canonical raw MCP server
#   names) allows the MCP tools of those servers.
package tooleval.stages

import data.tooleval.pattern

# METADATA
# title: layers
# description: The configured stages that apply to this request, in evaluation order, for its subject (see subject).
layers(doc, s, conf) := array.flatten([
	agent_filter_stages(s, conf),
	agent_definition_stage(s),
	profile_stage(s, conf),
	global_policy_stage(conf),
	subagent_policy_stage(s, conf),
	tenant_stage(doc, conf),
	caller_stage(doc, conf),
	mcp_service_stages(doc, conf),
	read_only_stage(s, conf),
	continuation_stage(doc, conf),
])

# METADATA
# title: compile
# description: |
#   The stages with compiled matchers, in the form of
#   tooleval.layers.compile plus exempt. Only configured stages carry
#   exempt: an inline layer from the input can never let a tool through.
compile(stages, vocabulary) := [{
	"name": s.name,
	"allow": allow_matcher(s, vocabulary),
	"deny": pattern.compile(object.get(s, "deny", []), "deny", vocabulary),
	"exempt": object.get(s, "exempt", null),
} |
	some s in stages
]

allow_matcher(s, vocabulary) := object.union(
	pattern.compile([], "allow", vocabulary),
	{"raw": pattern.raw_index([[server, ""] | some server in s.servers])},
) if {
	s.servers
} else := pattern.compile(s.allow, "allow", vocabulary) if {
	is_array(s.allow)
} else := null

# METADATA
# title: input_errors
# description: What is wrong with the identifying fields of the request.
input_errors(doc, conf) := array.flatten([
	agent_mode_errors(doc),
	tenant_errors(doc, conf),
	caller_errors(doc),
	mcp_service_errors(doc),
])

# METADATA
# title: request_config_errors
# description: |
#   The errors in the parts of the configuration the stages of this
#   request read: its agent's definition, its tenant's plan, the scopes
#   its caller names, the selected profile, and the lists of the stages
#   that apply. A decision refuses every call on any of them; tooleval
#   check reports every error of the configuration (config_errors).
request_config_errors(doc, s, conf) := array.flatten([
	agent_request_errors(s, conf),
	profile_request_errors(s, conf),
	tenant_request_errors(doc, conf),
	mcp_request_errors(doc, conf),
	read_only_request_errors(s, conf),
	continuation_request_errors(doc, conf),
])

# METADATA
# title: config_errors
# description: Every error in the configuration the stages read, with its location.
config_errors(conf) := array.flatten([
	agent_config_errors(conf),
	profile_config_errors(conf),
	tenant_config_errors(conf),
	mcp_config_errors(conf),
	read_only_config_errors(conf),
	continuation_config_errors(conf),
])
