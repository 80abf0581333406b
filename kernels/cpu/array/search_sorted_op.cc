// LowerBound and UpperBound on the CPU: for each value of row b of `values`, the first index
// of row b of `sorted_inputs` whose element is not less than it (LowerBound) or greater than
// it (UpperBound), by the element type's own < as std::lower_bound/upper_bound apply it
// (so NaN, which compares false with everything, lands where the search leaves it, as in
// TensorFlow).
//
// Checked as TensorFlow does, with its messages: both inputs matrices with the same number of
// rows, and for an int32 output rows no longer than INT32_MAX. Rows are split over the pool.
#include <algorithm>
#include <cstdint>
#include <limits>

#include "graph/core/errors.h"
#include "graph/core/tensor.h"
#include "graph/core/types.h"
#include "kernels/cpu/array/real_types.h"
#include "kernels/cpu/parallel_for.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace {

template <bool kUpper>
class SearchSortedOp : public OpKernel {
 public:
  using OpKernel::OpKernel;

  void Compute(OpKernelContext* ctx) override {
    const Tensor& sorted = ctx->input(0);
    const Tensor& values = ctx->input(1);
    OP_REQUIRES(ctx, sorted.dims() == 2,
                errors::InvalidArgument("Shape must be rank 2 but is rank ", sorted.dims(),
                                        " for `sorted_inputs` argument"));
    OP_REQUIRES(ctx, values.dims() == 2,
                errors::InvalidArgument("Shape must be rank 2 but is rank ", values.dims(),
                                        " for `values` argument"));
    OP_REQUIRES(ctx, sorted.dim_size(0) == values.dim_size(0),
                errors::InvalidArgument("Leading dim_size of both tensors must match."));
    Tensor* output = nullptr;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, values.shape(), &output));
    const int64_t len = sorted.dim_size(1);
    if (output->dtype() == DT_INT32) {
      OP_REQUIRES(ctx, len <= std::numeric_limits<int32_t>::max(),
                  errors::InvalidArgument(
                      "trailing dim_size must be less than or equal to INT_MAX for int32 output "
                      "type, was ",
                      len));
    }
    if (output->NumElements() == 0) return;
    array_internal::VisitRealType(sorted.dtype(), [&](auto tag) {
      using E = typename decltype(tag)::type;
      if (output->dtype() == DT_INT32) {
        Search<E>(ctx, sorted, values, output->base<int32_t>());
      } else {
        Search<E>(ctx, sorted, values, output->base<int64_t>());
      }
    });
  }

 private:
  template <typename E, typename Out>
  static void Search(OpKernelContext* ctx, const Tensor& sorted, const Tensor& values, Out* out) {
    const int64_t len = sorted.dim_size(1);
    const int64_t per_row = values.dim_size(1);
    const E* base = sorted.base<E>();
    const E* vals = values.base<E>();
    int64_t log_len = 1;
    while ((int64_t{1} << log_len) < len) ++log_len;
    const Eigen::TensorOpCost cost(sizeof(E) * log_len, sizeof(Out), log_len);
    ParallelFor(ctx, values.NumElements(), values.NumElements(), cost,
                [&](int64_t first, int64_t last) {
                  for (int64_t i = first; i < last; ++i) {
                    const E* row = base + (i / per_row) * len;
                    const E* at = kUpper ? std::upper_bound(row, row + len, vals[i])
                                         : std::lower_bound(row, row + len, vals[i]);
                    out[i] = static_cast<Out>(at - row);
                  }
                });
  }
};

#define REGISTER_SEARCH(name, upper)                                             \
  REGISTER_KERNEL_BUILDER(Name(name)                                             \
                              .Device(DEVICE_CPU)                                \
                              .TypeConstraint("T", array_internal::RealTypes())  \
                              .TypeConstraint("out_type", {DT_INT32, DT_INT64}), \
                          SearchSortedOp<upper>);
REGISTER_SEARCH("LowerBound", false)
REGISTER_SEARCH("UpperBound", true)
#undef REGISTER_SEARCH

}  // namespace
}  // namespace sluice
