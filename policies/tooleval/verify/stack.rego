# What a request's verdicts depend on. tooleval verify decides many requests over one set of declared tools.
# The name-level verdict of every declared tool (data.tooleval.tools) is
# a function of the request's compiled context: its errors and its
# compiled checks (the exclusions that apply, then every stage and
# layer: tooleval.context.compile) and the declared tools; a call's
# decision also on the action policy. Requests with the same stack over
# the same declared tools and calls get the same verdicts and
# decisions, so verify asks once per distinct stack.
package tooleval.verify

import data.tooleval.context

# METADATA
# description: |
#   The stack of a decision input: {errors, checks, actions} of its
#   compiled context (actions: the read-only action policy its calls'
#   arguments meet), its declared tools left out (verify declares the same tools
#   in every request); {"errors": ["undefined"]} when it has none, a
#   stack no other request shares.
stack(doc) := {"errors": ctx.errors, "checks": ctx.checks, "actions": ctx.actions} if {
	is_object(doc)
	ctx := context.compile(object.remove(doc, ["declared"]))
} else := {"errors": ["undefined"], "doc": doc}

# METADATA
# description: |
#   The stack of each decision input of docs, in order (an array; [] for
#   anything else): one evaluation for many requests, which read the
#   configuration once.
stacks(docs) := [stack(doc) | some doc in docs] if is_array(docs)

else := []
