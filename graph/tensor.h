// Forwarding header: Tensor is declared in graph/core/tensor.h.
// Custom-op and client code written against this path keeps compiling; Sluice's own code
// includes graph/core/tensor.h (//tests/source:layering_test rejects this path inside the tree).
#ifndef SLUICE_GRAPH_TENSOR_H_
#define SLUICE_GRAPH_TENSOR_H_

#include "graph/core/tensor.h"
#include "graph/core/tensor_types.h"

#endif  // SLUICE_GRAPH_TENSOR_H_
