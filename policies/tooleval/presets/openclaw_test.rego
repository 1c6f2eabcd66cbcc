# The openclaw preset against OpenClaw 2026.9.6 (openclaw/openclaw, commit
# eb377ac59e6c9fd6c7705028034812becf00271b). Each row names the upstream
# test file and test; "tooleval" marks where the preset is deliberately
# stricter than OpenClaw (docs/presets.md, openclaw: not modeled).
package tooleval.presets_test

oc := {"preset": "openclaw"}

oc_with(extra) := object.union(oc, extra)

oc_tools := [
	"read", "write", "edit", "apply_patch", "ls", "exec", "bash", "process", "code_execution", "secrets",
	"web_search", "web_fetch", "memory_search", "memory_get", "sessions_spawn", "subagents", "sessions_list",
	"sessions_history", "sessions_search", "sessions_send", "session_status", "gateway", "agents_list",
	"openclaw", "progress_card", "automations", "cron", "message", "conversations_list", "conversations_send",
	"conversations_turn", "browser", "tts", "view_image", "update_plan",
	["github", "create_issue"],
]

oc_call(agent, name) := request(agent, oc_tools, name, {})

oc_layer(allow, deny) := object.union(oc_call(main_agent, "x"), {"layers": [{"name": "policy", "allow": allow, "deny": deny}]})

oc_layer_call(allow, deny, name) := object.union(oc_layer(allow, deny), {"calls": [{"id": "c", "name": name}]})

oc_deny_call(deny, name) := object.union(oc_call(main_agent, name), {"layers": [{"name": "policy", "deny": deny}]})

tool_policy := "src/agents/tool-policy.test.ts"

agent_tools_policy := "src/agents/agent-tools.policy.test.ts"

tool_catalog := "src/agents/tool-catalog.test.ts"

depth_limits := "src/agents/openclaw-tools.subagents.sessions-spawn-depth-limits.test.ts"

capabilities := "src/agents/subagent-capabilities.test.ts"

profile(name) := oc_with({"tools": {"profile": name}})

