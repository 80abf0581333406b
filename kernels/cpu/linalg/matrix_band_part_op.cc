// MatrixBandPart on the CPU: keeps the band of each innermost [rows, cols] matrix, entries
// (m, n) with (num_lower < 0 || m - n <= num_lower) && (num_upper < 0 || n - m <=
// num_upper), and zeros the rest.
//
// Checked as TensorFlow does, with its messages: the input at least a matrix, num_lower and
// num_upper scalars, num_lower <= rows and num_upper <= cols. As in TensorFlow the output is
// the input itself when the input is empty or the band covers every entry (each count
// negative or equal to the dim); and the counts reach the row loop as 32-bit ints
// (TensorFlow's functor takes `int`), so a count below INT32_MIN wraps as it does there.
//
// Elements are kept or zeroed without being looked at, so the kernel is written once per
// element size (graph/core/element_bytes.h; all-zero bytes are 0, 0.0, false and 0+0i for
// every registered dtype). An unshared input buffer is reused for the output, and then only
// the entries outside the band are written. Rows are split over the intra-op pool.
#include <algorithm>
#include <cstdint>

#include "graph/core/element_bytes.h"
#include "graph/core/errors.h"
#include "graph/core/integer_tensor.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_shape.h"
#include "graph/core/tensor_types.h"
#include "graph/core/types.h"
#include "kernels/cpu/parallel_for.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace {

// TensorFlow's CPU registrations (TF_CALL_POD_TYPES: every number type and bool).
DataTypeVector BandPartTypes() {
  return {DT_FLOAT,  DT_DOUBLE, DT_HALF,      DT_BFLOAT16,   DT_INT8,
          DT_INT16,  DT_INT32,  DT_INT64,     DT_UINT8,      DT_UINT16,
          DT_UINT32, DT_UINT64, DT_COMPLEX64, DT_COMPLEX128, DT_BOOL};
}

class MatrixBandPartOp : public OpKernel {
 public:
  using OpKernel::OpKernel;

  void Compute(OpKernelContext* ctx) override {
    const Tensor& input = ctx->input(0);
    OP_REQUIRES(ctx, input.dims() >= 2,
                errors::InvalidArgument("input must be at least 2-dim, received shape: ",
                                        input.shape().DebugString()));
    const int64_t rows = input.dim_size(input.dims() - 2);
    const int64_t cols = input.dim_size(input.dims() - 1);
    const Tensor& num_lower_t = ctx->input(1);
    OP_REQUIRES(ctx, num_lower_t.dims() == 0,
                errors::InvalidArgument("num_lower must be scalar, got shape ",
                                        num_lower_t.shape().DebugString()));
    int64_t num_lower = 0;
    OP_REQUIRES_OK(ctx, IntegerTensorScalar(num_lower_t, &num_lower));
    OP_REQUIRES(
        ctx, num_lower <= rows,
        errors::InvalidArgument("num_lower must be negative or less or equal to number of rows (",
                                rows, ") got: ", num_lower));
    const Tensor& num_upper_t = ctx->input(2);
    OP_REQUIRES(ctx, num_upper_t.dims() == 0,
                errors::InvalidArgument("num_upper must be scalar, got shape ",
                                        num_upper_t.shape().DebugString()));
    int64_t num_upper = 0;
    OP_REQUIRES_OK(ctx, IntegerTensorScalar(num_upper_t, &num_upper));
    OP_REQUIRES(ctx, num_upper <= cols,
                errors::InvalidArgument(
                    "num_upper must be negative or less or equal to number of columns (", cols,
                    ") got: ", num_upper));
    if (input.NumElements() == 0 ||
        ((num_lower < 0 || num_lower == rows) && (num_upper < 0 || num_upper == cols))) {
      ctx->set_output(0, input);
      return;
    }
    Tensor* output = nullptr;
    OP_REQUIRES_OK(ctx, ctx->forward_input_or_allocate_output({0}, 0, input.shape(), &output));
    const bool in_place = output->raw_data() == input.raw_data();
    const int64_t lower = static_cast<int32_t>(num_lower);
    const int64_t upper = static_cast<int32_t>(num_upper);
    const int64_t total_rows = input.NumElements() / cols;
    VisitByElementSize(input.dtype(), [&](auto tag) {
      using U = typename decltype(tag)::type;
      const U* in = ElementsAs<U>(input);
      U* out = MutableElementsAs<U>(output);
      const Eigen::TensorOpCost cost(sizeof(U) * cols, sizeof(U) * cols, cols);
      ParallelFor(ctx, total_rows, input.NumElements(), cost, [&](int64_t first, int64_t last) {
        for (int64_t r = first; r < last; ++r) {
          const int64_t row = r % rows;
          const int64_t band_start =
              lower < 0 ? 0 : std::min(cols, std::max<int64_t>(0, row - lower));
          const int64_t band_end = upper < 0 ? cols : std::min(cols, row + upper + 1);
          U* dst = out + r * cols;
          if (!in_place && band_start < band_end) {
            CopyUnits(in + r * cols + band_start, dst + band_start, band_end - band_start);
          }
          // The zeros: everything when the band is empty, else both sides of it.
          const int64_t zero_end = band_start < band_end ? band_start : cols;
          for (int64_t i = 0; i < zero_end; ++i) dst[i] = U{};
          for (int64_t i = std::max(band_end, zero_end); i < cols; ++i) dst[i] = U{};
        }
      });
    });
  }
};

REGISTER_KERNEL_BUILDER(
    Name("MatrixBandPart").Device(DEVICE_CPU).TypeConstraint("T", BandPartTypes()),
    MatrixBandPartOp);

}  // namespace
}  // namespace sluice
