# The safety net under the decision: should the decision ever be
# undefined or miss a call (a defect, not an input), every call is refused.
package tooleval.batch

import data.tooleval.budget
import data.tooleval.host
import data.tooleval.shape
import data.tooleval.verdict

# METADATA
# description: A decision document that refuses every call of the request, with an internal_error.
fail_closed(request) := object.union(
	{
		"decisions": [object.union(
			{
				"id": shape.field(call, "id", null),
				"name": shape.field(call, "name", null),
				"allowed": false,
				"outcome": "deny",
			},
			verdict.undecided,
		) |
			some call in calls
		],
		"errors": [shape.problem("internal_error", host.fail_closed_messages.decision, {"field": ""})],
	},
	_fail_closed_run(doc, count(calls)),
) if {
	doc := shape.document(request)
	calls := shape.list_field(doc, "calls")
}

_fail_closed_run(doc, _) := {} if not shape.present(doc, "run")

_fail_closed_run(doc, calls) := {"run": {
	"attempts": budget.count_or_zero(shape.field(doc.run, "attempts", 0)) + calls,
	"refusals": budget.count_or_zero(shape.field(doc.run, "refusals", 0)) + calls,
	"exhausted": true,
}} if {
	shape.present(doc, "run")
}
