// SparseToDense on the CPU: a dense tensor of shape `output_shape` filled with
// `default_value`, with sparse_values[i] (or the scalar sparse_values) written at index row i
// of sparse_indices (a scalar or vector: one index per element of a rank-1 output; a matrix:
// one row per element).
//
// As in TensorFlow: the shapes are checked first, with its messages; validate_indices checks,
// row by row, that each index is in bounds and then that it comes strictly after the previous
// one in row-major order (reporting "out of bounds", "out of order" or "repeated"); without
// it, indices are still bounds-checked, and a repeated index keeps the last value written.
// Elements are moved by size, so one kernel serves every dtype.
#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "graph/core/element_bytes.h"
#include "graph/core/errors.h"
#include "graph/core/integer_tensor.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_shape.h"
#include "graph/core/types.h"
#include "kernels/cpu/array/array_types.h"
#include "kernels/cpu/scratch.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace {

absl::Status CheckShapes(const Tensor& indices, const Tensor& output_shape,
                         const Tensor& sparse_values, const Tensor& default_value) {
  if (indices.dims() > 2) {
    return errors::InvalidArgument(
        "sparse_indices should be a scalar, vector, or matrix, got shape ",
        indices.shape().DebugString());
  }
  const int64_t num_elems = indices.dims() > 0 ? indices.dim_size(0) : 1;
  const int64_t num_dims = indices.dims() > 1 ? indices.dim_size(1) : 1;
  if (output_shape.dims() != 1) {
    return errors::InvalidArgument("output_shape must be rank 1, got shape ",
                                   output_shape.shape().DebugString());
  }
  if (output_shape.NumElements() != num_dims) {
    return errors::InvalidArgument("output_shape has incorrect number of elements: ",
                                   output_shape.NumElements(), " should be: ", num_dims);
  }
  if (sparse_values.dims() != 0 &&
      (sparse_values.dims() != 1 || sparse_values.NumElements() != num_elems)) {
    return errors::InvalidArgument("sparse_values has incorrect shape ",
                                   sparse_values.shape().DebugString(), ", should be [] or [",
                                   num_elems, "]");
  }
  if (default_value.dims() != 0) {
    return errors::InvalidArgument("default_value should be a scalar.");
  }
  return absl::OkStatus();
}

// The dense shape, with TensorFlow's messages for a negative or overflowing dimension.
absl::Status DenseShape(const IntegerValues& dims, TensorShape* shape) {
  for (const int64_t d : dims) {
    if (d < 0) return errors::InvalidArgument("Dimension ", d, " must be >= 0");
  }
  int64_t product = 1;
  for (const int64_t d : dims) {
    product = MultiplyWithoutOverflow(product, d);
    if (product < 0) {
      return errors::InvalidArgument("Shape [", absl::StrJoin(dims, ","),
                                     "] would have more than 2**63 - 1 elements");
    }
  }
  return TensorShape::BuildTensorShape(dims, shape);
}

// "[i,j,...]" as TensorFlow prints an index row (a row of no dims prints as "[").
std::string IndexString(const int64_t* row, int64_t num_dims) {
  if (num_dims == 0) return "[";
  return absl::StrCat("[", absl::StrJoin(row, row + num_dims, ","), "]");
}

// TensorFlow's validate_indices check over the rows of `ix` (num_elems x num_dims).
absl::Status ValidateIndices(const int64_t* ix, int64_t num_elems, int64_t num_dims,
                             const TensorShape& shape) {
  for (int64_t n = 0; n < num_elems; ++n) {
    const int64_t* row = ix + n * num_dims;
    for (int64_t d = 0; d < num_dims; ++d) {
      if (row[d] < 0 || row[d] >= shape.dim_size(d)) {
        return errors::InvalidArgument("indices[", n, "] = ", IndexString(row, num_dims),
                                       " is out of bounds: need 0 <= index < ",
                                       shape.DebugString());
      }
    }
    if (n == 0) continue;
    const int64_t* prev = row - num_dims;
    int64_t d = 0;
    while (d < num_dims && row[d] == prev[d]) ++d;
    if (d == num_dims) {
      return errors::InvalidArgument("indices[", n, "] = ", IndexString(row, num_dims),
                                     " is repeated");
    }
    if (row[d] < prev[d]) {
      return errors::InvalidArgument(
          "indices[", n, "] = ", IndexString(row, num_dims),
          " is out of order. Many sparse ops require sorted indices.\n"
          "    Use `tf.sparse.reorder` to create a correctly ordered copy.\n\n");
    }
  }
  return absl::OkStatus();
}

class SparseToDenseOp : public OpKernel {
 public:
  explicit SparseToDenseOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("validate_indices", &validate_indices_));
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& indices = ctx->input(0);
    const Tensor& output_shape = ctx->input(1);
    const Tensor& sparse_values = ctx->input(2);
    const Tensor& default_value = ctx->input(3);
    OP_REQUIRES_OK(ctx, CheckShapes(indices, output_shape, sparse_values, default_value));
    const int64_t num_elems = indices.dims() > 0 ? indices.dim_size(0) : 1;
    const int64_t num_dims = indices.dims() > 1 ? indices.dim_size(1) : 1;

    IntegerValues dims;
    OP_REQUIRES_OK(ctx, IntegerTensorValues(output_shape, &dims));
    TensorShape shape;
    OP_REQUIRES_OK(ctx, DenseShape(dims, &shape));
    Tensor* output = nullptr;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, shape, &output));

    // The indices as int64, whichever their dtype.
    ScratchArray<int64_t> ix;
    OP_REQUIRES_OK(ctx, ix.Allocate(ctx, indices.NumElements()));
    for (int64_t i = 0; i < indices.NumElements(); ++i) ix[i] = IndexElement(indices, i);
    if (validate_indices_) {
      OP_REQUIRES_OK(ctx, ValidateIndices(ix.data(), num_elems, num_dims, shape));
    }
    // Every row is bounds-checked before anything is written.
    for (int64_t i = 0; i < indices.NumElements(); ++i) {
      const int64_t v = ix[i];
      OP_REQUIRES(ctx, v >= 0 && v < shape.dim_size(i % num_dims),
                  errors::InvalidArgument("Indices are not valid (out of bounds).  Shape: ",
                                          shape.DebugString()));
    }

    const bool scalar_value = sparse_values.dims() == 0;
    VisitByElementSize(output->dtype(), [&](auto tag) {
      using U = typename decltype(tag)::type;
      U* out = MutableElementsAs<U>(output);
      const U fill = ElementsAs<U>(default_value)[0];
      for (int64_t i = 0; i < output->NumElements(); ++i) out[i] = fill;
      const U* values = ElementsAs<U>(sparse_values);
      for (int64_t n = 0; n < num_elems; ++n) {
        int64_t offset = 0;  // row-major
        for (int64_t d = 0; d < num_dims; ++d) {
          offset = offset * shape.dim_size(d) + ix[n * num_dims + d];
        }
        out[offset] = values[scalar_value ? 0 : n];
      }
    });
  }

 private:
  bool validate_indices_;
};

REGISTER_KERNEL_BUILDER(Name("SparseToDense")
                            .Device(DEVICE_CPU)
                            .TypeConstraint("T", array_internal::ArrayTypes())
                            .TypeConstraint("Tindices", {DT_INT32, DT_INT64}),
                        SparseToDenseOp);

}  // namespace
}  // namespace sluice
