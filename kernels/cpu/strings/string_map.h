// MapStrings: the loop of the string kernels that turn each string of input 0 into one
// element of output 0 of the same shape, independently of the others (case, strip, base64
// encoding, regex replacement, lengths, matches). The elements are split over the intra-op
// pool; `cost_per_byte` sizes the blocks by the input's average string length.
#ifndef SLUICE_KERNELS_CPU_STRINGS_STRING_MAP_H_
#define SLUICE_KERNELS_CPU_STRINGS_STRING_MAP_H_

#include <cstdint>
#include <string>

#include "graph/core/tensor.h"
#include "kernels/cpu/parallel_for.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace strings {

// Calls fn(in[i], &out[i]) for every element, where out is output 0 (of type Out, allocated
// here with input 0's shape). fn must not fail.
template <typename Out, typename Fn>
void MapStrings(OpKernelContext* ctx, double cost_per_byte, Fn&& fn) {
  const Tensor& input = ctx->input(0);
  Tensor* output = nullptr;
  OP_REQUIRES_OK(ctx, ctx->allocate_output(0, input.shape(), &output));
  const int64_t n = input.NumElements();
  if (n == 0) return;
  const std::string* in = input.base<std::string>();
  Out* out = output->base<Out>();
  // The first few strings stand for the rest: summing every length would be a pass of its
  // own over memory the loop then reads again.
  int64_t sampled_bytes = 0;
  const int64_t sampled = n < 16 ? n : 16;
  for (int64_t i = 0; i < sampled; ++i) sampled_bytes += static_cast<int64_t>(in[i].size());
  const double bytes = static_cast<double>(sampled_bytes) / static_cast<double>(sampled) + 1.0;
  const Eigen::TensorOpCost cost(bytes, bytes, bytes * cost_per_byte + 8);
  ParallelFor(ctx, n, n, cost, [&](int64_t first, int64_t last) {
    for (int64_t i = first; i < last; ++i) fn(in[i], &out[i]);
  });
}

}  // namespace strings
}  // namespace sluice

#endif  // SLUICE_KERNELS_CPU_STRINGS_STRING_MAP_H_
