// Package hostpath resolves a path argument on the host the way the
// filesystem will: relative to the workspace root, cleaned, and with
// every symbolic link followed, so that the policy judges the file a
// tool would really touch.
//
// # What resolution cannot promise
//
// Resolution reads the file system at decision time. Nothing stops a
// process from changing a link between the decision and the moment the
// tool opens the file (a time-of-check to time-of-use race): a link that
// pointed inside the workspace when the call was allowed can point at
// ~/.ssh when the tool writes. The decision is only as good as the
// executor's open. An executor that writes must therefore not follow
// links the policy did not see:
//
//   - open the file through an [os.Root] opened on the workspace root
//     (Go 1.24 and later), which refuses any path, link target included,
//     that leaves the root; or
//   - open the resolved path the decision was made on with O_NOFOLLOW
//     (and each directory on the way with O_NOFOLLOW|O_DIRECTORY, or
//     openat2 with RESOLVE_NO_SYMLINKS on Linux), so that a link swapped
//     in after the decision makes the open fail instead of redirecting it.
//
// Reads that must stay inside the read roots need the same care.
package hostpath

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"slices"
	"strings"
	"syscall"

	"golang.org/x/text/unicode/norm"
)

// MaxHops is the most symbolic links one resolution follows.
const MaxHops = 8

// Errors of [Resolve]; every one means the path cannot be trusted and the
// call must be refused.
var (
	// ErrLoop: following the links comes back to a state it was in (the
	// same link with the same rest of the path), so it would never end.
	ErrLoop        = errors.New("symbolic link loop")
	ErrTooManyHops = fmt.Errorf("more than %d symbolic links", MaxHops)
	ErrInvalid     = errors.New("invalid path")
	// ErrLexical: the path has a ".." that names another file when it is
	// applied to the path as written (as path.Clean, Node's path.resolve
	// and many servers do before they open it) than when the links before
	// it are followed first (as the kernel does).
	ErrLexical = errors.New(`".." names another file before links are followed than after`)
	// ErrEquivalent: a component that is not on disk is equivalent, under
	// Unicode normalization (NFC), to an entry of its directory that is:
	// a server that matches names that way would open that entry.
	ErrEquivalent = errors.New("a component is equivalent under Unicode normalization to another entry of its directory")
)

// Resolve returns the absolute, clean path that p names on the host, with
// symbolic links followed (at most [MaxHops]) and ".." taken from where
// the links lead, as the kernel does. A relative p is taken relative to
// root, which must be absolute. Components that do not exist yet (a file
// about to be written) are kept as they are; a component that cannot be
// read is an error. A path starting with "~" or "$" is refused with
// [ErrInvalid]: only a shell expands them, and taking "~/.bashrc"
// relative to the root would judge a file the tool may never touch.
//
// Resolution never guesses between two readings of p that name
// different files:
//
//   - a p with ".." whose lexical reading (".." applied to the path as
//     written, then links followed) differs from its physical reading
//     (links followed first) is refused with [ErrLexical];
//   - a component that is not on disk while its directory holds an entry
//     equal to it under Unicode normalization form C (and no entry of
//     its exact name) is refused with [ErrEquivalent]: the MCP filesystem
//     server, for one, opens that entry.
//
// A path may pass through the same link more than once
// ("inside/../inside/x"); only a true cycle is [ErrLoop], and the hop cap
// ends every other chain. See the package documentation for what the
// result cannot promise once the decision is made.
func Resolve(root, p string) (string, error) {
	if p == "" || strings.ContainsRune(p, 0) {
		return "", fmt.Errorf("%w: %q", ErrInvalid, p)
	}
	if strings.HasPrefix(p, "~") || strings.HasPrefix(p, "$") {
		return "", fmt.Errorf("%w: %q starts with %q, which is never expanded", ErrInvalid, p, p[:1])
	}
	abs := p
	if !path.IsAbs(p) {
		if !path.IsAbs(root) {
			return "", fmt.Errorf("%w: relative path %q without an absolute workspace root", ErrInvalid, p)
		}
		abs = root + "/" + p
	}
	physical, err := follow(p, abs)
	if err != nil {
		return "", err
	}
	if !slices.Contains(components(abs), "..") {
		return physical, nil
	}
	lexical, err := follow(p, path.Clean(abs))
	if err != nil {
		return "", err
	}
	if lexical != physical {
		return "", fmt.Errorf("resolve %q: %w (%s, or %s)", p, ErrLexical, lexical, physical)
	}
	return physical, nil
}

// follow resolves the absolute path abs (p as given, for errors) with
// every link followed.
func follow(p, abs string) (string, error) {
	pending := components(abs)
	resolved := "/"
	hops := 0
	// A state is a link about to be followed with the rest of the path
	// after it; resolution is deterministic, so meeting a state again
	// means it would cycle for ever.
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
			if err := noEquivalent(resolved, c); err != nil {
				return "", fmt.Errorf("resolve %q: %w", p, err)
			}
			resolved = next
			continue
		case err != nil:
			return "", fmt.Errorf("resolve %q: %w", p, err)
		case info.Mode()&fs.ModeSymlink == 0:
			resolved = next
			continue
		}
		state := next + "\x00" + strings.Join(pending, "/")
		if seen[state] {
			return "", fmt.Errorf("resolve %q: %w at %s", p, ErrLoop, next)
		}
		if hops++; hops > MaxHops {
			return "", fmt.Errorf("resolve %q: %w", p, ErrTooManyHops)
		}
		seen[state] = true
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

// noEquivalent checks that directory dir, in which name is not, holds no
// entry equal to name under Unicode normalization form C. A dir that is
// not there (or not a directory) holds nothing; a dir that cannot be read
// is an error.
func noEquivalent(dir, name string) error {
	f, err := os.Open(dir)
	if errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("list %s: %w", dir, err)
	}
	defer f.Close()
	want := norm.NFC.String(name)
	for {
		names, err := f.Readdirnames(1024)
		for _, entry := range names {
			if entry != name && norm.NFC.String(entry) == want {
				return fmt.Errorf("%w: %q and %q in %s", ErrEquivalent, name, entry, dir)
			}
		}
		if errors.Is(err, io.EOF) || (err == nil && len(names) == 0) {
			return nil
		}
		if errors.Is(err, syscall.ENOTDIR) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("list %s: %w", dir, err)
		}
	}
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
