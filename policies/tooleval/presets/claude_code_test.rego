# The claude_code preset against Claude Code's public documentation
# (2.1.240, pages as of 2026-08-22); Claude Code is closed source, so each
# row cites the documentation page it comes from. "tooleval" marks where
# the preset is deliberately stricter (docs/presets.md, claude_code).
package tooleval.presets_test

cc := {"preset": "claude_code"}

cc_with(extra) := object.union(cc, extra)

cc_tools := [
	"Read", "Write", "Edit", "Glob", "Grep", "Bash", "Agent", "Task", "AskUserQuestion", "EndConversation",
	"EnterPlanMode", "ExitPlanMode", "ScheduleWakeup", "TaskOutput", "BashOutput", "WaitForMcpServers", "Workflow",
	"TaskStop", "KillShell", "SendMessage", "Monitor", "LSP", "TaskCreate", "CronCreate", "CronList", "NotebookEdit",
	["github", "create_issue"], ["github", "get_issue"], ["slack", "post"], ["puppeteer", "navigate"],
]

cc_call(agent, name) := request(agent, cc_tools, name, {})

# A sub-agent named worker with the given definition.
cc_defined(definition, agent, name) := [
	cc_with({"agents": {"worker": definition}}),
	cc_call(object.union(agent, {"name": "worker"}), name),
]

cc_deny(deny, name) := object.union(cc_call(main_agent, name), {"layers": [{"name": "settings", "deny": deny}]})

cc_allow(allow, name) := object.union(cc_call(main_agent, name), {"layers": [{"name": "settings", "allow": allow}]})

sub_agents := "https://code.claude.com/docs/en/sub-agents"

permissions := "https://code.claude.com/docs/en/permissions"

tools_reference := "https://code.claude.com/docs/en/tools-reference"

sdk_typescript := "https://code.claude.com/docs/en/agent-sdk/typescript"

background := {"role": "subagent", "depth": 1, "async": true}

teammate := {"role": "subagent", "depth": 1, "async": true, "teammate": true}

read_only_agent := {"tools": ["Read", "Grep", "Glob", "Bash"]}

