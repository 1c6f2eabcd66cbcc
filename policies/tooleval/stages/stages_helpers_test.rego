package tooleval.stages_test

import data.tooleval
import data.tooleval.configuration

# The declared tools of every case: built-ins, MCP tools of two servers
# whose names sanitize alike, and a peer agent.
catalog := [
	{"name": "read_file"},
	{"name": "write_file"},
	{"name": "glob"},
	{"name": "bash"},
	{"name": "browser"},
	{"name": "web_search"},
	{"name": "gateway"},
	{"name": "message"},
	{"name": "refund"},
	{"name": "task_output"},
	{"name": "ask_user"},
	{"name": "send_message"},
	{"name": "agent"},
	{"name": "mcp__github__read_issue", "mcp": {"server": "github", "tool": "read_issue"}},
	{"name": "mcp__github__create_issue", "mcp": {"server": "github", "tool": "create_issue"}},
	{"name": "mcp__foo_bar__run", "mcp": {"server": "foo.bar", "tool": "run"}},
	{"name": "researcher", "agent": true},
]

# decide is the decision for one call of name, with the request fields
# of req and the configuration overlay conf over the shipped one.
decide(conf, req, name) := d if {
	doc := object.union(
		{"declared": catalog, "calls": [{"id": "c", "name": name, "args": object.get(req, "args", {})}]},
		object.remove(req, ["args"]),
	)
	d := tooleval.decision with input as doc with data.tooleval.config as configuration.overlay(data.tooleval.config, conf)
}

# verdict is "allowed", or [reason, layer] of a refusal.
verdict(conf, req, name) := "allowed" if {
	decide(conf, req, name).decisions[0].allowed == true
} else := [d.reason, d.layer] if {
	d := decide(conf, req, name).decisions[0]
}

# codes are the [code, field] of every error tooleval check reports for
# the configuration overlay and the request.
codes(conf, req) := [[e.code, e.field] | some e in check(conf, req).errors]

check(conf, req) := c if {
	c := tooleval.check with input as req with data.tooleval.config as configuration.overlay(data.tooleval.config, conf)
}
