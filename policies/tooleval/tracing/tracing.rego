# METADATA
# title: Tracing a decision (data.tooleval.explain)
# description: |
#   Why each call of a batch was allowed or refused: the decision with a
#   trace per call, every check in evaluation order and what it said,
#   evaluated on the same facts and compiled checks the decision is made
#   from (tooleval.batch.facts, tooleval.checks). Every check is traced,
#   also after the first refusal, so a reader sees what the other layers
#   said; a check that cannot be evaluated for the call (a layer, when the
#   call reaches no declared tool) is not_applicable.
#
#   | check       | name            | refused with (reason, layer)          |
#   | input       |                 | invalid_input, input                  |
#   | config      |                 | invalid_config, config                |
#   | declaration |                 | not_declared, declaration             |
#   | exclusion   | the exclusion's | excluded, its name                    |
#   | stage       | the stage's     | denied (list deny), its name          |
#   | layer       | the layer's     | denied (list deny), its name          |
#   | stage       | the stage's     | not_allowed (list allow), its name    |
#   | layer       | the layer's     | not_allowed (list allow), its name    |
#   | action      | read_only       | not_allowed, read_only                |
#   | paths       |                 | path, workspace (with rule)           |
#   | run         |                 | run_exhausted, run                    |
#
#   Every stage's and layer's deny list is checked before any allow list
#   (a deny anywhere wins), so each stage and layer has two steps, one per
#   list. outcome is pass, refused, exempt (a stage lets that kind of tool
#   through untouched) or not_applicable (an allow list that states
#   nothing, a check that does not apply to this agent). A deny entry that matched, or the
#   allow entry that let the tool through, is given with where it came
#   from: layers[2].deny[0], stages.tenant.allow[4],
#   floor.exclusions.subagent_hard_deny[3], config.exclusions.NAME[i], and
#   for a group's member also the group and the member's index
#   (groups.NAME[i]). The first refused step of a trace has the reason and
#   layer of the call's decision.
package tooleval.tracing

import data.tooleval.batch
import data.tooleval.checks
import data.tooleval.configuration
import data.tooleval.layers
import data.tooleval.pattern
import data.tooleval.shape
import data.tooleval.stages
import data.tooleval.subject

# METADATA
# description: |
#   The decisions of a batch (tooleval.batch.decide for ctx and req), each
#   with its trace. Undefined when the facts of the calls cannot be read.
traced(ctx, req, decisions) := [object.union(d, {"trace": traces[i]}) | some i, d in decisions] if {
	facts := batch.facts(ctx, req)
	count(facts) == count(decisions)
	lists := sources(shape.document(req), count(ctx.checks.layers))
	traces := [t |
		some f in facts
		t := call_trace(ctx, lists, f)
		count(t) == (count(configuration.exclusion_names) + (2 * count(ctx.checks.layers))) + 6
	]
	count(traces) == count(decisions)
}

# METADATA
# description: |
#   The lists behind the compiled checks, with where each came from, in
#   the order of ctx.checks: {exclusions: name -> {entries, sources},
#   layers: [{kind, allow, deny, servers, base}]} (stages, then the
#   inline layers). Undefined when they do not line up with the checks.
sources(doc, compiled) := {
	"exclusions": {name: {
		"entries": configuration.exclusion_entries(conf, name),
		"sources": configuration.exclusion_entry_sources(conf, name),
	} |
		some name in configuration.exclusion_names
	},
	"layers": array.concat(
		[_stage_lists(s, object.get(stage_sources, s.name, {})) | some s in stage_list],
		[_layer_lists(i, l) | some i, l in layers.inline(doc)],
	),
} if {
	conf := configuration.config
	asking := subject.of(doc, conf)
	stage_list := stages.layers(doc, asking, conf)
	stage_sources := _stage_sources(doc, asking, conf)
	count(stage_list) + count(layers.inline(doc)) == compiled
}

# The sources of the stages' entries; none (each entry is then named by
# its place in its stage) if they cannot be read.
_stage_sources(doc, s, conf) := x if {
	x := stages.sources(doc, s, conf)
} else := {}

