package tests

import (
	"context"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/tooleval/tooleval/engine"
	"github.com/tooleval/tooleval/tests/harness"
)

// revisionDir is a copy of a bundle directory with its manifest's
// revision set to rev.
func revisionDir(t *testing.T, source, rev string) string {
	t.Helper()
	dir := t.TempDir()
	require.NoError(t, os.CopyFS(dir, os.DirFS(source)))
	manifest := filepath.Join(dir, ".manifest")
	data, err := os.ReadFile(manifest)
	require.NoError(t, err)
	changed := strings.Replace(string(data), `"revision": "dev"`, `"revision": "`+rev+`"`, 1)
	require.NotEqual(t, string(data), changed)
	require.NoError(t, os.WriteFile(manifest, []byte(changed), 0o644))
	return dir
}

// replaceFile replaces path with data by renaming a new file over it:
// each file is always whole, but a directory updated file by file is
// half old and half new in between.
func replaceFile(t *testing.T, path string, data []byte) {
	tmp := path + ".new"
	if err := os.WriteFile(tmp, data, 0o644); err != nil {
		t.Error(err)
		return
	}
	if err := os.Rename(tmp, path); err != nil {
		t.Error(err)
	}
}

// checkServesOneRevision decides a refused call and requires the
// message to be the one of the revision that decided.
func checkServesOneRevision(t *testing.T, e *engine.Engine) string {
	t.Helper()
	d, err := e.Decide(context.Background(), engine.JSON([]byte(refusedInput)))
	require.NoError(t, err)
	marked := strings.HasSuffix(d.Decisions[0].Message, "(rev-b)")
	require.Equal(t, d.Revision == "rev-b", marked, "torn policy: revision %q decided with message %q", d.Revision, d.Decisions[0].Message)
	return d.Revision
}

// signedDir is a bundle directory (no tests) with revision rev, signed
// with `opa sign` by the private key.
func signedDir(t *testing.T, source, rev, private string) string {
	t.Helper()
	dir := revisionDir(t, source, rev)
	require.NoError(t, filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && (strings.HasSuffix(path, "_test.rego") || strings.HasSuffix(path, ".go")) {
			return os.Remove(path)
		}
		return err
	}))
	bin, err := harness.OPABinary()
	require.NoError(t, err)
	// From inside the directory, so that the signed file names are
	// relative to the bundle root.
	cmd := exec.Command(bin, "sign", "--signing-key", private, "--bundle", ".")
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, string(out))
	_, err = os.Stat(filepath.Join(dir, ".signatures.json"))
	require.NoError(t, err)
	return dir
}

// TestReloadWhileSignedDirectoryChangesInPlace: a writer keeps updating
// a signed bundle directory in place, file by file, between two signed
// revisions whose not_allowed message differs, while an engine that
// verifies signatures reloads it. A reload may be refused (the directory
// changed while it was read, or its files do not match the signature),
// but the policy loaded is always one revision, labelled with its own
// revision. (Without a key, a directory caught half updated between two
// identical readings would load as it is: replace directories
// atomically, as TestReloadFollowsAnAtomicSymlinkSwap does.)
func TestReloadWhileSignedDirectoryChangesInPlace(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	private, public := signingKey(t)
	key, err := os.ReadFile(public)
	require.NoError(t, err)
	revA := signedDir(t, harness.PoliciesDir(), "rev-a", private)
	revB := signedDir(t, changedPolicies(t, "rev-b"), "rev-b", private)
	live := t.TempDir()
	require.NoError(t, os.CopyFS(live, os.DirFS(revA)))
	// The rule first, the revision and the signature last.
	files := []string{filepath.Join("tooleval", "verdict", "messages.rego"), ".manifest", ".signatures.json"}
	contents := map[string][2][]byte{}
	for _, f := range files {
		a, err := os.ReadFile(filepath.Join(revA, f))
		require.NoError(t, err)
		b, err := os.ReadFile(filepath.Join(revB, f))
		require.NoError(t, err)
		contents[f] = [2][]byte{a, b}
	}
	e, err := engine.New(ctx, engine.WithBundle(live), engine.WithVerificationKey(engine.VerificationKey{Key: string(key)}))
	require.NoError(t, err)

	var stop atomic.Bool
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := 0; !stop.Load(); i++ {
			for _, f := range files {
				replaceFile(t, filepath.Join(live, f), contents[f][(i+1)%2])
				time.Sleep(time.Duration(rand.IntN(2000)) * time.Microsecond) // a slow copy
			}
		}
	}()
	loaded, refused := map[string]int{}, 0
	for range 30 {
		if err := e.Reload(ctx, live); err != nil {
			refused++
		}
		loaded[checkServesOneRevision(t, e)]++
	}
	stop.Store(true)
	wg.Wait()
	t.Logf("30 reloads during in-place updates: %d refused; decisions by revision %v", refused, loaded)
}

