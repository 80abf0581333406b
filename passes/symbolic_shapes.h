// Comparing inferred shapes the way graph rewrites need: two shapes are the same when their
// ranks are known and equal and each pair of dims is known and equal or is the very same
// unknown dim (a batch dim left unknown is one handle along a chain of ops, as TensorFlow's
// remapper also relies on). Unknown dims from different places are never taken as equal.
#ifndef SLUICE_PASSES_SYMBOLIC_SHAPES_H_
#define SLUICE_PASSES_SYMBOLIC_SHAPES_H_

#include "graph/shape/shape_inference.h"

namespace sluice {

bool SymbolicallyEqual(shape_inference::DimensionHandle a, shape_inference::DimensionHandle b);
bool SymbolicallyEqual(shape_inference::ShapeHandle a, shape_inference::ShapeHandle b);

}  // namespace sluice

#endif  // SLUICE_PASSES_SYMBOLIC_SHAPES_H_
