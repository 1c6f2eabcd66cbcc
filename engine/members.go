package engine

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"golang.org/x/text/cases"
)

// DistinctMembers checks that no object in a JSON text has two members
// whose names are equal, or equal under Unicode case folding: a reader
// that matches names without regard to case (as Go's encoding/json does)
// or keeps the last of two would not read the text as the policy does.
// It does not check that the text is otherwise valid JSON beyond what
// it reads.
func DistinctMembers(raw []byte) error {
	type frame struct {
		object    bool
		expectKey bool
		names     map[string]string // folded -> as written
	}
	var stack []*frame
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	fold := cases.Fold()
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("are not JSON: %w", err)
		}
		var top *frame
		if len(stack) > 0 {
			top = stack[len(stack)-1]
		}
		if top != nil && top.object && top.expectKey {
			if tok == json.Delim('}') {
				stack = stack[:len(stack)-1]
				continue
			}
			name, _ := tok.(string)
			folded := fold.String(name)
			if first, seen := top.names[folded]; seen {
				return fmt.Errorf("name the member %q twice (as %q and %q)", name, first, name)
			}
			top.names[folded] = name
			top.expectKey = false
			continue
		}
		if top != nil && top.object {
			top.expectKey = true // tok is the member's value
		}
		switch tok {
		case json.Delim('{'):
			stack = append(stack, &frame{object: true, expectKey: true, names: map[string]string{}})
		case json.Delim('['):
			stack = append(stack, &frame{})
		case json.Delim(']'):
			stack = stack[:len(stack)-1]
		}
	}
}
