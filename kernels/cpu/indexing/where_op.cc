// Where (one input) on the CPU: the coordinates of the non-zero (true) elements of the
// input, as an int64 matrix [num_true, rank] in row-major order.
//
// Two passes: a per-dtype pass turns the input into a byte mask (an element is "true" when it
// compares unequal to zero, so -0.0 is false and NaN true, as in TensorFlow), then one
// dtype-free pass counts the mask, allocates the output and writes each true element's
// coordinates with an odometer. Ranks 1 to 8 are accepted, as by TensorFlow's kernel
// (INVALID_ARGUMENT "WhereOp : Unhandled input dimensions: 0" otherwise).
#include <cstdint>

#include "absl/container/inlined_vector.h"
#include "graph/core/errors.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_shape.h"
#include "graph/core/tensor_types.h"
#include "graph/core/types.h"
#include "kernels/cpu/parallel_for.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace {

constexpr int kMaxWhereDims = 8;

template <typename T>
void NonZeroMask(OpKernelContext* ctx, const T* in, int64_t n, uint8_t* mask) {
  const Eigen::TensorOpCost cost(sizeof(T), 1, 1);
  ParallelFor(ctx, n, n, cost, [&](int64_t first, int64_t last) {
    const T zero = T(0);
    for (int64_t i = first; i < last; ++i) mask[i] = !(in[i] == zero);
  });
}

// Writes the coordinates of each set byte of `mask` (elements of `shape`) to `out`.
void WriteCoordinates(const TensorShape& shape, const uint8_t* mask, int64_t* out) {
  const int rank = shape.dims();
  const int64_t n = shape.num_elements();
  // heap-ok: one per dim of the input (rank <= 254)
  absl::InlinedVector<int64_t, 8> coord(rank, 0);
  for (int64_t i = 0; i < n; ++i) {
    if (mask[i]) {
      for (int d = 0; d < rank; ++d) *out++ = coord[d];
    }
    for (int d = rank - 1; d >= 0; --d) {
      if (++coord[d] < shape.dim_size(d)) break;
      coord[d] = 0;
    }
  }
}

class WhereOp : public OpKernel {
 public:
  using OpKernel::OpKernel;

  void Compute(OpKernelContext* ctx) override {
    const Tensor& input = ctx->input(0);
    // TensorFlow registers half but refuses it at run time; so does Sluice, to agree.
    OP_REQUIRES(ctx, input.dtype() != DT_HALF,
                errors::Unimplemented("No WhereOp available for float16/half type on CPU; "
                                      "dying in CPU WhereOp to avoid silently creating "
                                      "costly copies from device."));
    OP_REQUIRES(ctx, input.dims() >= 1 && input.dims() <= kMaxWhereDims,
                errors::InvalidArgument("WhereOp : Unhandled input dimensions: ", input.dims()));
    const int64_t n = input.NumElements();
    // The mask comes from the device's allocator, so that a huge input fails as
    // RESOURCE_EXHAUSTED rather than in operator new.
    Tensor mask_t;
    // shape-safe: n is the input's element count
    OP_REQUIRES_OK(ctx, ctx->allocate_temp(DT_UINT8, TensorShape({n}), &mask_t));
    uint8_t* mask = mask_t.base<uint8_t>();
    switch (input.dtype()) {
#define SLUICE_WHERE_CASE(T)                       \
  case DataTypeToEnum<T>::value:                   \
    NonZeroMask<T>(ctx, input.base<T>(), n, mask); \
    break;
      SLUICE_CALL_NUMBER_TYPES(SLUICE_WHERE_CASE)
      SLUICE_CALL_bool(SLUICE_WHERE_CASE)
#undef SLUICE_WHERE_CASE
          default : OP_REQUIRES(ctx, false,
                                errors::InvalidArgument("Where does not support ",
                                                        DataTypeString(input.dtype())));
    }
    int64_t num_true = 0;
    for (int64_t i = 0; i < n; ++i) num_true += mask[i];
    // num_true <= n and the rank is small, so this cannot fail while the input's buffer
    // exists; checked rather than argued from memory sizes.
    TensorShape output_shape;
    OP_REQUIRES_OK(ctx, TensorShape::BuildTensorShape({num_true, input.dims()}, &output_shape));
    Tensor* output = nullptr;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, output_shape, &output));
    if (num_true == 0) return;
    WriteCoordinates(input.shape(), mask, output->base<int64_t>());
  }
};

// TensorFlow's CPU registrations: numbers and bool.
constexpr DataType kWhereTypes[] = {
#define SLUICE_WHERE_TYPE(T) DataTypeToEnum<T>::value,
    SLUICE_CALL_NUMBER_TYPES(SLUICE_WHERE_TYPE) SLUICE_CALL_bool(SLUICE_WHERE_TYPE)
#undef SLUICE_WHERE_TYPE
};

REGISTER_KERNEL_BUILDER(Name("Where").Device(DEVICE_CPU).TypeConstraint("T", kWhereTypes), WhereOp);

}  // namespace
}  // namespace sluice
