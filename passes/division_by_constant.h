// ReduceDivisionByConstant: Grappler's strength reduction of a floating-point division by a
// constant. Div(x, c) or RealDiv(x, c), where c is a Const's output and T is a floating-point
// or complex type, becomes Mul(x, r) with r = 1/c: for float and double the pass computes r
// itself, as the Reciprocal kernel does (numerics/reciprocal.h for float), and adds it as a
// Const; for the other types r is a Reciprocal(c) node that the pipeline's next constant
// folding evaluates with the CPU kernel, as TensorFlow's folding does. A multiplication is several
// times cheaper than a division, and TensorFlow's sessions (Grappler on, as users run them) compute
// exactly this product, so results move closer to TensorFlow's, not away: x * (1/c) can differ from
// x / c in the last bit, and TensorFlow returns the former.
//
// The Mul keeps the division's name, devices, consumers and control inputs; r is named
// "<div>/reciprocal" (made unique) after the first division that needs it, placed with it,
// and shared by the divisions by the same constant on the same device. Divisions whose
// names are in `protected_names` (fetched, fed, targeted) are left alone, as are integer
// divisions.
//
// A pass (passes/pass.h): `*changed` says whether a division was rewritten. Errors: only
// internal ones. Not thread-safe with respect to `g`.
#ifndef SLUICE_PASSES_DIVISION_BY_CONSTANT_H_
#define SLUICE_PASSES_DIVISION_BY_CONSTANT_H_

#include <string>

#include "absl/container/flat_hash_set.h"
#include "absl/status/status.h"

namespace sluice {

class Graph;

struct DivisionByConstantOptions {
  absl::flat_hash_set<std::string> protected_names;
};

absl::Status ReduceDivisionByConstant(const DivisionByConstantOptions& opts, Graph* g,
                                      bool* changed);

}  // namespace sluice

#endif  // SLUICE_PASSES_DIVISION_BY_CONSTANT_H_
