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
//
// A long value is clipped: a string of more than maxRunes characters is
// shown as its first headRunes and last tailRunes characters around an
// ellipsis (…, the only character outside ASCII display writes: one in
// the value is escaped), then its length in bytes and the start of its
// SHA-256, so that two long values that differ anywhere still look
// different and a table stays readable. Free text (Escape) keeps more.
package display

import (
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// The clipping of long values (see the package documentation).
const (
	maxRunes  = 80
	headRunes = 48
	tailRunes = 16

	maxTextRunes  = 400
	headTextRunes = 280
	tailTextRunes = 80
)

// clip splits s into the head and tail it is shown by and the note that
// follows them, or returns ok false when s is short enough to show whole.
func clip(s string, most, head, tail int) (first, last, note string, ok bool) {
	n := utf8.RuneCountInString(s)
	if n <= most {
		return "", "", "", false
	}
	runes := []rune(s)
	sum := sha256.Sum256([]byte(s))
	return string(runes[:head]), string(runes[n-tail:]), fmt.Sprintf(" [%d bytes, sha256 %x]", len(s), sum[:4]), true
}

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
		text := strings.TrimSuffix(b.String(), "\n")
		if head, tail, note, ok := clip(text, maxRunes, headRunes, tailRunes); ok {
			return asciiJSON(head) + "…" + asciiJSON(tail) + note
		}
		return asciiJSON(text)
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
	if head, tail, note, ok := clip(s, maxRunes, headRunes, tailRunes); ok {
		writeEscaped(&out, head)
		out.WriteString("…")
		writeEscaped(&out, tail)
		if quote {
			out.WriteByte('"')
		}
		return out.String() + note
	}
	writeEscaped(&out, s)
	if quote {
		out.WriteByte('"')
	}
	return out.String()
}

// writeEscaped writes s as Text shows it, without quotes.
func writeEscaped(out *strings.Builder, s string) {
	for _, r := range s {
		switch {
		case r == '\\':
			out.WriteString(`\\`)
		case r == '"':
			out.WriteString(`\"`)
		case r >= 0x20 && r < 0x7f:
			out.WriteRune(r)
		case r > 0xffff:
			fmt.Fprintf(out, `\U%08x`, r)
		default: // controls, DEL, and everything outside ASCII (including invalid UTF-8, read as U+FFFD)
			fmt.Fprintf(out, `\u%04x`, r)
		}
	}
}

// Escape renders free text (a message that quotes a name) with every
// character outside printable ASCII escaped as Text escapes it; nothing
// is quoted and a backslash is kept (a policy message escapes some
// characters itself). The name columns beside it are unambiguous. Text
// of more than maxTextRunes characters is clipped like a long value.
func Escape(s string) string {
	if head, tail, note, ok := clip(s, maxTextRunes, headTextRunes, tailTextRunes); ok {
		return escapeText(head) + "…" + escapeText(tail) + note
	}
	return escapeText(s)
}

// EscapeAround escapes s as Escape does, except for each sep in it,
// which is written as it stands: a label such as "allowed → refused"
// keeps its arrow while what stands around it cannot hide look-alikes.
func EscapeAround(s, sep string) string {
	pieces := strings.Split(s, sep)
	for i, p := range pieces {
		pieces[i] = Escape(p)
	}
	return strings.Join(pieces, sep)
}

func escapeText(s string) string {
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
