package tests

// Arguments of the calls the tests make, by the tool they are for.

// shell is the arguments of a shell tool's call (Gemini CLI's
// run_shell_command, Claude Code's Bash).
func shell(command string) map[string]any { return map[string]any{"command": command} }

// file is the arguments of a call that reads or writes file_path.
func file(path string) map[string]any { return map[string]any{"file_path": path} }

// agent is the arguments of a call that starts the sub-agent name.
func agent(name string) map[string]any {
	return map[string]any{"agent_name": name, "prompt": "look into it"}
}
