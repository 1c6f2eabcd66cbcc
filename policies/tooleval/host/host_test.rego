package tooleval.host_test

import data.tooleval.configuration
import data.tooleval.host

# The interface has every member the host reads, each of the kind it
# reads; a member missing makes the host refuse the bundle.
test_interface_members if {
	object.keys(host.interface) == {"entry_points", "max_calls", "path_arguments", "patch_headers", "fail_closed_messages", "floor"}
	is_number(host.interface.max_calls)
	host.interface.max_calls == floor(host.interface.max_calls)
	host.interface.max_calls > 0
	is_object(host.interface.path_arguments)
	count(host.interface.patch_headers) > 0
	every h in host.interface.patch_headers {
		is_string(h)
	}
	every _, p in host.interface.entry_points {
		startswith(p, "data.")
	}
	every _, m in host.interface.fail_closed_messages {
		is_string(m)
		m != ""
	}
}

# Without an overlay, load reads the bundle as it is: its configuration,
# that configuration prepared, and the interface.
test_load_without_an_overlay_is_the_bundles if {
	loaded := host.load({})
	loaded.config == data.tooleval.config
	loaded.prepared == configuration.prepared_document
	loaded.interface == host.interface
}

# load merges the overlay over the bundle's configuration and prepares,
# and reads the interface, under the merged configuration.
test_load_reads_everything_under_the_overlay if {
	overlay := {"preset": "claude_code", "agents": {"explore": {"builtin": true}}}
	loaded := host.load(overlay)
	loaded.config == configuration.overlay(data.tooleval.config, overlay)
	loaded.config.agents.explore.builtin
	loaded.prepared == configuration.prepared_document with data.tooleval.config as loaded.config
	loaded.prepared != configuration.prepared_document
	loaded.interface.path_arguments.read.file_path.read
	loaded.interface == host.interface with data.tooleval.config as loaded.config
}

# The path arguments the host resolves are the configuration's in force,
# a preset's included.
test_path_arguments_follow_the_configuration if {
	host.interface.path_arguments == configuration.path_arguments_in_force
	path_arguments := host.interface.path_arguments with data.tooleval.config.preset as "claude_code"
	path_arguments.read.file_path.read
}

# The floor's layout names every runtime exclusion the policy checks.
test_floor_names_every_exclusion if {
	object.keys(host.floor_layout.exclusions) == {name | some name in configuration.exclusion_names}
	every _, kind in host.floor_layout.exclusions {
		kind in {"entries", "list"}
	}
}

# The shipped floor holds the layout.
test_shipped_floor_holds_the_layout if {
	every name, kind in host.floor_layout.exclusions {
		_holds(data.tooleval.floor.exclusions[name], kind)
	}
	_holds(data.tooleval.floor.sensitive_paths, host.floor_layout.sensitive_paths)
}

_holds(value, "list") if is_array(value)

_holds(value, "entries") if {
	is_array(value)
	count(value) > 0
}

# Every safety net of the policy says what the host would say.
test_safety_nets_read_the_messages if {
	request := {"calls": [{"id": "a", "name": "x"}], "declared": [{"name": "x"}]}
	decision := data.tooleval.batch.fail_closed(request)
	decision.errors[0].message == host.fail_closed_messages.decision
	decision.decisions[0].message == host.fail_closed_messages.call
	data.tooleval.catalog.fail_closed(request).errors[0].message == host.fail_closed_messages.catalog
	data.tooleval.forks.failed_launch.errors[0].message == host.fail_closed_messages.launch
}

# An undecidable decision and an unmakeable configuration report carry
# the host's messages too.
test_entry_points_fall_back_to_the_messages if {
	d := data.tooleval.decision with data.tooleval.batch.decide as {"decisions": [], "errors": []}
		with input as {"calls": [{"id": "a", "name": "x"}]}
	d.decisions[0].message == host.fail_closed_messages.call
	c := data.tooleval.check with data.tooleval.context.compile as {}
	c.errors[0].message == host.fail_closed_messages.check
}