claude_rows := [
	[
		sub_agents,
		"tools: Read, Grep, Glob, Bash: the subagent can't edit files",
		cc_defined(read_only_agent, subagent(1), "Edit")[0],
		cc_defined(read_only_agent, subagent(1), "Edit")[1],
		["not_allowed", "agent_definition"],
	],
	[
		sub_agents,
		"tools: Read, Grep, Glob, Bash: the subagent can't use any MCP tools",
		cc_defined(read_only_agent, subagent(1), "mcp__github__create_issue")[0],
		cc_defined(read_only_agent, subagent(1), "mcp__github__create_issue")[1],
		["not_allowed", "agent_definition"],
	],
	[
		sub_agents,
		"tools: Read, Grep, Glob, Bash: Read is available",
		cc_defined(read_only_agent, subagent(1), "Read")[0],
		cc_defined(read_only_agent, subagent(1), "Read")[1],
		"allowed",
	],
	[
		sub_agents,
		"disallowedTools: Write, Edit: Bash stays",
		cc_defined({"disallowed_tools": ["Write", "Edit"]}, subagent(1), "Bash")[0],
		cc_defined({"disallowed_tools": ["Write", "Edit"]}, subagent(1), "Bash")[1],
		"allowed",
	],
	[
		sub_agents,
		"disallowedTools: Write, Edit: MCP tools stay",
		cc_defined({"disallowed_tools": ["Write", "Edit"]}, subagent(1), "mcp__github__create_issue")[0],
		cc_defined({"disallowed_tools": ["Write", "Edit"]}, subagent(1), "mcp__github__create_issue")[1],
		"allowed",
	],
	[
		sub_agents,
		"disallowedTools: Write, Edit: Write is removed",
		cc_defined({"disallowed_tools": ["Write", "Edit"]}, subagent(1), "Write")[0],
		cc_defined({"disallowed_tools": ["Write", "Edit"]}, subagent(1), "Write")[1],
		["denied", "agent_definition"],
	],
	[
		tools_reference,
		"both set: disallowedTools takes precedence",
		cc_defined({"tools": ["Read", "Edit"], "disallowed_tools": ["Edit"]}, subagent(1), "Edit")[0],
		cc_defined({"tools": ["Read", "Edit"], "disallowed_tools": ["Edit"]}, subagent(1), "Edit")[1],
		["denied", "agent_definition"],
	],
	[
		sub_agents,
		"disallowedTools: mcp__github removes every tool of the server",
		cc_defined({"disallowed_tools": ["mcp__github"]}, subagent(1), "mcp__github__create_issue")[0],
		cc_defined({"disallowed_tools": ["mcp__github"]}, subagent(1), "mcp__github__create_issue")[1],
		["denied", "agent_definition"],
	],
	[
		sub_agents,
		"disallowedTools: mcp__github leaves other servers",
		cc_defined({"disallowed_tools": ["mcp__github"]}, subagent(1), "mcp__slack__post")[0],
		cc_defined({"disallowed_tools": ["mcp__github"]}, subagent(1), "mcp__slack__post")[1],
		"allowed",
	],
	[
		sub_agents,
		"in disallowedTools, mcp__* removes every MCP tool",
		cc_defined({"disallowed_tools": ["mcp__*"]}, subagent(1), "mcp__slack__post")[0],
		cc_defined({"disallowed_tools": ["mcp__*"]}, subagent(1), "mcp__slack__post")[1],
		["denied", "agent_definition"],
	],
	[
		sub_agents,
		"tools: mcp__github__* grants every tool from the named server",
		cc_defined({"tools": ["mcp__github__*"]}, subagent(1), "mcp__github__get_issue")[0],
		cc_defined({"tools": ["mcp__github__*"]}, subagent(1), "mcp__github__get_issue")[1],
		"allowed",
	],
	[
		sub_agents,
		"tools: mcp__github__* grants no other server",
		cc_defined({"tools": ["mcp__github__*"]}, subagent(1), "mcp__slack__post")[0],
		cc_defined({"tools": ["mcp__github__*"]}, subagent(1), "mcp__slack__post")[1],
		["not_allowed", "agent_definition"],
	],
	# Filter 1: never available to a subagent, even when listed in tools.
	[
		sub_agents,
		"AskUserQuestion is withheld even when listed in tools",
		cc_defined({"tools": ["AskUserQuestion", "Read"]}, subagent(1), "AskUserQuestion")[0],
		cc_defined({"tools": ["AskUserQuestion", "Read"]}, subagent(1), "AskUserQuestion")[1],
		["excluded", "subagent_hard_deny"],
	],
	[sub_agents, "EndConversation is withheld from subagents", cc, cc_call(subagent(1), "EndConversation"), ["excluded", "subagent_hard_deny"]],
	[sub_agents, "EnterPlanMode is withheld from subagents", cc, cc_call(subagent(1), "EnterPlanMode"), ["excluded", "subagent_hard_deny"]],
	[sub_agents, "ScheduleWakeup is withheld from subagents", cc, cc_call(subagent(2), "ScheduleWakeup"), ["excluded", "subagent_hard_deny"]],
	[sub_agents, "TaskOutput is withheld from subagents", cc, cc_call(subagent(1), "TaskOutput"), ["excluded", "subagent_hard_deny"]],
	[sdk_typescript, "BashOutput is an alias of TaskOutput", cc, cc_call(subagent(1), "BashOutput"), ["excluded", "subagent_hard_deny"]],
	[sub_agents, "WaitForMcpServers is withheld from subagents", cc, cc_call(subagent(1), "WaitForMcpServers"), ["excluded", "subagent_hard_deny"]],
	[sub_agents, "Workflow is withheld from subagents", cc, cc_call(subagent(1), "Workflow"), ["excluded", "subagent_hard_deny"]],
	# tooleval: ExitPlanMode is withheld even in plan mode; forks lose filter 1 too.
	[
		sub_agents,
		"ExitPlanMode, unless the subagent's permissionMode is plan (tooleval: always)",
		cc,
		cc_call(subagent(1), "ExitPlanMode"),
		["excluded", "subagent_hard_deny"],
	],
	[
		sub_agents,
		"forks receive the main conversation's exact tool pool (tooleval: filter 1 applies)",
		cc,
		cc_call(fork, "AskUserQuestion"),
		["excluded", "subagent_hard_deny"],
	],
	[sub_agents, "TaskStop is available to subagents", cc, cc_call(subagent(1), "TaskStop"), "allowed"],
	[sdk_typescript, "KillShell is an alias of TaskStop", cc, cc_deny(["TaskStop"], "KillShell"), ["denied", "settings"]],
	# Filter 2: background subagents.
	[sub_agents, "background subagents keep TaskStop", cc, cc_call(background, "TaskStop"), "allowed"],
	[sub_agents, "background subagents keep SendMessage", cc, cc_call(background, "SendMessage"), "allowed"],
	[sub_agents, "background subagents keep Monitor", cc, cc_call(background, "Monitor"), "allowed"],
	[sub_agents, "background subagents keep every MCP tool", cc, cc_call(background, "mcp__slack__post"), "allowed"],
	[sub_agents, "background subagents lose LSP", cc, cc_call(background, "LSP"), ["not_allowed", "async_agents"]],
	[sub_agents, "background subagents lose TaskCreate", cc, cc_call(background, "TaskCreate"), ["not_allowed", "async_agents"]],
	[
		sub_agents,
		"background subagents lose CronCreate even when listed in tools",
		cc_defined({"tools": ["CronCreate", "Read"]}, background, "CronCreate")[0],
		cc_defined({"tools": ["CronCreate", "Read"]}, background, "CronCreate")[1],
		["not_allowed", "async_agents"],
	],
	[sub_agents, "teammates additionally keep TaskCreate", cc, cc_call(teammate, "TaskCreate"), "allowed"],
	[sub_agents, "teammates additionally keep CronList", cc, cc_call(teammate, "CronList"), "allowed"],
	# Nesting: three layers by default (CLAUDE_CODE_MAX_SUBAGENT_SPAWN_DEPTH).
	[
		sub_agents,
		"by default a subagent can spawn subagents, up to three layers below the main conversation (depth 1)",
		cc,
		cc_call(subagent(1), "Agent"),
		"allowed",
	],
	[
		sub_agents,
		"by default a subagent can spawn subagents, up to three layers below the main conversation (depth 2)",
		cc,
		cc_call(subagent(2), "Agent"),
		"allowed",
	],
	[sub_agents, "at the depth limit, Claude Code withholds the Agent tool", cc, cc_call(subagent(3), "Agent"), ["excluded", "subagent_depth_cap"]],
	[sub_agents, "Task is the Agent tool's older name", cc, cc_call(subagent(3), "Task"), ["excluded", "subagent_depth_cap"]],
	[
		sub_agents,
		"Set CLAUDE_CODE_MAX_SUBAGENT_SPAWN_DEPTH=1 to turn nesting off",
		cc_with({"max_depth": 1}),
		cc_call(subagent(1), "Agent"),
		["excluded", "subagent_depth_cap"],
	],
	[
		sub_agents,
		"a preset's depth only lowers the configuration's",
		cc_with({"max_depth": 9}),
		cc_call(subagent(3), "Agent"),
		["excluded", "subagent_depth_cap"],
	],
	# tooleval: a fork cannot spawn at all ("A fork can't spawn further forks").
	[sub_agents, "A fork can't spawn further forks (tooleval: no Agent for forks)", cc, cc_call(fork, "Agent"), ["excluded", "fork_no_spawn"]],
	# Permission rules.
	[permissions, "deny Agent removes the tool", cc, cc_deny(["Agent"], "Agent"), ["denied", "settings"]],
	[sub_agents, "Existing Task(...) references still work as aliases", cc, cc_deny(["Task"], "Agent"), ["denied", "settings"]],
	[sub_agents, "Task and Agent are one tool whatever the model calls it", cc, cc_deny(["Agent"], "Task"), ["denied", "settings"]],
	[
		permissions,
		"mcp__puppeteer__* matches all tools from the puppeteer server",
		cc,
		cc_allow(["mcp__puppeteer__*"], "mcp__puppeteer__navigate"),
		"allowed",
	],
	[permissions, "deny mcp__* removes every MCP tool", cc, cc_deny(["mcp__*"], "mcp__github__get_issue"), ["denied", "settings"]],
	[permissions, "deny mcp__github matches any tool of the server", cc, cc_deny(["mcp__github"], "mcp__github__get_issue"), ["denied", "settings"]],
	[permissions, "allow mcp__github__get_* matches get_issue", cc, cc_allow(["mcp__github__get_*"], "mcp__github__get_issue"), "allowed"],
	[
		permissions,
		"allow mcp__github__get_* does not match create_issue",
		cc,
		cc_allow(["mcp__github__get_*"], "mcp__github__create_issue"),
		["not_allowed", "settings"],
	],
	# tooleval: a bare mcp__S grants nothing in an allow list (tooleval check warns).
	[
		permissions,
		"mcp__puppeteer matches any tool provided by the puppeteer server (tooleval: not in an allow list)",
		cc,
		cc_allow(["mcp__puppeteer"], "mcp__puppeteer__navigate"),
		["not_allowed", "settings"],
	],
]