# A stage's lists, with the sources of their entries: where the
# configuration says (tooleval.stages.sources) when that names each
# entry, else the entry's place in the stage (stages.NAME.allow[i]).
_stage_lists(s, known) := {
	"kind": "stage",
	"allow": allow,
	"deny": deny,
	"servers": object.get(s, "servers", null),
	"base": base,
	"allow_sources": _entry_sources(object.get(known, "allow", []), base, "allow", allow),
	"deny_sources": _entry_sources(object.get(known, "deny", []), base, "deny", deny),
} if {
	base := sprintf("stages.%s", [s.name])
	allow := object.get(s, "allow", null)
	deny := object.get(s, "deny", [])
}

_entry_sources(known, base, list, entries) := known if {
	is_array(entries)
	count(known) == count(entries)
} else := _indexed(base, list, entries)

_layer_lists(i, l) := {
	"kind": "layer",
	"allow": allow,
	"deny": deny,
	"servers": null,
	"base": base,
	"allow_sources": _indexed(base, "allow", allow),
	"deny_sources": _indexed(base, "deny", deny),
} if {
	base := sprintf("layers[%d]", [i])
	allow := shape.field(l, "allow", null)
	deny := shape.field(l, "deny", [])
}

# METADATA
# description: The trace of the i-th call, from its facts (tooleval.batch.facts).
call_trace(ctx, lists, f) := array.flatten([
	_input_step(f),
	_config_step(f),
	_declaration_step(f),
	[_exclusion_step(ctx, lists, name, f) | some name in configuration.exclusion_names],
	[_deny_step(c, lists.layers[k], f) | some k, c in ctx.checks.layers],
	[_allow_step(c, lists.layers[k], f) | some k, c in ctx.checks.layers],
	_action_step(ctx, f),
	_paths_step(ctx, f),
	_run_step(f),
])

_input_step(f) := {"check": "input", "outcome": "pass"} if {
	f.problem == null
} else := {"check": "input", "outcome": "refused", "reason": "invalid_input", "layer": "input", "detail": f.problem}

_config_step(f) := {"check": "config", "outcome": "pass"} if {
	f.errors == 0
} else := {"check": "config", "outcome": "refused", "reason": "invalid_config", "layer": "config", "errors": f.errors}

_declaration_step(f) := {"check": "declaration", "outcome": "not_applicable"} if {
	not is_string(f.name)
} else := {"check": "declaration", "outcome": "refused", "reason": "not_declared", "layer": "declaration"} if {
	f.tool == null
} else := {"check": "declaration", "outcome": "pass", "tool": f.tool.name}

_exclusion_step(_, _, name, f) := {"check": "exclusion", "name": name, "outcome": "not_applicable"} if {
	f.tool == null
}

_exclusion_step(ctx, lists, name, f) := step if {
	f.tool != null
	some c in ctx.checks.exclusions
	c.name == name
	step := _exclusion_verdict(c, lists.exclusions[name], f)
}

_exclusion_step(ctx, _, name, f) := {"check": "exclusion", "name": name, "outcome": "not_applicable"} if {
	f.tool != null
	not name in {c.name | some c in ctx.checks.exclusions}
}

_exclusion_verdict(c, list, f) := object.union(
	{"check": "exclusion", "name": c.name, "outcome": "refused", "reason": "excluded", "layer": c.name},
	_first_hit(list.entries, list.sources, "deny", f),
) if {
	pattern.matches(c.deny, f.canonical, f.tool)
} else := {"check": "exclusion", "name": c.name, "outcome": "pass"}

_deny_step(c, l, f) := {"check": l.kind, "name": c.name, "list": "deny", "outcome": "not_applicable"} if {
	f.tool == null
} else := {"check": l.kind, "name": c.name, "list": "deny", "outcome": "exempt"} if {
	checks.exempt(c, f.tool)
} else := object.union(
	{"check": l.kind, "name": c.name, "list": "deny", "outcome": "refused", "reason": "denied", "layer": c.name},
	_first_hit(l.deny, l.deny_sources, "deny", f),
) if {
	pattern.matches(c.deny, f.canonical, f.tool)
} else := {"check": l.kind, "name": c.name, "list": "deny", "outcome": "pass"}

