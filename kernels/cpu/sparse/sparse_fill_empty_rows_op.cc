// SparseFillEmptyRows and its gradient on the CPU. The forward op gives every empty row of a
// SparseTensor one entry [row, 0, ..., 0] holding default_value, keeping the others' order
// within a row (TensorFlow's counting pass, so rows given out of order come out grouped by
// row), and reports which rows were empty and where each input entry went. A tensor whose rows
// are all full and in order is passed through. Values are moved by element size, so one
// kernel serves every dtype.
//
// The gradient routes grad_values[reverse_index_map[j]] back to d_values[j] and sums the rest,
// the filled entries' gradients, into d_default_value.
#include <algorithm>
#include <cstdint>

#include "graph/core/element_bytes.h"
#include "graph/core/errors.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_shape.h"
#include "graph/core/types.h"
#include "kernels/cpu/array/array_types.h"
#include "kernels/cpu/scratch.h"
#include "kernels/cpu/sparse/sparse_tensor_util.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace {

absl::Status CheckFillInputs(const Tensor& indices, const Tensor& values, const Tensor& dense_shape,
                             const Tensor& default_value) {
  if (dense_shape.dims() != 1) {
    return errors::InvalidArgument("dense_shape must be a vector, saw: ",
                                   dense_shape.shape().DebugString());
  }
  if (indices.dims() != 2) {
    return errors::InvalidArgument("indices must be a matrix, saw: ",
                                   indices.shape().DebugString());
  }
  if (values.dims() != 1) {
    return errors::InvalidArgument("values must be a vector, saw: ", values.shape().DebugString());
  }
  if (indices.dim_size(0) != values.dim_size(0)) {
    return errors::InvalidArgument("The length of `values` (", values.dim_size(0),
                                   ") must match the first dimension of `indices` (",
                                   indices.dim_size(0), ").");
  }
  if (default_value.dims() != 0) {
    return errors::InvalidArgument("default_value must be a scalar, saw: ",
                                   default_value.shape().DebugString());
  }
  if (dense_shape.NumElements() == 0) {
    return errors::InvalidArgument("Dense shape cannot be empty.");
  }
  return absl::OkStatus();
}

class SparseFillEmptyRowsOp : public OpKernel {
 public:
  explicit SparseFillEmptyRowsOp(OpKernelConstruction* ctx) : OpKernel(ctx) {}

  void Compute(OpKernelContext* ctx) override {
    const Tensor& indices = ctx->input(0);
    const Tensor& values = ctx->input(1);
    const Tensor& dense_shape = ctx->input(2);
    const Tensor& default_value = ctx->input(3);
    OP_REQUIRES_OK(ctx, CheckFillInputs(indices, values, dense_shape, default_value));
    const int64_t n = indices.dim_size(0);
    const int64_t rank = indices.dim_size(1);
    const int64_t dense_rows = static_cast<const int64_t*>(dense_shape.raw_data())[0];
    OP_REQUIRES(
        ctx, dense_rows >= 0,
        errors::InvalidArgument("Expected shape dimensions to be non-negative, got ", dense_rows));
    Tensor* empty_rows = nullptr;
    OP_REQUIRES_OK(ctx, sparse::AllocateOutput(ctx, 2, {dense_rows}, &empty_rows));
    Tensor* reverse_map = nullptr;
    OP_REQUIRES_OK(ctx, sparse::AllocateOutput(ctx, 3, {n}, &reverse_map));
    if (dense_rows == 0) {
      OP_REQUIRES(ctx, n == 0,
                  errors::InvalidArgument("Received SparseTensor with dense_shape[0] = 0 but "
                                          "indices.shape[0] = ",
                                          n));
      Tensor* unused = nullptr;
      OP_REQUIRES_OK(ctx, sparse::AllocateOutput(ctx, 0, {0, rank}, &unused));
      OP_REQUIRES_OK(ctx, sparse::AllocateOutput(ctx, 1, {0}, &unused));
      return;
    }
    // Entries are placed by their row, the first index column; a tensor of rank 0 has none.
    OP_REQUIRES(ctx, rank > 0 || n == 0,
                errors::InvalidArgument("indices must have a column for the row, saw: ",
                                        indices.shape().DebugString()));
    const int64_t* ix = static_cast<const int64_t*>(indices.raw_data());

    // row_end[r]: one past the last output position of row r, once counts are summed.
    ScratchArray<int64_t> row_end;
    OP_REQUIRES_OK(ctx, row_end.Allocate(ctx, dense_rows));
    bool rows_ordered = true;
    int64_t last_row = 0;
    for (int64_t i = 0; i < n; ++i) {
      const int64_t row = ix[i * rank];
      OP_REQUIRES(
          ctx, row >= 0 && row < dense_rows,
          errors::InvalidArgument("indices(", i, ", 0) is invalid: ", row, " >= ", dense_rows));
      ++row_end[row];
      rows_ordered = rows_ordered && row >= last_row;
      last_row = row;
    }
    bool* empty = static_cast<bool*>(empty_rows->raw_data());
    bool all_full = true;
    for (int64_t r = 0; r < dense_rows; ++r) {
      empty[r] = row_end[r] == 0;
      all_full = all_full && !empty[r];
      row_end[r] = std::max<int64_t>(row_end[r], 1) + (r > 0 ? row_end[r - 1] : 0);
    }
    int64_t* reverse = static_cast<int64_t*>(reverse_map->raw_data());
    if (all_full && rows_ordered) {
      ctx->set_output(0, indices);
      ctx->set_output(1, values);
      for (int64_t i = 0; i < n; ++i) reverse[i] = i;
      return;
    }
    const int64_t n_full = row_end[dense_rows - 1];
    Tensor* out_indices = nullptr;
    OP_REQUIRES_OK(ctx, sparse::AllocateOutput(ctx, 0, {n_full, rank}, &out_indices));
    Tensor* out_values = nullptr;
    OP_REQUIRES_OK(ctx, sparse::AllocateOutput(ctx, 1, {n_full}, &out_values));
    int64_t* out_ix = static_cast<int64_t*>(out_indices->raw_data());
    ScratchArray<int64_t> filled;  // entries written so far, per row
    OP_REQUIRES_OK(ctx, filled.Allocate(ctx, dense_rows));
    VisitByElementSize(values.dtype(), [&](auto tag) {
      using U = typename decltype(tag)::type;
      const U* in = ElementsAs<U>(values);
      U* out = MutableElementsAs<U>(out_values);
      for (int64_t i = 0; i < n; ++i) {
        const int64_t row = ix[i * rank];
        const int64_t pos = (row == 0 ? 0 : row_end[row - 1]) + filled[row]++;
        std::copy_n(ix + i * rank, rank, out_ix + pos * rank);
        out[pos] = in[i];
        reverse[i] = pos;
      }
      const U fill = ElementsAs<U>(default_value)[0];
      for (int64_t r = 0; r < dense_rows; ++r) {
        if (filled[r] != 0) continue;
        const int64_t pos = r == 0 ? 0 : row_end[r - 1];
        std::fill_n(out_ix + pos * rank, rank, 0);
        out_ix[pos * rank] = r;
        out[pos] = fill;
      }
    });
  }
};

