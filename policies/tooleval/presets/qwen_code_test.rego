# The qwen_code preset against Qwen Code 0.24.4 (QwenLM/qwen-code, commit
# 9674d6efdc, and the test files named in each row). "tooleval" marks
# where the preset is deliberately stricter (docs/presets.md, qwen_code:
# not modeled).
package tooleval.presets_test

qw := {"preset": "qwen_code"}

qw_with(extra) := object.union(qw, extra)

qw_tools := [
	"read_file", "write_file", "edit", "glob", "grep_search", "list_directory", "run_shell_command", "monitor",
	"agent", "task", "todo_write", "task_stop", "send_message", "task_update", "enter_plan_mode", "exit_plan_mode",
	"record_source", "ask_user_question", "cron_create", "workflow", "web_fetch", "notebook_edit", "zoom_image",
	["foo.bar", "evil"], ["github", "create_issue"], ["slack", "post_message"], ["markitdown", "convert_to_markdown"],
]

qw_call(agent, name) := request(agent, qw_tools, name, {})

# A Qwen agent definition's disallowedTools, as the agent_definition stage.
qw_disallowed(deny, agent, name) := [
	qw_with({"agents": {"worker": {"builtin": true, "disallowed_tools": deny}}}),
	object.union(qw_call(object.union(agent, {"name": "worker"}), name), {}),
]

qw_deny(deny, name) := object.union(qw_call(main_agent, name), {"layers": [{"name": "policy", "deny": deny}]})

qw_allow(allow, name) := object.union(qw_call(main_agent, name), {"layers": [{"name": "policy", "allow": allow}]})

mcp_disallowed := "packages/core/src/agents/runtime/agent-core.mcp-disallowed.test.ts"

rule_parser := "packages/core/src/permissions/rule-parser.test.ts"

agent_core := "packages/core/src/agents/runtime/agent-core.test.ts"

permission_manager := "packages/core/src/permissions/permission-manager.test.ts"

grant_ambiguity := "packages/core/src/permissions/mcp-grant-ambiguity.test.ts"

server_collision := "packages/core/src/permissions/mcp-server-rule-collision.test.ts"

# Two servers claim the provider-safe spelling foo_bar.
claimants_call(name) := request(main_agent, [["foo_bar", "get_x"], ["foo.bar", "get_y"]], name, {})

with_layer(req, lists) := object.union(req, {"layers": [object.union({"name": "policy"}, lists)]})

# The foo.bar server's tool registers as mcp__foo_bar__evil (sanitized).
evil := mcp_name("foo.bar", "evil")

