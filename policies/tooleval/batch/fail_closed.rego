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
			},
			_fail_closed_refusal,
		) |
			some call in calls
		],
		"errors": _fail_closed_errors,
	},
	_fail_closed_run(doc, count(calls)),
) if {
	doc := shape.document(request)
	calls := shape.list_field(doc, "calls")
}

# METADATA
# description: |
#   fail_closed of a request of n calls, read without its calls (request
#   need not hold them), as over_cap gives a decision: {document,
#   refusal}, the document but its decisions and each call's decision but
#   its id and name.
fail_closed_over_cap(request, n) := {
	"document": object.union({"errors": _fail_closed_errors}, _fail_closed_run(shape.document(request), n)),
	"refusal": _fail_closed_refusal,
}

# The decision of every call of a decision that could not be made, but
# its id and name.
_fail_closed_refusal := object.union({"allowed": false, "outcome": "deny"}, verdict.undecided)

# The errors of a decision that could not be made.
_fail_closed_errors := [shape.problem("internal_error", host.fail_closed_messages.decision, {"field": ""})]

_fail_closed_run(doc, _) := {} if not shape.present(doc, "run")

_fail_closed_run(doc, calls) := {"run": {
	"attempts": budget.count_or_zero(shape.field(doc.run, "attempts", 0)) + calls,
	"refusals": budget.count_or_zero(shape.field(doc.run, "refusals", 0)) + calls,
	"exhausted": true,
}} if {
	shape.present(doc, "run")
}
