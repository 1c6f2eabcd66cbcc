# Inline layers: the layers the runtime sends in input.layers. The
# configured stages (tooleval.stages) are evaluated before them.
package tooleval.layers

import data.tooleval.shape

# METADATA
# description: The layers the runtime sent in input.layers, as given.
inline(doc) := shape.list_field(doc, "layers")