qwen_rows := [
	# MCP deny spellings (raw and provider-safe) on the foo.bar server.
	[
		mcp_disallowed,
		"blocks the raw MCP spelling mcp__foo.bar",
		qw_disallowed(["mcp__foo.bar"], subagent(1), evil)[0],
		qw_disallowed(["mcp__foo.bar"], subagent(1), evil)[1],
		["denied", "agent_definition"],
	],
	[
		mcp_disallowed,
		"blocks the raw MCP spelling mcp__foo.bar__*",
		qw_disallowed(["mcp__foo.bar__*"], subagent(1), evil)[0],
		qw_disallowed(["mcp__foo.bar__*"], subagent(1), evil)[1],
		["denied", "agent_definition"],
	],
	[
		mcp_disallowed,
		"also blocks the provider-safe spelling mcp__foo_bar",
		qw_disallowed(["mcp__foo_bar"], subagent(1), evil)[0],
		qw_disallowed(["mcp__foo_bar"], subagent(1), evil)[1],
		["denied", "agent_definition"],
	],
	[
		mcp_disallowed,
		"also blocks the provider-safe spelling mcp__foo_bar__*",
		qw_disallowed(["mcp__foo_bar__*"], subagent(1), evil)[0],
		qw_disallowed(["mcp__foo_bar__*"], subagent(1), evil)[1],
		["denied", "agent_definition"],
	],
	[
		mcp_disallowed,
		"does not block an unrelated provider-safe server spelling",
		qw_disallowed(["mcp__other_server__*"], subagent(1), evil)[0],
		qw_disallowed(["mcp__other_server__*"], subagent(1), evil)[1],
		"allowed",
	],
	# matchesToolPattern.
	[rule_parser, "matchesToolPattern: an exact built-in name", qw, qw_deny(["run_shell_command"], "run_shell_command"), ["denied", "policy"]],
	[rule_parser, "matchesToolPattern: another built-in name", qw, qw_deny(["run_shell_command"], "write_file"), "allowed"],
	[
		rule_parser,
		"matchesToolPattern: an exact MCP tool name",
		qw,
		qw_deny(["mcp__github__create_issue"], "mcp__github__create_issue"),
		["denied", "policy"],
	],
	[rule_parser, "matchesToolPattern: a server-level MCP pattern", qw, qw_deny(["mcp__github"], "mcp__github__create_issue"), ["denied", "policy"]],
	[rule_parser, "matchesToolPattern: an MCP server wildcard", qw, qw_deny(["mcp__github__*"], "mcp__github__create_issue"), ["denied", "policy"]],
	[rule_parser, "matchesToolPattern: another MCP server", qw, qw_deny(["mcp__slack"], "mcp__github__create_issue"), "allowed"],
	# tooleval: P* in a deny list is a prefix on built-ins (Qwen compares them exactly).
	[
		rule_parser,
		"does not treat a pattern-shaped entry as a pattern for a built-in tool (tooleval: deny prefix)",
		qw,
		qw_deny(["run_*"], "run_shell_command"),
		["denied", "policy"],
	],
	# Identity-based MCP matching (#10199, main after 0.24.4).
	[
		server_collision,
		"does not match a foo_bar tool against a server-level foo.bar rule",
		qw,
		object.union(request(main_agent, [["foo_bar", "evil"]], "mcp__foo_bar__evil", {}), {"layers": [{"name": "policy", "deny": ["mcp__foo.bar"]}]}),
		"allowed",
	],
	[
		server_collision,
		"does not match a foo_bar tool against a wildcard foo.bar rule",
		qw,
		object.union(request(main_agent, [["foo_bar", "evil"]], "mcp__foo_bar__evil", {}), {"layers": [{"name": "policy", "deny": ["mcp__foo.bar__*"]}]}),
		"allowed",
	],
	[
		server_collision,
		"does not match a foo_bar tool against an allow of foo.bar",
		qw,
		object.union(request(main_agent, [["foo_bar", "evil"]], "mcp__foo_bar__evil", {}), {"layers": [{"name": "policy", "allow": ["mcp__foo.bar__*"]}]}),
		["not_allowed", "policy"],
	],
	[server_collision, "keeps the documented match-all MCP forms working", qw, qw_deny(["mcp__*"], evil), ["denied", "policy"]],
	[
		grant_ambiguity,
		"keeps the raw foo_bar grant from reaching foo.bar",
		qw,
		with_layer(claimants_call(mcp_name("foo.bar", "get_y")), {"allow": ["mcp__foo_bar__*"]}),
		["not_allowed", "policy"],
	],
	[
		grant_ambiguity,
		"keeps the raw foo_bar grant for foo_bar itself",
		qw,
		with_layer(claimants_call("mcp__foo_bar__get_x"), {"allow": ["mcp__foo_bar__*"]}),
		"allowed",
	],
	[
		grant_ambiguity,
		"retains deny coverage for every claimant",
		qw,
		with_layer(claimants_call(mcp_name("foo.bar", "get_y")), {"deny": ["mcp__foo_bar"]}),
		["denied", "policy"],
	],
	[
		grant_ambiguity,
		"keeps a whole-server wildcard from the nested key",
		qw,
		with_layer(request(main_agent, [["foo", "deploy"], ["foo__bar", "deploy"]], "mcp__foo__bar__deploy", {}), {"allow": ["mcp__foo__*"]}),
		["not_allowed", "policy"],
	],
	# Sub-agent exclusions (EXCLUDED_TOOLS_FOR_SUBAGENTS and ask_user_question).
	[
		agent_core,
		"exposes worker task_stop only to contained agents (container=false)",
		qw,
		qw_call(subagent(1), "task_stop"),
		["excluded", "subagent_hard_deny"],
	],
	[
		agent_core,
		"excludes parent-owned record_source from a reused registry in a subagent",
		qw,
		qw_call(subagent(1), "record_source"),
		["excluded", "subagent_hard_deny"],
	],
	[
		agent_core,
		"excludes plan lifecycle tools from wildcard/default subagent tools",
		qw,
		qw_call(subagent(1), "enter_plan_mode"),
		["excluded", "subagent_hard_deny"],
	],
	[
		agent_core,
		"does not re-enable plan lifecycle tools via explicit tool names",
		qw_with({"agents": {"worker": {"tools": ["read_file", "exit_plan_mode"]}}}),
		qw_call({"role": "subagent", "depth": 1, "name": "worker"}, "exit_plan_mode"),
		["excluded", "subagent_hard_deny"],
	],
	[
		agent_core,
		"filters inline declarations using the full subagent exclusion floor: send_message",
		qw,
		qw_call(subagent(1), "send_message"),
		["excluded", "subagent_hard_deny"],
	],
	[
		agent_core,
		"filters inline declarations using the full subagent exclusion floor: task_update",
		qw,
		qw_call(subagent(1), "task_update"),
		["excluded", "subagent_hard_deny"],
	],
	[
		"packages/core/src/subagents/subagent-manager.ts",
		"ask_user_question is never available to a sub-agent",
		qw,
		qw_call(subagent(1), "ask_user_question"),
		["excluded", "subagent_hard_deny"],
	],
	[
		"packages/core/src/agents/runtime/subagent-plan-tool-policy.ts",
		"EXCLUDED_TOOLS_FOR_SUBAGENTS: cron_create",
		qw,
		qw_call(subagent(1), "cron_create"),
		["excluded", "subagent_hard_deny"],
	],
	[
		"packages/core/src/agents/runtime/subagent-plan-tool-policy.ts",
		"EXCLUDED_TOOLS_FOR_SUBAGENTS: workflow",
		qw,
		qw_call(fork, "workflow"),
		["excluded", "subagent_hard_deny"],
	],
	[
		"packages/core/src/agents/runtime/subagent-plan-tool-policy.ts",
		"EXCLUDED_TOOLS_FOR_SUBAGENTS: todo_write",
		qw,
		qw_call(fork, "todo_write"),
		["excluded", "subagent_hard_deny"],
	],
	[agent_core, "a sub-agent keeps read_file", qw, qw_call(subagent(1), "read_file"), "allowed"],
	# tooleval: teammates lose the coordination tools too (Qwen's teammates keep them).
	[
		agent_core,
		"keeps teammate coordination tools (tooleval: excluded for every sub-agent)",
		qw,
		qw_call({"role": "subagent", "depth": 1, "teammate": true}, "send_message"),
		["excluded", "subagent_hard_deny"],
	],
	# Nesting: a level-L agent keeps the agent tool iff L+1 <= maxSubagentDepth (max_depth).
	[agent_core, "nesting: includes AgentTool for a shallow subagent when depth permits", qw, qw_call(subagent(1), "agent"), "allowed"],
	[
		agent_core,
		"nesting: excludes AgentTool at the leaf depth",
		qw_with({"max_depth": 2}),
		qw_call(subagent(2), "agent"),
		["excluded", "subagent_depth_cap"],
	],
	[
		agent_core,
		"nesting: maxSubagentDepth=1 reproduces the old no-nesting behavior",
		qw_with({"max_depth": 1}),
		qw_call(subagent(1), "agent"),
		["excluded", "subagent_depth_cap"],
	],
	[agent_core, "nesting: fork execution contexts never receive the AgentTool", qw, qw_call(fork, "agent"), ["excluded", "fork_no_spawn"]],
	[agent_core, "nesting: the legacy task name is the agent tool", qw, qw_call(fork, "task"), ["excluded", "fork_no_spawn"]],
	[
		"packages/core/src/tools/tool-names.ts",
		"ToolNamesMigration: a call of task reaches the agent tool",
		qw,
		request(fork, ["agent"], "task", {}),
		["excluded", "fork_no_spawn"],
	],
	[
		"packages/core/src/tools/tool-names.ts",
		"ToolNamesMigration: a call of replace reaches edit",
		qw,
		request(main_agent, ["edit"], "replace", {"file_path": "/ws/.ssh/config"}),
		["path", "sensitive"],
	],
	[
		agent_core,
		"nesting: explicit tools list includes AgentTool only when nesting is allowed (max 5)",
		qw_with({"agents": {"worker": {"tools": ["read_file", "agent"]}}}),
		qw_call({"role": "subagent", "depth": 1, "name": "worker"}, "agent"),
		"allowed",
	],
	[
		agent_core,
		"nesting: explicit tools list includes AgentTool only when nesting is allowed (max 1)",
		qw_with({"max_depth": 1, "agents": {"worker": {"tools": ["read_file", "agent"]}}}),
		qw_call({"role": "subagent", "depth": 1, "name": "worker"}, "agent"),
		["excluded", "subagent_depth_cap"],
	],
	# The execution predicate: disallowedTools wins.
	[
		agent_core,
		"folds the per-agent disallowedTools blocklist: mcp__slack__post_message",
		qw_with({"agents": {"lead": {"disallowed_tools": ["mcp__slack", "todo_write"]}}}),
		qw_call({"role": "main", "depth": 0, "name": "lead"}, "mcp__slack__post_message"),
		["denied", "agent_definition"],
	],
	[
		agent_core,
		"folds the per-agent disallowedTools blocklist: mcp__github__create_issue",
		qw_with({"agents": {"lead": {"disallowed_tools": ["mcp__slack", "todo_write"]}}}),
		qw_call({"role": "main", "depth": 0, "name": "lead"}, "mcp__github__create_issue"),
		"allowed",
	],
	[
		agent_core,
		"folds the per-agent disallowedTools blocklist: todo_write",
		qw_with({"agents": {"lead": {"disallowed_tools": ["mcp__slack", "todo_write"]}}}),
		qw_call({"role": "main", "depth": 0, "name": "lead"}, "todo_write"),
		["denied", "agent_definition"],
	],
	[
		agent_core,
		"folds the per-agent disallowedTools blocklist: read_file",
		qw_with({"agents": {"lead": {"disallowed_tools": ["mcp__slack", "todo_write"]}}}),
		qw_call({"role": "main", "depth": 0, "name": "lead"}, "read_file"),
		"allowed",
	],
	[
		agent_core,
		"lets disallowedTools beat the execution allowlist",
		qw_with({"agents": {"lead": {"disallowed_tools": ["mcp__slack"]}}}),
		object.union(
			qw_call({"role": "main", "depth": 0, "name": "lead"}, "mcp__slack__post_message"),
			{"layers": [{"name": "fork", "allow": ["mcp__slack__post_message"]}]},
		),
		["denied", "agent_definition"],
	],
	# Names: legacy names and display names are the same tool in every list.
	[permission_manager, "resolves display-name aliases (Shell)", qw, qw_deny(["Shell"], "run_shell_command"), ["denied", "policy"]],
	[permission_manager, "resolves display-name aliases (Bash)", qw, qw_deny(["Bash"], "run_shell_command"), ["denied", "policy"]],
	[permission_manager, "resolves Read and Edit meta-categories (Read is read_file)", qw, qw_allow(["Read"], "read_file"), "allowed"],
	[permission_manager, "resolves legacy task aliases to agent", qw, qw_deny(["task"], "agent"), ["denied", "policy"]],
	[
		permission_manager,
		"resolves TodoList aliases (incl. legacy TodoWrite) to todo_write",
		qw,
		qw_deny(["TodoWrite"], "todo_write"),
		["denied", "policy"],
	],
	[
		"packages/core/src/tools/tool-names.test.ts",
		"maps a tool name, its display name and legacy aliases to the tool name (replace)",
		qw,
		qw_deny(["replace"], "edit"),
		["denied", "policy"],
	],
	[
		"packages/core/src/tools/tool-names.test.ts",
		"maps a tool name, its display name and legacy aliases to the tool name (SearchFiles)",
		qw,
		qw_deny(["SearchFiles"], "grep_search"),
		["denied", "policy"],
	],
	[permission_manager, "returns unknown names unchanged", qw, qw_deny(["my_mcp_tool"], "read_file"), "allowed"],
	[
		permission_manager,
		"isToolEnabled: deny mcp__markitdown disables its tools",
		qw,
		qw_deny(["mcp__markitdown"], "mcp__markitdown__convert_to_markdown"),
		["denied", "policy"],
	],
	# Meta-categories (toolMatchesRuleToolName in
	# packages/core/src/permissions/rule-parser.ts): a rule naming
	# read_file covers READ_TOOLS, edit covers EDIT_TOOLS, the shell covers
	# monitor. In a deny list tooleval expands them (the preset's
	# deny_families).
	[rule_parser, "toolMatchesRuleToolName: read_file covers grep_search", qw, qw_deny(["Read"], "grep_search"), ["denied", "policy"]],
	[rule_parser, "toolMatchesRuleToolName: read_file covers glob", qw, qw_deny(["ReadFileTool"], "glob"), ["denied", "policy"]],
	[rule_parser, "toolMatchesRuleToolName: read_file covers list_directory", qw, qw_deny(["read_file"], "list_directory"), ["denied", "policy"]],
	[rule_parser, "toolMatchesRuleToolName: read_file covers zoom_image", qw, qw_deny(["Read"], "zoom_image"), ["denied", "policy"]],
	[rule_parser, "toolMatchesRuleToolName: edit covers write_file", qw, qw_deny(["Edit"], "write_file"), ["denied", "policy"]],
	[rule_parser, "toolMatchesRuleToolName: edit covers notebook_edit", qw, qw_deny(["EditTool"], "notebook_edit"), ["denied", "policy"]],
	[rule_parser, "toolMatchesRuleToolName: run_shell_command covers monitor", qw, qw_deny(["Bash"], "monitor"), ["denied", "policy"]],
	[
		rule_parser,
		"toolMatchesRuleToolName: in disallowed_tools too",
		qw_disallowed(["Read"], subagent(1), "glob")[0],
		qw_disallowed(["Read"], subagent(1), "glob")[1],
		["denied", "agent_definition"],
	],
	# tooleval: an allow list does not expand a meta-category (an allow of
	# Read allows read_file only: stricter).
	[rule_parser, "an allow of Read allows read_file only (tooleval: stricter)", qw, qw_allow(["Read"], "glob"), ["not_allowed", "policy"]],
	[rule_parser, "an allow of Read allows read_file", qw, qw_allow(["Read"], "read_file"), "allowed"],
	# Class and display names of TOOL_NAME_ALIASES (rule-parser.ts).
	[rule_parser, "TOOL_NAME_ALIASES: ShellTool", qw, qw_deny(["ShellTool"], "run_shell_command"), ["denied", "policy"]],
	[rule_parser, "TOOL_NAME_ALIASES: WriteFileTool", qw, qw_deny(["WriteFileTool"], "write_file"), ["denied", "policy"]],
	[rule_parser, "TOOL_NAME_ALIASES: AgentTool", qw, qw_deny(["AgentTool"], "agent"), ["denied", "policy"]],
	[rule_parser, "TOOL_NAME_ALIASES: TaskTool (legacy)", qw, qw_deny(["TaskTool"], "agent"), ["denied", "policy"]],
	[rule_parser, "TOOL_NAME_ALIASES: CronCreate", qw, qw_deny(["CronCreate"], "cron_create"), ["denied", "policy"]],
	[
		rule_parser,
		"TOOL_NAME_ALIASES: CronCreate in disallowed_tools",
		qw_disallowed(["CronCreate"], main_agent, "cron_create")[0],
		qw_disallowed(["CronCreate"], main_agent, "cron_create")[1],
		["denied", "agent_definition"],
	],
	# Teammates never spawn (EXCLUDED_TOOLS_FOR_TEAMMATES in
	# subagent-plan-tool-policy.ts has agent).
	[
		"packages/core/src/agents/runtime/subagent-plan-tool-policy.ts",
		"EXCLUDED_TOOLS_FOR_TEAMMATES: agent",
		qw_with({"max_depth": 9}),
		qw_call({"role": "subagent", "depth": 1, "teammate": true}, "agent"),
		["excluded", "teammate_no_spawn"],
	],
	[
		"packages/core/src/agents/runtime/subagent-plan-tool-policy.ts",
		"EXCLUDED_TOOLS_FOR_TEAMMATES: task (the legacy name of agent)",
		qw,
		qw_call({"role": "subagent", "depth": 1, "teammate": true}, "task"),
		["excluded", "teammate_no_spawn"],
	],
]