// TestReloadFollowsAnAtomicSymlinkSwap: the documented way to replace a
// bundle directory. A symbolic link is renamed back and forth between
// two revisions while the engine reloads through it: every reload
// succeeds, and every policy is one revision.
func TestReloadFollowsAnAtomicSymlinkSwap(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	revA := revisionDir(t, harness.PoliciesDir(), "rev-a")
	revB := revisionDir(t, changedPolicies(t, "rev-b"), "rev-b")
	links := t.TempDir()
	current := filepath.Join(links, "current")
	require.NoError(t, os.Symlink(revA, current))
	e, err := engine.New(ctx, engine.WithBundle(current))
	require.NoError(t, err)

	var stop atomic.Bool
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := 0; !stop.Load(); i++ {
			// ln -s new tmp && mv -T tmp current
			tmp := filepath.Join(links, "tmp")
			if err := os.Symlink([]string{revB, revA}[i%2], tmp); err != nil {
				t.Error(err)
				return
			}
			if err := os.Rename(tmp, current); err != nil {
				t.Error(err)
				return
			}
			time.Sleep(time.Duration(rand.IntN(3000)) * time.Microsecond)
		}
	}()
	loaded := map[string]int{}
	for range 10 {
		require.NoError(t, e.Reload(ctx, current))
		loaded[checkServesOneRevision(t, e)]++
	}
	stop.Store(true)
	wg.Wait()
	t.Logf("10 reloads during symlink swaps: decisions by revision %v", loaded)
}

// TestReloadRefusesADirectoryChangingWhileRead: a file of the bundle is
// rewritten without pause while the engine reloads the directory. A
// reload that notices its two readings differ (three times) is refused
// with ErrBundleChanged, and the last good policy keeps serving; one that
// reads the same bytes twice (the writer was not scheduled meanwhile)
// loads them. The test reloads twenty times, and on until one notices,
// at most 200 times.
func TestReloadRefusesADirectoryChangingWhileRead(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	// On a tmpfs, so that the writer rewrites the file many times during
	// one reading (on the build machine's disk it managed one write in 3 ms).
	live := filepath.Join(mountTmpfs(t, "64m"), "bundle")
	require.NoError(t, os.CopyFS(live, os.DirFS(revisionDir(t, harness.PoliciesDir(), "rev-a"))))
	e, err := engine.New(ctx, engine.WithBundle(live))
	require.NoError(t, err)
	noise := filepath.Join(live, "NOTES.txt") // a file the loader reads and OPA ignores
	require.NoError(t, os.WriteFile(noise, []byte("0"), 0o644))
	require.NoError(t, e.Reload(ctx, live))

	var stop atomic.Bool
	var wg sync.WaitGroup
	started := make(chan struct{})
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := 0; !stop.Load(); i++ {
			replaceFile(t, noise, []byte(strconv.Itoa(i)))
			if i == 10 {
				close(started)
			}
		}
	}()
	<-started
	// Reload twenty times, and on until one notices (a busy machine may
	// not run the writer during some reloads' two readings); every reload
	// must either load or be refused as changed, and serve one revision.
	changed, reloads := 0, 0
	for ; (changed == 0 || reloads < 20) && reloads < 200; reloads++ {
		err := e.Reload(ctx, live)
		if err != nil {
			require.ErrorIs(t, err, engine.ErrBundleChanged)
			require.Contains(t, err.Error(), "symbolic link", "the error says what to do")
			changed++
		}
		require.Equal(t, "rev-a", checkServesOneRevision(t, e))
	}
	stop.Store(true)
	wg.Wait()
	t.Logf("%d reloads while a file was rewritten: %d refused as changed", reloads, changed)
	require.Positive(t, changed, "no reload noticed the directory changing")
}

// mountTmpfs mounts a tmpfs of the given size on a new directory and
// unmounts it when the test ends. It skips the test, saying why, where
// mounting is impossible (not root, or no mount permission).
func mountTmpfs(t *testing.T, size string) string {
	t.Helper()
	dir := t.TempDir()
	out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size="+size, "tmpfs", dir).CombinedOutput()
	if err != nil {
		t.Skipf("cannot mount a tmpfs to inject the fault (needs root): %v: %s", err, out)
	}
	t.Cleanup(func() { _ = exec.Command("umount", dir).Run() })
	return dir
}
