// AddN on the CPU: the elementwise sum of N same-shaped tensors (TensorFlow's semantics: no
// broadcasting; inputs of different shapes are INVALID_ARGUMENT "Inputs to operation s of
// type AddN must have the same size and shape.  Input 0: [2,3] != input 1: [4]").
//
// With one input the output is that input. Otherwise the output reuses the buffer of any
// input no one else holds, or is allocated. The sum runs over blocks of elements: each
// block is accumulated in a small local buffer across all inputs, in input order, then
// stored, so every input is read once and the output written once whatever N is (one pass
// per input would stream the output through memory N times). Element i of an input is read
// before element i of the output is written, so an input that became the output is safe.
// Large tensors are split over the device's Eigen ThreadPoolDevice.
//
// Signed integers wrap on overflow as in TensorFlow (the addition is done unsigned).
#include <algorithm>
#include <cstdint>
#include <vector>

#include "absl/container/inlined_vector.h"
#include "graph/core/errors.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_shape.h"
#include "graph/core/tensor_types.h"
#include "graph/core/types.h"
#include "kernels/cpu/parallel_for.h"
#include "kernels/cpu/wrapping_arithmetic.h"
#include "runtime/framework/device_base.h"
#include "runtime/framework/op_kernel.h"
#include "unsupported/Eigen/CXX11/Tensor"

namespace sluice {
namespace {

// Elements accumulated at once: a block of every type fits in the L1 cache.
constexpr int64_t kBlock = 256;
// Below this many elements times inputs the sum stays on the calling thread.
constexpr int64_t kMinParallelWork = 32 * 1024;

// out[first, last) = sum over inputs of in[j][first, last). `out` may equal one of `in`.
template <typename T>
void SumRange(const T* const* in, int num_inputs, T* out, int64_t first, int64_t last) {
  T acc[kBlock];
  for (int64_t start = first; start < last; start += kBlock) {
    const int64_t len = std::min(kBlock, last - start);
    const T* a = in[0] + start;
    const T* b = in[1] + start;
    for (int64_t i = 0; i < len; ++i) acc[i] = WrappingAdd(a[i], b[i]);
    for (int j = 2; j < num_inputs; ++j) {
      const T* c = in[j] + start;
      for (int64_t i = 0; i < len; ++i) acc[i] = WrappingAdd(acc[i], c[i]);
    }
    std::copy(acc, acc + len, out + start);
  }
}

template <typename T>
class AddNOp : public OpKernel {
 public:
  using OpKernel::OpKernel;

  void Compute(OpKernelContext* ctx) override {
    const int n = ctx->num_inputs();
    const Tensor& first = ctx->input(0);
    for (int i = 1; i < n; ++i) {
      const Tensor& in = ctx->input(i);
      OP_REQUIRES(ctx, first.shape().IsSameSize(in.shape()),
                  errors::InvalidArgument(
                      "Inputs to operation ", name(), " of type ", type_string(),
                      " must have the same size and shape.  Input 0: ", first.shape().DebugString(),
                      " != input ", i, ": ", in.shape().DebugString()));
    }
    if (n == 1) {
      ctx->set_output(0, first);
      return;
    }
    // heap-ok: one per input of the node
    absl::InlinedVector<int, 8> candidates(n);
    for (int i = 0; i < n; ++i) candidates[i] = i;
    Tensor* out = nullptr;
    OP_REQUIRES_OK(ctx, ctx->forward_input_or_allocate_output(candidates, 0, first.shape(), &out));
    const int64_t size = first.NumElements();
    if (size == 0) return;
    // heap-ok: one per input of the node
    absl::InlinedVector<const T*, 8> in(n);
    for (int i = 0; i < n; ++i) in[i] = ctx->input(i).flat<T>().data();
    T* out_data = out->flat<T>().data();

    const int64_t blocks = (size + kBlock - 1) / kBlock;
    if (blocks < 2 || size * n < kMinParallelWork) {
      SumRange<T>(in.data(), n, out_data, 0, size);
      return;
    }
    const Eigen::TensorOpCost block_cost(static_cast<double>(n * kBlock * sizeof(T)),
                                         static_cast<double>(kBlock * sizeof(T)),
                                         static_cast<double>(n * kBlock));
    ParallelFor(ctx, blocks, size * n, block_cost, [&](int64_t b0, int64_t b1) {
      SumRange<T>(in.data(), n, out_data, b0 * kBlock, std::min<int64_t>(b1 * kBlock, size));
    });
  }
};

#define REGISTER_ADD_N(T) \
  REGISTER_KERNEL_BUILDER(Name("AddN").Device(DEVICE_CPU).TypeConstraint<T>("T"), AddNOp<T>);
// TensorFlow's CPU registrations: every number type (TensorFlow also sums variants; Sluice not).
SLUICE_CALL_NUMBER_TYPES(REGISTER_ADD_N)
#undef REGISTER_ADD_N

}  // namespace
}  // namespace sluice
