# METADATA
# title: Run budget
# description: |
#   When input.run is present, every call in the batch is an attempt,
#   refused or not: call i (from 0) is attempt attempts + i + 1 and is
#   refused with run_exhausted when that exceeds max_attempts. A run whose
#   refusals have reached max_refusals is spent: every call of its next
#   batch is refused with run_exhausted. The output carries the new totals
#   of attempts and refusals, and exhausted is true when either cap is
#   reached. An absent or null cap is no cap.
package tooleval.budget

import data.tooleval.shape

# METADATA
# description: |
#   input.run as {attempts, refusals, max_attempts, max_refusals}, or null
#   when it is absent. A malformed member is reported by errors; a
#   malformed count reads as 0 and a malformed cap as 0 (reached).
run(doc) := null if {
	not shape.present(doc, "run")
} else := {
	"attempts": count_or_zero(shape.field(r, "attempts", 0)),
	"refusals": count_or_zero(shape.field(r, "refusals", 0)),
	"max_attempts": _cap(r, "max_attempts"),
	"max_refusals": _cap(r, "max_refusals"),
	"valid": count(errors(doc)) == 0,
} if {
	r := shape.field(doc, "run", {})
}

# METADATA
# description: x when it is a whole number at least 0, else 0.
count_or_zero(x) := x if shape.is_count(x)

else := 0

_cap(r, name) := null if {
	not shape.present(r, name)
} else := r[name] if {
	shape.is_count(r[name])
} else := 0

# METADATA
# description: What is wrong with input.run.
errors(doc) := [] if {
	not shape.present(doc, "run")
} else := [shape.problem("invalid_run", "run must be an object", {"field": "run"})] if {
	not is_object(doc.run)
} else := [shape.problem("invalid_run", "must be a whole number at least 0", {"field": sprintf("run.%s", [member])}) |
	some member in ["attempts", "refusals", "max_attempts", "max_refusals"]
	not shape.is_count(shape.field(doc.run, member, 0))
]

# METADATA
# scope: document
# description: |
#   Call i of the batch is refused run_exhausted: it exceeds the attempt
#   cap, or the run's refusals had reached the refusal cap before the
#   batch.
exhausted_at(run, i) if {
	run.max_attempts != null
	(run.attempts + i) + 1 > run.max_attempts
}

exhausted_at(run, _) if refusals_spent(run)

# METADATA
# description: The run's refusals have reached its refusal cap.
refusals_spent(run) if _reached(run.refusals, run.max_refusals)

# METADATA
# description: |
#   How many calls of a batch of n the budget lets go on: call i is
#   exhausted exactly when i >= allowed_attempts(run, n).
allowed_attempts(run, n) := 0 if {
	run != null
	refusals_spent(run)
} else := max([0, run.max_attempts - run.attempts]) if {
	run != null
	run.max_attempts != null
} else := n

# METADATA
# description: The run member of the decision, after a batch of calls of which refused were refused.
totals(run, calls, refused) := {
	"attempts": attempts,
	"refusals": refusals,
	"exhausted": _exhausted(run, attempts, refusals),
} if {
	attempts := run.attempts + calls
	refusals := run.refusals + refused
}

default _exhausted(_, _, _) := false

_exhausted(run, attempts, _) if _reached(attempts, run.max_attempts)

_exhausted(run, _, refusals) if _reached(refusals, run.max_refusals)

# A malformed run is treated as spent.
_exhausted(run, _, _) if not run.valid

_reached(n, limit) if {
	limit != null
	n >= limit
}