test_qwen_code_ported_cases if {
	failures(qwen_rows) == []
}

# fork_tools validation (packages/core/src/tools/agent/agent.test.ts and
# fork-subagent.test.ts :: validateForkToolList): [fork_tools, expected
# error codes].
fork_tools_cases := [
	[["read_file", "unknown_exact_tool", "mcp__github", "mcp__*", "mcp__github__*", "mcp__github__read_*"], []],
	[[], []],
	[["read_file", "mcp__*", "mcp__github__read_*"], []],
	[null, ["invalid_list"]],
	["read_file", ["invalid_list"]],
	[[1], ["non_string_entry"]],
	[[" read_file"], ["surrounding_whitespace"]],
	[["  "], ["surrounding_whitespace"]],
	[["*"], ["bare_wildcard"]],
	[["read*"], ["builtin_wildcard_in_allow"]],
	[["read_*"], ["builtin_wildcard_in_allow"]],
	[["mcp__github*"], ["incomplete_mcp_pattern"]],
	[["mcp__*__read"], ["misplaced_wildcard"]],
	[["mcp__github__read*more"], ["misplaced_wildcard"]],
	[["mcp__github__read**"], ["misplaced_wildcard"]],
	[["mcp____*"], ["empty_mcp_server"]],
	[["mcp__github__*__read"], ["misplaced_wildcard"]],
]

