// Package forkmeta persists a fork's execution allowlist in the agent-meta
// sidecar file next to its transcript, and reads it back on revival.
//
// The file is JSON: {"version": 1, "execution_allowed_tools": [...]}. The
// field is absent for an unrestricted fork and [] for a deny-all one.
// Reading fails closed: a sidecar that is missing, unreadable, truncated,
// not a JSON object (null included), of an unknown version, or whose
// field is not a list of strings (a null member included) revives the
// fork as deny-all, with an error saying why. Only a well-formed
// sidecar without the field (as written before the field existed)
// revives it unrestricted.
package forkmeta

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Version is the sidecar format this package writes.
const Version = 1

// fieldName is the sidecar member that holds the allowlist.
const fieldName = "execution_allowed_tools"

// ErrCorrupt is wrapped by every error that made [Read] fail closed.
var ErrCorrupt = errors.New("fork sidecar cannot be trusted")

// Restriction is a fork's persisted execution allowlist.
type Restriction struct {
	// Restricted is false for an unrestricted fork.
	Restricted bool
	// Allow is the allowlist of a restricted fork (empty: deny-all).
	Allow []string
}

// Unrestricted is the restriction of a fork launched without fork_tools.
var Unrestricted = Restriction{}

// DenyAll is the restriction a fork revives with when its sidecar cannot
// be trusted.
func DenyAll() Restriction { return Restriction{Restricted: true, Allow: []string{}} }

// PathFor is the sidecar path for a transcript: the transcript's path
// with its extension replaced by ".agent-meta.json".
func PathFor(transcript string) string {
	return strings.TrimSuffix(transcript, filepath.Ext(transcript)) + ".agent-meta.json"
}

type sidecar struct {
	Version int       `json:"version"`
	Allow   *[]string `json:"execution_allowed_tools,omitempty"`
}

// Write persists r at path atomically: a temporary file in the same
// directory is written, synced and renamed over path, and the directory
// is synced, so a crash leaves the old sidecar or the new one, never a
// torn file.
//
// The temporary is named after the sidecar (".fork-1.agent-meta.json.*.tmp"
// for "fork-1.agent-meta.json"). On Unix, writers in one directory take
// turns: each holds an exclusive flock(2) on the directory from before it
// creates its temporary until after the rename. A writer killed mid-write
// leaves its temporary behind, and the kernel drops its lock; the next
// Write of the same sidecar, holding the lock, knows that every temporary
// of that sidecar is stale and removes it. The temporaries of other
// sidecars are left to their own next write. (Elsewhere, without flock,
// only temporaries older than ten minutes are removed.)
func Write(path string, r Restriction) error {
	doc := sidecar{Version: Version}
	if r.Restricted {
		allow := append([]string{}, r.Allow...)
		doc.Allow = &allow
	}
	data, err := json.Marshal(doc)
	if err != nil {
		return fmt.Errorf("encode fork sidecar: %w", err)
	}
	dir := filepath.Dir(path)
	unlock, err := lockDirectory(dir)
	if err != nil {
		return fmt.Errorf("write fork sidecar: lock %s: %w", dir, err)
	}
	defer unlock()
	removeStaleTemporaries(path)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return fmt.Errorf("write fork sidecar: %w", err)
	}
	defer os.Remove(tmp.Name()) // a no-op once renamed
	if _, err := tmp.Write(append(data, '\n')); err != nil {
		tmp.Close()
		return fmt.Errorf("write fork sidecar: %w", err)
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return fmt.Errorf("sync fork sidecar: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("close fork sidecar: %w", err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("install fork sidecar: %w", err)
	}
	if d, err := os.Open(dir); err == nil {
		defer d.Close()
		if err := d.Sync(); err != nil {
			return fmt.Errorf("sync sidecar directory: %w", err)
		}
	}
	return nil
}

// removeStaleTemporaries removes the temporaries of path's sidecar that
// no live writer can own (see [Write]). It is best effort: what it cannot
// remove stays for the next write.
func removeStaleTemporaries(path string) {
	dir := filepath.Dir(path)
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	prefix := "." + filepath.Base(path) + "."
	for _, entry := range entries {
		name := entry.Name()
		if !entry.Type().IsRegular() || !strings.HasPrefix(name, prefix) || !strings.HasSuffix(name, ".tmp") {
			continue
		}
		removeIfStale(filepath.Join(dir, name))
	}
}

// Read returns the restriction persisted at path. On any error it returns
// [DenyAll] with an error wrapping [ErrCorrupt].
func Read(path string) (Restriction, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return DenyAll(), fmt.Errorf("%w: %w", ErrCorrupt, err)
	}
	return Parse(data)
}

// Parse is [Read] for the sidecar's bytes.
func Parse(data []byte) (Restriction, error) {
	var members map[string]json.RawMessage
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&members); err != nil {
		return DenyAll(), fmt.Errorf("%w: not a JSON object: %w", ErrCorrupt, err)
	}
	if members == nil { // the document was null
		return DenyAll(), fmt.Errorf("%w: not a JSON object: null", ErrCorrupt)
	}
	if rest := bytes.Trim(data[dec.InputOffset():], " \t\r\n"); len(rest) > 0 { // JSON white space only
		return DenyAll(), fmt.Errorf("%w: trailing data after the JSON object", ErrCorrupt)
	}
	if raw, ok := members["version"]; ok {
		var v int
		if err := json.Unmarshal(raw, &v); err != nil || v != Version {
			return DenyAll(), fmt.Errorf("%w: unknown version %s", ErrCorrupt, raw)
		}
	}
	raw, ok := members[fieldName]
	if !ok {
		return Unrestricted, nil
	}
	allow, err := stringList(raw)
	if err != nil {
		return DenyAll(), fmt.Errorf("%w: %s must be a list of strings: %w", ErrCorrupt, fieldName, err)
	}
	return Restriction{Restricted: true, Allow: allow}, nil
}

// stringList decodes a JSON list whose every member is a string. Unlike
// json.Unmarshal into []string, it refuses null, for the list and for a
// member (which json.Unmarshal would turn into "" without an error).
func stringList(raw json.RawMessage) ([]string, error) {
	var members []json.RawMessage
	if err := json.Unmarshal(raw, &members); err != nil || members == nil {
		return nil, fmt.Errorf("got %s", raw)
	}
	allow := make([]string, len(members))
	for i, m := range members {
		if bytes.TrimSpace(m)[0] != '"' {
			return nil, fmt.Errorf("member %d is %s", i, m)
		}
		if err := json.Unmarshal(m, &allow[i]); err != nil {
			return nil, fmt.Errorf("member %d: %w", i, err)
		}
	}
	return allow, nil
}
