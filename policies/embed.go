// Package policies embeds the tooleval policy bundle: the .manifest and the
// Rego and data files under tooleval/, exactly as they are in the
// repository. Test files (*_test.rego) are embedded too; loaders skip them.
package policies

import (
	"embed"
	"io/fs"
)

//go:embed .manifest tooleval system
var files embed.FS

// Bundle returns the bundle's files, rooted at the bundle root.
func Bundle() fs.FS {
	return files
}
