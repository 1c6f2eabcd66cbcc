# METADATA
# title: Compiled context
# description: |
#   The static part of a decision, computed once from everything but the
#   calls and the run: the configuration, input shape and declaration
#   errors, the declared tools keyed by canonical name, the request's
#   name-level checks compiled (tooleval.checks), the workspace, the path
#   arguments and the read-only action policy. Compiling costs what the
#   request's declarations and lists cost, never declared tools times
#   checks: a one-shot decision then checks only the tools its calls name.
#
#   A session (an engine that keeps the context of one agent across its
#   batches) compiles session instead: the same context plus the finished
#   verdict of every declared tool whose calls have no argument to check
#   and that no name-level check refuses, so that deciding such a call is
#   one look-up, and every declared tool's name-level refusal.
package tooleval.context

import data.tooleval.arguments.paths
import data.tooleval.canonical.canonical_or_null
import data.tooleval.checks
import data.tooleval.configuration
import data.tooleval.declared
import data.tooleval.exclusions
import data.tooleval.layers
import data.tooleval.pattern
import data.tooleval.shape
import data.tooleval.stages
import data.tooleval.subject
import data.tooleval.verdict

# METADATA
# description: |
#   The compiled context of an input document: {errors, tools, checks,
#   workspace, path_arguments, rule_arguments, actions, names, notes}.
#   tools maps each valid declared tool's canonical name to {name, kind,
#   server, tool}; names maps each name that has aliases to all of its
#   canonical names. A call's checks read the configuration from here,
#   never from tooleval.configuration, so that a session's batches do not
#   prepare it again.
compile(input_doc) := {
	"errors": errors,
	"tools": declarations.tools,
	"checks": compiled,
	"workspace": paths.workspace(doc, prepared.sensitive_paths),
	"path_arguments": prepared.path_arguments,
	"rule_arguments": prepared.rule_arguments,
	"actions": stages.action_policy(asking, config),
	"names": prepared.names,
	"notes": checks.notes(compiled),
} if {
	doc := shape.document(input_doc)
	prepared := configuration.prepared
	config := configuration.config
	asking := subject.of(doc, config)
	agent := shape.agent(doc)
	declarations := declared.read(shape.list_field(doc, "declared"), prepared.names)
	raw_layers := layers.inline(doc)
	compiled := checks.checks(
		exclusions.active(agent, prepared),
		array.concat(
			stages.compile(stages.layers(doc, asking, config), prepared.vocabulary),
			layers.compile(raw_layers, prepared.vocabulary),
		),
	)
	errors := array.flatten([
		shape.document_errors(input_doc),
		shape.agent_errors(doc),
		shape.list_errors(doc, "declared"),
		shape.length_errors(doc, "declared", shape.max_declared),
		declarations.errors,
		layers.errors(doc, raw_layers, prepared.vocabulary.groups),
		paths.workspace_errors(doc),
		prepared.errors,
		configuration.unicode_errors,
		stages.request_errors(doc, asking, config),
	])
}

# METADATA
# description: |
#   The compiled context of a session: compile, plus entries, the
#   finished verdict {allowed: true} of every declared tool whose calls
#   have no argument to check and that no name-level check refuses, keyed
#   by its name as declared, and refusals, the name-level refusal
#   ({reason, layer}) of every declared tool that has one, by canonical
#   name (equal refusals are one value, so that a session of many
#   refused tools holds one small object per distinct refusal, not per
#   tool), and path_entries, the path arguments of every declared tool
#   whose only check left is its calls' paths (no name-level check
#   refuses it, no action check applies), keyed by its name as declared,
#   and asks, the first layer that asks a person before a call of each
#   declared tool that one asks for ({layer}, by canonical name); a tool
#   that a layer asks for is in neither entries nor path_entries. A
#   context with errors has none of them.
session(input_doc) := object.union(ctx, {
	"entries": _entries(ctx, not_final),
	"path_entries": _path_entries(ctx, not_final),
	"refusals": _by_every_name(ctx, refusals),
	"asks": _by_every_name(ctx, asks),
}) if {
	ctx := compile(input_doc)
	refusals := _refusals(ctx)
	asks := _asks(ctx)

	# the tools whose verdict is not allow by name, or not by name alone
	not_final := object.union_n([asks, refusals, _argued(ctx)])
}

# Every declared tool that an argument rule of a layer or stage names, by
# canonical name: its calls are decided on their arguments. Undefined if
# a rule's tool cannot be matched, so that the session is (and fails
# closed) rather than answer such a tool's calls from its entries.
_argued(ctx) := {name: true | some names in matched; some name in names} if {
	rules := [rule |
		some c in ctx.checks.arguing
		some list in ["allow", "deny", "ask"]
		some rule in c.arguments[list]
	]
	matched := [pattern.matched(rule.tool, ctx.tools) | some rule in rules]
	count(matched) == count(rules)
}

# by_tool (a value per declared tool, by its canonical name) keyed also
# by every other name a call can reach that tool by under the preset's
# aliases: a call is looked up by its own canonical name, so that
# another name of a refused tool is refused as the tool is.
_by_every_name(ctx, by_tool) := object.union(by_tool, {c: value |
	some c, _ in ctx.names
	not ctx.tools[c]
	tool := verdict.declared_tool(ctx, c)
	tool != null
	value := by_tool[canonical_or_null(tool.name)]
})

# The layer that asks for each declared tool one asks for, by canonical
# name (none under an error).
_asks(ctx) := {} if {
	count(ctx.errors) > 0
} else := verdict.tool_asks(ctx.checks, ctx.tools)

# The name-level refusal of every declared tool, by canonical name (none
# under an error: every call is then refused anyway).
_refusals(ctx) := {} if {
	count(ctx.errors) > 0
} else := _shared(verdict.tool_refusals(ctx.checks, ctx.tools))

# refusals with every refusal equal to another one the same value.
_shared(refusals) := {name: distinct[refusal] | some name, refusal in refusals} if {
	distinct := {refusal: refusal | some refusal in refusals}
}

_entries(ctx, refusals) := {} if {
	count(ctx.errors) > 0
} else := {record.name: _allowed |
	some name, record in ctx.tools
	not refusals[name]
	not _checks_args(ctx, name)
}

_allowed := {"allowed": true, "outcome": "allow"}

# The path arguments of every declared tool whose only check left is its
# calls' paths, by its name as declared (none under an error, none
# without a workspace: then no path is checked).
_path_entries(ctx, refusals) := {} if {
	count(ctx.errors) > 0
} else := {} if {
	ctx.workspace == null
} else := {record.name: path_arguments |
	some name, record in ctx.tools
	not refusals[name]
	path_arguments := ctx.path_arguments[name]
	count(path_arguments) > 0
	not _checks_action(ctx, name)
}

# METADATA
# description: |
#   A call of the declared tool with canonical name name has arguments to
#   check: there is a workspace and the tool has path arguments, or the
#   agent is in read-only mode and the tool is a shell tool.
_checks_args(ctx, name) if {
	ctx.workspace != null
	count(object.get(ctx.path_arguments, name, {})) > 0
}

_checks_args(ctx, name) if _checks_action(ctx, name)

# A call of the declared tool with canonical name name has its action
# checked: the agent is in read-only mode and the tool is a shell tool.
_checks_action(ctx, name) if {
	ctx.actions != null
	ctx.actions.tools[name]
}
