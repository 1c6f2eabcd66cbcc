package tooleval.context_test

import data.tooleval
import data.tooleval_test

declared := [
	{"name": "read_file"},
	{"name": "write_file"},
	{"name": "read_issue"},
	{"name": "gateway"},
	{"name": "sessions_spawn"},
	{"name": "agent"},
	{"name": "conversations_list"},
	{"name": "Refund"},
	{"name": "mcp__github__read_issue", "mcp": {"server": "github", "tool": "read_issue"}},
	{"name": "mcp__github__create_issue", "mcp": {"server": "github", "tool": "create_issue"}},
	{"name": "researcher", "agent": true},
]

subagent(depth) := {"role": "subagent", "depth": depth}

# A session's context (finished verdicts for plain calls) and the one-shot
# context decide alike.
test_session_context_decides_like_the_one_shot if {
	every doc in array.concat(tooleval_test.odd_inputs, session_inputs) {
		one_shot := tooleval.decision with input as doc
		session := tooleval.decide(tooleval.context.session(doc), doc)
		one_shot == session
	}
}

session_inputs := [
	{
		"agent": subagent(1),
		"declared": declared,
		"layers": [{"name": "tenant", "allow": ["read_file", "gateway", "mcp__github__*"], "deny": ["write_file"]}],
		"calls": [
			{"id": "1", "name": "read_file"},
			{"id": "2", "name": "gateway"},
			{"id": "3", "name": "write_file"},
			{"id": "4", "name": "READ_FILE"},
			{"id": "5", "name": "nope"},
			{"id": "6", "name": "mcp__github__read_issue"},
			{"id": "1", "name": "read_file"},
		],
	},
	{
		"declared": declared,
		"workspace": {"root": "/ws"},
		"calls": [{"id": "1", "name": "read_file", "args": {"path": "/etc/x"}}, {"id": "2", "name": "Refund"}],
		"run": {"attempts": 1, "max_attempts": 2},
	},
	{
		"declared": declared,
		"calls": [{"id": "1", "name": "read_file"}],
		"run": {"refusals": 3, "max_refusals": 3},
	},
	path_batch,
	object.union(path_batch, {"run": {"attempts": 2, "max_attempts": 4}}),
	object.union(path_batch, {"agent": {"read_only": true}, "declared": array.concat(declared, [{"name": "run_shell_command"}])}),
]

# Every way a path call of a session's path_entries can go, and the
# spellings and shapes that must take the general way.
path_batch := {
	"declared": declared,
	"workspace": {"root": "/ws", "read_roots": ["/skills"], "excluded": ["target"]},
	"layers": [{"name": "tenant", "deny": ["gateway"]}],
	"calls": [
		{"id": "1", "name": "read_file", "args": {"path": "/ws/a.go"}},
		{"id": "2", "name": "read_file", "args": {"path": "/skills/s.md"}},
		{"id": "3", "name": "read_file", "args": {"path": "/etc/passwd"}},
		{"id": "4", "name": "write_file", "args": {"path": "/skills/s.md"}},
		{"id": "5", "name": "write_file", "args": {"path": "/ws/.ssh/id"}},
		{"id": "6", "name": "write_file", "args": {"path": "/ws/target/x"}},
		{"id": "7", "name": "write_file", "args": {"path": "a/../b"}},
		{"id": "8", "name": "write_file", "args": {"path": 7}},
		{"id": "9", "name": "write_file", "args": {}},
		{"id": "10", "name": "write_file", "args": "/ws/x"},
		{"id": "11", "name": "write_file"},
		{"id": "12", "name": "Write_File", "args": {"path": "/etc/x"}},
		{"id": "13", "name": "write_file", "args": {"path": "/ws/x", "content": "y"}, "extra": true},
		{"id": "14", "name": "run_shell_command", "args": {"command": "rm -rf /"}},
	],
}

test_huge_declared_name_is_an_error if {
	name := concat("", ["x" | some _ in numbers.range(1, 300)])
	d := tooleval.decision with input as {"declared": [{"name": name}], "calls": [{"id": "x", "name": name}]}
	d.errors[0].code == "uncanonicalizable_name"
	d.decisions[0].reason == "invalid_config"
}

# A session's entries hold the tools that no name-level check refuses and
# whose calls have no argument to check; refusals hold every refused tool,
# equal refusals as one value.
test_session_entries_and_refusals if {
	ctx := tooleval.context.session({
		"declared": declared,
		"workspace": {"root": "/ws"},
		"layers": [{"name": "tenant", "allow": ["read_file", "write_file", "gateway", "mcp__github__*"], "deny": ["write_file"]}],
	})
	ctx.entries == {
		"gateway": {"allowed": true, "outcome": "allow"},
		"mcp__github__read_issue": {"allowed": true, "outcome": "allow"},
		"mcp__github__create_issue": {"allowed": true, "outcome": "allow"},
	}
	ctx.refusals.write_file == {"reason": "denied", "layer": "tenant"}
	ctx.refusals.refund == {"reason": "not_allowed", "layer": "tenant"}
	ctx.refusals.agent == ctx.refusals.refund
	not ctx.refusals.read_file
	count(ctx.refusals) == count(declared) - 4
}

test_session_context_with_errors_has_no_entries if {
	ctx := tooleval.context.session({"declared": [{"name": 7}], "workspace": {"root": "/ws"}})
	count(ctx.errors) > 0
	ctx.entries == {}
	ctx.path_entries == {}
	ctx.refusals == {}
}

# A session's path_entries hold, by the name as declared, the path
# arguments of the tools whose only check left is their paths: not a
# refused tool, not a tool without path arguments, not a shell tool of a
# read-only agent, and none without a workspace.
test_session_path_entries if {
	doc := {
		"declared": array.concat(declared, [{"name": "Edit"}, {"name": "run_shell_command"}]),
		"workspace": {"root": "/ws"},
		"layers": [{"name": "tenant", "deny": ["write_file"]}],
	}
	tooleval.context.session(doc).path_entries == {
		"read_file": {"path": {"read": true}},
		"Edit": {"path": {"write": true}},
		"run_shell_command": {"cwd": {"write": true}},
	}

	# read-only: Edit is refused, the shell tool's action is checked
	read_only := object.union(doc, {"agent": {"read_only": true}})
	tooleval.context.session(read_only).path_entries == {"read_file": {"path": {"read": true}}}

	tooleval.context.session(object.remove(doc, ["workspace"])).path_entries == {}
}

# Under a preset's aliases, a call of another name of a declared tool is
# judged as that tool: a session refuses it (or asks) exactly as a
# one-shot decision does, whatever name the refusal's layer wrote.
test_a_session_judges_another_name_as_its_tool if {
	every list in [{"deny": ["exec"]}, {"deny": ["bash"]}, {"ask": ["exec"]}, {"ask": ["bash"]}, {"allow": ["read_file"]}] {
		doc := {
			"declared": [{"name": "exec"}, {"name": "read_file"}, {"name": "apply_patch"}],
			"layers": [object.union({"name": "tenant"}, list)],
			"calls": [{"id": "1", "name": "bash"}, {"id": "2", "name": "exec"}, {"id": "3", "name": "apply-patch"}],
		}
		one_shot := tooleval.decision with input as doc with data.tooleval.config.preset as "openclaw"
		session := tooleval.decide(tooleval.context.session(doc), doc) with data.tooleval.config.preset as "openclaw"
		one_shot == session
		one_shot.decisions[0].outcome == one_shot.decisions[1].outcome # bash is exec
		one_shot.decisions[0].outcome != "allow"
	}
}
