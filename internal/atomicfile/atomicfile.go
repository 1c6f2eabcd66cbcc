// Package atomicfile writes the files the command line produces
// (bundles, reports) so that a reader, and the file's previous content,
// never see a part: the new content goes to a temporary file in the
// same directory, is synced, and is renamed over the file; a failure at
// any step removes the temporary and leaves the file as it was.
package atomicfile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// Write writes path with what write puts into its writer. The content
// goes to a temporary file in path's directory (named after it, ".NAME.*.tmp"),
// which is synced and then renamed over path; the directory is synced
// after. If write returns an error, or any step fails, the temporary is
// removed, path is left untouched, and the error is returned.
//
// A new file gets perm; a file that exists keeps its permissions. A
// symbolic link is followed: its target is replaced, the link stays.
// A path that exists and is not a regular file (a device such as
// /dev/stdout, a named pipe) cannot be replaced: it is written in place.
func Write(path string, perm fs.FileMode, write func(io.Writer) error) (err error) {
	if target, err := filepath.EvalSymlinks(path); err == nil {
		path = target
	}
	if info, err := os.Stat(path); err == nil {
		if !info.Mode().IsRegular() {
			return writeInPlace(path, write)
		}
		perm = info.Mode().Perm()
	} else if !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("write %s: %w", path, err)
	}
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		// the error names the temporary, which the caller never asked for
		var pathErr *fs.PathError
		if errors.As(err, &pathErr) {
			err = pathErr.Err
		}
		if errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("write %s: the directory %s does not exist (create it first)", path, dir)
		}
		return fmt.Errorf("write %s: %w", path, err)
	}
	renamed := false
	defer func() {
		if !renamed {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if err := write(tmp); err != nil {
		return err
	}
	if err := tmp.Chmod(perm); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := tmp.Sync(); err != nil {
		return fmt.Errorf("write %s: sync: %w", path, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	renamed = true
	if d, err := os.Open(dir); err == nil {
		defer d.Close()
		if err := d.Sync(); err != nil {
			return fmt.Errorf("write %s: sync directory: %w", path, err)
		}
	}
	return nil
}

// writeInPlace writes a file that cannot be replaced by a rename.
func writeInPlace(path string, write func(io.Writer) error) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_TRUNC, 0)
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := write(f); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}
