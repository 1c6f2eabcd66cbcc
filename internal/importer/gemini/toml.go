package gemini

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"time"
)

// Gemini CLI reads its policy files with @iarna/toml (TOML 0.5) and
// skips a file that does not parse. The Go reader here takes TOML 1.1,
// so a file Gemini skips, and whose allow rules are therefore not in
// force there, would import. These checks refuse what TOML 0.5 does not
// take and the Go reader does (tomlNewer, mixedArray), and, to stay on
// the safe side of the two readers, dates, times and dotted keys, which
// a policy file has no need of (tomlDates, dottedKey).

// tomlNewer reports the first construct of text beyond TOML 0.5: the
// escapes \e and \x, an inline table over lines or ending in a comma,
// quotes just before a multi-line string's closing delimiter, a dotted
// key.
func tomlNewer(text string) error {
	var open []byte // the inline tables and arrays open at this point
	atKey := true   // a key may start here (a line's start, or after { or , in an inline table)
	for i := 0; i < len(text); i++ {
		c := text[i]
		if atKey && c != ' ' && c != '\t' && c != '\r' && c != '\n' && c != '#' {
			atKey = false
			if c != '[' && c != '}' {
				if err := dottedKey(text[i:]); err != nil {
					return err
				}
			}
		}
		switch {
		case c == '#':
			for i < len(text) && text[i] != '\n' {
				i++
			}
			i-- // the newline is read next
		case strings.HasPrefix(text[i:], `"""`), c == '"':
			end, err := basicString(text, i)
			if err != nil {
				return err
			}
			i = end
		case strings.HasPrefix(text[i:], `'''`):
			end := strings.Index(text[i+3:], `'''`)
			if end < 0 {
				return nil // the reader reports it
			}
			i += 3 + end + 2
			if i+1 < len(text) && text[i+1] == '\'' {
				return errors.New("quotes before a string's closing ''' (TOML 1.0; Gemini CLI's reader takes TOML 0.5)")
			}
		case c == '\'':
			end := strings.IndexAny(text[i+1:], "'\n")
			if end < 0 {
				return nil
			}
			i += 1 + end
		case c == '{' || c == '[':
			open = append(open, c)
			atKey = c == '{'
		case c == '}' || c == ']':
			if len(open) > 0 {
				open = open[:len(open)-1]
			}
		case c == '\n' && len(open) > 0 && open[len(open)-1] == '{':
			return errors.New("an inline table over several lines (TOML 1.1; Gemini CLI's reader takes TOML 0.5)")
		case c == '\n':
			atKey = len(open) == 0
		case c == ',' && len(open) > 0 && open[len(open)-1] == '{':
			rest := strings.TrimLeft(text[i+1:], " \t")
			if strings.HasPrefix(rest, "}") {
				return errors.New("an inline table ending in a comma (TOML 1.1; Gemini CLI's reader takes TOML 0.5)")
			}
			atKey = true
		}
	}
	return nil
}

// basicString reads the basic string (or multi-line basic string) at
// text[start], and returns where it ends; an error for an escape TOML
// 1.0 does not have.
func basicString(text string, start int) (int, error) {
	multi := strings.HasPrefix(text[start:], `"""`)
	i := start + 1
	if multi {
		i = start + 3
	}
	for ; i < len(text); i++ {
		switch c := text[i]; {
		case c == '\\' && i+1 < len(text):
			if e := text[i+1]; e == 'e' || e == 'x' {
				return 0, fmt.Errorf(`the escape \%c (TOML 1.1; Gemini CLI's reader takes TOML 0.5)`, e)
			}
			i++
		case multi && strings.HasPrefix(text[i:], `"""`):
			i += 2
			if i+1 < len(text) && text[i+1] == '"' {
				return 0, errors.New(`quotes before a string's closing """ (TOML 1.0; Gemini CLI's reader takes TOML 0.5)`)
			}
			return i, nil
		case !multi && (c == '"' || c == '\n'):
			return i, nil
		}
	}
	return i, nil
}

// mixedArray finds an array whose values are of different types, which
// TOML 0.5 does not take (arrays of arrays may differ inside).
func mixedArray(doc any) error {
	return walkTOML(doc, func(v any) error {
		if x, ok := v.([]any); ok {
			for _, e := range x[min(1, len(x)):] {
				if tomlKind(e) != tomlKind(x[0]) {
					return errors.New("an array of values of different types (TOML 1.0; Gemini CLI's reader takes TOML 0.5)")
				}
			}
		}
		return nil
	})
}

// walkTOML calls visit on v and on every value inside it, and stops at
// the first error.
func walkTOML(v any, visit func(any) error) error {
	if err := visit(v); err != nil {
		return err
	}
	var inside []any
	switch x := v.(type) {
	case map[string]any:
		for _, e := range x {
			inside = append(inside, e)
		}
	case []map[string]any:
		for _, e := range x {
			inside = append(inside, e)
		}
	case []any:
		inside = x
	}
	for _, e := range inside {
		if err := walkTOML(e, visit); err != nil {
			return err
		}
	}
	return nil
}

func tomlKind(v any) reflect.Kind {
	switch v.(type) {
	case []any, []map[string]any:
		return reflect.Slice
	}
	return reflect.TypeOf(v).Kind()
}

// dottedKey refuses a dotted key (a.b = 1): TOML 0.5 has them, but the
// Go reader also lets one extend an inline table, which no TOML allows,
// and policy files have no need of them (write a [table]).
func dottedKey(text string) error {
	for i := 0; i < len(text); i++ {
		switch c := text[i]; c {
		case '=', '\n':
			return nil
		case '"', '\'':
			end := strings.IndexByte(text[i+1:], c)
			if end < 0 {
				return nil
			}
			i += 1 + end
		case '.':
			return errors.New("a dotted key (a.b = ...): write a [table] instead (Gemini CLI's reader and the Go reader read some of them differently)")
		}
	}
	return nil
}

// tomlDates refuses dates and times: Gemini's schema has none, and
// TOML 0.5 takes fewer of their forms than the Go reader.
func tomlDates(doc any) error {
	return walkTOML(doc, func(v any) error {
		if _, ok := v.(time.Time); ok {
			return errors.New("a date or time: Gemini CLI's policy has no such field (and its TOML 0.5 reader takes fewer of their forms)")
		}
		return nil
	})
}
