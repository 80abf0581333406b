// Overflow-checked arithmetic on sizes: the one place for it. Sizes, counts and offsets a
// user gives (split sizes, lengths, shapes in tensors) are int64 values that may be huge;
// adding or multiplying them in plain int64 can wrap and let a later bounds check pass.
//
// MultiplyWithoutOverflow (x * y, or -1 on overflow or a negative operand) is declared in
// tensor_shape.h, which TensorShape's own arithmetic needs; this header brings it along
// with the sum, so that callers include one header for both.
#ifndef SLUICE_GRAPH_CORE_SIZE_ARITHMETIC_H_
#define SLUICE_GRAPH_CORE_SIZE_ARITHMETIC_H_

#include <cstdint>

#include "graph/core/tensor_shape.h"  // IWYU pragma: export (MultiplyWithoutOverflow)

namespace sluice {

// Returns x + y for x, y >= 0, or -1 when the sum overflows int64_t (or an operand is
// negative), as MultiplyWithoutOverflow does for the product.
int64_t AddWithoutOverflow(int64_t x, int64_t y);

}  // namespace sluice

#endif  // SLUICE_GRAPH_CORE_SIZE_ARITHMETIC_H_
