# Layer sources: each rule produces named layers from the request. The
# order of sources is the order in which their layers are evaluated.
package tooleval.layers

import data.tooleval.shape

# METADATA
# title: sources
# description: Every layer for this request, in evaluation order.
sources(doc) := inline(doc)

# METADATA
# title: inline
# description: The layers the runtime sent in input.layers, as given.
inline(doc) := shape.list_field(doc, "layers")
