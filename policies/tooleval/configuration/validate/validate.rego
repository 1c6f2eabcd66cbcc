# METADATA
# title: Configuration validators
# description: |
#   Validating the configuration: the helpers every part of the policy that
#   reads a configured list or object uses. Every problem names its location
#   as field (config.PATH) and, for an entry, its index.
package tooleval.configuration.validate

import data.tooleval.configuration.suggest
import data.tooleval.shape

# METADATA
# description: A problem when the value at location is neither an object nor (when nullable) null.
object_errors(value, location, nullable) := [] if {
	is_object(value)
} else := [] if {
	value == null
	nullable
} else := [shape.problem("invalid_config_value", sprintf("%s must be an object", [location]), {"field": location})]

# METADATA
# description: A problem for each of keys that obj has with a value other than a boolean.
boolean_errors(obj, keys, location) := [shape.problem(
	"invalid_config_value",
	sprintf("%s.%s must be a boolean", [location, key]),
	{"field": sprintf("%s.%s", [location, key])},
) |
	some key in keys
	shape.present(obj, key)
	not is_boolean(obj[key])
]

# METADATA
# description: obj[key] when obj is an object, else null.
value_at(obj, key) := obj[key] if is_object(obj)

else := null

# METADATA
# description: |
#   An unknown_config_key error for each member of obj (an object at
#   location) that is not one of known: a misspelt key configures nothing.
unknown_member_errors(obj, known, location) := [shape.problem(
	"unknown_config_key",
	sprintf("%s.%s is not a configuration key%s", [location, key, suggest.suggestion(key, known)]),
	{"field": sprintf("%s.%s", [location, key])},
) |
	is_object(obj)
	some key in sort(object.keys(obj) - known)
]

# METADATA
# description: obj[key] when obj is an object and that is an array, else [].
array_at(obj, key) := obj[key] if is_array(obj[key])

else := []

# METADATA
# description: obj[key] when obj is an object and that is an object, else {}.
object_at(obj, key) := obj[key] if is_object(obj[key])

else := {}
