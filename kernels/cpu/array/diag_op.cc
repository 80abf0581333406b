// Diag and DiagPart on the CPU. Diag of a tensor of shape S (N elements) is the tensor of shape
// S + S that, seen as an N x N matrix, has the input on its diagonal and zeros elsewhere;
// DiagPart reads that diagonal back from a tensor of shape S + S.
//
// Checked as TensorFlow does, with its messages: Diag needs at least a vector; DiagPart an
// even rank (a scalar, rank 0, passes and is its own diagonal, as in TensorFlow's kernel) and
// dimension i equal to dimension i + rank/2.
//
// Elements are moved by size (graph/core/element_bytes.h; all-zero bytes are zero for every
// registered dtype); rows are split over the pool.
#include <cstdint>

#include "graph/core/element_bytes.h"
#include "graph/core/errors.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_shape.h"
#include "graph/core/types.h"
#include "kernels/cpu/parallel_for.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace {

// TensorFlow's CPU registrations: the OpDef's list but bfloat16.
DataTypeVector DiagTypes() {
  return {DT_HALF, DT_FLOAT, DT_DOUBLE, DT_INT32, DT_INT64, DT_COMPLEX64, DT_COMPLEX128};
}

class DiagOp : public OpKernel {
 public:
  using OpKernel::OpKernel;

  void Compute(OpKernelContext* ctx) override {
    const Tensor& diagonal = ctx->input(0);
    OP_REQUIRES(ctx, diagonal.dims() >= 1,
                errors::InvalidArgument("Input must be at least rank 1, got ", diagonal.dims()));
    TensorShape out_shape = diagonal.shape();
    OP_REQUIRES_OK(ctx, out_shape.AppendShapeWithStatus(diagonal.shape()));
    Tensor* output = nullptr;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, out_shape, &output));
    const int64_t n = diagonal.NumElements();
    if (n == 0) return;
    VisitByElementSize(diagonal.dtype(), [&](auto tag) {
      using U = typename decltype(tag)::type;
      const U* in = ElementsAs<U>(diagonal);
      U* out = MutableElementsAs<U>(output);
      const Eigen::TensorOpCost cost(sizeof(U), sizeof(U) * n, n);
      ParallelFor(ctx, n, n * n, cost, [&](int64_t first, int64_t last) {
        for (int64_t r = first; r < last; ++r) {
          U* row = out + r * n;
          for (int64_t c = 0; c < n; ++c) row[c] = U{};
          row[r] = in[r];
        }
      });
    });
  }
};

class DiagPartOp : public OpKernel {
 public:
  using OpKernel::OpKernel;

  void Compute(OpKernelContext* ctx) override {
    const Tensor& input = ctx->input(0);
    const int rank = input.dims();
    OP_REQUIRES(
        ctx, rank % 2 == 0,
        errors::InvalidArgument("The rank of the tensor should be even and positive, got shape ",
                                input.shape().DebugString()));
    const int half = rank / 2;
    TensorShape out_shape;
    for (int i = 0; i < half; ++i) {
      OP_REQUIRES(ctx, input.dim_size(i) == input.dim_size(i + half),
                  errors::InvalidArgument("Invalid shape ", input.shape().DebugString(),
                                          ": dimensions ", i, " and ", i + half, " do not match."));
      OP_REQUIRES_OK(ctx, out_shape.AddDimWithStatus(input.dim_size(i)));
    }
    Tensor* output = nullptr;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, out_shape, &output));
    const int64_t n = output->NumElements();
    VisitByElementSize(input.dtype(), [&](auto tag) {
      using U = typename decltype(tag)::type;
      const U* in = ElementsAs<U>(input);
      U* out = MutableElementsAs<U>(output);
      for (int64_t i = 0; i < n; ++i) out[i] = in[i * (n + 1)];
    });
  }
};

REGISTER_KERNEL_BUILDER(Name("Diag").Device(DEVICE_CPU).TypeConstraint("T", DiagTypes()), DiagOp);
REGISTER_KERNEL_BUILDER(Name("DiagPart").Device(DEVICE_CPU).TypeConstraint("T", DiagTypes()),
                        DiagPartOp);

}  // namespace
}  // namespace sluice
