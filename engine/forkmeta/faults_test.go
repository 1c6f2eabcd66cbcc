package forkmeta

import (
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// writerEnv makes the test binary a sidecar writer (see TestSidecarWriterProcess).
const writerEnv = "TOOLEVAL_FORKMETA_WRITER"

// TestMain runs the test binary as a sidecar writer when writerEnv
// names a sidecar: it rewrites it until it is killed (see
// TestKilledWriterLeavesNoTemporary).
func TestMain(m *testing.M) {
	if path := os.Getenv(writerEnv); path != "" {
		allow := make([]string, 2000)
		for i := range allow {
			allow[i] = fmt.Sprintf("mcp__server_%d__tool_*", i)
		}
		for {
			if err := Write(path, Restriction{Restricted: true, Allow: allow}); err != nil {
				fmt.Fprintln(os.Stderr, err)
				os.Exit(3)
			}
		}
	}
	os.Exit(m.Run())
}

// temporaries lists the .tmp files in dir.
func temporaries(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	var out []string
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".tmp") {
			out = append(out, e.Name())
		}
	}
	return out
}

// TestKilledWriterLeavesNoTemporary: a writer process is killed with
// SIGKILL at a random moment, over and over. A kill in the middle of a
// write leaves its temporary; the next write of the same sidecar removes
// it, and leaves another sidecar's temporary alone. The sidecar itself is
// never torn.
func TestKilledWriterLeavesNoTemporary(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "fork-1.agent-meta.json")
	other := filepath.Join(dir, ".fork-2.agent-meta.json.123.tmp") // another sidecar's, left by a dead writer
	require.NoError(t, os.WriteFile(other, []byte("{"), 0o600))

	left, kills := 0, 0
	for ; kills < 60 && left < 5; kills++ {
		_ = os.Remove(path)
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), writerEnv+"="+path)
		require.NoError(t, cmd.Start())
		require.Eventually(t, func() bool { _, err := os.Stat(path); return err == nil }, 30*time.Second, time.Millisecond)
		time.Sleep(time.Duration(rand.IntN(20_000)) * time.Microsecond)
		require.NoError(t, cmd.Process.Signal(syscall.SIGKILL))
		_ = cmd.Wait()

		if len(temporaries(t, dir)) > 1 {
			left++
		}
		r, err := Read(path)
		require.NoError(t, err, "a killed writer tore the sidecar")
		require.Len(t, r.Allow, 2000)

		require.NoError(t, Write(path, Restriction{Restricted: true, Allow: []string{"read_file"}}))
		require.Equal(t, []string{filepath.Base(other)}, temporaries(t, dir),
			"after kill %d the next write left temporaries behind", kills+1)
	}
	t.Logf("%d kills, %d left a temporary that the next write removed", kills, left)
	require.Positive(t, left, "no kill landed mid-write; the test could not tell")
}

// TestWriteWaitsForALiveWriter: while a live writer holds the
// directory's lock with its temporary, another write of the same sidecar
// waits for it instead of taking the temporary for stale.
func TestWriteWaitsForALiveWriter(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "fork-1.agent-meta.json")
	unlock, err := lockDirectory(dir)
	require.NoError(t, err)
	live := filepath.Join(dir, ".fork-1.agent-meta.json.42.tmp")
	require.NoError(t, os.WriteFile(live, []byte(`{"version":1}`), 0o600))

	done := make(chan error)
	go func() { done <- Write(path, DenyAll()) }()
	select {
	case err := <-done:
		t.Fatalf("the write did not wait for the live writer: %v", err)
	case <-time.After(200 * time.Millisecond):
	}
	_, err = os.Stat(live)
	require.NoError(t, err, "a live writer's temporary was removed")
	require.NoError(t, os.Rename(live, path)) // the live writer installs its sidecar
	unlock()
	require.NoError(t, <-done)
	r, err := Read(path)
	require.NoError(t, err)
	require.Equal(t, DenyAll(), r)
	require.Empty(t, temporaries(t, dir))
}

// TestConcurrentWritersOfOneSidecar: writers of the same sidecar racing
// each other all succeed, and what is left is one of their sidecars and
// no temporary.
func TestConcurrentWritersOfOneSidecar(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "fork-1.agent-meta.json")
	var wg sync.WaitGroup
	errs := make(chan error, 8*25)
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 25 {
				errs <- Write(path, Restriction{Restricted: true, Allow: []string{fmt.Sprint("tool_", g)}})
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		require.NoError(t, err)
	}
	r, err := Read(path)
	require.NoError(t, err)
	require.Len(t, r.Allow, 1)
	require.Empty(t, temporaries(t, dir))
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

// TestWriteOnAFullDiskKeepsTheOldSidecar: on a full file system the
// write fails with an error, the old sidecar is intact, and no
// temporary is left.
func TestWriteOnAFullDiskKeepsTheOldSidecar(t *testing.T) {
	dir := mountTmpfs(t, "64k")
	path := filepath.Join(dir, "fork-1.agent-meta.json")
	require.NoError(t, Write(path, Restriction{Restricted: true, Allow: []string{"read_file"}}))
	// Fill the disk.
	filler, err := os.Create(filepath.Join(dir, "filler"))
	require.NoError(t, err)
	chunk := make([]byte, 4096)
	for {
		if _, err := filler.Write(chunk); err != nil {
			break
		}
	}
	require.NoError(t, filler.Close())

	big := make([]string, 5000)
	for i := range big {
		big[i] = fmt.Sprintf("tool_%d", i)
	}
	err = Write(path, Restriction{Restricted: true, Allow: big})
	require.ErrorIs(t, err, syscall.ENOSPC)
	r, err := Read(path)
	require.NoError(t, err)
	require.Equal(t, []string{"read_file"}, r.Allow)
	require.Empty(t, temporaries(t, dir))
}