openclaw_rows := [
	# Groups and aliases.
	[
		tool_policy,
		"expands groups and normalizes aliases",
		oc,
		oc_layer_call(["group:runtime", "BASH", "apply-patch", "group:fs"], [], "exec"),
		"allowed",
	],
	[
		tool_policy,
		"expands groups and normalizes aliases",
		oc,
		oc_layer_call(["group:runtime", "BASH", "apply-patch", "group:fs"], [], "process"),
		"allowed",
	],
	[
		tool_policy,
		"expands groups and normalizes aliases",
		oc,
		oc_layer_call(["group:runtime", "BASH", "apply-patch", "group:fs"], [], "apply_patch"),
		"allowed",
	],
	[
		tool_policy,
		"expands groups and normalizes aliases",
		oc,
		oc_layer_call(["group:runtime", "BASH", "apply-patch", "group:fs"], [], "read"),
		"allowed",
	],
	[
		tool_policy,
		"expands groups and normalizes aliases",
		oc,
		oc_layer_call(["group:runtime", "BASH", "apply-patch", "group:fs"], [], "edit"),
		"allowed",
	],
	[tool_policy, "expands groups and normalizes aliases", oc, oc_layer_call(["group:runtime"], [], "browser"), ["not_allowed", "policy"]],
	[tool_policy, "normalizes tool names and aliases (cron)", oc, oc_deny_call(["cron"], "automations"), ["denied", "policy"]],
	[tool_policy, "normalizes tool names and aliases (READ)", oc, oc_layer_call(["READ"], [], "read"), "allowed"],
	[tool_policy, "applies deny before allow", oc, oc_deny_call(["web_*"], "web_fetch"), ["denied", "policy"]],
	[tool_policy, "applies deny before allow", oc, oc_deny_call(["web_*"], "read"), "allowed"],
	[tool_policy, "expands tool groups + aliases in patterns", oc, oc_layer_call(["group:fs", "BASH"], ["apply_*"], "read"), "allowed"],
	[tool_policy, "expands tool groups + aliases in patterns", oc, oc_layer_call(["group:fs", "BASH"], ["apply_*"], "exec"), "allowed"],
	[
		tool_policy,
		"expands tool groups + aliases in patterns",
		oc,
		oc_layer_call(["group:fs", "BASH"], ["apply_*"], "apply_patch"),
		["denied", "policy"],
	],
	[
		tool_policy,
		"legacy scheduler: allows the renamed tool through persisted legacy allow lists",
		oc,
		oc_layer_call(["cron"], [], "automations"),
		"allowed",
	],
	[
		tool_policy,
		"legacy scheduler: denies the renamed tool through persisted legacy deny lists",
		oc,
		oc_deny_call(["cron"], "automations"),
		["denied", "policy"],
	],
	[
		tool_policy,
		"apply_patch / write deny decoupling: does not deny apply_patch when write is denied",
		oc,
		oc_deny_call(["write"], "apply_patch"),
		"allowed",
	],
	[
		tool_policy,
		"apply_patch / write deny decoupling: still denies apply_patch when apply_patch is explicitly denied",
		oc,
		oc_deny_call(["apply_patch"], "apply_patch"),
		["denied", "policy"],
	],
	[
		tool_policy,
		"apply_patch / write deny decoupling: denies apply_patch when both are denied",
		oc,
		oc_deny_call(["write", "apply_patch"], "apply_patch"),
		["denied", "policy"],
	],
	# tooleval: an allow of write does not also allow apply_patch (OpenClaw's writeAllowsApplyPatch).
	[
		tool_policy,
		"still allows apply_patch via write in the allow list (tooleval: stricter)",
		oc,
		oc_layer_call(["write"], [], "apply_patch"),
		["not_allowed", "policy"],
	],
	# Aliases: a deny on bash stops exec and the other way round (tool-policy-shared.ts).
	["src/agents/tool-policy-shared.ts", "TOOL_NAME_ALIASES: deny bash stops exec", oc, oc_deny_call(["bash"], "exec"), ["denied", "policy"]],
	["src/agents/tool-policy-shared.ts", "TOOL_NAME_ALIASES: deny exec stops bash", oc, oc_deny_call(["exec"], "bash"), ["denied", "policy"]],
	# update_plan -> progress_card is a rename of policy entries
	# (SHIPPED_CORE_POLICY_RENAMES in src/agents/tool-policy.ts), not a call
	# alias: a deny entry update_plan stops progress_card, a call of
	# update_plan is not a call of progress_card.
	[
		"src/agents/tool-policy.ts",
		"SHIPPED_CORE_POLICY_RENAMES: a deny of update_plan stops progress_card",
		oc,
		oc_deny_call(["update_plan"], "progress_card"),
		["denied", "policy"],
	],
	[
		"src/agents/tool-policy.ts",
		"SHIPPED_CORE_POLICY_RENAMES renames policy entries, not calls",
		oc,
		request(main_agent, ["progress_card"], "update_plan", {}),
		["not_declared", "declaration"],
	],
	# Plugin families (SHIPPED_PLUGIN_POLICY_FAMILY_CORE_TOOLS) and plugin
	# ids (expandPluginGroups) in deny lists.
	[
		"src/agents/tool-policy.ts",
		"SHIPPED_PLUGIN_POLICY_FAMILY_CORE_TOOLS: a deny of canvas stops show_widget",
		oc,
		object.union(request(main_agent, ["canvas", "show_widget"], "show_widget", {}), {"layers": [{"name": "policy", "deny": ["canvas"]}]}),
		["denied", "policy"],
	],
	[
		"src/agents/tool-policy.ts",
		"expandPluginGroups: a deny of the bundle-mcp plugin id stops every bundle MCP tool",
		oc,
		oc_deny_call(["bundle-mcp"], "mcp__github__create_issue"),
		["denied", "policy"],
	],
	# tooleval: in an allow list a family is not expanded (OpenClaw's allow of
	# canvas also allows show_widget).
	[
		"src/agents/tool-policy.ts",
		"an allow of canvas does not allow show_widget (tooleval: stricter)",
		oc,
		object.union(request(main_agent, ["canvas", "show_widget"], "show_widget", {}), {"layers": [{"name": "policy", "allow": ["canvas"]}]}),
		["not_allowed", "policy"],
	],
	[
		"src/agents/tool-policy-shared.ts",
		"a call of an alias reaches the declared tool, judged as that tool",
		oc,
		request(main_agent, ["exec"], "bash", {"workdir": "/tmp"}),
		["path", "outside_workspace"],
	],
	[
		"src/agents/tool-policy-shared.ts",
		"a call of an alias reaches the declared tool, judged as that tool",
		oc,
		request(main_agent, ["exec"], "bash", {"workdir": "/ws"}),
		"allowed",
	],
	[
		"src/agents/tool-policy-shared.ts",
		"a call of an alias reaches the declared tool, judged as that tool",
		oc,
		request(subagent(1), ["automations"], "cron", {}),
		["excluded", "subagent_hard_deny"],
	],
	# tooleval: a deny prefix bites on any name of the tool (OpenClaw does not alias-resolve globs).
	["src/agents/tool-policy-match.ts", "a glob is not alias-resolved (tooleval: stricter)", oc, oc_deny_call(["ba*"], "exec"), ["denied", "policy"]],
	# Sub-agent policy.
	[
		agent_tools_policy,
		"keeps flat depth-1 sessions as leaves under an explicit finite cap: gateway",
		oc_with({"max_depth": 1}),
		oc_call(subagent(1), "gateway"),
		["excluded", "subagent_hard_deny"],
	],
	[
		agent_tools_policy,
		"keeps flat depth-1 sessions as leaves under an explicit finite cap: sessions_spawn",
		oc_with({"max_depth": 1}),
		oc_call(subagent(1), "sessions_spawn"),
		["excluded", "subagent_depth_cap"],
	],
	[
		agent_tools_policy,
		"keeps flat depth-1 sessions as leaves under an explicit finite cap: subagents",
		oc_with({"max_depth": 1}),
		oc_call(subagent(1), "subagents"),
		["excluded", "subagent_depth_cap"],
	],
	[
		agent_tools_policy,
		"keeps flat depth-1 sessions as leaves under an explicit finite cap: sessions_search",
		oc_with({"max_depth": 1}),
		oc_call(subagent(1), "sessions_search"),
		["excluded", "subagent_depth_cap"],
	],
	[
		agent_tools_policy,
		"keeps flat depth-1 sessions as leaves under an explicit finite cap: memory_search",
		oc_with({"max_depth": 1}),
		oc_call(subagent(1), "memory_search"),
		"allowed",
	],
	[
		agent_tools_policy,
		"keeps flat depth-1 sessions as leaves under an explicit finite cap: memory_get",
		oc_with({"max_depth": 1}),
		oc_call(subagent(1), "memory_get"),
		"allowed",
	],
	[
		agent_tools_policy,
		"recomputes a persisted leaf as an orchestrator under the recursive default",
		oc,
		oc_call(subagent(1), "sessions_spawn"),
		"allowed",
	],
	# tooleval: a sub-agent the runtime stored as a leaf gets the depth cap whatever its depth.
	[
		agent_tools_policy,
		"recomputes a persisted leaf as an orchestrator (tooleval: agent.leaf is honoured)",
		oc,
		oc_call({"role": "subagent", "depth": 1, "leaf": true}, "sessions_spawn"),
		["excluded", "subagent_depth_cap"],
	],
	[
		agent_tools_policy,
		"resolves inherited tool denies from stored subagent sessions: exec",
		oc,
		object.union(oc_call(subagent(1), "exec"), {"layers": [{"name": "inherited", "deny": ["bash", "memory_get"]}]}),
		["denied", "inherited"],
	],
	[
		agent_tools_policy,
		"resolves inherited tool denies from stored subagent sessions: memory_get",
		oc,
		object.union(oc_call(subagent(1), "memory_get"), {"layers": [{"name": "inherited", "deny": ["bash", "memory_get"]}]}),
		["denied", "inherited"],
	],
	[
		agent_tools_policy,
		"resolves inherited tool denies from stored subagent sessions: sessions_spawn",
		oc,
		object.union(oc_call(subagent(1), "sessions_spawn"), {"layers": [{"name": "inherited", "deny": ["bash", "memory_get"]}]}),
		"allowed",
	],
	[
		agent_tools_policy,
		"resolves inherited tool allows from stored subagent sessions: memory_search",
		oc,
		object.union(oc_call(subagent(1), "memory_search"), {"layers": [{"name": "inherited", "allow": ["sessions_spawn", "memory_search"]}]}),
		"allowed",
	],
	[
		agent_tools_policy,
		"resolves inherited tool allows from stored subagent sessions: read",
		oc,
		object.union(oc_call(subagent(1), "read"), {"layers": [{"name": "inherited", "allow": ["sessions_spawn", "memory_search"]}]}),
		["not_allowed", "inherited"],
	],
	[
		agent_tools_policy,
		"resolves inherited tool allows from stored subagent sessions: exec",
		oc,
		object.union(oc_call(subagent(1), "exec"), {"layers": [{"name": "inherited", "allow": ["sessions_spawn", "memory_search"]}]}),
		["not_allowed", "inherited"],
	],
	# Profiles.
	[tool_catalog, "full profile uses wildcard to grant all tools", profile("full"), oc_call(main_agent, "browser"), "allowed"],
	[tool_catalog, "keeps the minimal capability boundary: session_status", profile("minimal"), oc_call(main_agent, "session_status"), "allowed"],
	[tool_catalog, "keeps the minimal capability boundary: gateway", profile("minimal"), oc_call(main_agent, "gateway"), "allowed"],
	[tool_catalog, "keeps the minimal capability boundary: exec", profile("minimal"), oc_call(main_agent, "exec"), ["not_allowed", "profile"]],
	[tool_catalog, "keeps the minimal capability boundary: message", profile("minimal"), oc_call(main_agent, "message"), ["not_allowed", "profile"]],
	[
		tool_catalog,
		"keeps the minimal capability boundary: openclaw",
		profile("minimal"),
		oc_call(main_agent, "openclaw"),
		["not_allowed", "profile"],
	],
	[tool_catalog, "keeps the coding capability boundary: read", profile("coding"), oc_call(main_agent, "read"), "allowed"],
	[tool_catalog, "keeps the coding capability boundary: exec", profile("coding"), oc_call(main_agent, "exec"), "allowed"],
	[tool_catalog, "keeps the coding capability boundary: bash (alias of exec)", profile("coding"), oc_call(main_agent, "bash"), "allowed"],
	[
		tool_catalog,
		"includes bundle MCP tools in coding and messaging profile policies",
		profile("coding"),
		oc_call(main_agent, "mcp__github__create_issue"),
		"allowed",
	],
	[tool_catalog, "keeps the coding capability boundary: browser", profile("coding"), oc_call(main_agent, "browser"), ["not_allowed", "profile"]],
	[tool_catalog, "keeps the coding capability boundary: message", profile("coding"), oc_call(main_agent, "message"), ["not_allowed", "profile"]],
	[tool_catalog, "keeps the coding capability boundary: tts", profile("coding"), oc_call(main_agent, "tts"), ["not_allowed", "profile"]],
	[tool_catalog, "keeps the coding capability boundary: openclaw", profile("coding"), oc_call(main_agent, "openclaw"), ["not_allowed", "profile"]],
	[tool_catalog, "keeps the messaging capability boundary: message", profile("messaging"), oc_call(main_agent, "message"), "allowed"],
	[
		tool_catalog,
		"includes bundle MCP tools in coding and messaging profile policies",
		profile("messaging"),
		oc_call(main_agent, "mcp__github__create_issue"),
		"allowed",
	],
	[tool_catalog, "keeps the messaging capability boundary: exec", profile("messaging"), oc_call(main_agent, "exec"), ["not_allowed", "profile"]],
	[tool_catalog, "keeps the messaging capability boundary: write", profile("messaging"), oc_call(main_agent, "write"), ["not_allowed", "profile"]],
	[tool_catalog, "includes the helper in group:automation allows and denies", oc, oc_layer_call(["group:automation"], [], "openclaw"), "allowed"],
	[
		tool_catalog,
		"includes the helper in group:automation allows and denies",
		oc,
		oc_layer_call(["group:automation"], ["openclaw"], "openclaw"),
		["denied", "policy"],
	],
	[
		tool_catalog,
		"includes the helper in group:openclaw allows and denies",
		oc,
		oc_layer_call(["openclaw"], ["group:openclaw"], "openclaw"),
		["denied", "policy"],
	],
	# Spawn depth (maxSpawnDepth is max_depth).
	[
		depth_limits,
		"rejects spawning when caller depth reaches maxSpawnDepth",
		oc_with({"max_depth": 1}),
		oc_call(subagent(1), "sessions_spawn"),
		["excluded", "subagent_depth_cap"],
	],
	[depth_limits, "allows depth-1 callers when maxSpawnDepth is 2", oc_with({"max_depth": 2}), oc_call(subagent(1), "sessions_spawn"), "allowed"],
	[
		depth_limits,
		"rejects depth-2 callers when maxSpawnDepth is 2",
		oc_with({"max_depth": 2}),
		oc_call(subagent(2), "sessions_spawn"),
		["excluded", "subagent_depth_cap"],
	],
	[capabilities, "computes canSpawn/canControl flags (depth 1 of 3)", oc_with({"max_depth": 3}), oc_call(subagent(1), "subagents"), "allowed"],
	[
		capabilities,
		"computes canSpawn/canControl flags (depth 3 of 3)",
		oc_with({"max_depth": 3}),
		oc_call(subagent(3), "subagents"),
		["excluded", "subagent_depth_cap"],
	],
	# The sub-agent deny list in force (SUBAGENT_TOOL_DENY_ALWAYS and _LEAF).
	[
		agent_tools_policy,
		"does not let configured allow entries re-enable hard-denied tools: openclaw",
		oc_with({"subagents": {"allow": ["openclaw", "memory_search"]}}),
		oc_call(subagent(1), "openclaw"),
		["excluded", "subagent_hard_deny"],
	],
	[
		agent_tools_policy,
		"does not let configured allow entries re-enable hard-denied tools: automations",
		oc_with({"subagents": {"allow": ["automations", "memory_search"]}}),
		oc_call(subagent(1), "automations"),
		["excluded", "subagent_hard_deny"],
	],
	[
		agent_tools_policy,
		"does not let configured allow entries re-enable hard-denied tools: cron",
		oc_with({"subagents": {"allow": ["cron"]}}),
		oc_call(subagent(1), "cron"),
		["excluded", "subagent_hard_deny"],
	],
	[
		agent_tools_policy,
		"does not let configured allow entries re-enable hard-denied tools: conversations_turn",
		oc_with({"subagents": {"allow": ["conversations_turn"]}}),
		oc_call(subagent(1), "conversations_turn"),
		["excluded", "subagent_hard_deny"],
	],
	[
		agent_tools_policy,
		"does not let configured allow entries re-enable hard-denied tools: progress_card",
		oc_with({"subagents": {"allow": ["progress_card", "update_plan"]}}),
		oc_call(subagent(1), "progress_card"),
		["excluded", "subagent_hard_deny"],
	],
	[
		agent_tools_policy,
		"does not let configured allow entries re-enable hard-denied tools: memory_search",
		oc_with({"subagents": {"allow": ["openclaw", "memory_search"]}}),
		oc_call(subagent(1), "memory_search"),
		"allowed",
	],
	# tooleval: a fork cannot spawn (OpenClaw forks spawn by depth).
	[
		"src/agents/tools/sessions-spawn-tool.ts",
		"a fork is an ordinary sub-agent (tooleval: fork_no_spawn)",
		oc,
		oc_call(fork, "sessions_spawn"),
		["excluded", "fork_no_spawn"],
	],
]

