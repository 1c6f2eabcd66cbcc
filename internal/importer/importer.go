// Package importer reads the permission rules a team already has for its
// agent runtime into a tooleval configuration overlay (docs/import.md),
// so that nobody rewrites them by hand. Each importer follows the
// runtime's documented semantics; whatever tooleval cannot express
// exactly is carried in its stricter reading and reported as a Note.
package importer

import (
	"encoding/json"
	"errors"
	"fmt"
)

// File is one file to import: where it came from (for the notes'
// locations) and its contents.
type File struct {
	Name string
	Data []byte
}

// Note reports one rule or setting that could not be carried over
// exactly, with what was done instead (always the stricter reading).
type Note struct {
	// Location is the file and the place in it: .claude/settings.json:
	// permissions.allow[2].
	Location string
	// Text says what could not be expressed and what the overlay does.
	Text string
}

// String is the note as the command line prints it.
func (n Note) String() string { return n.Location + ": " + n.Text }

// Result is an import: the configuration overlay (a JSON object that
// --config accepts) and the notes.
type Result struct {
	Overlay map[string]any
	Notes   []Note
}

// ErrInvalid marks a file that is not valid settings of the runtime: the
// import stops, and nothing is printed but the error.
var ErrInvalid = errors.New("not valid settings")

func invalid(location, format string, args ...any) error {
	return fmt.Errorf("%s: %w: %s", location, ErrInvalid, fmt.Sprintf(format, args...))
}

// entryList is an overlay list: name entries and argument rules, in
// order, each once.
type entryList struct {
	items []any
	seen  map[string]bool
}

func (l *entryList) add(entry any) {
	key, _ := json.Marshal(entry) // a string or a map of strings and maps: never fails
	if l.seen == nil {
		l.seen = map[string]bool{}
	}
	if l.seen[string(key)] {
		return
	}
	l.seen[string(key)] = true
	l.items = append(l.items, entry)
}

// list is the entries as a JSON array (empty, not null, when there are
// none).
func (l *entryList) list() []any {
	if l.items == nil {
		return []any{}
	}
	return l.items
}

// shellWrappers are the programs the policy's shell reading treats as
// wrappers (tooleval.arguments.shell_wrappers): no allow rule may start
// with one. TestShellWrappersAreThePolicys holds the two lists equal.
var shellWrappers = map[string]bool{
	"!": true, "bind": true, "compgen": true, "complete": true, "jobs": true, "mapfile": true, "readarray": true,
	"-": true, ".": true, "alias": true, "arch": true, "bash": true, "builtin": true, "busybox": true,
	"caffeinate": true, "case": true, "chroot": true, "chrt": true, "cmd": true, "command": true,
	"coproc": true, "csh": true, "dash": true, "declare": true, "do": true, "doas": true, "done": true,
	"elif": true, "else": true, "enable": true, "env": true, "esac": true, "eval": true, "exec": true,
	"export": true, "fc": true, "fi": true, "firejail": true, "fish": true, "flock": true, "for": true,
	"function": true, "hash": true, "if": true, "ionice": true, "ksh": true, "local": true, "mksh": true,
	"newgrp": true, "nice": true, "nocorrect": true, "noglob": true, "nohup": true, "nsenter": true,
	"parallel": true, "pkexec": true, "powershell": true, "prlimit": true, "pwsh": true, "readonly": true,
	"repeat": true, "runuser": true, "script": true, "select": true, "setpriv": true, "setsid": true,
	"sg": true, "sh": true, "source": true, "ssh": true, "stdbuf": true, "strace": true, "su": true,
	"sudo": true, "systemd-run": true, "taskset": true, "tcsh": true, "then": true, "time": true,
	"timeout": true, "trap": true, "typeset": true, "unalias": true, "unshare": true, "until": true,
	"watch": true, "while": true, "xargs": true, "zsh": true,
}
