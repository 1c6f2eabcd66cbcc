// Package nfkccf is the Go reference for tooleval's canonical names:
// Unicode NFKC_Casefold (NFKC, full case folding, default-ignorable code
// points removed, repeated until stable) followed by trimming white space.
//
// The Rego policy cannot call golang.org/x/text, so it canonicalizes names
// with a per-code-point table that this package computes (see [BuildTable])
// and a check that the concatenated result needs no further normalization.
// The reference and the table must come from the same Unicode version; the
// table records it.
package nfkccf

//go:generate go run ./gen -o ../../policies/tooleval/unicode/data.json

import (
	"strings"
	"unicode"

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
// As in the Unicode Standard (section 3.13, toNFKC_Casefold), each
// character is replaced by its NFKC_Casefold mapping ([Mapping]) and the
// result is normalized to NFC.
func Canonical(s string) string {
	var b strings.Builder
	for _, r := range s {
		b.WriteString(Mapping(r))
	}
	return strings.TrimSpace(norm.NFC.String(b.String()))
}

// Mapping returns the NFKC_Casefold mapping of one character, derived as
// DerivedNormalizationProps.txt describes: NFKC, full (non-Turkic) case
// folding and removal of default-ignorable code points, repeated until
// the result no longer changes.
func Mapping(r rune) string {
	fold := cases.Fold()
	s := string(r)
	for range maxRounds {
		t := RemoveDefaultIgnorable(s)
		t = norm.NFKC.String(t)
		t = fold.String(t)
		t = norm.NFKC.String(t)
		t = RemoveDefaultIgnorable(t)
		if t == s {
			return t
		}
		s = t
	}
	return s
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
