# METADATA
# title: Compiled context
# description: |
#   The static part of a decision, computed once from everything but the
#   calls and the run: the configuration, input shape and declaration
#   errors, each declared tool's name-level verdict (runtime exclusions
#   and layers) keyed by canonical name, the effective tool names, the
#   workspace and the path arguments. Deciding a call is then a few
#   look-ups in this value, whatever the number of declared tools, so an
#   embedding engine can compile it once per agent session and reuse it
#   for every dispatch batch.
package tooleval.context

import data.tooleval.declared
import data.tooleval.exclusions
import data.tooleval.layers
import data.tooleval.paths
import data.tooleval.pattern
import data.tooleval.shape

# METADATA
# title: config
# scope: document
# description: data.tooleval.config, or an empty configuration (which is reported as errors) when it is missing.
default config := {}

config := data.tooleval.config if is_object(data.tooleval.config)

# METADATA
# title: config_errors
# description: Every error in the configuration.
config_errors(conf) := array.flatten([
	exclusions.errors(conf),
	pattern.group_errors(conf),
	paths.config_errors(conf),
])

# METADATA
# title: compile
# description: |
#   The compiled context of an input document:
#   {errors, tools, effective, workspace, path_arguments}. tools maps each
#   valid declared tool's canonical name to {name, kind, server, tool,
#   checks_paths} (checks_paths: its calls have path arguments to check)
#   and, when refused, its first name-level refusal as refusal:
#   {reason, layer}.
compile(input_doc) := {
	"errors": errors,
	"tools": tools,
	"effective": effective(errors, tools),
	"workspace": workspace,
	"path_arguments": path_arguments,
} if {
	doc := shape.document(input_doc)
	groups := exclusions.groups(config)
	agent := shape.agent(doc)
	declarations := shape.list_field(doc, "declared")
	records := declared.records(declarations)
	raw_layers := layers.sources(doc)
	compiled_layers := layers.compile(raw_layers, groups)
	active := exclusions.active(agent, config)
	errors := array.flatten([
		shape.document_errors(input_doc),
		shape.agent_errors(doc),
		shape.list_errors(doc, "declared"),
		declared.errors(declarations, records),
		layers.errors(doc, raw_layers, groups),
		paths.workspace_errors(doc),
		config_errors(config),
	])
	workspace := paths.workspace(doc)
	path_arguments := object.get(config, "path_arguments", {})
	index := declared.index(declarations, records)
	resolved_exclusions := layers.resolve(active, index)
	resolved_layers := layers.resolve(compiled_layers, index)
	tools := {name: tool(name, record, resolved_exclusions, resolved_layers, checks_paths(workspace, path_arguments, name)) |
		some name, record in index
	}
}

tool(name, record, exclusions, resolved_layers, checks) := object.union(slim(record, checks), {"refusal": refusal}) if {
	refusal := layers.refusal(name, exclusions, resolved_layers)
} else := slim(record, checks)

# What a decision needs of a declaration; a session keeps this for every
# declared tool, so it holds nothing more.
slim(record, checks) := {
	"name": record.name,
	"kind": record.kind,
	"server": record.server,
	"tool": record.tool,
	"checks_paths": checks,
}

# A call of this tool has path arguments to check: there is a workspace
# and the configuration names path arguments of the tool.
checks_paths(workspace, path_arguments, name) if {
	workspace != null
	count(object.get(path_arguments, name, {})) > 0
} else := false

# METADATA
# title: effective
# description: |
#   The sorted declared names (as declared) that exclusions and layers let
#   execute; none when there is any error.
effective(errors, tools) := [] if {
	count(errors) > 0
} else := sort([t.name | some t in tools; not t.refusal])
