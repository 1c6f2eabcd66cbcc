// Package cli holds the command line's feature tests, run on the built
// tooleval binary (tests/harness builds it once per test binary): eval,
// tools, launch, check and bundle build against `opa eval`; diff, its
// decision-log replay and its HTML report in headless Chromium; the MCP
// gateway (`tooleval mcp proxy` over stdio and Streamable HTTP, in front
// of tests/mcpupstream). It has no build tag: make test runs it.
package cli
