package tooleval.stages_test

import data.tooleval
import data.tooleval.configuration
import data.tooleval.context

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

# request is the decision input of one call of name, with the request
# fields of req over the shared catalog.
request(req, name) := object.union(
	{"declared": catalog, "calls": [{"id": "c", "name": name, "args": object.get(req, "args", {})}]},
	object.remove(req, ["args"]),
)

# decide is the decision for one call of name, with the request fields
# of req and the configuration overlay conf over the shipped one.
decide(conf, req, name) := d if {
	d := tooleval.decision with input as request(req, name) with data.tooleval.config as configuration.overlay(data.tooleval.config, conf)
}

# verdict is "allowed", or [reason, layer] of a refusal.
verdict(conf, req, name) := verdicts([[conf, req, name]])[0]

# verdicts are the verdicts of cases [conf, req, name], in order. The
# cases of one overlay are decided under one `with`, so that the policy
# prepares each configuration once (as an engine does), through
# tooleval.decide on the compiled context: what tooleval.decision is
# for a request it can compile, and every case here is one.
verdicts(cases) := [results[i] | some i, _ in cases] if {
	results := object.union_n([_verdicts_under(conf, cases) | some conf in {c[0] | some c in cases}])
}

_verdicts_under(conf, cases) := vs if {
	vs := {i: _verdict(doc) |
		some i, [c, req, name] in cases
		c == conf
		doc := request(req, name)
	} with data.tooleval.config as configuration.overlay(data.tooleval.config, conf)
}

_verdict(doc) := v if {
	d := tooleval.decide(context.compile(doc), doc).decisions[0]
	v := _verdict_of(d)
}

_verdict_of(d) := "allowed" if {
	d.allowed == true
} else := [d.reason, d.layer]

# codes are the [code, field] of every error tooleval check reports for
# the configuration overlay and the request.
codes(conf, req) := [[e.code, e.field] | some e in check(conf, req).errors]

check(conf, req) := c if {
	c := tooleval.check with input as req with data.tooleval.config as configuration.overlay(data.tooleval.config, conf)
}
