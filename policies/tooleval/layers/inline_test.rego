package tooleval.layers_test

import data.tooleval.layers

# The inline layers are input.layers as given, or none when it is absent,
# null or not an array (its shape error is the shape stage's).
test_inline_layers_as_given if {
	layer := {"name": "tenant", "allow": ["read_file"]}
	every tc in [
		{"doc": {"layers": [layer]}, "want": [layer]},
		{"doc": {"layers": [layer, {"name": "caller", "deny": ["x"]}]}, "want": [layer, {"name": "caller", "deny": ["x"]}]},
		{"doc": {"layers": []}, "want": []},
		{"doc": {}, "want": []},
		{"doc": {"layers": null}, "want": []},
		{"doc": {"layers": {"name": "tenant"}}, "want": []},
		{"doc": "layers", "want": []},
	] {
		layers.inline(tc.doc) == tc.want
	}
}
