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

import data.tooleval.configuration
import data.tooleval.declared
import data.tooleval.exclusions
import data.tooleval.layers
import data.tooleval.paths
import data.tooleval.shape
import data.tooleval.stages

# METADATA
# title: compile
# description: |
#   The compiled context of an input document:
#   {errors, tools, effective, workspace, path_arguments, actions}. tools
#   maps each valid declared tool's canonical name to {name, kind, server,
#   tool, checks_args} (checks_args: its calls have arguments to check,
#   paths or a shell action) and, when refused, its first name-level
#   refusal as refusal: {reason, layer}. actions is the read-only action
#   policy (tooleval.stages.action_policy), or null.
compile(input_doc) := {
	"errors": errors,
	"tools": tools,
	"effective": effective(errors, tools),
	"workspace": workspace,
	"path_arguments": path_arguments,
	"actions": actions,
	"names": configuration.alias_names_table(config),
} if {
	doc := shape.document(input_doc)
	config := configuration.config
	subject := stages.subject(doc, config)
	groups := configuration.groups(config)
	vocabulary := configuration.vocabulary(config)
	agent := shape.agent(doc)
	declarations := shape.list_field(doc, "declared")
	records := declared.records(declarations)
	raw_layers := layers.inline(doc)
	compiled_layers := array.concat(
		stages.compile(stages.layers(doc, subject, config), vocabulary),
		layers.compile(raw_layers, vocabulary),
	)
	active := exclusions.active(agent, config)
	errors := array.flatten([
		shape.document_errors(input_doc),
		shape.agent_errors(doc),
		stages.input_errors(doc, config),
		shape.list_errors(doc, "declared"),
		shape.length_errors(doc, "declared", shape.max_declared),
		declared.errors(declarations, records),
		layers.errors(doc, raw_layers, groups),
		paths.workspace_errors(doc),
		configuration.errors(configuration.raw),
		configuration.unicode_errors,
		stages.request_config_errors(doc, subject, config),
	])
	workspace := paths.workspace(doc, configuration.sensitive_paths(config))
	actions := stages.action_policy(subject, config)
	path_arguments := configuration.path_arguments(config)
	index := declared.index(declarations, records)
	resolved_exclusions := layers.resolve(active, index)
	resolved_layers := layers.resolve(compiled_layers, index)
	tools := {name: tool(name, record, resolved_exclusions, resolved_layers, checks_args(workspace, path_arguments, actions, name)) |
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
	"checks_args": checks,
}

# A call of this tool has arguments to check: there is a workspace and
# the configuration names path arguments of the tool, or the agent is in
# read-only mode and the tool is a shell tool whose action is checked.
checks_args(workspace, path_arguments, actions, name) if {
	workspace != null
	count(object.get(path_arguments, name, {})) > 0
} else if {
	actions != null
	actions.tools[name]
} else := false

# METADATA
# title: effective
# description: |
#   The sorted declared names (as declared) that exclusions and layers let
#   execute; none when there is any error.
effective(errors, tools) := [] if {
	count(errors) > 0
} else := sort([t.name | some t in tools; not t.refusal])