_allow_step(c, l, f) := {"check": l.kind, "name": c.name, "list": "allow", "outcome": "not_applicable"} if {
	f.tool == null
} else := {"check": l.kind, "name": c.name, "list": "allow", "outcome": "not_applicable"} if {
	c.allow == null
} else := {"check": l.kind, "name": c.name, "list": "allow", "outcome": "exempt"} if {
	checks.exempt(c, f.tool)
} else := {
	"check": l.kind, "name": c.name, "list": "allow", "outcome": "refused", "reason": "not_allowed", "layer": c.name,
	"source": _allow_source(l),
} if {
	not pattern.matches(c.allow, f.canonical, f.tool)
} else := object.union({"check": l.kind, "name": c.name, "list": "allow", "outcome": "pass"}, _allowed_by(l, f))

_allow_source(l) := sprintf("%s.servers", [l.base]) if {
	l.servers != null
} else := sprintf("%s.allow", [l.base])

# The allow entry that let the tool through, with its source.
_allowed_by(l, f) := _first_server(l, f) if {
	l.servers != null
} else := _first_hit(l.allow, l.allow_sources, "allow", f)

_first_server(l, f) := hits[0] if {
	f.tool.kind == "mcp"
	hits := [{"entry": server, "source": sprintf("%s.servers", [l.base])} |
		some server in l.servers
		f.tool.server == server
	]
	count(hits) > 0
} else := {}

_indexed(base, list, entries) := [sprintf("%s.%s[%d]", [base, list, j]) | some j, _ in entries]

# The first entry of a list that matches the call's tool, with its
# source; for a group, the first of its members that does. {} when none
# does on its own (which a matching list rules out).
_first_hit(entries, entry_sources, kind, f) := hits[0] if {
	vocabulary := configuration.prepared.vocabulary
	hits := [hit |
		some j, entry in entries
		some hit in _entry_hits(entry, entry_sources[j], kind, vocabulary, f)
	]
	count(hits) > 0
} else := {}

_entry_hits(entry, source, kind, vocabulary, f) := [{"entry": entry, "source": source}] if {
	not pattern.group_name(entry)
	pattern.matches(pattern.compile([entry], kind, vocabulary), f.canonical, f.tool)
} else := [{"entry": entry, "source": source, "member": member, "member_source": sprintf("groups.%s[%d]", [group, m])} |
	group := pattern.group_name(entry)
	some m, member in pattern.kind_groups(vocabulary, kind)[group]
	pattern.matches(pattern.compile([member], kind, vocabulary), f.canonical, f.tool)
]

_action_step(ctx, f) := {"check": "action", "name": "read_only", "outcome": "refused", "reason": "not_allowed", "layer": f.action.layer} if {
	f.action != null
} else := {"check": "action", "name": "read_only", "outcome": "pass"} if {
	f.tool != null
	ctx.actions != null
	ctx.actions.tools[f.canonical]
} else := {"check": "action", "name": "read_only", "outcome": "not_applicable"}

_paths_step(ctx, f) := {"check": "paths", "outcome": "not_applicable"} if {
	f.tool == null
} else := {"check": "paths", "outcome": "not_applicable"} if {
	ctx.workspace == null
} else := {"check": "paths", "outcome": "refused", "reason": "path", "layer": "workspace", "rule": f.path.rule} if {
	f.path != null
} else := {"check": "paths", "outcome": "pass"}

_run_step(f) := {"check": "run", "outcome": "not_applicable"} if {
	f.run == null
} else := {"check": "run", "outcome": "refused", "reason": "run_exhausted", "layer": "run"} if {
	f.exhausted == true
} else := {"check": "run", "outcome": "pass"}

# METADATA
# description: |
#   The fallback trace of a call whose checks could not be traced (the
#   decision itself then refuses it).
untraced := [{"check": "policy", "outcome": "refused", "reason": "invalid_config", "layer": "config"}]
