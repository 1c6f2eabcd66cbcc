package forkmeta

import (
	"encoding/json"
	"testing"
)

// FuzzParse: a sidecar is never revived unrestricted unless it is a JSON
// object without the field (version absent or 1), and every error revives
// it deny-all.
func FuzzParse(f *testing.F) {
	for _, seed := range []string{
		`{"version":1,"execution_allowed_tools":["read_file"]}`, `{"version":1,"execution_allowed_tools":[]}`,
		`{"version":1}`, `{}`, `{"version":2}`, `{"execution_allowed_tools":null}`, `[]`, ``, `{"version":1}{}`,
		`{"version":1,"execution_allowed_tools":"x"}`, `{"version":1.0,"execution_allowed_tools":[1]}`,
		`null`, `{"version":1,"execution_allowed_tools":["a",null]}`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := Parse(data)
		if err != nil {
			if !r.Restricted || len(r.Allow) != 0 {
				t.Fatalf("error %v revived %+v, not deny-all", err, r)
			}
			return
		}
		var doc map[string]json.RawMessage
		if json.Unmarshal(data, &doc) != nil || doc == nil {
			t.Fatalf("accepted a sidecar that is not a JSON object: %q", data)
		}
		_, hasField := doc["execution_allowed_tools"]
		if !r.Restricted && hasField {
			t.Fatalf("revived unrestricted despite the field: %q", data)
		}
		if r.Restricted {
			var allow []any
			if !hasField || json.Unmarshal(doc["execution_allowed_tools"], &allow) != nil || allow == nil {
				t.Fatalf("restricted without a list: %q", data)
			}
			for _, m := range allow {
				if _, ok := m.(string); !ok {
					t.Fatalf("restricted with a member that is not a string (%v): %q", m, data)
				}
			}
		}
	})
}
