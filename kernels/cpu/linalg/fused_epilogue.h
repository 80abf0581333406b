// ApplyFusedEpilogue: what a fused contraction does after its product, done with plain loops
// over the output in place: bias (x + bias[c]) or inference batch norm
// ((x - mean[c]) * scale[c] * rsqrt(variance[c] + epsilon) + offset[c]), then the "Add"
// fusion's addend (x + addend[i], rounded after the bias as TensorFlow's separate ops do),
// then the activation.
// The oneDNN paths do the same inside the primitive; this one serves the dtypes oneDNN does
// not run (double) and products with no terms (empty inputs), whose output is the epilogue
// of zeros. Arithmetic is in double for double and in float otherwise.
//
// REQUIRES: the extra arguments (ctx inputs 2..) passed CheckFusionArgs for `channels` (and
// the addend CheckFusionAddend for the output's shape); the
// channel of element i of `out` is (i / inner) % channels (inner = 1 for channels-last).
#ifndef SLUICE_KERNELS_CPU_LINALG_FUSED_EPILOGUE_H_
#define SLUICE_KERNELS_CPU_LINALG_FUSED_EPILOGUE_H_

#include <cmath>
#include <cstdint>
#include <type_traits>

#include "absl/status/status.h"
#include "graph/core/errors.h"
#include "graph/core/tensor_types.h"
#include "kernels/cpu/linalg/fused_args.h"
#include "kernels/cpu/parallel_for.h"
#include "kernels/cpu/scratch.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {

template <typename T>
absl::Status ApplyFusedEpilogue(OpKernelContext* ctx, const FusionSpec& spec, int64_t channels,
                                int64_t inner, T* out, int64_t n) {
  using W = std::conditional_t<std::is_same_v<T, double>, double, float>;
  auto arg = [&](int index, int64_t c) {
    return static_cast<W>(ctx->input(index).flat<T>().data()[c]);
  };
  // out = (x - center) * mul + add per channel; the bias is the case center 0, mul 1.
  ScratchArray<W> center, mul, add;
  RETURN_IF_ERROR(center.Allocate(ctx, channels));
  RETURN_IF_ERROR(mul.Allocate(ctx, channels));
  RETURN_IF_ERROR(add.Allocate(ctx, channels));
  for (int64_t c = 0; c < channels; ++c) {
    mul[c] = W(1);
    if (spec.batch_norm) {
      mul[c] = arg(2, c) / std::sqrt(arg(5, c) + static_cast<W>(spec.epsilon));
      add[c] = arg(3, c);
      center[c] = arg(4, c);
    } else {
      add[c] = arg(2, c);
    }
  }
  const T* addend = spec.add ? ctx->input(kAddendInput).flat<T>().data() : nullptr;
  const W* centers = center.data();
  const W* muls = mul.data();
  const W* adds = add.data();
  const Eigen::TensorOpCost cost(sizeof(T), sizeof(T), 8);
  ParallelFor(ctx, n, n, cost, [&](int64_t first, int64_t last) {
    for (int64_t i = first; i < last; ++i) {
      const int64_t c = (i / inner) % channels;
      W x = (static_cast<W>(out[i]) - centers[c]) * muls[c] + adds[c];
      if (addend != nullptr) {
        x = static_cast<W>(static_cast<T>(x)) + static_cast<W>(addend[i]);
      }
      out[i] = static_cast<T>(Activate<W>(spec.activation, spec.leakyrelu_alpha, x));
    }
  });
  return absl::OkStatus();
}

}  // namespace sluice

#endif  // SLUICE_KERNELS_CPU_LINALG_FUSED_EPILOGUE_H_