test_openclaw_ported_cases if {
	failures(openclaw_rows) == []
}

# Every path-carrying argument of OpenClaw's file, search and shell tools
# (src/agents/agent-tools.params.ts; file_path is a guard OpenClaw itself
# rejects; apply_patch carries its paths in the patch text).
openclaw_path_cases := [
	["read", "path", "read"],
	["read", "file_path", "read"],
	["ls", "path", "read"],
	["write", "path", "write"],
	["write", "file_path", "write"],
	["edit", "path", "write"],
	["edit", "file_path", "write"],
	["apply_patch", "input", "patch"],
	["apply_patch", "patch", "patch"],
	["apply-patch", "input", "patch"],
	["exec", "workdir", "write"],
	["bash", "workdir", "write"],
	["sessions_spawn", "cwd", "write"],
]

test_openclaw_path_arguments if {
	path_failures("openclaw", openclaw_path_cases) == []
}

apply_patch_targets := "src/agents/apply-patch-targets.test.ts"

patch_call(text) := request(main_agent, ["apply_patch"], "apply_patch", {"input": text})

# src/agents/apply-patch-targets.test.ts and apply-patch.test.ts, with
# absolute paths (a relative one is unresolved unless the host resolves it).
openclaw_patch_rows := [
	[
		apply_patch_targets,
		"handles CRLF line endings",
		oc,
		patch_call("*** Begin Patch\r\n*** Add File: /ws/crlf.ts\r\n+x\r\n*** End Patch\r\n"),
		"allowed",
	],
	[
		apply_patch_targets,
		"matches indented hunk headers the same way as the apply_patch executor",
		oc,
		patch_call("*** Begin Patch\n  *** Delete File: /ws/.ssh/id_rsa\n*** End Patch"),
		["path", "sensitive"],
	],
	[
		apply_patch_targets,
		"finds top-level markers after an update hunk",
		oc,
		patch_call("*** Update File: /ws/old.ts\n@@\n-a\n+b\n*** Delete File: /home/u/dead.ts"),
		["path", "outside_workspace"],
	],
	[apply_patch_targets, "ignores markers outside of the envelope grammar", oc, patch_call("*** Random Marker: /etc/x"), "allowed"],
	[
		apply_patch_targets,
		"does not require the begin/end envelope markers to be present",
		oc,
		patch_call("*** Add File: /ws/.git/hooks/post-merge\n+x"),
		["path", "sensitive"],
	],
	# tooleval: a marker-like context line counts (it can only refuse more).
	[
		apply_patch_targets,
		"ignores marker-like context and body lines inside update hunks (tooleval: context lines count)",
		oc,
		patch_call("*** Update File: /ws/real.ts\n *** Add File: /etc/fake.ts\n+*** Add File: /etc/body.ts"),
		["path", "outside_workspace"],
	],
	[
		"src/agents/apply-patch.test.ts",
		"rejects path traversal via ../ without sandbox",
		oc,
		patch_call("*** Add File: ../../../etc/malicious.txt\n+x"),
		["path", "unresolved"],
	],
	[
		"src/agents/apply-patch.test.ts",
		"rejects absolute path without sandbox",
		oc,
		patch_call("*** Add File: /tmp/malicious.txt\n+x"),
		["path", "outside_workspace"],
	],
	[
		"src/agents/agent-tools.params.ts",
		"drops a leading @ file-reference prefix (tooleval: unresolved)",
		oc,
		patch_call("*** Add File: @/etc/passwd\n+x"),
		["path", "unresolved"],
	],
	[
		"src/agents/sandbox-paths.ts",
		"expands ~ for file tools (tooleval: never expanded)",
		oc,
		request(main_agent, ["write"], "write", {"path": "~/.bashrc"}),
		["path", "unresolved"],
	],
]

