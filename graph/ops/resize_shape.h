// TensorFlow's ResizeShapeFn, shared by the resize ops (image_ops.cc, resize_ops.cc) and
// ResizeNearestNeighborGrad: [batch, new_height, new_width, channels] from a 4-D NHWC input 0
// and the 2-element int32 `size` input 1 (its values when known, -1 for an unknown one;
// other negatives are INVALID_ARGUMENT).
#ifndef SLUICE_GRAPH_OPS_RESIZE_SHAPE_H_
#define SLUICE_GRAPH_OPS_RESIZE_SHAPE_H_

#include "absl/status/status.h"
#include "graph/shape/shape_inference.h"

namespace sluice {

absl::Status ResizeShape(shape_inference::InferenceContext* c);

}  // namespace sluice

#endif  // SLUICE_GRAPH_OPS_RESIZE_SHAPE_H_
