// Package hostpath resolves a path argument on the host the way the
// filesystem will: relative to the workspace root, cleaned, and with
// every symbolic link followed, so that the policy judges the file a
// tool would really touch.
package hostpath

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"strings"
)

// MaxHops is the most symbolic links one resolution follows.
const MaxHops = 8

// Errors of [Resolve]; every one means the path cannot be trusted and the
// call must be refused.
var (
	ErrLoop        = errors.New("symbolic link loop")
	ErrTooManyHops = fmt.Errorf("more than %d symbolic links", MaxHops)
	ErrInvalid     = errors.New("invalid path")
)

// Resolve returns the absolute, clean path that p names on the host, with
// symbolic links followed (at most [MaxHops]). A relative p is taken
// relative to root, which must be absolute. Components that do not exist
// yet (a file about to be written) are kept as they are; a component that
// cannot be read is an error.
func Resolve(root, p string) (string, error) {
	if p == "" || strings.ContainsRune(p, 0) {
		return "", fmt.Errorf("%w: %q", ErrInvalid, p)
	}
	if !path.IsAbs(p) {
		if !path.IsAbs(root) {
			return "", fmt.Errorf("%w: relative path %q without an absolute workspace root", ErrInvalid, p)
		}
		p = root + "/" + p
	}
	pending := components(p)
	resolved := "/"
	hops := 0
	seen := map[string]bool{}
	for len(pending) > 0 {
		c := pending[0]
		pending = pending[1:]
		if c == ".." {
			resolved = path.Dir(resolved)
			continue
		}
		next := path.Join(resolved, c)
		info, err := os.Lstat(next)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			resolved = next
			continue
		case err != nil:
			return "", fmt.Errorf("resolve %q: %w", p, err)
		case info.Mode()&fs.ModeSymlink == 0:
			resolved = next
			continue
		}
		if seen[next] {
			return "", fmt.Errorf("resolve %q: %w at %s", p, ErrLoop, next)
		}
		if hops++; hops > MaxHops {
			return "", fmt.Errorf("resolve %q: %w", p, ErrTooManyHops)
		}
		seen[next] = true
		target, err := os.Readlink(next)
		if err != nil {
			return "", fmt.Errorf("resolve %q: %w", p, err)
		}
		if path.IsAbs(target) {
			resolved = "/"
		}
		pending = append(components(target), pending...)
	}
	return resolved, nil
}

// components splits p into its non-empty segments other than ".".
func components(p string) []string {
	var out []string
	for _, c := range strings.Split(p, "/") {
		if c != "" && c != "." {
			out = append(out, c)
		}
	}
	return out
}
