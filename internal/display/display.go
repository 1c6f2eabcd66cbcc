// Package display renders ids, names and other JSON values for people:
// terminal tables, the diff report. Look-alikes cannot hide in what it
// renders: a string is shown without JSON quotes when it is plain
// printable ASCII without white space; otherwise every character outside
// printable ASCII is escaped (\uXXXX, \UXXXXXXXX above the BMP: invisible
// and formatting characters, bidirectional controls, non-ASCII letters
// such as a Cyrillic а or a fullwidth Ｓ), a backslash is doubled, and a
// string that is empty or holds a space or a double quote is quoted
// (" search " keeps its padding visible). Any other value is shown as
// JSON, with the same characters escaped as JSON escapes them. Machine
// output (JSON) keeps values as they are.
package display

import (
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf16"
)

// Value renders v for a table cell or a report (see the package
// documentation).
func Value(v any) string {
	s, ok := v.(string)
	if !ok {
		var b strings.Builder
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(v); err != nil {
			return Text(fmt.Sprint(v))
		}
		return asciiJSON(strings.TrimSuffix(b.String(), "\n"))
	}
	return Text(s)
}

// asciiJSON escapes every character of a JSON text outside printable
// ASCII (they can only be inside its strings) as JSON does (\uXXXX,
// surrogate pairs above the BMP).
func asciiJSON(s string) string {
	var out strings.Builder
	for _, r := range s {
		switch {
		case r >= 0x20 && r < 0x7f:
			out.WriteRune(r)
		case r > 0xffff:
			r1, r2 := utf16.EncodeRune(r)
			fmt.Fprintf(&out, `\u%04x\u%04x`, r1, r2)
		default:
			fmt.Fprintf(&out, `\u%04x`, r)
		}
	}
	return out.String()
}

// Text renders a string as Value does.
func Text(s string) string {
	quote := s == "" || strings.ContainsAny(s, ` "`)
	var out strings.Builder
	if quote {
		out.WriteByte('"')
	}
	for _, r := range s {
		switch {
		case r == '\\':
			out.WriteString(`\\`)
		case r == '"':
			out.WriteString(`\"`)
		case r >= 0x20 && r < 0x7f:
			out.WriteRune(r)
		case r > 0xffff:
			fmt.Fprintf(&out, `\U%08x`, r)
		default: // controls, DEL, and everything outside ASCII (including invalid UTF-8, read as U+FFFD)
			fmt.Fprintf(&out, `\u%04x`, r)
		}
	}
	if quote {
		out.WriteByte('"')
	}
	return out.String()
}

// Escape renders free text (a message that quotes a name) with every
// character outside printable ASCII escaped as Text escapes it; nothing
// is quoted and a backslash is kept (a policy message escapes some
// characters itself). The name columns beside it are unambiguous.
func Escape(s string) string {
	var out strings.Builder
	for _, r := range s {
		switch {
		case r >= 0x20 && r < 0x7f:
			out.WriteRune(r)
		case r > 0xffff:
			fmt.Fprintf(&out, `\U%08x`, r)
		default:
			fmt.Fprintf(&out, `\u%04x`, r)
		}
	}
	return out.String()
}

// Plain reports whether Text shows s exactly as it is.
func Plain(s string) bool {
	return Text(s) == s
}
