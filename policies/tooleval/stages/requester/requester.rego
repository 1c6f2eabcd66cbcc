# METADATA
# title: Captured requester policy
# description: |
#   The requester_policy and continuation_restricted stages, documented in
#   docs/configuration.md, "Captured requester policy (`requester`,
#   `handoff`, `continuation`)". No preset sets them.
#
#   When settled children resume a requester (after sessions_yield), the
#   runtime sends the handoff:
#
#     input.requester  {session, batch, policy_digest}: the requester session
#                      being resumed, its settled batch, and the digest the
#                      engine recorded when it captured the requester's policy
#                      at spawn (engine.RequesterPolicyDigest)
#     input.handoff    {session, batch, children: [{id, policy}]}: the batch
#                      that settled, and the requester policy ({allow, deny})
#                      each child carries
#
#   The continuation keeps the captured policy (stage requester_policy)
#   only when the handoff belongs to the requester session and its settled
#   batch, and every child carries the same policy, whose digest
#   (sha256 of its JSON encoding) is the recorded one. Otherwise, for a
#   conflicting, missing or unverifiable policy, it runs under the ordinary
#   restricted policy config.continuation.restricted (stage
#   continuation_restricted). Either way the stage is one more layer: the
#   handoff never grants a tool the other layers refuse.
package tooleval.stages.requester

import data.tooleval.configuration.lists
import data.tooleval.configuration.tables
import data.tooleval.configuration.validate
import data.tooleval.pattern
import data.tooleval.shape

_continuation_stage(doc, conf) := [] if {
	not shape.present(doc, "handoff")
} else := [{
	"name": "requester_policy",
	"allow": shape.field(policy, "allow", null),
	"deny": shape.field(policy, "deny", []),
}] if {
	policy := _verified_policy(doc, conf)
} else := [{
	"name": "continuation_restricted",
	"allow": shape.field(shape.field(conf, "continuation", {}), "restricted", []),
	"deny": [],
}]

# METADATA
# description: |
#   The requester policy every child of the handoff carries, when the
#   handoff belongs to the requester's session and settled batch and that
#   policy is well formed and has the recorded digest; else undefined.
_verified_policy(doc, conf) := policy if {
	requester := shape.field(doc, "requester", null)
	is_string(requester.session)
	requester.session != ""
	is_string(requester.batch)
	requester.batch != ""
	is_string(requester.policy_digest)
	handoff := shape.field(doc, "handoff", null)
	handoff.session == requester.session
	handoff.batch == requester.batch
	children := shape.field(handoff, "children", [])
	is_array(children)
	count(children) > 0
	policies := {shape.field(child, "policy", null) | some child in children}
	count(policies) == 1
	some policy in policies
	_well_formed_policy(policy, conf)
	policy_digest(policy) == lower(requester.policy_digest)
}

# METADATA
# description: The digest of a captured policy, the hex sha256 of its JSON encoding (keys sorted, no spaces).
policy_digest(policy) := crypto.sha256(json.marshal(policy))

_well_formed_policy(policy, conf) if {
	is_object(policy)
	_valid_list(shape.field(policy, "allow", null), "allow", conf, true)
	_valid_list(shape.field(policy, "deny", []), "deny", conf, false)
}

_valid_list(null, _, _, true) := true

_valid_list(list, kind, conf, _) if {
	is_array(list)
	count(pattern.list_problems(list, kind, lists.groups(conf))) == 0
}

_continuation_request_errors(doc, conf) := _continuation_config_errors(conf) if {
	shape.present(doc, "handoff")
} else := []

_continuation_config_errors(conf) := array.flatten([
	validate.object_errors(validate.value_at(conf, "continuation"), "config.continuation", true),
	validate.unknown_member_errors(validate.value_at(conf, "continuation"), {"restricted"}, "config.continuation"),
	lists.entries_errors(
		shape.field(shape.field(conf, "continuation", {}), "restricted", []),
		"allow", "config.continuation.restricted", conf, false,
	),
])

# METADATA
# description: The requester_policy or continuation_restricted stage, when the request carries a handoff.
layers(doc, _, conf) := _continuation_stage(doc, conf)

# METADATA
# description: The errors in config.continuation, when the request carries a handoff.
request_errors(doc, _, conf) := _continuation_request_errors(doc, conf)

# METADATA
# description: Every error in config.continuation.
config_errors(conf) := _continuation_config_errors(conf)

# METADATA
# description: |
#   Where the entries of the continuation stages come from, one source per
#   entry (see tooleval.tracing): the requester policy the handoff's
#   children carry, or config.continuation.restricted.
sources(doc, _, conf) := object.union(_requester_policy_sources(doc, conf), {"continuation_restricted": {"allow": tables.indexed_sources(
	"config.continuation.restricted",
	shape.field(shape.field(conf, "continuation", {}), "restricted", []),
)}})

_requester_policy_sources(doc, conf) := {"requester_policy": {
	"allow": tables.indexed_sources("input.handoff.children[0].policy.allow", shape.field(policy, "allow", null)),
	"deny": tables.indexed_sources("input.handoff.children[0].policy.deny", shape.field(policy, "deny", [])),
}} if {
	policy := _verified_policy(doc, conf)
} else := {}
