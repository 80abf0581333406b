// TensorFlow's NodeBuilder path: adds a node of any registered op (a custom op included) to a
// Scope's graph, as client code does for ops without generated wrappers.
#ifndef SLUICE_COMPAT_TENSORFLOW_CORE_GRAPH_NODE_BUILDER_H_
#define SLUICE_COMPAT_TENSORFLOW_CORE_GRAPH_NODE_BUILDER_H_

#include "cc_api/node_builder.h"
#include "tensorflow/core/platform/namespace.h"

#endif  // SLUICE_COMPAT_TENSORFLOW_CORE_GRAPH_NODE_BUILDER_H_
