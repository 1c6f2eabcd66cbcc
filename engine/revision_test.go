package engine

import (
	"runtime/debug"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestRevisionOfTheBuild: the embedded bundle's revision comes from the
// build (it was "dev" in every binary).
func TestRevisionOfTheBuild(t *testing.T) {
	vcs := func(rev, modified string) []debug.BuildSetting {
		return []debug.BuildSetting{{Key: "vcs", Value: "git"}, {Key: "vcs.revision", Value: rev}, {Key: "vcs.modified", Value: modified}}
	}
	for _, tc := range []struct {
		info debug.BuildInfo
		want string
	}{
		{debug.BuildInfo{Settings: vcs("7f435f113273c0ffee1234567890abcdef123456", "false")}, "7f435f113273"},
		{debug.BuildInfo{Settings: vcs("7f435f113273c0ffee1234567890abcdef123456", "true")}, "7f435f113273-dirty"},
		{debug.BuildInfo{Main: debug.Module{Version: "v1.4.0"}}, "v1.4.0"},
		{debug.BuildInfo{Main: debug.Module{Version: "v1.4.0"}, Settings: vcs("abc", "false")}, "abc"},
		{debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}, "dev"},
		{debug.BuildInfo{}, "dev"},
	} {
		require.Equal(t, tc.want, revisionOf("", &tc.info))
	}
	require.Equal(t, "dev", revisionOf("", nil))
	require.Equal(t, "linked-1", revisionOf("linked-1", &debug.BuildInfo{Settings: vcs("abc", "true")}))
	// A test binary records no VCS information: the embedded bundle says so.
	require.Equal(t, BuildRevision(), newEngine(t).Revision())
}
