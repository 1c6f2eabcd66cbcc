// Package skeleton is the Go reference for the confusable-name check of
// tooleval check: the Unicode TS #39 skeleton of a canonical tool name,
// from the confusables table of github.com/mtibben/confusables (Unicode
// 13.0 confusables.txt).
//
// The Rego computes a skeleton character by character, from a table that
// maps each character that can appear in a canonical name (a fixed point
// of NFKC_Casefold) to its own skeleton. Skeleton here does the same, so
// that the table and the Rego can be checked against it. It differs from
// the TS #39 definition only in the final reordering of combining marks
// across characters, which cannot make two different names alike.
package skeleton

import (
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/mtibben/confusables"
	"golang.org/x/text/unicode/norm"

	"github.com/tooleval/tooleval/engine/canonical"
)

// Table maps a character to its skeleton, for every character of a
// canonical name whose skeleton is not itself.
type Table map[string]string

// BuildTable computes the table from the confusables data.
func BuildTable() Table {
	t := Table{}
	for r := rune(0); r <= utf8.MaxRune; r++ {
		if !utf8.ValidRune(r) {
			continue
		}
		c := string(r)
		if canonical.Canonical(c) != c {
			continue // never in a canonical name
		}
		s := confusables.Skeleton(c)
		if s == c || (isHangulSyllable(r) && s == norm.NFD.String(c)) {
			// A syllable that only decomposes into its jamo: in a
			// canonical (NFC) name jamo always compose into the syllable,
			// so two names never differ by it.
			continue
		}
		t[c] = s
	}
	return t
}

func isHangulSyllable(r rune) bool { return r >= 0xAC00 && r <= 0xD7A3 }

// Of is the skeleton of a canonical name: each character replaced by its
// skeleton.
func Of(t Table, canonical string) string {
	var b strings.Builder
	for _, r := range canonical {
		c := string(r)
		if s, ok := t[c]; ok {
			b.WriteString(s)
		} else {
			b.WriteString(c)
		}
	}
	return b.String()
}

// Marshal encodes the table as the bundle's data file, with sorted keys
// and a final newline.
func Marshal(t Table) ([]byte, error) {
	data, err := json.MarshalIndent(map[string]string(t), "", " ")
	if err != nil {
		return nil, fmt.Errorf("marshal skeleton table: %w", err)
	}
	return append(data, '\n'), nil
}
