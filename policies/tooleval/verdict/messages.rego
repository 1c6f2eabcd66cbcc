# The messages of refused calls. They tell the model that the call was
# refused and by what; they offer no way to appeal.
package tooleval.verdict

import data.tooleval.arguments
import data.tooleval.arguments.paths
import data.tooleval.budget

# METADATA
# scope: document
# description: |
#   The message of a call refused by the check named check (a row of
#   order), from its facts f and the check's refused outcome o. The
#   name-level checks' messages are name_refusal's.
message("input", f, _) := f.problem

message("config", f, _) := sprintf(
	"tool %q is refused: the request or policy configuration has %d error(s), listed under errors",
	[f.name, f.errors],
)

message("declaration", f, _) := _not_declared_message(f.name, f.canonical, _ambiguous(f.ctx, f.canonical))

message("action", f, o) := _action_message(f.name, o.refusal)

message("paths", f, o) := sprintf("tool %q is not permitted: %s", [f.name, _path_reason(o.refusal.rule, o.refusal)])

message("run", f, _) := _run_exhausted_message(f.name, f.run)

message("arguments", f, o) := sprintf("tool %q is not permitted: %s%s", [
	f.name,
	_argument_reason(o.refusal),
	_note(_notes(f), o.layer),
])

# Why argument rules refuse a call ({layer, list, rule?, rules?,
# readings}): the deny rule that bit (without its exceptions, which
# spared nothing here), or the allow rules the call did not meet, with
# how the argument was read.
_argument_reason(refusal) := sprintf("%s by layer %q's rule %s (%s)", [
	"denied",
	refusal.layer,
	json.marshal(object.remove(refusal.rule.entry, {"unless"})),
	arguments.reading_summary(refusal.readings[refusal.rule.reads]),
]) if {
	refusal.list == "deny"
} else := sprintf("layer %q allows it only on the arguments its rules %s name (%s)", [
	refusal.layer,
	json.marshal([rule.entry | some rule in refusal.rules]),
	concat("; ", {arguments.reading_summary(refusal.readings[rule.reads]) | some rule in refusal.rules}),
])

_not_declared_message(name, null, _) := sprintf("tool %q is refused: its name has no exact canonical form, so it matches no declared tool", [name])

_not_declared_message(name, canonical_name, true) := sprintf(
	"tool %q is refused: more than one declared tool is another name of it under the preset's aliases, so which one it reached would depend on order",
	[name],
) if {
	canonical_name != null
}

_not_declared_message(name, canonical_name, false) := sprintf("tool %q is not declared for this request", [name]) if canonical_name != null

_name_refusal_message(name, refusal, notes) := sprintf(
	"tool %q is not permitted: removed by runtime exclusion %q",
	[name, refusal.layer],
) if {
	refusal.reason == "excluded"
} else := sprintf(
	"tool %q is not permitted: %s by layer %q%s",
	[name, object.get(_verb, refusal.reason, "refused"), refusal.layer, _note(notes, refusal.layer)],
)

_verb := {"denied": "denied"}

# A check's own message, quoted after the refusal.
_note(notes, layer) := sprintf(": %s", [notes[layer]]) if {
	is_string(notes[layer])
} else := ""

# Why a path refusal ({rule, argument, path, pattern?}) refuses, by its
# rule (the first argument, so that only that rule's clauses are read).
_path_reason("unresolved", refusal) := sprintf("argument %q is refused: %s", [refusal.argument, why]) if {
	refusal.pattern
	why := paths.unresolved_pattern_why(refusal.path)
} else := sprintf("argument %q is not an absolute, clean, resolved path: %s", [refusal.argument, why]) if {
	why := paths.unresolved_why(refusal.path)
} else := sprintf("argument %q is not an absolute, clean, resolved path", [refusal.argument])

_path_reason("not_readable", refusal) := sprintf("pattern %q reaches outside the workspace and its read roots", [refusal.path]) if {
	refusal.pattern
} else := sprintf("path %q is outside the workspace and its read roots", [refusal.path])

_path_reason("outside_workspace", refusal) := sprintf("path %q is outside the workspace", [refusal.path])

_path_reason("sensitive", refusal) := sprintf("path %q is in a protected location (.ssh, .aws or .git/hooks)", [refusal.path])

_path_reason("excluded", refusal) := sprintf("path %q is under an excluded workspace path", [refusal.path])

_action_message(name, refusal) := sprintf(
	"tool %q is not permitted: argument %q has no use in action %s, and layer %q allows only calls that observe",
	[name, refusal.argument, json.marshal(refusal.action), refusal.layer],
) if {
	refusal.argument
} else := sprintf(
	"tool %q is not permitted: action %s changes state, and layer %q allows only actions that observe",
	[name, json.marshal(refusal.action), refusal.layer],
)

# Numbers in messages are written as JSON writes them (2, not
# %!d(float64=2); 2.0 stays 2.0).
_run_exhausted_message(name, run) := sprintf(
	"tool %q is not permitted: the run has reached its limit of %s refusals",
	[name, json.marshal(run.max_refusals)],
) if {
	budget.refusals_spent(run)
} else := sprintf(
	"tool %q is not permitted: the run has used all %s of its attempts",
	[name, json.marshal(run.max_attempts)],
)
