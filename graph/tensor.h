// Forwarding header: Tensor moved to graph/core/tensor.h.
// This path is kept because users' code includes it (the README's examples named it before the
// layers became folders); Sluice's own code includes graph/core/tensor.h.
#ifndef SLUICE_GRAPH_TENSOR_H_
#define SLUICE_GRAPH_TENSOR_H_

#include "graph/core/tensor.h"

#endif  // SLUICE_GRAPH_TENSOR_H_
