package canonical

import (
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// Table is the data the Rego canonicalization needs, keyed by one-character
// strings so that every look-up is a ground reference into an object.
//
// A name is canonicalized in Rego by mapping each character through Map
// (characters not in Map map to themselves), concatenating, and trimming
// white space. That equals [Canonical] exactly when the concatenation is
// already in NFC; the Rego checks that with CCC and TrailCCC (canonical
// ordering of the name, also against the marks at either end of a
// character's decomposition, and of the result) and
// Compositions (no character would compose with the starter before it),
// and refuses the name otherwise.
type Table struct {
	// Version is the Unicode version the table was computed from.
	Version string `json:"version"`
	// Map holds Mapping(c) for every character c that it changes.
	Map map[string]string `json:"map"`
	// CCC holds the non-zero canonical combining class of a character.
	CCC map[string]int `json:"ccc"`
	// TrailCCC holds the canonical combining class of the last character
	// of a character's canonical decomposition, where it differs from the
	// character's own class (a precomposed letter that ends in a mark).
	TrailCCC map[string]int `json:"trail_ccc"`
	// LeadCCC holds the canonical combining class of the first character
	// of a character's canonical decomposition, where it differs from the
	// character's own class (U+0F73 is a starter that decomposes into two
	// marks).
	LeadCCC map[string]int `json:"lead_ccc"`
	// Composable holds every character that can be the second half of a
	// primary composite (NFC_Quick_Check=Maybe).
	Composable map[string]bool `json:"composable"`
	// Compositions maps a starter followed by a composable character to the
	// primary composite NFC would replace them with.
	Compositions map[string]string `json:"compositions"`
	// NFCNo holds every character that never occurs in NFC text: NFC
	// replaces it (NFC_Quick_Check=No: singletons such as U+212A KELVIN
	// SIGN, composition exclusions, non-starter decompositions). With CCC,
	// TrailCCC, LeadCCC and Compositions it tells exactly whether a string
	// is in NFC (tooleval.canonical.nfc).
	NFCNo map[string]bool `json:"nfc_no"`
}

// isScalar reports whether r is a Unicode scalar value (not a surrogate).
func isScalar(r rune) bool {
	return utf8.ValidRune(r)
}

// BuildTable computes the [Table] for every Unicode scalar value.
func BuildTable() Table {
	t := Table{
		Version:      UnicodeVersion,
		Map:          map[string]string{},
		CCC:          map[string]int{},
		TrailCCC:     map[string]int{},
		LeadCCC:      map[string]int{},
		Composable:   map[string]bool{},
		Compositions: map[string]string{},
		NFCNo:        map[string]bool{},
	}
	for r := rune(0); r <= utf8.MaxRune; r++ {
		if !isScalar(r) {
			continue
		}
		c := string(r)
		if m := Mapping(r); m != c {
			t.Map[c] = m
		}
		props := norm.NFC.PropertiesString(c)
		if ccc := props.CCC(); ccc != 0 {
			t.CCC[c] = int(ccc)
		}
		if trail := props.TrailCCC(); trail != props.CCC() {
			t.TrailCCC[c] = int(trail)
		}
		if lead := props.LeadCCC(); lead != props.CCC() {
			t.LeadCCC[c] = int(lead)
		}
		addCompositions(t, c)
		if norm.NFC.String(c) != c {
			t.NFCNo[c] = true
		}
	}
	return t
}

// addCompositions records every pair (starter, composable) that NFC
// composes into the character c. A primary composite's canonical
// decomposition is a pair whose second half appears somewhere in its full
// decomposition, so every position is tried and confirmed by NFC itself.
func addCompositions(t Table, c string) {
	full := []rune(norm.NFD.String(c))
	if len(full) < 2 {
		return
	}
	for k, second := range full {
		rest := make([]rune, 0, len(full)-1)
		rest = append(rest, full[:k]...)
		rest = append(rest, full[k+1:]...)
		first := norm.NFC.String(string(rest))
		if utf8.RuneCountInString(first) != 1 {
			continue
		}
		pair := first + string(second)
		if norm.NFC.String(pair) == c {
			t.Compositions[pair] = c
			t.Composable[string(second)] = true
		}
	}
}
