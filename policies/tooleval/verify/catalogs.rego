# The catalogs of many requests over one set of declared tools, for
# tooleval verify: the declared tools are read once, and each request's
# own context (its errors and checks: tooleval.verify.stack) is compiled
# without them. The catalog of a request is then
# tooleval.catalog.catalog of its context with the declared tools in,
# which is what data.tooleval.tools gives for the request with those
# tools declared (internal/verify's TestSharedStacksDecideAsEachSubjectAlone
# compares them): a catalog reads of its context only the errors (whether
# there are any), the checks and the declared tools.
package tooleval.verify

import data.tooleval.catalog
import data.tooleval.context
import data.tooleval.shape

# METADATA
# description: |
#   For input {"declared": [...], "requests": [...]}, the catalog
#   (data.tooleval.tools) of each request with input.declared declared,
#   in order; [] when input.requests is not an array.
# entrypoint: true
catalogs := [catalog.catalog(_context(doc), _declaring) | some doc in shape.list_field(input, "requests")]

_declaring := {"declared": shape.list_field(input, "declared")}

# The context of the declared tools alone: their records and errors.
_declared_context := context.compile(_declaring)

# A request's context with the declared tools in: their records, and
# the errors of both (the configuration's are in both; a catalog only
# asks whether there are any).
_context(doc) := object.union(_declared_context, {
	"errors": array.concat(_declared_context.errors, own.errors),
	"checks": own.checks,
}) if {
	is_object(doc)
	own := context.compile(object.remove(doc, ["declared"]))
} else := object.union(_declared_context, {"errors": [shape.problem("invalid_input", "a request must be an object", {"field": "requests"})]})
