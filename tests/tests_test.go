// Package tests holds tooleval's cross-cutting tests: the example inputs
// against their expected documents, the engine against stock OPA servers
// (REST, distribution, decision logs), the differential test against
// tests/oracle, properties, fuzzing, adversarial inputs and faults, and
// the checks of the house (docs, layout, Rego suites). Feature tests of
// the command line are in tests/e2e/cli; what tests share is in
// tests/harness.
package tests