test_claude_code_ported_cases if {
	failures(claude_rows) == []
}

# Every path-carrying input field of Claude Code's file, search and shell
# tools (hooks and Agent SDK tool input types; LS, NotebookRead and
# MultiEdit are older tools; Bash publishes no working-directory field,
# so cwd is checked if it is ever sent). Glob's pattern is a glob pattern;
# LSP publishes no input type in the Agent SDK, and its filePath (the
# member Qwen Code's lsp uses) is checked if it is ever sent.
claude_path_cases := [
	["Read", "file_path", "read"],
	["Write", "file_path", "write"],
	["Edit", "file_path", "write"],
	["MultiEdit", "file_path", "write"],
	["NotebookEdit", "notebook_path", "write"],
	["NotebookRead", "notebook_path", "read"],
	["Glob", "path", "read"],
	["Glob", "pattern", "glob"],
	["Grep", "path", "read"],
	["LSP", "filePath", "read"],
	["LS", "path", "read"],
	["EnterWorktree", "path", "write"],
	["Artifact", "file_path", "read"],
	["Projects", "local_path", "read"],
	["Workflow", "scriptPath", "read"],
	["View", "file_path", "read"],
	["Bash", "cwd", "write"],
	["PowerShell", "cwd", "write"],
	["Monitor", "cwd", "write"],
]

test_claude_code_path_arguments if {
	path_failures("claude_code", claude_path_cases) == []
}
