package engine

import (
	"runtime/debug"
	"sync"
)

// linkedRevision is set by the linker when the build names its revision:
// `make tooleval` passes -ldflags "-X
// github.com/tooleval/tooleval/engine.linkedRevision=<commit>[-dirty]",
// which works where the go command records no VCS information (a git
// worktree, GOFLAGS=-buildvcs=false). It is never assigned at run time.
var linkedRevision string

// BuildRevision is the revision the embedded bundle reports (its
// manifest says "dev" in the repository), so that decisions and audit
// records tell builds apart: the revision the build was linked with
// (see `make tooleval`); else the VCS revision the go command recorded,
// 12 hex digits as `make bundle` stamps bundles, with "-dirty" when the
// working tree had changes; else, for a binary built from a module
// version (go install ...@v1.2.3), that version; else "dev".
var BuildRevision = sync.OnceValue(func() string {
	info, _ := debug.ReadBuildInfo()
	return revisionOf(linkedRevision, info)
})

// revisionOf computes the build revision from the linked revision and
// the build information (nil when there is none).
func revisionOf(linked string, info *debug.BuildInfo) string {
	if linked != "" {
		return linked
	}
	if info == nil {
		return "dev"
	}
	var revision, modified string
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			revision = s.Value
		case "vcs.modified":
			modified = s.Value
		}
	}
	if revision != "" {
		if len(revision) > 12 {
			revision = revision[:12]
		}
		if modified == "true" {
			revision += "-dirty"
		}
		return revision
	}
	if v := info.Main.Version; v != "" && v != "(devel)" {
		return v
	}
	return "dev"
}
