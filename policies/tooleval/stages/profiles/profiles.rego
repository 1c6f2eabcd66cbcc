# METADATA
# title: Profiles, the global policy and the sub-agent stage
# description: |
#   The profile, global_policy and subagent_policy stages, documented in
#   docs/configuration.md, "Profiles and the sub-agent stage (`profiles`,
#   `tools`, `subagents`)". A preset's profiles are merged in as "Runtime
#   presets (`preset`)" there says; docs/presets.md gives them per runtime
#   ("Groups, profiles, filters" for claude_code, "Groups and profiles"
#   for openclaw).
#
#     config.profiles[NAME]   the tools of a profile (null: every tool);
#                             minimal, coding, messaging and full ship as data
#     config.tools.profile    the profile of every agent (null: none), which
#                             an agent definition's profile replaces
#     config.tools.also_allow adds to the profile stage (and only there);
#                             an agent's own also_allow (a list) replaces
#                             it, as in OpenClaw (resolveEffectiveToolPolicy)
#     config.tools.allow/deny/ask the global policy               (global_policy)
#     config.subagents.allow/deny/ask the sub-agent stage: a final allow-only
#                             filter for sub-agents; it can narrow, never add
#                             back what an earlier stage removed, and deny
#                             wins everywhere                      (subagent_policy)
package tooleval.stages.profiles

import data.tooleval.configuration
import data.tooleval.configuration.lists
import data.tooleval.configuration.tables
import data.tooleval.configuration.validate
import data.tooleval.shape

_tools_config(conf) := shape.field(conf, "tools", {})

_subagents_config(conf) := shape.field(conf, "subagents", {})

# METADATA
# description: |
#   The profile's tools plus also_allow (global and the agent's). A
#   profile whose tools are null (full) narrows nothing; an unknown
#   profile is a configuration error, and until it is mended the stage
#   refuses everything.
_profile_stage(s, conf) := [] if {
	s.profile == null
} else := [{"name": "profile", "allow": null, "deny": []}] if {
	tools := tables.table_entry(shape.field(conf, "profiles", {}), s.profile)
	tools == null
} else := [{
	"name": "profile",
	"allow": array.concat(tools, _also_allow(s, conf)),
	"deny": [],
}] if {
	tools := tables.table_entry(shape.field(conf, "profiles", {}), s.profile)
	is_array(tools)
} else := [{"name": "profile", "allow": [], "deny": []}]

# The also_allow of the profile stage: the agent definition's own when
# it has one (even an empty one), else the global one (OpenClaw's
# resolveEffectiveToolPolicy in src/agents/agent-tools.policy.ts: the
# agent's alsoAllow ?? the global alsoAllow). A malformed list is an
# error (see _profile_request_errors) and adds nothing.
_also_allow(s, conf) := own if {
	own := shape.field(s.definition, "also_allow", null)
	is_array(own)
} else := global if {
	global := shape.field(_tools_config(conf), "also_allow", [])
	is_array(global)
} else := []

# The global policy is a stage only when it states something. It and
# the sub-agent stage may carry an ask list and argument rules, which
# their source names (tooleval.stages.compile).
_global_policy_stage(conf) := _global_policy(_tools_config(conf))

_global_policy(tools) := [] if {
	# a null list states nothing, as an absent one (builtins only: this
	# is asked of every request)
	object.get(tools, "allow", null) == null
	{object.get(tools, "deny", []), object.get(tools, "ask", [])} - {null, []} == set()
} else := [{
	"name": "global_policy",
	"allow": shape.field(tools, "allow", null),
	"deny": shape.field(tools, "deny", []),
	"ask": shape.field(tools, "ask", []),
	"message": shape.field(tools, "message", null),
	"otherwise": shape.field(tools, "otherwise", null),
	"source": "config.tools",
}]

_subagent_policy_stage(s, conf) := [{
	"name": "subagent_policy",
	"allow": shape.field(_subagents_config(conf), "allow", null),
	"deny": shape.field(_subagents_config(conf), "deny", []),
	"ask": shape.field(_subagents_config(conf), "ask", []),
	"otherwise": shape.field(_subagents_config(conf), "otherwise", null),
	"source": "config.subagents",
}] if {
	s.subagent
} else := []

