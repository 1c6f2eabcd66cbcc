package canonical

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// MarshalTable encodes t as the bundle data file: stable key order, one
// entry per line, characters written as themselves rather than HTML-escaped.
func MarshalTable(t Table) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", " ")
	if err := enc.Encode(t); err != nil {
		return nil, fmt.Errorf("encode unicode table: %w", err)
	}
	return buf.Bytes(), nil
}
