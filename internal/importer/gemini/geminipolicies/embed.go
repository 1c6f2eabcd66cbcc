// Package geminipolicies holds Gemini CLI's default policy files, as
// Gemini CLI ships them (README.md says from which release).
package geminipolicies

import "embed"

// Files are the default policy files, by name.
//
//go:embed *.toml
var Files embed.FS
