// Forwarding header: REGISTER_OP and the op registry are declared in graph/op/op_registry.h.
// Custom-op and client code written against this path keeps compiling; Sluice's own code
// includes graph/op/op_registry.h (//tests/source:layering_test rejects this path inside the tree).
#ifndef SLUICE_GRAPH_OP_REGISTRY_H_
#define SLUICE_GRAPH_OP_REGISTRY_H_

#include "graph/op/op_registry.h"

#endif  // SLUICE_GRAPH_OP_REGISTRY_H_
