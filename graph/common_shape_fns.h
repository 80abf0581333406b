// Forwarding header: the common shape functions moved to graph/shape/common_shape_fns.h.
// This path is kept because users' code includes it (the README's examples named it before the
// layers became folders); Sluice's own code includes graph/shape/common_shape_fns.h.
#ifndef SLUICE_GRAPH_COMMON_SHAPE_FNS_H_
#define SLUICE_GRAPH_COMMON_SHAPE_FNS_H_

#include "graph/shape/common_shape_fns.h"

#endif  // SLUICE_GRAPH_COMMON_SHAPE_FNS_H_
