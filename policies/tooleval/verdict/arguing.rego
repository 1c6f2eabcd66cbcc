# The argument rules of a catalog: which argument rules decide the calls
# of each tool of a catalog (the conditional tools of tooleval.catalog).
# A tool whose calls depend on their arguments has one name-level state,
# conditional, with the rules that decide them.
package tooleval.verdict

import data.tooleval.checks
import data.tooleval.pattern

# METADATA
# description: |
#   The argument rules in force for every tool of a catalog (tools:
#   canonical name to record, see tooleval.declared), keyed by canonical
#   name, for the tools some rule is asked of: in the order of the arguing
#   checks (compiled.arguing), each check's deny, then allow, then ask
#   rules, each {layer, list, source, rule, reads}: the check's name, the
#   list, where the entry is (config.tools.deny[0], layers[1].allow[2]),
#   the entry as written and the reading its condition looks at. A deny
#   or ask rule is asked of every call of a tool it names; an allow rule
#   only when its check's allow list does not also name the tool outright
#   (tooleval.arguments.conditional_allow). A check that exempts the tool
#   asks nothing of it.
tool_argument_rules(compiled, tools) := {name: rules |
	some name in {name | some by_tool in matched; some name, _ in by_tool}
	rules := [object.remove(rule, {"tools"}) |
		some k, c in arguing
		not checks.exempt(c, tools[name])
		some rule in object.get(matched[k], name, [])
	]
	count(rules) > 0
} if {
	arguing := object.get(compiled, "arguing", [])
	matched := [_rules_by_tool(c, tools) | some c in arguing]
}

# The argument rules of check c keyed by the tools of the catalog they
# are asked of: each rule's tool entry is matched against the whole
# catalog once.
_rules_by_tool(c, tools) := {name: [r | some r in rules; r.tools[name]] |
	some r0 in rules
	some name in r0.tools
} if {
	outright := pattern.matched(c.arguments.names, tools)
	rules := array.flatten([
		[_rule_asked(c, "deny", rule, pattern.matched(rule.tool, tools)) | some rule in c.arguments.deny],
		[_rule_asked(c, "allow", rule, pattern.matched(rule.tool, tools) - outright) | some rule in c.arguments.allow],
		[_rule_asked(c, "ask", rule, pattern.matched(rule.tool, tools)) | some rule in c.arguments.ask],
	])
}

_rule_asked(c, list, rule, names) := {
	"layer": c.name,
	"list": list,
	"source": sprintf("%s.%s[%d]", [c.arguments.source, list, rule.index]),
	"rule": rule.entry,
	"reads": rule.reads,
	"tools": names,
}