# The configuration-only sections are prepared once
# (tooleval.configuration.section_errors); the selected profile is the
# request's.
_profile_request_errors(s, conf) := array.flatten([
	configuration.section_errors(conf, "tools"),
	_selected_profile_errors(s, conf),
	configuration.section_errors(conf, "tool_lists"),
	_request_subagent_errors(s, conf),
])

# The selected profile: a reference to a profile that exists, whose list
# is valid.
_selected_profile_errors(s, conf) := [] if {
	s.profile == null
} else := errors if {
	errors := profile_reference_errors(s.profile, _profile_location(s), conf)
	count(errors) > 0
} else := _selected_profile_list_errors(tables.table_key(shape.field(conf, "profiles", {}), s.profile), conf)

_selected_profile_list_errors(key, conf) := lists.entries_errors(conf.profiles[key], "allow", sprintf("config.profiles.%s", [key]), conf, true)

_profile_location(s) := sprintf("config.agents.%s.profile", [s.definition_key]) if {
	shape.field(s.definition, "profile", null) != null
} else := "config.tools.profile"

_request_subagent_errors(s, conf) := configuration.section_errors(conf, "subagents") if {
	s.subagent
} else := []

_profile_config_errors(conf) := array.flatten([
	configuration.section_errors(conf, "tools"),
	tables.key_errors(shape.field(conf, "profiles", {}), "config.profiles"),
	[e |
		some name, tools in shape.field(conf, "profiles", {})
		some e in lists.entries_errors(tools, "allow", sprintf("config.profiles.%s", [name]), conf, true)
	],
	profile_reference_errors(validate.value_at(_tools_config(conf), "profile"), "config.tools.profile", conf),
	configuration.section_errors(conf, "tool_lists"),
	configuration.section_errors(conf, "subagents"),
])

# METADATA
# scope: document
# description: A problem when a profile reference at location is neither null nor the name of a profile.
profile_reference_errors(null, _, _) := []

profile_reference_errors(name, location, conf) := errors if {
	name != null
	errors := tables.lookup_errors(shape.field(conf, "profiles", {}), "config.profiles", [[location, name]])
	count(errors) > 0
} else := [] if {
	name != null
	tables.table_key(shape.field(conf, "profiles", {}), name)
} else := [shape.problem(
	"unknown_profile",
	sprintf("%s names no profile in config.profiles", [location]),
	{"field": location, "profile": name},
)] if {
	name != null
}

# METADATA
# description: The profile, global policy and sub-agent stages that apply to the request, in order.
layers(_, s, conf) := array.flatten([_profile_stage(s, conf), _global_policy_stage(conf), _subagent_policy_stage(s, conf)])

# METADATA
# description: The errors in the profile and tool policies the request reads.
request_errors(_, s, conf) := _profile_request_errors(s, conf)

# METADATA
# description: Every error in config.profiles, config.tools and config.subagents.
config_errors(conf) := _profile_config_errors(conf)

# METADATA
# description: |
#   Where the entries of this package's stages come from, by stage and
#   list, one source per entry (see tooleval.tracing).
sources(_, s, conf) := {
	"profile": {"allow": array.flatten([
		tables.indexed_sources(sprintf("config.profiles.%s", [s.profile]), _profile_tools(s, conf)),
		tables.indexed_sources("config.tools.also_allow", shape.field(_tools_config(conf), "also_allow", [])),
		tables.indexed_sources(sprintf("config.agents.%s.also_allow", [s.definition_key]), shape.field(s.definition, "also_allow", [])),
	])},
	"global_policy": {
		"allow": tables.indexed_sources("config.tools.allow", shape.field(_tools_config(conf), "allow", null)),
		"deny": tables.indexed_sources("config.tools.deny", shape.field(_tools_config(conf), "deny", [])),
		"ask": tables.indexed_sources("config.tools.ask", shape.field(_tools_config(conf), "ask", [])),
	},
	"subagent_policy": {
		"allow": tables.indexed_sources("config.subagents.allow", shape.field(_subagents_config(conf), "allow", null)),
		"deny": tables.indexed_sources("config.subagents.deny", shape.field(_subagents_config(conf), "deny", [])),
		"ask": tables.indexed_sources("config.subagents.ask", shape.field(_subagents_config(conf), "ask", [])),
	},
}

_profile_tools(s, conf) := tools if {
	tools := tables.table_entry(shape.field(conf, "profiles", {}), s.profile)
} else := []
