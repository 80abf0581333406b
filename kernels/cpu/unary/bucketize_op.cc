// Bucketize on the CPU: output[i] = the number of boundaries <= input[i], as int32.
//
// As in TensorFlow, the boundaries must be sorted (checked at construction, with its
// message), and each value is compared with the float boundaries as std::upper_bound does
// (`value < boundary` in C++'s usual arithmetic conversions: int32 and int64 values are
// converted to float, float boundaries to double for double values), so values that differ
// only beyond float precision land where TensorFlow puts them. NaN is above every boundary.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "graph/core/errors.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_types.h"
#include "graph/core/types.h"
#include "kernels/cpu/parallel_for.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace {

template <typename T>
class BucketizeOp : public OpKernel {
 public:
  explicit BucketizeOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("boundaries", &boundaries_));
    OP_REQUIRES(ctx, std::is_sorted(boundaries_.begin(), boundaries_.end()),
                errors::InvalidArgument("Expected sorted boundaries"));
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& input = ctx->input(0);
    Tensor* output = nullptr;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, input.shape(), &output));
    const int64_t n = input.NumElements();
    if (n == 0) return;
    const T* in = input.base<T>();
    int32_t* out = output->base<int32_t>();
    const std::vector<float>& boundaries = boundaries_;
    const double steps = std::max<double>(1, std::log2(boundaries.size() + 1));
    const Eigen::TensorOpCost cost(sizeof(T), sizeof(int32_t), 2 * steps);
    ParallelFor(ctx, n, n, cost, [&](int64_t first, int64_t last) {
      for (int64_t i = first; i < last; ++i) {
        out[i] = static_cast<int32_t>(
            std::upper_bound(boundaries.begin(), boundaries.end(), in[i]) - boundaries.begin());
      }
    });
  }

 private:
  std::vector<float> boundaries_;  // on the heap, bounded: the boundaries attr's list
};

#define REGISTER_BUCKETIZE(T)                                                          \
  REGISTER_KERNEL_BUILDER(Name("Bucketize").Device(DEVICE_CPU).TypeConstraint<T>("T"), \
                          BucketizeOp<T>);
SLUICE_CALL_int32(REGISTER_BUCKETIZE) SLUICE_CALL_int64(REGISTER_BUCKETIZE)
    SLUICE_CALL_float(REGISTER_BUCKETIZE) SLUICE_CALL_double(REGISTER_BUCKETIZE)
#undef REGISTER_BUCKETIZE

}  // namespace
}  // namespace sluice
