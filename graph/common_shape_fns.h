// Forwarding header: the common shape functions are declared in graph/shape/common_shape_fns.h.
// Custom-op and client code written against this path keeps compiling; Sluice's own code
// includes graph/shape/common_shape_fns.h (//tests/source:layering_test rejects this path inside
// the tree).
#ifndef SLUICE_GRAPH_COMMON_SHAPE_FNS_H_
#define SLUICE_GRAPH_COMMON_SHAPE_FNS_H_

#include "graph/shape/common_shape_fns.h"

#endif  // SLUICE_GRAPH_COMMON_SHAPE_FNS_H_
