package gemini

import "slices"

// Protections Gemini CLI applies whatever its policy rules say (read from
// the published @google/gemini-cli 0.61.0 bundle, which keeps every
// source path), carried into the overlay as deny and ask rules. Writes
// outside the workspace and writes under .git, .env and node_modules are
// refused by the gemini_cli preset's path arguments and sensitive paths.

// geminiBuildFiles are the names packages/core/src/utils/buildFileUtils.ts
// calls build files (EXACT_BUILD_FILENAMES, Dockerfile.* and
// Containerfile.*, BUILD_FILE_EXTENSIONS): the policy engine turns an
// allow of a file edit that targets one into ask_user (deny when
// headless), in every approval mode (policy-engine.ts, "Build File
// Protection"). A path rule without / matches at any depth, in any case
// (wider than Gemini's exact base name).
var geminiBuildFiles = []string{
	"BUILD", "BUILD.bazel", "WORKSPACE", "WORKSPACE.bazel", "MODULE.bazel", ".bazelrc", ".blazerc",
	"Makefile", "makefile", "GNUmakefile", "CMakeLists.txt",
	"package.json", "package-lock.json", "pnpm-lock.yaml", "yarn.lock", "bun.lockb",
	"setup.py", "setup.cfg", "pyproject.toml", "go.mod", "go.sum", "Cargo.toml", "Cargo.lock",
	"pom.xml", "build.gradle", "build.gradle.kts", "settings.gradle", "settings.gradle.kts",
	"Dockerfile", "Containerfile", "Dockerfile.*", "Containerfile.*",
	"*.bzl", "*.bazel", "*.bzlmod", "*.mk", "*.cmake",
}

// geminiEditTools are Gemini CLI's built-in file edit tools
// (EDIT_TOOL_NAMES in packages/core/src/tools/tool-names.ts).
var geminiEditTools = []string{"replace", "write_file"}

// geminiReadPathTools are the built-in tools that read the path they
// name (validatePathAccess(..., "read")): a path with a segment .git,
// .env or node_modules is not readable (isPathWithinWorkspace in
// packages/core/src/utils/workspaceContext.ts, hasBlockedPathSegment).
// glob and read_many_files take glob patterns, which a path rule does
// not read (it would refuse every call): not listed.
var geminiReadPathTools = []string{"read_file", "list_directory", "grep_search", "search_file_content"}

// geminiBlockedSegments are hasBlockedPathSegment's names.
var geminiBlockedSegments = []string{".git", ".env", "node_modules"}

// protections adds Gemini CLI's protections: asks (denies when
// headless) about an edit of a build file or under .vscode (the
// allowed-path checker of packages/core/src/safety/built-in.ts) and
// about a shell call that asks the sandbox for more
// (additional_permissions: the policy engine asks when one of its paths
// lies outside the workspace; here always), and denies reads under
// .git, .env and node_modules.
func (b *geminiBuilder) protections(headless bool) {
	into := &b.ask
	if headless {
		into = &b.deny
	}
	for _, t := range geminiEditTools {
		for _, p := range append(slices.Clone(geminiBuildFiles), ".vscode") {
			into.Add(map[string]any{"tool": t, "path": p})
		}
	}
	into.Add(map[string]any{"tool": ShellTool, "args_pattern": `"additional_permissions":`})
	for _, t := range geminiReadPathTools {
		for _, p := range geminiBlockedSegments {
			b.deny.Add(map[string]any{"tool": t, "path": p})
		}
	}
}
