// Package importer is what the importers share. An importer reads the
// permission rules a team already has for its agent runtime into a
// tooleval configuration overlay (docs/import.md), so that nobody
// rewrites them by hand: claudecode, codex and gemini below, one package
// a runtime. Each follows the runtime's documented semantics; whatever
// tooleval cannot express exactly is carried in its stricter reading and
// reported as a Note.
package importer

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/tooleval/tooleval/engine/canonical"
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

// NewResult is an import's Result: the overlay, with the MCP servers its
// entries name declared (declareMCPServers), and the notes, then a note
// for each deny of a whole tool that leaves allow entries unreachable
// (unreachableAllows). Every importer returns through it.
func NewResult(overlay map[string]any, notes []Note) Result {
	declareMCPServers(overlay)
	return Result{Overlay: overlay, Notes: append(notes, unreachableAllows(overlay)...)}
}

// declareMCPServers lists in the overlay's config.mcp_servers every MCP
// server its entries name, in canonical form, sorted, each once: the
// server of every mcp__S__T, mcp__S__P* and mcp__S entry of its lists
// (allow, deny, ask, in any section), of an argument rule's tool and of
// its exceptions' (unless). The overlay names them because the rules
// imported do, so tooleval check --strict must know them
// (unknown_mcp_server is for a server one part of a configuration
// misspells). Nothing is added when no entry names a server.
func declareMCPServers(overlay map[string]any) {
	servers := map[string]bool{}
	var walk func(v any)
	walk = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			for _, member := range v {
				walk(member)
			}
		case []any:
			for _, e := range v {
				entryServers(e, servers)
			}
		case []string:
			for _, e := range v {
				entryServers(e, servers)
			}
		}
	}
	walk(overlay)
	if len(servers) == 0 {
		return
	}
	list := make([]string, 0, len(servers))
	for s := range servers {
		list = append(list, s)
	}
	slices.Sort(list)
	overlay["mcp_servers"] = AnyList(list)
}

// entryServers adds to servers the MCP server an entry of a list names:
// a name or pattern, or an argument rule's tool and its exceptions'.
func entryServers(entry any, servers map[string]bool) {
	switch e := entry.(type) {
	case string:
		if s := mcpServer(e); s != "" {
			servers[s] = true
		}
	case map[string]any:
		if tool, ok := e["tool"].(string); ok {
			entryServers(tool, servers)
		}
		if unless, ok := e["unless"].([]any); ok {
			for _, x := range unless {
				entryServers(x, servers)
			}
		}
	}
}

// mcpServer is the canonical server an entry names, as the policy's
// grammar reads it (tooleval.pattern.parse: the text between mcp__ and
// the next __), or "" for an entry that names none (a built-in, mcp__*,
// an entry the grammar refuses).
func mcpServer(entry string) string {
	c := canonical.Canonical(entry)
	body, ok := strings.CutPrefix(c, "mcp__")
	if !ok || body == "*" {
		return ""
	}
	server := body
	if i := strings.Index(strings.TrimSuffix(body, "*"), "__"); i >= 0 {
		server = body[:i]
	} else if strings.HasSuffix(body, "*") {
		return "" // mcp__S* is no entry: mcp__S__P* is
	}
	if server == "" || server != strings.TrimSpace(server) || strings.Contains(server, "*") {
		return ""
	}
	return server
}

// ErrInvalid marks a file that is not valid settings of the runtime: the
// import stops, and nothing is printed but the error.
var ErrInvalid = errors.New("not valid settings")

// Invalid is the error of a file that is not valid settings of the
// runtime, at location: it wraps ErrInvalid.
func Invalid(location, format string, args ...any) error {
	return fmt.Errorf("%s: %w: %s", location, ErrInvalid, fmt.Sprintf(format, args...))
}

// EntryList is an overlay list: name entries and argument rules, in
// order, each once.
type EntryList struct {
	items []any
	seen  map[string]bool
}

// Add appends entry to the list unless the list has it.
func (l *EntryList) Add(entry any) {
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

// Len is how many entries the list has.
func (l *EntryList) Len() int { return len(l.items) }

// Entries are the entries in order (nil when there are none).
func (l *EntryList) Entries() []any { return l.items }

// List is the entries as a JSON array (empty, not null, when there are
// none).
func (l *EntryList) List() []any {
	if l.items == nil {
		return []any{}
	}
	return l.items
}

// IsShellWrapper reports whether program (the last segment of a path) is
// one the policy's shell reading treats as a wrapper: no allow rule may
// start with one.
func IsShellWrapper(program string) bool { return shellWrappers[program] }

// shellWrappers are the programs the policy's shell reading treats as
// wrappers (tooleval.arguments.shell.shell_wrappers): no allow rule may start
// with one. TestShellWrappersAreThePolicys holds the two lists equal, the
// policy's as OPA evaluates it.
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
	"watch": true, "while": true, "xargs": true, "zsh": true, "{": true, "}": true,
}

// AnyList is names as a JSON array's elements.
func AnyList(names []string) []any {
	out := make([]any, len(names))
	for i, n := range names {
		out[i] = n
	}
	return out
}

// MaxToken is the longest token, or command prefix, an importer writes
// into a rule (a rule's command is at most 10,000 characters).
const MaxToken = 1000

// PlainShellWord matches a word a shell reads as itself: an importer
// writes only such words into a command rule.
var PlainShellWord = regexp.MustCompile(`^[A-Za-z0-9_@%+=:,./-]+$`)

// SortedKeys are the keys of m, sorted.
func SortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// JSONProblem says what is wrong with a JSON document that does not
// decode into the settings an importer reads, in the document's terms:
// which member holds what kind of value where another is read (never a
// Go type's name), or the syntax error.
func JSONProblem(err error) string {
	var te *json.UnmarshalTypeError
	if !errors.As(err, &te) {
		return err.Error()
	}
	where := "the document"
	if te.Field != "" {
		where = te.Field
	}
	return fmt.Sprintf("%s is a JSON %s, not %s", where, te.Value, jsonKind(te.Type))
}

// jsonKind is the kind of JSON value a Go type is read from.
func jsonKind(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Map, reflect.Struct:
		return "an object"
	case reflect.Slice, reflect.Array:
		return "an array"
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "a boolean"
	default:
		return "a number"
	}
}