REGISTER_KERNEL_BUILDER(Name("SparseFillEmptyRows")
                            .Device(DEVICE_CPU)
                            .HostMemory("dense_shape")
                            .TypeConstraint("T",
                                            array_internal::ArrayTypes({DT_RESOURCE, DT_VARIANT})),
                        SparseFillEmptyRowsOp);

template <typename T>
class SparseFillEmptyRowsGradOp : public OpKernel {
 public:
  explicit SparseFillEmptyRowsGradOp(OpKernelConstruction* ctx) : OpKernel(ctx) {}

  void Compute(OpKernelContext* ctx) override {
    const Tensor& reverse_map = ctx->input(0);
    const Tensor& grad = ctx->input(1);
    OP_REQUIRES(ctx, reverse_map.dims() == 1,
                errors::InvalidArgument("reverse_index_map must be a vector, saw: ",
                                        reverse_map.shape().DebugString()));
    OP_REQUIRES(
        ctx, grad.dims() == 1,
        errors::InvalidArgument("grad_values must be a vector, saw: ", grad.shape().DebugString()));
    const int64_t n = reverse_map.dim_size(0);
    const int64_t n_full = grad.dim_size(0);
    Tensor* d_values = nullptr;
    OP_REQUIRES_OK(ctx, sparse::AllocateOutput(ctx, 0, {n}, &d_values));
    Tensor* d_default = nullptr;
    OP_REQUIRES_OK(ctx, sparse::AllocateOutput(ctx, 1, {}, &d_default));
    ScratchArray<bool> visited;
    OP_REQUIRES_OK(ctx, visited.Allocate(ctx, n_full));
    const int64_t* map = static_cast<const int64_t*>(reverse_map.raw_data());
    const T* g = grad.flat<T>().data();
    T* dv = d_values->flat<T>().data();
    for (int64_t i = 0; i < n; ++i) {
      OP_REQUIRES(ctx, map[i] >= 0 && map[i] < n_full,
                  errors::InvalidArgument("Elements in reverse index must be in [0, ", n_full,
                                          ") but got ", map[i]));
      dv[i] = g[map[i]];
      visited[map[i]] = true;
    }
    T sum = T();
    for (int64_t j = 0; j < n_full; ++j) {
      if (!visited[j]) sum += g[j];
    }
    d_default->scalar<T>()() = sum;
  }
};

#define REGISTER_CPU(T)                                                          \
  REGISTER_KERNEL_BUILDER(                                                       \
      Name("SparseFillEmptyRowsGrad").Device(DEVICE_CPU).TypeConstraint<T>("T"), \
      SparseFillEmptyRowsGradOp<T>);
SLUICE_CALL_NUMBER_TYPES(REGISTER_CPU)
#undef REGISTER_CPU

}  // namespace
}  // namespace sluice