test_qwen_code_fork_tools_validation if {
	requests := array.concat(
		[{"subagent_type": "fork", "fork_tools": tools, "declared": [], "agent": main_agent} | some [tools, _] in fork_tools_cases],
		[
			{"subagent_type": "fork", "fork_tools": ["read_file"], "teammate": "worker"},
			{"subagent_type": "researcher", "fork_tools": ["read_file"]},
		],
	)
	wants := array.concat([want | some [_, want] in fork_tools_cases], [["fork_tools_with_teammate"], ["fork_tools_requires_fork"]])
	got := launch_errors_each(qw, requests)
	count(got) == count(wants)
	[[requests[i].fork_tools, got[i], want] | some i, want in wants; got[i] != want] == []
}

# Every path-carrying argument of Qwen Code's file, search and shell tools
# (0.24.4 tool schemas; absolute_path, read_many_files and the legacy tool
# names are older Qwen Code's).
qwen_path_cases := [
	["read_file", "file_path", "read"],
	["read_file", "absolute_path", "read"],
	["zoom_image", "file_path", "read"],
	["display_image", "file_path", "read"],
	["list_directory", "path", "read"],
	["glob", "path", "read"],
	["glob", "pattern", "glob"],
	["grep_search", "path", "read"],
	["search_file_content", "path", "read"],
	["read_many_files", "paths", "globs"],
	["lsp", "filePath", "read"],
	["write_file", "file_path", "write"],
	["edit", "file_path", "write"],
	["replace", "file_path", "write"],
	["notebook_edit", "notebook_path", "write"],
	["run_shell_command", "directory", "write"],
	["monitor", "directory", "write"],
	["agent", "working_dir", "write"],
	["task", "working_dir", "write"],
]

test_qwen_code_path_arguments if {
	path_failures("qwen_code", qwen_path_cases) == []
}
