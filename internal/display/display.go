// Package display renders ids, names and other JSON values for a
// terminal table: strings as they are, without JSON quotes, except for
// control and bidirectional-formatting characters, which are escaped
// (\uXXXX) so that a name cannot hide text or reorder the line; any
// other value as JSON.
package display

import (
	"encoding/json"
	"fmt"
	"strings"
)

// Value renders v for a table cell.
func Value(v any) string {
	s, ok := v.(string)
	if !ok {
		b, err := json.Marshal(v)
		if err != nil {
			return fmt.Sprint(v)
		}
		return string(b)
	}
	if s == "" {
		return `""`
	}
	var out strings.Builder
	for _, r := range s {
		if escaped(r) {
			fmt.Fprintf(&out, "\\u%04x", r)
			continue
		}
		out.WriteRune(r)
	}
	return out.String()
}

// escaped: C0 and C1 controls, DEL, and the bidirectional formatting
// characters (LRM, RLM, ALM, the embeddings, overrides and isolates).
func escaped(r rune) bool {
	switch {
	case r < 0x20, r >= 0x7f && r < 0xa0:
		return true
	case r == 0x200e, r == 0x200f, r == 0x061c:
		return true
	case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
		return true
	}
	return false
}
