# METADATA
# title: Input shape
# description: |
#   Reading the input document without ever failing: every accessor is
#   defined for any JSON value, and every malformed member is reported as
#   an error with the field it concerns. A member that is null counts as
#   absent.
package tooleval.shape

# METADATA
# description: obj[key], or fallback when obj is not an object or the member is absent or null.
field(obj, key, fallback) := value if {
	# the member first: an absent one (the common miss) is one look-up
	value := obj[key]
	is_object(obj)
	value != null
} else := fallback

# METADATA
# description: obj has a member key that is not null.
present(obj, key) if {
	obj[key] != null
	is_object(obj)
}

# METADATA
# description: An entry of the errors list.
problem(code, message, where) := object.union(where, {"code": code, "message": message})

# METADATA
# description: The input document, or an empty one when it is not an object.
document(x) := x if is_object(x)

else := {}

# METADATA
# description: An error when the input document is not a JSON object.
document_errors(x) := [] if {
	is_object(x)
} else := [problem("invalid_document", "the input document must be a JSON object", {"field": ""})]

# METADATA
# description: The array under key, or [] when it is absent, null or not an array.
list_field(doc, key) := value if {
	value := field(doc, key, [])
	is_array(value)
} else := []

# METADATA
# description: An error when the member key is present but is not an array.
list_errors(doc, key) := [] if {
	is_array(field(doc, key, []))
} else := [problem("invalid_field", sprintf("%s must be an array", [key]), {"field": key})]

# METADATA
# description: x is a whole number at least 0.
is_count(x) if {
	is_number(x)
	x >= 0
	floor(x) == x
}

# METADATA
# description: The most entries a list of pattern entries may have (allow, deny, fork_tools, a group, a configured list).
max_entries := 4096

# METADATA
# description: The most inline layers a request may send.
max_layers := 256

# METADATA
# description: The most tool declarations a request may send.
max_declared := 100000

# METADATA
# description: |
#   The longest message a layer or configured stage may carry; it is
#   quoted in the refusal message of every call it refuses.
max_message_length := 1000

# METADATA
# scope: document
# description: |
#   m is a valid message of a layer or configured stage: null (none), or
#   a string of at most max_message_length characters.
valid_message(null)

valid_message(m) if {
	is_string(m)
	count(m) <= max_message_length
}

# METADATA
# description: The most calls a batch may have.
max_calls := 100000

# METADATA
# description: A too_many_entries error when the list under key holds more than limit elements.
length_errors(doc, key, limit) := count_errors(key, count(list), limit) if {
	list := field(doc, key, [])
	is_array(list)
	count(list) > limit # most lists are within it: no function call
} else := []

# METADATA
# description: |
#   A too_many_entries error when the list under key has n elements,
#   more than limit (length_errors of a list that is not at hand, only
#   its length).
count_errors(key, n, limit) := [problem(
	"too_many_entries",
	sprintf("%s may have at most %d elements", [key, limit]),
	{"field": key, "count": n},
)] if {
	n > limit
} else := []
