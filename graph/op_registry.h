// Forwarding header: REGISTER_OP and the op registry moved to graph/op/op_registry.h.
// This path is kept because users' code includes it (the README's examples named it before the
// layers became folders); Sluice's own code includes graph/op/op_registry.h.
#ifndef SLUICE_GRAPH_OP_REGISTRY_H_
#define SLUICE_GRAPH_OP_REGISTRY_H_

#include "graph/op/op_registry.h"

#endif  // SLUICE_GRAPH_OP_REGISTRY_H_
