package tooleval.verify_test

import data.tooleval
import data.tooleval.verify

declared := [
	{"name": "read_file"},
	{"name": "gateway"},
	{"name": "agent"},
	{"name": "sessions_spawn"},
	{"name": "mcp__github__read_issue", "mcp": {"server": "github", "tool": "read_issue"}},
	{"name": "Read_File"},
]

requests := [
	{"agent": {"role": "main", "depth": 0}},
	{"agent": {"role": "subagent", "depth": 1}, "layers": [{"name": "l", "allow": ["read_file"], "ask": ["agent"]}]},
	{"agent": {"role": "fork", "depth": 5}},
	{"agent": {"role": "subagent", "depth": "x"}},
	{"tenant": "nobody"},
	7,
]

# Each catalog is the tools document of the request with the tools
# declared (the declared tools here collide: every request has errors).
test_catalogs_are_the_tools_documents if {
	got := verify.catalogs with input as {"declared": declared, "requests": requests}
	count(got) == count(requests)
	every i, r in requests {
		got[i].tools == tooleval.tools.tools with input as _declaring(r, declared)
	}
}

# Without a collision, the same.
test_catalogs_without_errors if {
	tools := array.slice(declared, 0, 5)
	got := verify.catalogs with input as {"declared": tools, "requests": requests}
	every i, r in requests {
		want := tooleval.tools with input as _declaring(r, tools)
		got[i].tools == want.tools
		_has_errors(got[i]) == _has_errors(want)
	}
}

test_catalogs_of_nothing if {
	verify.catalogs == [] with input as {"declared": declared}
}

_declaring(r, tools) := object.union(r, {"declared": tools}) if is_object(r)

else := {"declared": tools, "agent": 7}

default _has_errors(_) := false

_has_errors(doc) if count(doc.errors) > 0
