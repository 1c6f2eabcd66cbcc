//go:build !unix

package forkmeta

import (
	"os"
	"time"
)

// staleAfter is how old a temporary must be before another writer
// removes it, where there is no flock(2) to tell a live writer from a
// dead one.
const staleAfter = 10 * time.Minute

func lockDirectory(string) (func(), error) { return func() {}, nil }

func removeIfStale(name string) {
	info, err := os.Stat(name)
	if err != nil || time.Since(info.ModTime()) < staleAfter {
		return
	}
	_ = os.Remove(name)
}
