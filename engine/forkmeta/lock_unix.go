//go:build unix

package forkmeta

import (
	"errors"
	"os"
	"syscall"
)

// lockDirectory takes the exclusive lock that writers of sidecars in dir
// hold while they write, waiting for a writer that holds it. The kernel
// releases it if the process dies.
func lockDirectory(dir string) (unlock func(), err error) {
	d, err := os.Open(dir)
	if err != nil {
		return nil, err
	}
	for {
		err = syscall.Flock(int(d.Fd()), syscall.LOCK_EX)
		if !errors.Is(err, syscall.EINTR) {
			break
		}
	}
	if err != nil {
		d.Close()
		return nil, err
	}
	return func() { d.Close() }, nil
}

// removeIfStale removes a temporary. The caller holds the directory's
// lock, so the temporary's writer has died.
func removeIfStale(name string) {
	_ = os.Remove(name)
}
