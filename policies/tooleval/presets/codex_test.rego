# The codex preset against Codex's source (openai/codex, codex-rs). Each
# row names the source file it comes from; "tooleval" marks where the
# preset is deliberately stricter (docs/presets.md, codex).
package tooleval.presets_test

cx := {"preset": "codex"}

cx_tools := [
	"shell", "shell_command", "exec_command", "apply_patch", "view_image", "list_dir", "spawn_agent",
	"spawn_agents_on_csv", "send_input", "wait_agent", "update_plan", ["github", "get_issue"],
]

cx_call(agent, name) := request(agent, cx_tools, name, {})

cx_call_args(name, args) := request(main_agent, cx_tools, name, args)

spawn_rs := "codex-rs/core/src/tools/handlers/multi_agents/spawn.rs"

codex_config := "codex-rs/core/src/config/mod.rs"

codex_rows := [
	# DEFAULT_AGENT_MAX_DEPTH = 1; a spawn whose child depth exceeds it is
	# refused (exceeds_thread_spawn_depth_limit in agent/registry.rs).
	[codex_config, "the main agent spawns", cx, cx_call(main_agent, "spawn_agent"), "allowed"],
	[
		spawn_rs,
		"a sub-agent at depth 1 does not spawn (max depth 1)",
		cx,
		cx_call(subagent(1), "spawn_agent"),
		["excluded", "subagent_depth_cap"],
	],
	[
		spawn_rs,
		"nor spawn on a CSV",
		cx,
		cx_call(subagent(1), "spawn_agents_on_csv"),
		["excluded", "subagent_depth_cap"],
	],
	[spawn_rs, "nor at depth 9", cx, cx_call(subagent(9), "spawn_agent"), ["excluded", "subagent_depth_cap"]],
	[spawn_rs, "a sub-agent keeps the shell", cx, cx_call(subagent(1), "shell"), "allowed"],
	# a fork (spawn_agent with fork_context) is a sub-agent one level down:
	# at the depth cap (fork_no_spawn holds the spawn tools too)
	[spawn_rs, "a fork does not spawn", cx, cx_call(fork, "spawn_agent"), ["excluded", "subagent_depth_cap"]],
	[
		spawn_rs,
		"a fork does not spawn on a CSV",
		cx,
		cx_call(fork, "spawn_agents_on_csv"),
		["excluded", "subagent_depth_cap"],
	],
	[
		spawn_rs,
		"a deployment's deeper cap does not raise the preset's",
		object.union(cx, {"max_depth": 5}),
		cx_call(subagent(1), "spawn_agent"),
		["excluded", "subagent_depth_cap"],
	],
	# apply_patch's input names every file it writes (apply_patch_tool.rs)
	[
		"codex-rs/tools/src/apply_patch_tool.rs",
		"a patch that writes into .git/hooks is refused",
		cx,
		cx_call_args("apply_patch", {"input": "*** Begin Patch\n*** Add File: /ws/.git/hooks/pre-commit\n+x\n*** End Patch"}),
		["path", "sensitive"],
	],
	[
		"codex-rs/tools/src/local_tool.rs",
		"exec_command's workdir outside the workspace is refused",
		cx,
		cx_call_args("exec_command", {"cmd": "ls", "workdir": "/etc"}),
		["path", "outside_workspace"],
	],
	[
		"codex-rs/tools/src/local_tool.rs",
		"shell in the workspace runs",
		cx,
		cx_call_args("shell", {"command": ["ls"], "workdir": "/ws"}),
		"allowed",
	],
]

test_codex_ported_cases if {
	failures(codex_rows) == []
}

# Every path-carrying argument of Codex's tools (codex-rs/tools/src:
# local_tool.rs, view_image.rs, utility_tool.rs, agent_job_tool.rs,
# apply_patch_tool.rs).
codex_path_cases := [
	["apply_patch", "input", "patch"],
	["view_image", "path", "read"],
	["list_dir", "dir_path", "read"],
	["shell", "workdir", "write"],
	["shell_command", "workdir", "write"],
	["exec_command", "workdir", "write"],
	["spawn_agents_on_csv", "csv_path", "read"],
	["spawn_agents_on_csv", "output_csv_path", "write"],
]

test_codex_path_arguments if {
	path_failures("codex", codex_path_cases) == []
}