test_openclaw_patch_cases if {
	failures(openclaw_patch_rows) == []
}

# process actions that only observe (src/agents/tool-mutation.ts): list,
# poll and log; everything else changes state.
test_openclaw_process_actions_in_read_only_mode if {
	ro := {"role": "main", "depth": 0, "read_only": true}
	observe := ["list", "poll", "log"]
	outcomes([[oc, request(ro, ["process"], "process", {"action": action, "sessionId": "s1"})] | some action in observe]) == [
	"allowed" |
		some _ in observe
	]
	change := ["write", "send-keys", "submit", "paste", "kill", "clear", "remove"]
	outcomes([[oc, request(ro, ["process"], "process", {"action": action, "sessionId": "s1"})] | some action in change]) == [
	["not_allowed", "read_only"] |
		some _ in change
	]

	# tooleval: stricter. OpenClaw classifies the command string
	# (isPlainReadOnlyShellCommand: ls is a read-only command, so exec
	# {command: "ls"} does not mutate); tooleval cannot read command
	# strings, so every exec call changes state in read-only mode.
	outcome(oc, request(ro, ["exec"], "exec", {"command": "ls"})) == ["not_allowed", "read_only"]
	outcome(oc, request(ro, ["bash"], "bash", {"command": "ls"})) == ["not_allowed", "read_only"]
}
