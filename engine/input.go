package engine

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/open-policy-agent/opa/v1/ast"
)

// utf8BOM is the UTF-8 byte order mark.
var utf8BOM = []byte{0xef, 0xbb, 0xbf}

// DecodeInput decodes a policy input document the way `opa eval
// --input` reads a JSON file: one leading UTF-8 byte order mark is
// skipped, the rest must be exactly one JSON value with nothing but JSON
// white space after it, and numbers keep their text (a number too large
// for an int64 reaches the policy as it is). Data after the document is
// an error, never ignored. (opa eval also reads YAML; tooleval inputs are
// JSON only.)
func DecodeInput(data []byte) (ast.Value, error) {
	var doc any
	if err := decodeOne(data, &doc); err != nil {
		return nil, fmt.Errorf("decode input: %w", err)
	}
	value, err := ast.InterfaceToValue(doc)
	if err != nil {
		return nil, fmt.Errorf("decode input: %w", err)
	}
	return value, nil
}

// decodeOne decodes exactly one JSON document into v (numbers as
// json.Number), after one optional UTF-8 byte order mark.
func decodeOne(data []byte, v any) error {
	data = bytes.TrimPrefix(data, utf8BOM)
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if err := dec.Decode(v); err != nil {
		if errors.Is(err, io.EOF) {
			return errors.New("no JSON document")
		}
		return err
	}
	rest := bytes.TrimLeft(data[dec.InputOffset():], " \t\r\n") // JSON white space only
	if len(rest) > 0 {
		return fmt.Errorf("data after the JSON document, at byte %d", len(data)-len(rest))
	}
	return nil
}
