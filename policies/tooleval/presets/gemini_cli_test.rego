# The gemini_cli preset against Gemini CLI's source: @google/gemini-cli
# 0.61.0 (the published bundle, which keeps every source path). Each row
# names the source file it comes from; "tooleval" marks where the preset
# is deliberately stricter (docs/presets.md, gemini_cli).
package tooleval.presets_test

gm := {"preset": "gemini_cli"}

gm_tools := [
	"read_file", "write_file", "replace", "glob", "grep_search", "list_directory", "read_many_files",
	"run_shell_command", "invoke_agent", "update_topic", "complete_task", "ask_user", "web_fetch",
	["github", "get_issue"],
]

gm_call(agent, name) := request(agent, gm_tools, name, {})

gm_call_args(name, args) := request(main_agent, gm_tools, name, args)

local_executor := "packages/core/src/agents/local-executor.ts"

tool_names := "packages/core/src/tools/tool-names.ts"

workspace_context := "packages/core/src/utils/workspaceContext.ts"

gemini_rows := [
	# LocalAgentExecutor.create: "We do not allow agents to call other
	# agents" (tool.kind === Kind.Agent: invoke_agent), nor update_topic.
	[
		local_executor,
		"a sub-agent does not get invoke_agent",
		gm,
		gm_call(subagent(1), "invoke_agent"),
		["excluded", "subagent_hard_deny"],
	],
	[
		local_executor,
		"nor at depth 9",
		gm_with_depth(9),
		gm_call(subagent(9), "invoke_agent"),
		["excluded", "subagent_hard_deny"],
	],
	[
		local_executor,
		"a sub-agent does not get update_topic",
		gm,
		gm_call(subagent(1), "update_topic"),
		["excluded", "subagent_hard_deny"],
	],
	[local_executor, "a sub-agent keeps read_file", gm, gm_call(subagent(1), "read_file"), "allowed"],
	[local_executor, "a sub-agent keeps complete_task", gm, gm_call(subagent(1), "complete_task"), "allowed"],
	[local_executor, "the main agent invokes a sub-agent", gm, gm_call(main_agent, "invoke_agent"), "allowed"],
	# Gemini CLI has no forks: a fork is a sub-agent here (tooleval: the
	# sub-agent exclusions apply to forks, and fork_no_spawn holds
	# invoke_agent too).
	[
		"tooleval: forks are sub-agents",
		"a fork does not get invoke_agent",
		gm,
		gm_call(fork, "invoke_agent"),
		["excluded", "subagent_hard_deny"],
	],
	# TOOL_LEGACY_ALIASES: search_file_content is grep_search.
	[
		tool_names,
		"TOOL_LEGACY_ALIASES: a call of search_file_content reaches grep_search",
		gm,
		gm_call_args("search_file_content", {"dir_path": "/etc"}),
		["path", "not_readable"],
	],
	[
		tool_names,
		"a deny of search_file_content denies grep_search",
		gm,
		object.union(gm_call(main_agent, "grep_search"), {"layers": [{"name": "policy", "deny": ["search_file_content"]}]}),
		["denied", "policy"],
	],
	# isPathWithinWorkspace: a segment .git, .env or node_modules is never
	# written (validatePathAccess).
	[
		workspace_context,
		"write_file of .env is refused",
		gm,
		gm_call_args("write_file", {"file_path": "/ws/sub/.env"}),
		["path", "sensitive"],
	],
	[
		workspace_context,
		"replace under .git is refused",
		gm,
		gm_call_args("replace", {"file_path": "/ws/.git/config"}),
		["path", "sensitive"],
	],
	[
		workspace_context,
		"write_file under node_modules is refused",
		gm,
		gm_call_args("write_file", {"file_path": "/ws/node_modules/x/index.js"}),
		["path", "sensitive"],
	],
	[
		workspace_context,
		"write_file outside the workspace is refused",
		gm,
		gm_call_args("write_file", {"file_path": "/tmp/x"}),
		["path", "outside_workspace"],
	],
	[
		workspace_context,
		"write_file in the workspace runs",
		gm,
		gm_call_args("write_file", {"file_path": "/ws/src/a.ts"}),
		"allowed",
	],
	# shell.ts: dir_path must be a directory within the workspace.
	[
		"packages/core/src/tools/shell.ts",
		"run_shell_command's dir_path outside the workspace is refused",
		gm,
		gm_call_args("run_shell_command", {"command": "ls", "dir_path": "/etc"}),
		["path", "outside_workspace"],
	],
	[
		"packages/core/src/tools/shell.ts",
		"run_shell_command in the workspace runs",
		gm,
		gm_call_args("run_shell_command", {"command": "ls", "dir_path": "/ws/src"}),
		"allowed",
	],
]

gm_with_depth(depth) := object.union(gm, {"max_depth": depth + 1})

test_gemini_cli_ported_cases if {
	failures(gemini_rows) == []
}

# Every path-carrying argument of Gemini CLI's file, search and shell tools
# (packages/core/src/tools/definitions/base-declarations.ts;
# absolute_path and path are older releases').
gemini_path_cases := [
	["read_file", "file_path", "read"],
	["read_file", "absolute_path", "read"],
	["read_many_files", "include", "globs"],
	["list_directory", "dir_path", "read"],
	["list_directory", "path", "read"],
	["glob", "dir_path", "read"],
	["glob", "pattern", "glob"],
	["grep_search", "dir_path", "read"],
	["search_file_content", "dir_path", "read"],
	["write_file", "file_path", "write"],
	["replace", "file_path", "write"],
	["run_shell_command", "dir_path", "write"],
]

test_gemini_cli_path_arguments if {
	path_failures("gemini_cli", gemini_path_cases) == []
}
