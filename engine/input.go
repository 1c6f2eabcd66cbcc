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
		var syntax *json.SyntaxError
		var kind *json.UnmarshalTypeError
		switch {
		case errors.Is(err, io.EOF):
			return errors.New("no JSON document")
		case errors.Is(err, io.ErrUnexpectedEOF):
			return fmt.Errorf("%s: the JSON document ends early", position(data, int64(len(data))))
		case errors.As(err, &syntax):
			return fmt.Errorf("%s: %s", position(data, syntax.Offset-1), syntax.Error())
		case errors.As(err, &kind):
			// Not the Go type's name: what the document should have held.
			return fmt.Errorf("%s: a JSON %s where %s was expected", position(data, kind.Offset-1), kind.Value, jsonKind(kind.Type.Kind().String()))
		}
		return err
	}
	rest := bytes.TrimLeft(data[dec.InputOffset():], " \t\r\n") // JSON white space only
	if len(rest) > 0 {
		return fmt.Errorf("%s: data after the JSON document", position(data, int64(len(data)-len(rest))))
	}
	return nil
}

// position says where the byte at offset of data is, as a person counts:
// line and column from 1 (columns in bytes).
func position(data []byte, offset int64) string {
	before := data[:min(max(offset, 0), int64(len(data)))]
	line := bytes.Count(before, []byte{'\n'}) + 1
	column := len(before) - bytes.LastIndexByte(before, '\n')
	return fmt.Sprintf("line %d, column %d", line, column)
}

// jsonKind names a Go kind the way a JSON document would hold it.
func jsonKind(kind string) string {
	switch kind {
	case "map", "struct":
		return "an object"
	case "slice", "array":
		return "a list"
	case "string":
		return "a string"
	case "bool":
		return "true or false"
	}
	return "a number"
}
