# METADATA
# title: Tracing a decision (data.tooleval.explain)
# description: |
#   Why each call of a batch was allowed or refused: the decision with a
#   trace per call, every check in evaluation order and what it said,
#   evaluated on the same facts and compiled checks the decision is made
#   from (tooleval.batch.facts, tooleval.verdict). Every check is traced,
#   also after the first refusal, so a reader sees what the other layers
#   said; a check that cannot be evaluated for the call (a layer, when the
#   call reaches no declared tool) is not_applicable.
#
#   The checks are traced in the order of the one table
#   tooleval.verdict.order, each with its outcome there
#   (tooleval.verdict.outcome); a step is {check, name?, list?, outcome,
#   reason?, layer?} plus what this package adds. The name-level checks
#   have a step per compiled check: one per exclusion (named by the
#   exclusion), and one per stage and inline layer for each of its lists
#   (check "stage" or "layer", named by it, list "deny" or "allow").
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

import data.tooleval.arguments
import data.tooleval.batch
import data.tooleval.checks
import data.tooleval.configuration
import data.tooleval.layers
import data.tooleval.pattern
import data.tooleval.shape
import data.tooleval.stages
import data.tooleval.subject
import data.tooleval.verdict

# METADATA
# description: |
#   The decisions of a batch (tooleval.batch.decide for ctx and req), each
#   with its trace: over_cap_trace for a batch over the call cap, whose
#   calls are not read. Undefined when the facts of the calls cannot be
#   read.
traced(ctx, req, decisions) := [object.union(d, {"trace": steps}) | some d in decisions] if {
	calls := req.calls
	is_array(calls)
	count(calls) > shape.max_calls
	steps := over_cap_trace(count(batch.over_cap(ctx, req, count(calls)).document.errors))
} else := [object.union(d, {"trace": traces[i]}) | some i, d in decisions] if {
	facts := batch.facts(ctx, req)
	count(facts) == count(decisions)
	lists := sources(shape.document(req), count(ctx.checks.layers))
	traces := [t |
		some f in facts
		t := call_trace(ctx, lists, f)
		count(t) == (count(configuration.exclusion_names) + (3 * count(ctx.checks.layers))) + 7
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
	"ask": ask,
	"servers": object.get(s, "servers", null),
	"base": base,
	"allow_sources": _entry_sources(object.get(known, "allow", []), base, "allow", allow),
	"deny_sources": _entry_sources(object.get(known, "deny", []), base, "deny", deny),
	"ask_sources": _entry_sources(object.get(known, "ask", []), base, "ask", ask),
	"otherwise_source": sprintf("%s.otherwise", [object.get(s, "source", base)]),
	"allow_list_source": sprintf("%s.allow", [object.get(s, "source", base)]),
} if {
	base := sprintf("stages.%s", [s.name])
	allow := object.get(s, "allow", null)
	deny := object.get(s, "deny", [])
	ask := _array_or_empty(object.get(s, "ask", []))
}

_array_or_empty(x) := x if is_array(x)

else := []

_entry_sources(known, base, list, entries) := known if {
	is_array(entries)
	count(known) == count(entries)
} else := _indexed(base, list, entries)

_layer_lists(i, l) := {
	"kind": "layer",
	"allow": allow,
	"deny": deny,
	"ask": ask,
	"servers": null,
	"base": base,
	"allow_sources": _indexed(base, "allow", allow),
	"deny_sources": _indexed(base, "deny", deny),
	"ask_sources": _indexed(base, "ask", ask),
	"otherwise_source": sprintf("%s.otherwise", [base]),
	"allow_list_source": sprintf("%s.allow", [base]),
} if {
	base := sprintf("layers[%d]", [i])
	allow := shape.field(l, "allow", null)
	deny := shape.field(l, "deny", [])
	ask := shape.field(l, "ask", [])
}

# METADATA
# description: |
#   The trace of a call, from its facts (tooleval.batch.facts): a step
#   per check, in the order of tooleval.verdict.order.
call_trace(ctx, lists, f) := [s |
	some row in verdict.order
	some s in _steps(row.check, ctx, lists, f)
]

_steps("input", _, _, f) := [object.union(_step({"check": "input"}, o), _detail(o, "detail", f.problem))] if {
	o := verdict.outcome("input", null, f)
}

_steps("config", _, _, f) := [object.union(_step({"check": "config"}, o), _detail(o, "errors", f.errors))] if {
	o := verdict.outcome("config", null, f)
}

_steps("declaration", _, _, f) := [object.union(_step({"check": "declaration"}, o), _declared(o, f))] if {
	o := verdict.outcome("declaration", null, f)
}

_steps("exclusion", ctx, lists, f) := [_exclusion_step(ctx, lists, name, f) | some name in configuration.exclusion_names]

_steps("deny", ctx, lists, f) := [_deny_step(k, c, lists.layers[k], f) | some k, c in ctx.checks.layers]

_steps("allow", ctx, lists, f) := [_allow_step(k, c, lists.layers[k], f) | some k, c in ctx.checks.layers]

_steps("action", _, _, f) := [_step({"check": "action", "name": "read_only"}, verdict.outcome("action", null, f))]

_steps("paths", _, _, f) := [_step({"check": "paths"}, verdict.outcome("paths", null, f))]

_steps("arguments", _, _, f) := [object.union(_step({"check": "arguments"}, o), _argument_detail(o, f))] if {
	o := verdict.outcome("arguments", null, f)
}

_steps("run", _, _, f) := [_step({"check": "run"}, verdict.outcome("run", null, f))]

_steps("ask", ctx, lists, f) := [_ask_step(k, c, lists.layers[k], f) | some k, c in ctx.checks.layers]

# A refused arguments step's detail: the list, the rule that bit (its
# entry and source) or the allow rules the call did not meet, and how
# the argument was read; a passed one's, the allow rules the call was
# let through on.
_argument_detail(o, f) := {
	"list": o.refusal.list,
	"entry": o.refusal.rule.entry,
	"source": sprintf("%s.deny[%d]", [o.refusal.source, o.refusal.rule.index]),
	"reading": o.refusal.readings[o.refusal.rule.reads],
} if {
	o.refusal.list == "deny"
} else := {
	"list": o.refusal.list,
	"entries": [rule.entry | some rule in o.refusal.rules],
	"sources": [sprintf("%s.allow[%d]", [o.refusal.source, rule.index]) | some rule in o.refusal.rules],
	"readings": {rule.reads: o.refusal.readings[rule.reads] | some rule in o.refusal.rules},
} if {
	o.refusal.list == "allow"
} else := _permitted_by(f.ctx.checks.arguing, f) if {
	o.outcome == "pass"
} else := {}

# The allow rules of the checks that the call with facts f was let
# through on ({list, entries, sources}), {} when none decided it.
_permitted_by(checks_arguing, f) := {
	"list": "allow",
	"entries": [p.entry | some p in permitted],
	"sources": [p.source | some p in permitted],
} if {
	permitted := [p | some c in checks_arguing; some p in _permitting(c, f)]
	count(permitted) > 0
} else := {}

# The allow rules of check c the call with facts f meets, each {entry,
# source}; [] when c lets its tool through whatever its arguments.
_permitting(c, f) := [{"entry": rule.entry, "source": sprintf("%s.allow[%d]", [c.arguments.source, rule.index])} |
	some rule in arguments.permitting_rules(rules, verdict.call_readings(f))
] if {
	not checks.exempt(c, f.tool)
	rules := arguments.conditional_allow(c.arguments, f.canonical, f.tool)
} else := []

# A step: what it is (check, name, list) and the outcome, with the
# reason, layer and rule of a refusal.
_step(what, o) := object.union(what, object.filter(o, {"outcome", "reason", "layer", "rule"}))

# A refused step's detail: key is value.
_detail(o, key, value) := {key: value} if {
	o.outcome == "refused"
} else := {}

_declared(o, f) := {"tool": f.tool.name} if {
	o.outcome == "pass"
} else := {}

# An exclusion that does not apply to this agent is not among the
# compiled checks: it is not_applicable.
_exclusion_step(ctx, lists, name, f) := object.union(
	_step({"check": "exclusion", "name": name}, o),
	_hits(o, lists.exclusions[name].entries, lists.exclusions[name].sources, "deny", f),
) if {
	some k, c in ctx.checks.exclusions
	c.name == name
	o := verdict.outcome("exclusion", k, f)
} else := {"check": "exclusion", "name": name, "outcome": "not_applicable"}

_deny_step(k, c, l, f) := object.union(_step(what, o), _hits(o, l.deny, l.deny_sources, "deny", f)) if {
	what := {"check": l.kind, "name": c.name, "list": "deny"}
	o := verdict.outcome("deny", k, f)
}

_allow_step(k, c, l, f) := object.union(_step(what, o), _allow_attribution(o, c, l, f)) if {
	what := {"check": l.kind, "name": c.name, "list": "allow"}
	o := verdict.outcome("allow", k, f)
}

_ask_step(k, c, l, f) := object.union(_step(what, o), _asked_by(o, l, f)) if {
	what := {"check": l.kind, "name": c.name, "list": "ask"}
	o := verdict.outcome("ask", k, f)
}

# The entry of an ask list that matched, with its source: the argument
# rule that bit, with the reading it bit on, or the first name entry
# that matched.
_asked_by(o, l, f) := {"entry": l.ask[o.ask_rule], "source": l.ask_sources[o.ask_rule], "reading": o.reading} if {
	o.outcome == "ask"
	is_number(o.ask_rule)
} else := {"source": l.otherwise_source, "entries": [rule.entry | some rule in o.otherwise_rules], "readings": o.readings} if {
	o.outcome == "ask"
	o.otherwise_rules
} else := hit if {
	o.outcome == "ask"
	hit := _first_hit(l.ask, l.ask_sources, "deny", f)
	hit != {}
} else := {"source": l.otherwise_source} if {
	# asked because the allow list does not let the tool through
	o.outcome == "ask"
} else := {}

# The entry that matched a refused deny list, with its source.
_hits(o, entries, entry_sources, kind, f) := _first_hit(entries, entry_sources, kind, f) if {
	o.outcome == "refused"
} else := {}

# The allow list a refusal comes from, or the entry that let the tool
# through.
_allow_attribution(o, c, l, f) := {"source": _allow_source(l)} if {
	o.outcome == "refused"
} else := _allowed_by(c, l, f) if {
	o.outcome == "pass"
} else := {}

_allow_source(l) := sprintf("%s.servers", [l.base]) if {
	l.servers != null
} else := l.allow_list_source

# The allow entry that let the tool through, with its source: a name
# entry, else the argument rules of the list the call meets (entries
# and sources: the arguments step decides on them), else every rule of
# the list for its tool (the call meets none: the arguments step refuses
# it).
_allowed_by(c, l, f) := _first_server(l, f) if {
	l.servers != null
} else := hit if {
	hit := _first_hit([e | some e in l.allow; not is_object(e)], [s | some j, s in l.allow_sources; not is_object(l.allow[j])], "allow", f)
	hit != {}
} else := {"entries": [p.entry | some p in permitted], "sources": [p.source | some p in permitted]} if {
	permitted := _permitting(c, f)
	count(permitted) > 0
} else := {"entries": [h.entry | some h in hits], "sources": [h.source | some h in hits]} if {
	hits := [h |
		some j, entry in l.allow
		is_object(entry)
		some h in _entry_hits(entry, l.allow_sources[j], "allow", configuration.prepared.vocabulary, f)
	]
	count(hits) > 0
} else := {}

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
	# an allow list's argument rule lets its tool through by name (the
	# arguments step says what its condition said)
	is_object(entry)
	kind == "allow"
	pattern.matches(pattern.compile([entry.tool], kind, vocabulary), f.canonical, f.tool)
} else := [] if {
	# a deny or ask list's argument rule never matches by name alone
	is_object(entry)
} else := [{"entry": entry, "source": source}] if {
	not pattern.group_name(entry)
	pattern.matches(pattern.compile([entry], kind, vocabulary), f.canonical, f.tool)
} else := [{"entry": entry, "source": source, "member": member, "member_source": sprintf("groups.%s[%d]", [group, m])} |
	group := pattern.group_name(entry)
	some m, member in pattern.kind_groups(vocabulary, kind)[group]
	pattern.matches(pattern.compile([member], kind, vocabulary), f.canonical, f.tool)
]

# METADATA
# description: |
#   The trace of every call of a batch over the call cap
#   (tooleval.batch.over_cap), whose request and batch have errors
#   errors: the config check alone, refused, the one check such a batch
#   asks (none of its calls is read, so no other check is).
over_cap_trace(errors) := [object.union(_step({"check": "config"}, o), _detail(o, "errors", errors))] if {
	o := verdict.outcome("config", null, {"errors": errors})
}

# METADATA
# description: |
#   The fallback trace of a call whose checks could not be traced (the
#   decision itself then refuses it).
untraced := [{"check": "policy", "outcome": "refused", "reason": "invalid_config", "layer": "config"}]
