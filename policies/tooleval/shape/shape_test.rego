package tooleval.shape_test

import data.tooleval.shape

test_field_treats_null_as_absent if {
	shape.field({"a": null}, "a", 1) == 1
	shape.field({"a": false}, "a", 1) == false
	shape.field("text", "a", 1) == 1
	not shape.present({"a": null}, "a")
	shape.present({"a": []}, "a")
}

test_list_field_and_errors if {
	shape.list_field({"calls": "x"}, "calls") == []
	shape.list_field({"calls": [1]}, "calls") == [1]
	shape.list_errors({"calls": null}, "calls") == []
	[e.field | some e in shape.list_errors({"calls": {}}, "calls")] == ["calls"]
}

test_document if {
	shape.document([1]) == {}
	[e.code | some e in shape.document_errors("x")] == ["invalid_document"]
	shape.document_errors({}) == []
}

# field and present read only objects' members: not a set's element, an
# array's element or a string's character.
test_field_reads_only_objects if {
	shape.field({"a"}, "a", 1) == 1
	shape.field(["x"], 0, 1) == 1
	shape.field("abc", 0, 1) == 1
	not shape.present({"a"}, "a")
	not shape.present(["x"], 0)
}

test_count_errors_is_length_errors_of_a_list_of_that_length if {
	shape.count_errors("calls", 3, 2) == shape.length_errors({"calls": [1, 2, 3]}, "calls", 2)
	shape.count_errors("calls", 3, 2) == [{"code": "too_many_entries", "message": "calls may have at most 2 elements", "field": "calls", "count": 3}]
	shape.count_errors("calls", 2, 2) == []
}
