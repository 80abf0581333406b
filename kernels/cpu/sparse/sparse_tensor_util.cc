#include "kernels/cpu/sparse/sparse_tensor_util.h"

#include <algorithm>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "graph/core/element_bytes.h"
#include "graph/core/errors.h"

namespace sluice {
namespace sparse {

absl::Status DenseShape(const Tensor& shape_vector, TensorShape* shape) {
  const int64_t* dims = static_cast<const int64_t*>(shape_vector.raw_data());
  const int64_t rank = shape_vector.NumElements();
  int64_t num_elements = 1;
  for (int64_t d = 0; d < rank; ++d) {
    if (dims[d] < 0) {
      return errors::InvalidArgument("Expected shape dimensions to be non-negative, got ", dims[d]);
    }
    const int64_t product = MultiplyWithoutOverflow(num_elements, dims[d]);
    if (product < 0) {
      return errors::InvalidArgument("Encountered overflow when multiplying ", num_elements,
                                     " with ", dims[d], ", result: ", product);
    }
    num_elements = product;
  }
  return TensorShape::BuildTensorShape(absl::MakeConstSpan(dims, rank), shape);
}

absl::Status ValidateSparseTensorShapes(const Tensor& indices, const Tensor& values,
                                        const Tensor& shape) {
  if (indices.dims() != 2) {
    return errors::InvalidArgument("Sparse indices must be rank 2 but is rank ", indices.dims());
  }
  if (values.dims() != 1) {
    return errors::InvalidArgument("Sparse values must be rank 1 but is rank ", values.dims());
  }
  if (shape.dims() != 1) {
    return errors::InvalidArgument("Sparse shape must be rank 1 but is rank ", shape.dims());
  }
  if (values.dim_size(0) != indices.dim_size(0)) {
    return errors::InvalidArgument("Number of elements in indices (", indices.dim_size(0),
                                   ") and values (", values.dim_size(0), ") do not match");
  }
  if (shape.NumElements() != indices.dim_size(1)) {
    return errors::InvalidArgument("Index rank (", indices.dim_size(1), ") and shape rank (",
                                   shape.NumElements(), ") do not match");
  }
  return absl::OkStatus();
}

absl::Status ValidateIndicesInBounds(const Tensor& indices, const Tensor& shape) {
  const int64_t* ix = static_cast<const int64_t*>(indices.raw_data());
  const int64_t* dims = static_cast<const int64_t*>(shape.raw_data());
  const int64_t nnz = indices.dim_size(0);
  const int64_t ndims = indices.dim_size(1);
  for (int64_t i = 0; i < nnz; ++i) {
    const int64_t* row = ix + i * ndims;
    for (int64_t d = 0; d < ndims; ++d) {
      if (row[d] < 0 || row[d] >= dims[d]) {
        return errors::InvalidArgument("Sparse index tuple indices[", i, ", :] = [",
                                       absl::StrJoin(row, row + ndims, ", "), "] is out of bounds");
      }
    }
  }
  return absl::OkStatus();
}

absl::Status ValidateCreate(const Tensor& indices, const Tensor& values, int64_t shape_rank) {
  if (values.dims() != 1) {
    return errors::InvalidArgument("vals must be a vec, but got: ", values.shape().DebugString());
  }
  if (indices.dims() > 0 && indices.dim_size(0) != values.dim_size(0)) {
    return errors::InvalidArgument(
        "indices and values rows (indexing dimension) must match. (indices = ", indices.dim_size(0),
        ", values = ", values.dim_size(0), ")");
  }
  if (indices.dims() != 2) {
    return errors::InvalidArgument("indices must be a matrix, but got: ",
                                   indices.shape().DebugString());
  }
  if (indices.dim_size(1) != shape_rank) {
    return errors::InvalidArgument("Order length must be SparseTensor rank.");
  }
  return absl::OkStatus();
}

absl::Status ValidateIndicesOrdered(const int64_t* ix, int64_t nnz, int64_t ndims,
                                    absl::Span<const int64_t> shape) {
  for (int64_t n = 0; n < nnz; ++n) {
    const int64_t* row = ix + n * ndims;
    bool in_bounds = true;
    for (int64_t d = 0; d < ndims; ++d) in_bounds = in_bounds && row[d] >= 0 && row[d] < shape[d];
    int order = 1;  // row compared with the previous one
    if (n > 0) {
      const int64_t* prev = row - ndims;
      int64_t d = 0;
      while (d < ndims && row[d] == prev[d]) ++d;
      order = d == ndims ? 0 : (row[d] > prev[d] ? 1 : -1);
    }
    if (in_bounds && order > 0) continue;
    const std::string index =
        absl::StrCat("indices[", n, "] = [", absl::StrJoin(row, row + ndims, ","), "]");
    if (!in_bounds) {
      return errors::InvalidArgument(index, " is out of bounds: need 0 <= index < [",
                                     absl::StrJoin(shape, ","), "]");
    }
    if (order < 0) {
      return errors::InvalidArgument(
          index,
          " is out of order. Many sparse ops require sorted indices.\n"
          "    Use `tf.sparse.reorder` to create a correctly ordered copy.\n\n");
    }
    return errors::InvalidArgument(index, " is repeated");
  }
  return absl::OkStatus();
}

int CompareRows(const int64_t* a, const int64_t* b, int64_t ndims) {
  for (int64_t d = 0; d < ndims; ++d) {
    if (a[d] < b[d]) return -1;
    if (a[d] > b[d]) return 1;
  }
  return 0;
}

void SortRows(const int64_t* ix, int64_t nnz, int64_t ndims, int64_t* perm) {
  for (int64_t i = 0; i < nnz; ++i) perm[i] = i;
  std::sort(perm, perm + nnz, [&](int64_t a, int64_t b) {
    const int c = CompareRows(ix + a * ndims, ix + b * ndims, ndims);
    return c != 0 ? c < 0 : a < b;
  });
}

bool RowsSorted(const int64_t* ix, int64_t nnz, int64_t ndims) {
  for (int64_t i = 1; i < nnz; ++i) {
    if (CompareRows(ix + (i - 1) * ndims, ix + i * ndims, ndims) > 0) return false;
  }
  return true;
}

void GatherElements(const Tensor& src, const int64_t* perm, int64_t n, Tensor* dst) {
  VisitByElementSize(src.dtype(), [&](auto tag) {
    using U = typename decltype(tag)::type;
    const U* in = ElementsAs<U>(src);
    U* out = MutableElementsAs<U>(dst);
    for (int64_t i = 0; i < n; ++i) out[i] = in[perm[i]];
  });
}

void GatherRows(const int64_t* src, const int64_t* perm, int64_t n, int64_t width, int64_t* dst) {
  for (int64_t i = 0; i < n; ++i) {
    std::copy_n(src + perm[i] * width, width, dst + i * width);
  }
}

absl::Status AllocateOutput(OpKernelContext* ctx, int index, absl::Span<const int64_t> dims,
                            Tensor** out) {
  TensorShape shape;
  RETURN_IF_ERROR(TensorShape::BuildTensorShape(dims, &shape));
  return ctx->allocate_output(index, shape, out);
}

absl::Status OutputShapeVector(OpKernelContext* ctx, int index, absl::Span<const int64_t> values) {
  Tensor* out = nullptr;
  RETURN_IF_ERROR(AllocateOutput(ctx, index, {static_cast<int64_t>(values.size())}, &out));
  std::copy(values.begin(), values.end(), static_cast<int64_t*>(out->raw_data()));
  return absl::OkStatus();
}

}  // namespace sparse
}  // namespace sluice
