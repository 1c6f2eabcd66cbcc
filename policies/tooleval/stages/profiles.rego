# Profiles, the global policy and the sub-agent stage (seed 002).
#
#   config.profiles[NAME]   the tools of a profile (null: every tool);
#                           minimal, coding, messaging and full ship as data
#   config.tools.profile    the profile of every agent (null: none), which
#                           an agent definition's profile replaces
#   config.tools.also_allow and an agent's also_allow add to the profile
#                           stage (and only there)
#   config.tools.allow/deny the global policy                   (global_policy)
#   config.subagents.allow/deny the sub-agent stage: a final allow-only
#                           filter for sub-agents; it can narrow, never add
#                           back what an earlier stage removed, and deny
#                           wins everywhere                      (subagent_policy)
package tooleval.stages

import data.tooleval.configuration
import data.tooleval.shape

tools_config(conf) := shape.field(conf, "tools", {})

subagents_config(conf) := shape.field(conf, "subagents", {})

# METADATA
# title: profile_stage
# description: |
#   The profile's tools plus also_allow (global and the agent's). A
#   profile whose tools are null (full) narrows nothing; an unknown
#   profile is a configuration error, and until it is mended the stage
#   refuses everything.
profile_stage(s, conf) := [] if {
	s.profile == null
} else := [{"name": "profile", "allow": null, "deny": []}] if {
	tools := configuration.table_entry(shape.field(conf, "profiles", {}), s.profile)
	tools == null
} else := [{
	"name": "profile",
	"allow": array.flatten([
		tools,
		shape.field(tools_config(conf), "also_allow", []),
		shape.field(s.definition, "also_allow", []),
	]),
	"deny": [],
}] if {
	tools := configuration.table_entry(shape.field(conf, "profiles", {}), s.profile)
	is_array(tools)
} else := [{"name": "profile", "allow": [], "deny": []}]

# The global policy is a stage only when it states something.
global_policy_stage(conf) := [] if {
	shape.field(tools_config(conf), "allow", null) == null
	shape.field(tools_config(conf), "deny", []) == []
} else := [{
	"name": "global_policy",
	"allow": shape.field(tools_config(conf), "allow", null),
	"deny": shape.field(tools_config(conf), "deny", []),
}]

subagent_policy_stage(s, conf) := [{
	"name": "subagent_policy",
	"allow": shape.field(subagents_config(conf), "allow", null),
	"deny": shape.field(subagents_config(conf), "deny", []),
}] if {
	s.subagent
} else := []

profile_request_errors(s, conf) := array.flatten([
	object_errors(value_at(conf, "profiles"), "config.profiles", true),
	object_errors(value_at(conf, "tools"), "config.tools", true),
	unknown_member_errors(value_at(conf, "tools"), tools_members, "config.tools"),
	selected_profile_errors(s, conf),
	entries_errors(value_at(tools_config(conf), "also_allow"), "allow", "config.tools.also_allow", conf, true),
	entries_errors(value_at(tools_config(conf), "allow"), "allow", "config.tools.allow", conf, true),
	entries_errors(value_at(tools_config(conf), "deny"), "deny", "config.tools.deny", conf, true),
	request_subagent_errors(s, conf),
])

# The selected profile: a reference to a profile that exists, whose list
# is valid.
selected_profile_errors(s, conf) := [] if {
	s.profile == null
} else := errors if {
	errors := profile_reference_errors(s.profile, profile_location(s), conf)
	count(errors) > 0
} else := selected_profile_list_errors(configuration.table_key(shape.field(conf, "profiles", {}), s.profile), conf)

selected_profile_list_errors(key, conf) := entries_errors(conf.profiles[key], "allow", sprintf("config.profiles.%s", [key]), conf, true)

profile_location(s) := sprintf("config.agents.%s.profile", [s.definition_key]) if {
	shape.field(s.definition, "profile", null) != null
} else := "config.tools.profile"

request_subagent_errors(s, conf) := subagent_errors(conf) if {
	s.subagent
} else := []

tools_members := {"profile", "also_allow", "allow", "deny"}

subagent_errors(conf) := array.flatten([
	object_errors(value_at(conf, "subagents"), "config.subagents", true),
	unknown_member_errors(value_at(conf, "subagents"), {"allow", "deny"}, "config.subagents"),
	entries_errors(value_at(subagents_config(conf), "allow"), "allow", "config.subagents.allow", conf, true),
	entries_errors(value_at(subagents_config(conf), "deny"), "deny", "config.subagents.deny", conf, true),
])

profile_config_errors(conf) := array.flatten([
	object_errors(value_at(conf, "profiles"), "config.profiles", true),
	collision_errors(shape.field(conf, "profiles", {}), "config.profiles"),
	[e |
		some name, tools in shape.field(conf, "profiles", {})
		some e in entries_errors(tools, "allow", sprintf("config.profiles.%s", [name]), conf, true)
	],
	object_errors(value_at(conf, "tools"), "config.tools", true),
	unknown_member_errors(value_at(conf, "tools"), tools_members, "config.tools"),
	profile_reference_errors(value_at(tools_config(conf), "profile"), "config.tools.profile", conf),
	entries_errors(value_at(tools_config(conf), "also_allow"), "allow", "config.tools.also_allow", conf, true),
	entries_errors(value_at(tools_config(conf), "allow"), "allow", "config.tools.allow", conf, true),
	entries_errors(value_at(tools_config(conf), "deny"), "deny", "config.tools.deny", conf, true),
	subagent_errors(conf),
])

# METADATA
# title: profile_reference_errors
# scope: document
# description: A problem when a profile reference at location is neither null nor the name of a profile.
profile_reference_errors(null, _, _) := []

profile_reference_errors(name, location, conf) := errors if {
	name != null
	errors := configuration.collision_errors(shape.field(conf, "profiles", {}), "config.profiles", name)
	count(errors) > 0
} else := [] if {
	name != null
	configuration.table_key(shape.field(conf, "profiles", {}), name)
} else := [shape.problem(
	"unknown_profile",
	sprintf("%s names no profile in config.profiles", [location]),
	{"field": location, "profile": name},
)] if {
	name != null
}
