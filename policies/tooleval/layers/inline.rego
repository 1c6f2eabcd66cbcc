# METADATA
# title: Inline layers
# description: |
#   The layers the runtime sends in input.layers (inline, here), and how
#   they are validated and compiled (layers.rego). The configured stages
#   (tooleval.stages) are evaluated before them and compiled by
#   tooleval.stages.compile; both become checks of tooleval.checks.
#
#   A layer is {name, allow, deny, ask?, message?, otherwise?}. Layers are
#   ordered and each can only narrow: allow null (or absent) states
#   nothing and narrows nothing, allow [] refuses everything, and deny
#   (absent = []) wins over ask, and ask over allow, inside the same
#   layer. otherwise "ask" asks about a call the allow list does not let
#   through instead of refusing it (tooleval.checks.asks_otherwise).
package tooleval.layers

import data.tooleval.shape

# METADATA
# description: The layers the runtime sent in input.layers, as given.
inline(doc) := shape.list_field(doc, "layers")
