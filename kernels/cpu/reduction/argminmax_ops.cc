// ArgMax and ArgMin on the CPU: the index of the largest (smallest) element along one
// dimension.
//
// As TensorFlow (Eigen's arg-reducers): each output starts from index 0 and the lowest
// (highest) value of T, and takes a later element only when it compares strictly greater
// (less). So ties keep the first index and NaN is never picked (a row of NaNs gives 0).
// The dimension must be a scalar in [-rank, rank) naming a non-empty dim.
#include <cstdint>
#include <limits>

#include "graph/core/errors.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_shape.h"
#include "graph/core/tensor_types.h"
#include "graph/core/types.h"
#include "kernels/cpu/parallel_for.h"
#include "kernels/cpu/reduction/reducers.h"
#include "kernels/cpu/reduction/reduction_plan.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace reduction {
namespace {

constexpr int64_t kColumnBlock = 512;

template <typename T, bool kMax>
struct ArgTraits {
  using W = WideFloat<T>;
  static W Start() {
    return static_cast<W>(kMax ? std::numeric_limits<T>::lowest() : std::numeric_limits<T>::max());
  }
  static bool Better(W v, W best) { return kMax ? v > best : v < best; }
};

// out[i] = arg-best over r < rows of x[r * stride + i], for i < n.
template <typename T, typename Out, bool kMax>
void ArgColumns(const T* x, int64_t rows, int64_t stride, int64_t n, Out* out) {
  using Traits = ArgTraits<T, kMax>;
  typename Traits::W best[kColumnBlock];
  for (int64_t i = 0; i < n; ++i) {
    best[i] = Traits::Start();
    out[i] = 0;
  }
  for (int64_t r = 0; r < rows; ++r) {
    const T* row = x + r * stride;
    for (int64_t i = 0; i < n; ++i) {
      const typename Traits::W v = static_cast<typename Traits::W>(row[i]);
      if (Traits::Better(v, best[i])) {
        best[i] = v;
        out[i] = static_cast<Out>(r);
      }
    }
  }
}

template <typename T, typename Out, bool kMax>
class ArgOp : public OpKernel {
 public:
  using OpKernel::OpKernel;

  void Compute(OpKernelContext* ctx) override {
    const Tensor& input = ctx->input(0);
    ArgReduction arg;
    OP_REQUIRES_OK(ctx, MakeArgReduction(input, ctx->input(1), &arg));
    Tensor* output = nullptr;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, arg.output_shape, &output));
    const int64_t n = output->NumElements();
    if (n == 0) return;
    const int64_t reduced = arg.pass.reduced;
    const int64_t inner = arg.pass.inner;
    const int64_t outer = arg.pass.outer;
    const T* x = input.base<T>();
    Out* out = output->base<Out>();
    const int64_t blocks = (inner + kColumnBlock - 1) / kColumnBlock;
    const Eigen::TensorOpCost cost(sizeof(T) * reduced * std::min(inner, kColumnBlock), 0,
                                   reduced * std::min(inner, kColumnBlock));
    ParallelFor(ctx, outer * blocks, n * reduced, cost, [&](int64_t first, int64_t last) {
      for (int64_t u = first; u < last; ++u) {
        const int64_t o = u / blocks;
        const int64_t begin = (u % blocks) * kColumnBlock;
        ArgColumns<T, Out, kMax>(x + o * reduced * inner + begin, reduced, inner,
                                 std::min(kColumnBlock, inner - begin), out + o * inner + begin);
      }
    });
  }
};

#define REGISTER_ARG(NAME, T, OUT, MAX)                                                        \
  REGISTER_KERNEL_BUILDER(                                                                     \
      Name(NAME).Device(DEVICE_CPU).TypeConstraint<T>("T").TypeConstraint<OUT>("output_type"), \
      ArgOp<T, OUT, MAX>);
#define REGISTER_CPU(T)                     \
  REGISTER_ARG("ArgMax", T, int16_t, true)  \
  REGISTER_ARG("ArgMax", T, uint16_t, true) \
  REGISTER_ARG("ArgMax", T, int32_t, true)  \
  REGISTER_ARG("ArgMax", T, int64_t, true)  \
  REGISTER_ARG("ArgMin", T, int32_t, false) \
  REGISTER_ARG("ArgMin", T, int64_t, false)
SLUICE_CALL_REAL_NUMBER_TYPES(REGISTER_CPU)
SLUICE_CALL_bool(REGISTER_CPU)
#undef REGISTER_CPU
#undef REGISTER_ARG

}  // namespace
}  // namespace reduction
}  // namespace sluice
