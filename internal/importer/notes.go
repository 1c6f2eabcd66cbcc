package importer

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"

	"github.com/tooleval/tooleval/internal/suggest"
)

// NotePlace is where in the files a note's location is: the file (its
// index in the order the files were read), then a position in it that
// grows through the file (a byte offset, a line, the index of a key) and
// a rank among locations at one position (the rules of an inline
// array).
type NotePlace struct{ FileIndex, Pos, Rank int }

// NotePlaces are the places of the locations an import's notes name, so
// that the notes come out in the order of the files and of the places in
// them, whatever order the import found them in (Gemini's rules are
// built highest priority first, Claude Code's deny rules before its
// allow rules).
type NotePlaces map[string]NotePlace

// Add records the place of location; the first place recorded stays
// (the same file given twice is read at its first place).
func (p NotePlaces) Add(location string, at NotePlace) {
	if _, ok := p[location]; !ok {
		p[location] = at
	}
}

// InFileOrder sorts notes by their places, stably: notes at one place
// keep the order they were said in, and notes that name no place in a
// file (a flag, the approval policy) come after the others, in the order
// they were said.
func (p NotePlaces) InFileOrder(notes []Note) []Note {
	out := make([]Note, len(notes))
	copy(out, notes)
	sort.SliceStable(out, func(i, j int) bool {
		a, aok := p[out[i].Location]
		b, bok := p[out[j].Location]
		switch {
		case !aok || !bok:
			return aok && !bok
		case a.FileIndex != b.FileIndex:
			return a.FileIndex < b.FileIndex
		case a.Pos != b.Pos:
			return a.Pos < b.Pos
		}
		return a.Rank < b.Rank
	})
	return out
}

// JSONPlaces records the place of every member and element of a JSON
// document (file index file), by the offset where it starts, under
// prefix + its path: "s.json: permissions.allow[2]". The document itself
// is at prefix without ": ". A document that does not parse records what
// it read.
func (p NotePlaces) JSONPlaces(file int, name string, data []byte) {
	p.Add(name, NotePlace{FileIndex: file})
	dec := json.NewDecoder(bytes.NewReader(data))
	var walk func(path string, depth int) error
	walk = func(path string, depth int) error {
		if depth > 8 {
			var skip json.RawMessage
			return dec.Decode(&skip)
		}
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		delim, ok := tok.(json.Delim)
		if !ok {
			return nil
		}
		for i := 0; dec.More(); i++ {
			at := int(dec.InputOffset())
			child := fmt.Sprintf("%s[%d]", path, i)
			if delim == '{' {
				key, err := dec.Token()
				if err != nil {
					return err
				}
				s, _ := key.(string)
				child = s
				if path != "" {
					child = path + "." + s
				}
			}
			p.Add(name+": "+child, NotePlace{FileIndex: file, Pos: at + 1})
			if err := walk(child, depth+1); err != nil {
				return err
			}
		}
		_, err = dec.Token() // the closing delimiter
		return err
	}
	_ = walk("", 0) // a document that does not parse is refused elsewhere
}

// DidYouMean is " (did you mean X?)" for the candidate closest to word,
// or "" (suggest.DidYouMean, the command line's suggestion too).
func DidYouMean(word string, candidates []string) string { return suggest.DidYouMean(word, candidates) }
