// Roll on the CPU: every element moves shift[i] places along axis[i], wrapping around.
//
// Checked as TensorFlow does, in its order and with its messages: the input at least a
// vector, shift and axis scalars or vectors of the same shape, each axis (negative counts from
// the end) within the input's rank. Shifts along a repeated axis add up. As in TensorFlow's
// kernel, axis and shift values are taken as 32-bit ints (an int64 value wraps) and each
// dimension's running sum is reduced modulo its size.
//
// The output is built a row at a time, a row being everything from the last shifted dimension
// inward: its source row follows from the shifts of the outer dimensions, and within it the
// shift is a rotation, two contiguous copies. Elements are moved by size
// (graph/core/element_bytes.h); rows are split over the pool.
#include <algorithm>
#include <cstdint>

#include "absl/container/inlined_vector.h"
#include "graph/core/element_bytes.h"
#include "graph/core/errors.h"
#include "graph/core/tensor.h"
#include "graph/core/types.h"
#include "kernels/cpu/array/array_types.h"
#include "kernels/cpu/parallel_for.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace {

// Element i of an int32 or int64 tensor, as the 32-bit int TensorFlow's kernel reads.
int32_t Int32At(const Tensor& t, int64_t i) {
  return t.dtype() == DT_INT32 ? t.base<int32_t>()[i] : static_cast<int32_t>(t.base<int64_t>()[i]);
}

using DimValues = absl::InlinedVector<int64_t, 8>;

class RollOp : public OpKernel {
 public:
  using OpKernel::OpKernel;

  void Compute(OpKernelContext* ctx) override {
    const Tensor& input = ctx->input(0);
    const Tensor& shift = ctx->input(1);
    const Tensor& axis = ctx->input(2);
    OP_REQUIRES(ctx, input.dims() >= 1, errors::InvalidArgument("input must be 1-D or higher"));
    OP_REQUIRES(ctx, shift.dims() <= 1,
                errors::InvalidArgument("shift must be a scalar or a 1-D vector. Found: ",
                                        shift.shape().DebugString()));
    OP_REQUIRES(ctx, axis.dims() <= 1,
                errors::InvalidArgument("axis must be a scalar or a 1-D vector. Found: ",
                                        axis.shape().DebugString()));
    OP_REQUIRES(ctx, shift.shape() == axis.shape(),
                errors::InvalidArgument("shift and axis must have the same size"));
    const int rank = input.dims();
    // heap-ok: one entry per dimension of the input
    DimValues shifts(rank, 0);
    for (int64_t i = 0; i < shift.NumElements(); ++i) {
      int32_t a = Int32At(axis, i);
      if (a < 0) a += rank;
      OP_REQUIRES(ctx, a >= 0 && a < rank, errors::InvalidArgument("axis ", a, " is out of range"));
      const int64_t size = std::max<int64_t>(input.dim_size(a), 1);
      // TensorFlow adds in 32-bit ints; the sum wraps as it does there.
      const int64_t sum = static_cast<int32_t>(static_cast<uint32_t>(shifts[a]) +
                                               static_cast<uint32_t>(Int32At(shift, i)));
      shifts[a] = (sum % size + size) % size;
    }
    Tensor* output = nullptr;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, input.shape(), &output));
    if (input.NumElements() == 0) return;
    VisitByElementSize(input.dtype(), [&](auto tag) {
      using U = typename decltype(tag)::type;
      Rotate(ctx, ElementsAs<U>(input), input.shape(), shifts, MutableElementsAs<U>(output));
    });
  }

 private:
  template <typename U>
  static void Rotate(OpKernelContext* ctx, const U* in, const TensorShape& shape,
                     const DimValues& shifts, U* out) {
    const int rank = shape.dims();
    int last = rank - 1;
    while (last > 0 && shifts[last] == 0) --last;
    int64_t row = 1;
    for (int d = last; d < rank; ++d) row *= shape.dim_size(d);
    const int64_t rotation = shifts[last] * (row / shape.dim_size(last));
    const int64_t rows = shape.num_elements() / row;
    const Eigen::TensorOpCost cost(sizeof(U) * row, sizeof(U) * row, row);
    ParallelFor(ctx, rows, shape.num_elements(), cost, [&](int64_t first, int64_t end) {
      for (int64_t r = first; r < end; ++r) {
        // The source row: each outer coordinate moved back by its dimension's shift.
        int64_t src_row = 0, stride = 1, rest = r;
        for (int d = last - 1; d >= 0; --d) {
          const int64_t size = shape.dim_size(d);
          const int64_t c = rest % size;
          rest /= size;
          src_row += ((c - shifts[d] + size) % size) * stride;
          stride *= size;
        }
        const U* src = in + src_row * row;
        U* dst = out + r * row;
        CopyUnits(src, dst + rotation, row - rotation);
        CopyUnits(src + row - rotation, dst, rotation);
      }
    });
  }
};

#define REGISTER_ROLL(Tshift, Taxis)                                             \
  REGISTER_KERNEL_BUILDER(Name("Roll")                                           \
                              .Device(DEVICE_CPU)                                \
                              .TypeConstraint("T", array_internal::ArrayTypes()) \
                              .TypeConstraint<Tshift>("Tshift")                  \
                              .TypeConstraint<Taxis>("Taxis"),                   \
                          RollOp);
REGISTER_ROLL(int32_t, int32_t)
REGISTER_ROLL(int32_t, int64_t)
REGISTER_ROLL(int64_t, int32_t)
REGISTER_ROLL(int64_t, int64_t)
#undef REGISTER_ROLL

}  // namespace
}  // namespace sluice
