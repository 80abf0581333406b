// SumOfSquares: the sum over a reduction plan of x * conj(x) (times a scale), in the
// accumulation type of SumReducer, which EuclideanNorm and L2Loss finish differently.
//
// The squares are formed in that type (float for half and bfloat16, wrapping for integers)
// into a temporary, and then reduced with the Sum kernel's passes, so the adding order is
// Sluice's Sum's, not TensorFlow's thread-pool order: float results differ from
// TensorFlow's in the last bits (the fixtures state their tolerances).
#ifndef SLUICE_KERNELS_CPU_REDUCTION_SUM_OF_SQUARES_H_
#define SLUICE_KERNELS_CPU_REDUCTION_SUM_OF_SQUARES_H_

#include <complex>
#include <cstdint>
#include <type_traits>

#include "absl/status/status.h"
#include "absl/types/span.h"
#include "graph/core/errors.h"
#include "graph/core/tensor.h"
#include "graph/core/types.h"
#include "kernels/cpu/reduction/reduce_loops.h"
#include "kernels/cpu/reduction/reducers.h"
#include "kernels/cpu/reduction/reduction_plan.h"
#include "kernels/cpu/wrapping_arithmetic.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace reduction {

template <typename T>
using SquareAcc = typename SumReducer<T>::Acc;

template <typename A>
A SquareOf(A x) {
  if constexpr (std::is_same_v<A, complex64> || std::is_same_v<A, complex128>) {
    return x * std::conj(x);
  } else {
    return WrappingMul(x, x);
  }
}

// Sets *sums to the SquareAcc<T> tensor of the sums of SquareOf(x) * scale that `passes`
// (a reduction plan's, or one pass over all of a non-empty input) fold x into. REQUIRES:
// at least one pass.
template <typename T>
absl::Status SumOfSquares(OpKernelContext* ctx, const Tensor& input,
                          absl::Span<const ReductionPass> passes, SquareAcc<T> scale,
                          Tensor* sums) {
  using A = SquareAcc<T>;
  const DataType acc_type = DataTypeToEnum<A>::value;
  Tensor current;
  // shape-safe: as many elements as the input, whose shape is valid
  RETURN_IF_ERROR(ctx->allocate_temp(acc_type, TensorShape({input.NumElements()}), &current));
  const T* x = input.base<T>();
  A* squares = current.base<A>();
  for (int64_t i = 0; i < input.NumElements(); ++i) {
    squares[i] = WrappingMul(SquareOf(static_cast<A>(x[i])), scale);
  }
  for (const ReductionPass& p : passes) {
    Tensor next;
    // shape-safe: outer and inner are products of disjoint groups of the input's dims
    RETURN_IF_ERROR(ctx->allocate_temp(acc_type, TensorShape({p.outer * p.inner}), &next));
    RETURN_IF_ERROR((ReducePass<A, SumReducer<T>>(ctx, current.base<A>(), next.base<A>(), p)));
    current = next;
  }
  *sums = current;
  return absl::OkStatus();
}

}  // namespace reduction
}  // namespace sluice

#endif  // SLUICE_KERNELS_CPU_REDUCTION_SUM_OF_SQUARES_H_
