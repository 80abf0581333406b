#include "passes/symbolic_shapes.h"

namespace sluice {

using shape_inference::InferenceContext;

bool SymbolicallyEqual(shape_inference::DimensionHandle a, shape_inference::DimensionHandle b) {
  if (a.SameHandle(b)) return true;
  return InferenceContext::ValueKnown(a) &&
         InferenceContext::Value(a) == InferenceContext::Value(b);
}

bool SymbolicallyEqual(shape_inference::ShapeHandle a, shape_inference::ShapeHandle b) {
  if (!InferenceContext::RankKnown(a) || !InferenceContext::RankKnown(b)) return false;
  const int rank = InferenceContext::Rank(a);
  if (InferenceContext::Rank(b) != rank) return false;
  for (int i = 0; i < rank; ++i) {
    if (!SymbolicallyEqual(InferenceContext::DimKnownRank(a, i),
                           InferenceContext::DimKnownRank(b, i))) {
      return false;
    }
  }
  return true;
}

}  // namespace sluice
