// Package canonical computes tooleval's canonical names in Go: Unicode
// NFKC_Casefold (NFKC, full case folding, default-ignorable code points
// removed) of the name's canonical decomposition, then trimming white
// space. The engine uses it to find a call's tool when it resolves path
// arguments on the host, and it generates the per-code-point table the
// Rego policy canonicalizes with (data.tooleval.unicode, written by
// internal/unicodegen), since the Rego cannot call golang.org/x/text.
//
// The policy and this package must agree on every name the policy gives
// a canonical form; the test beside this file compares them on every
// Unicode scalar value and on generated strings. The table records the
// Unicode version it was computed from.
package canonical

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/cases"
	"golang.org/x/text/unicode/norm"
)

// UnicodeVersion is the Unicode version of the normalization and case
// folding data this package uses.
const UnicodeVersion = norm.Version

// maxRounds bounds the fixed-point iteration of [Mapping]. Every code point
// reaches its fixed point in at most two rounds; the bound only guards
// against a future Unicode release that would not.
const maxRounds = 8

// Canonical returns canonical(s) as the contract defines it: the
// NFKC_Casefold of s with leading and trailing white space trimmed.
//
// As the Unicode Standard defines an identifier caseless match (section
// 3.13, D147: toNFKC_Casefold(NFD(X))), s is first put in its canonical
// decomposition, so that canonically equivalent names (a mark order that
// NFD reorders, U+0345 among them) get one canonical form. Each
// character is then replaced by its NFKC_Casefold mapping ([Mapping])
// and the result is normalized to NFC.
func Canonical(s string) string {
	if isASCII(s) {
		return strings.ToLower(strings.TrimSpace(s))
	}
	var b strings.Builder
	for _, r := range norm.NFD.String(s) {
		b.WriteString(Mapping(r))
	}
	return strings.TrimSpace(norm.NFC.String(b.String()))
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// Mapping returns the NFKC_Casefold mapping of one character, derived as
// DerivedNormalizationProps.txt describes: NFKC, full (non-Turkic) case
// folding and removal of default-ignorable code points, repeated until
// the result no longer changes.
func Mapping(r rune) string {
	s := string(r)
	for range maxRounds {
		t := RemoveDefaultIgnorable(s)
		t = norm.NFKC.String(t)
		t = Fold(t)
		t = norm.NFKC.String(t)
		t = RemoveDefaultIgnorable(t)
		if t == s {
			return t
		}
		s = t
	}
	return s
}

// Fold is full (non-Turkic) case folding. It is golang.org/x/text's,
// corrected where that contradicts the case orbits of the standard
// library (unicode.SimpleFold), a second source of the same Unicode data:
// x/text folds upper-case Cherokee to lower case, where CaseFolding.txt
// folds both cases to upper case (see [OrbitFold]).
func Fold(s string) string {
	fold := cases.Fold()
	var b strings.Builder
	for _, r := range s {
		if target, ok := OrbitFold(r); ok && !orbitFoldsAlike(fold, r) {
			b.WriteRune(target)
			continue
		}
		b.WriteString(fold.String(string(r)))
	}
	return b.String()
}

// OrbitFold is the simple case folding of r that the standard library's
// case orbits imply: every member of r's orbit (the runes
// unicode.SimpleFold cycles through) folds to one of them, the lower
// case of its upper case, except in Cherokee, where CaseFolding.txt
// folds to upper case for stability. ok is false when r is in no orbit
// (it folds to itself, or only by full case folding).
func OrbitFold(r rune) (target rune, ok bool) {
	if unicode.SimpleFold(r) == r {
		return r, false
	}
	if unicode.Is(unicode.Cherokee, r) {
		return unicode.ToUpper(r), true
	}
	return unicode.ToLower(unicode.ToUpper(r)), true
}

// orbitFoldsAlike reports whether x/text folds every member of r's case
// orbit to the same string, as any case folding must.
func orbitFoldsAlike(fold cases.Caser, r rune) bool {
	want := fold.String(string(r))
	for o := unicode.SimpleFold(r); o != r; o = unicode.SimpleFold(o) {
		if fold.String(string(o)) != want {
			return false
		}
	}
	return true
}

// RemoveDefaultIgnorable drops every Default_Ignorable_Code_Point from s.
func RemoveDefaultIgnorable(s string) string {
	if !strings.ContainsFunc(s, IsDefaultIgnorable) {
		return s
	}
	return strings.Map(func(r rune) rune {
		if IsDefaultIgnorable(r) {
			return -1
		}
		return r
	}, s)
}

// IsDefaultIgnorable reports whether r has the derived Unicode property
// Default_Ignorable_Code_Point, computed as DerivedCoreProperties.txt
// defines it: Other_Default_Ignorable_Code_Point + Cf + Variation_Selector,
// minus White_Space, the interlinear annotation characters U+FFF9..U+FFFB,
// the Egyptian hieroglyph format controls U+13430..U+1343F and
// Prepended_Concatenation_Mark.
func IsDefaultIgnorable(r rune) bool {
	switch {
	case unicode.Is(unicode.White_Space, r),
		r >= 0xFFF9 && r <= 0xFFFB,
		r >= 0x13430 && r <= 0x1343F,
		unicode.Is(unicode.Prepended_Concatenation_Mark, r):
		return false
	}
	return unicode.Is(unicode.Other_Default_Ignorable_Code_Point, r) ||
		unicode.Is(unicode.Cf, r) ||
		unicode.Is(unicode.Variation_Selector, r)
}
