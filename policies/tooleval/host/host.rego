# METADATA
# title: The host interface
# description: |
#   Everything a host (the Go engine) reads from the policy besides the
#   documents of its entry points, declared once: the engine evaluates
#   load once when it loads a bundle (engine/host.go) and refuses a
#   bundle whose load or interface is undefined or lacks a member.
#   Nothing here changes a decision; it says what the host may rely on.
package tooleval.host

import data.tooleval.arguments.paths
import data.tooleval.configuration
import data.tooleval.shape

# METADATA
# description: |
#   What the host reads when it loads a bundle, in one evaluation of the
#   deployment's overlay (an object; {} for none): the configuration in
#   force, the overlay merged over data.tooleval.config
#   (configuration.overlay); the configuration prepared from it
#   (configuration.prepared_document), which the host puts in the data
#   as data.tooleval.prepared; and the interface read under it (its path
#   arguments follow the configuration).
load(overlay) := {"config": config, "prepared": prepared, "interface": host} if {
	config := configuration.overlay(data.tooleval.config, overlay)

	# The host evaluates load once, before it serves: these with are not on
	# any decision's path.
	# regal ignore:with-outside-test-context
	prepared := configuration.prepared_document with data.tooleval.config as config

	# regal ignore:with-outside-test-context
	host := interface with data.tooleval.config as config
}

# METADATA
# description: |
#   The host interface, member by member:
#
#   - entry_points: the rules the host evaluates (entry_points below);
#   - max_calls: the largest batch a session may answer from its
#     context's entries (tooleval.shape.max_calls);
#   - path_arguments: which arguments of which tool (canonical name) are
#     paths, and their accesses: what the host resolves
#     (tooleval.configuration.path_arguments_in_force);
#   - patch_headers: the apply_patch lines that name a file, compared in
#     lower case after trimming white space: whose paths the host
#     resolves (tooleval.paths.patch_headers);
#   - fail_closed_messages: the messages of the documents the host
#     returns when it could not evaluate the policy (below);
#   - floor: the layout of data.tooleval.floor a bundle must hold
#     (below).
interface := {
	"entry_points": entry_points,
	"max_calls": shape.max_calls,
	"path_arguments": configuration.path_arguments_in_force,
	"patch_headers": paths.patch_headers,
	"fail_closed_messages": fail_closed_messages,
	"floor": floor_layout,
}

# METADATA
# description: |
#   The rules the host evaluates, by what it does with them. decision,
#   explain, tools, launch, check and mask are documents of the input;
#   session is a function of the static part of a request (the compiled
#   context of a session), decide and catalog functions of a compiled
#   context and a request; verify_space, what tooleval verify
#   enumerates, is evaluated without input; verify_stacks is a function
#   of an array of decision inputs (what the verdicts of each depend on, besides its declared
#   tools), and verify_catalogs a document of the input (the catalogs of
#   many requests over one set of declared tools). hook_request is a
#   function of a runtime's name and its hook payload (the decision
#   input), hook_answer of the runtime, that request and the decision
#   (the runtime's hook output): what tooleval hook and tooleval serve
#   evaluate. over_cap is a function of a request without its calls and
#   their count, decide_over_cap of a compiled context, such a request
#   and the count: the decision of a batch over max_calls, refused
#   without reading its calls (optional: a bundle without them decides
#   such a batch with decision and decide).
entry_points := {
	"decision": "data.tooleval.decision",
	"explain": "data.tooleval.explain",
	"tools": "data.tooleval.tools",
	"launch": "data.tooleval.launch",
	"check": "data.tooleval.check",
	"mask": "data.system.log.mask",
	"session": "data.tooleval.context.session",
	"decide": "data.tooleval.decide",
	"catalog": "data.tooleval.catalog.catalog",
	"verify_space": "data.tooleval.verify.space",
	"verify_stacks": "data.tooleval.verify.stacks",
	"verify_catalogs": "data.tooleval.verify.catalogs",
	"hook_request": "data.tooleval.hooks.request",
	"hook_answer": "data.tooleval.hooks.answer",
	"over_cap": "data.tooleval.over_cap",
	"decide_over_cap": "data.tooleval.decide_over_cap",
}

# METADATA
# description: |
#   The messages of the safety nets, read by the policy's own (a decision,
#   a call, a catalog, a launch, a configuration report that could not be
#   made) and by the host, whose documents for a policy it could not
#   evaluate at all are the policy's safety nets, member for member.
fail_closed_messages := {
	"decision": "the policy could not decide this request; every call is refused",
	"call": "the call is refused: the policy could not decide it",
	"catalog": "the policy could not list this catalog; every tool is refused",
	"launch": "the policy could not validate this launch",
	"check": "the policy could not check this configuration",
}

# METADATA
# description: |
#   The layout of data.tooleval.floor a bundle must hold: an object is a
#   member that is an object holding these members, "entries" a list that
#   must not be empty, "list" a list that may be (the shipped floor's
#   teammate_no_spawn is empty; presets fill it). A floor that lost its
#   lists would silently allow what the runtime excludes, so the host
#   refuses such a bundle.
floor_layout := {
	"exclusions": {
		"subagent_hard_deny": "entries",
		"subagent_depth_cap": "entries",
		"fork_no_spawn": "entries",
		"teammate_no_spawn": "list",
	},
	"sensitive_paths": "entries",
}
