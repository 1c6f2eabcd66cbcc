# The configuration prepared: everything a decision derives from the
# configuration alone (the configuration in force with its preset, its
# errors, the compiled exclusions, the groups and aliases, the path
# arguments, the sensitive paths), computed once instead of on every
# request. A bundle carries it as data.tooleval.prepared: the engine and
# tooleval bundle build prepare it when they load or build a bundle, and
# the repository keeps the shipped bundle's (go generate ./internal/prepared).
# Prepared data is used only when it was prepared from this very
# configuration and floor (compared on every request, the name-keyed
# tables aside); otherwise it is computed on the spot, so a stale copy
# can cost time, never change a decision.
package tooleval.configuration

import data.tooleval.configuration.sections
import data.tooleval.pattern

# METADATA
# description: |
#   The members of data.tooleval.config that are name-keyed tables a
#   request reads one entry of (tooleval.configuration.tables.table_entry); they
#   are read as they are, never prepared.
table_members := {"tenants", "agents", "scopes", "mcp_user_services"}

# METADATA
# description: |
#   What a decision derives from a configuration (data.tooleval.config
#   as the bundle holds it) and the shipped floor: {source, preset,
#   floor, config, errors, vocabulary, exclusions, max_depth,
#   path_arguments, rule_arguments, sensitive_paths, names, sections}: sections holds
#   the errors of the sections the stages validate on each request
#   (section_errors).
prepare(conf) := {
	"source": _prepared_source(conf),
	"preset": _preset_source(conf),
	"floor": _shipped_floor,
	"config": object.remove(in_force, table_members),
	"errors": errors(conf),
	"vocabulary": vocab,
	"exclusions": {name: pattern.compile(exclusion_entries(in_force, name), "deny", vocab) | some name in exclusion_names},
	"max_depth": max_depth(in_force),
	"path_arguments": path_arguments(in_force),
	"rule_arguments": rule_arguments(in_force),
	"sensitive_paths": sensitive_paths(in_force),
	"names": alias_names_table(in_force),
	"sections": sections.by_section(in_force),
} if {
	in_force := with_preset(conf)
	vocab := vocabulary(in_force)
}

# METADATA
# description: prepare of the configuration the bundle holds (what the engine writes to data.tooleval.prepared).
prepared_document := prepare(raw)

# METADATA
# scope: document
# description: |
#   The prepared configuration in force: data.tooleval.prepared when it
#   was prepared from this configuration (its tables aside) and this
#   floor, else prepared now.
prepared := data.tooleval.prepared if {
	p := data.tooleval.prepared
	p.source == _prepared_source(raw)
	p.preset == _preset_source(raw)
	p.floor == _shipped_floor
} else := prepared_document

_prepared_source(conf) := object.remove(conf, table_members | {"presets"})

_preset_source(conf) := conf.presets[conf.preset] if {
	is_object(conf.presets[conf.preset])
} else := null

# METADATA
# description: |
#   The errors of a section of the configuration conf: tools (config.profiles
#   and config.tools are objects, config.tools has no unknown member),
#   tool_lists (config.tools.message and the lists also_allow, allow,
#   deny and ask) or subagents (config.subagents). Prepared when conf is the
#   configuration in force, else computed.
section_errors(conf, section) := errors if {
	conf == config
	errors := prepared.sections[section]
} else := sections.errors(section, conf)
