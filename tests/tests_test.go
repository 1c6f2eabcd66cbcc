// Package tests holds tooleval's integration tests: the Rego policy
// against its Go references, the example inputs against their expected
// decisions, and (later) the engine against stock OPA servers.
package tests

// policiesDir is the policy bundle source, relative to this package.
const policiesDir = "../policies"
