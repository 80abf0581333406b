// What the SparseTensor kernels share: reading a SparseTensor's (indices, values, shape) triple
// with TensorFlow's checks and messages, comparing and sorting index rows, and moving values
// by a permutation.
//
// TensorFlow's kernels check their inputs in one of a few ways, each with its own wording:
// sparse_utils::ValidateSparseTensor ("Sparse indices must be rank 2 ...", index tuples "out of
// bounds"), SparseTensor::Create ("vals must be a vec ...", "Order length must be SparseTensor
// rank."), and the dense shape's own checks. Each is written once here so the kernels' messages
// agree with TensorFlow's wherever TensorFlow's do.
#ifndef SLUICE_KERNELS_CPU_SPARSE_SPARSE_TENSOR_UTIL_H_
#define SLUICE_KERNELS_CPU_SPARSE_SPARSE_TENSOR_UTIL_H_

#include <cstdint>

#include "absl/status/status.h"
#include "absl/types/span.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_shape.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace sparse {

// The dense shape a shape vector (int64) describes, with the messages of TensorFlow's
// TensorShape::BuildTensorShape ("Expected shape dimensions to be non-negative, got -2",
// "Encountered overflow when multiplying ...").
absl::Status DenseShape(const Tensor& shape_vector, TensorShape* shape);

// ValidateSparseTensor's rank and size checks: indices a matrix, values and shape vectors,
// one value per index row and one shape entry per index column.
absl::Status ValidateSparseTensorShapes(const Tensor& indices, const Tensor& values,
                                        const Tensor& shape);

// ValidateSparseTensor's unordered index check: every index inside the dense shape ("Sparse
// index tuple indices[1, :] = [9, 0] is out of bounds"). REQUIRES: the shapes are valid.
absl::Status ValidateIndicesInBounds(const Tensor& indices, const Tensor& shape);

// SparseTensor::Create's checks, in its order, for `shape_rank` dims.
absl::Status ValidateCreate(const Tensor& indices, const Tensor& values, int64_t shape_rank);

// TensorFlow's SparseTensor::IndicesValid over rows in standard order: in bounds, strictly
// increasing ("indices[1] = [0,0] is out of order. ...", "is repeated").
absl::Status ValidateIndicesOrdered(const int64_t* ix, int64_t nnz, int64_t ndims,
                                    absl::Span<const int64_t> shape);

// -1, 0 or 1 as row a compares with row b in row-major (lexicographic) order.
int CompareRows(const int64_t* a, const int64_t* b, int64_t ndims);

// perm[0, nnz) = the rows of ix (nnz x ndims) in row-major order, ties kept in input order
// (TensorFlow's sort leaves the order of repeated indices unspecified).
void SortRows(const int64_t* ix, int64_t nnz, int64_t ndims, int64_t* perm);

// true when the rows of ix are in row-major order (repeats allowed).
bool RowsSorted(const int64_t* ix, int64_t nnz, int64_t ndims);

// dst[i] = src[perm[i]] for i < n, elements of any dtype moved by size.
void GatherElements(const Tensor& src, const int64_t* perm, int64_t n, Tensor* dst);

// dst_rows[i] = src_rows[perm[i]] for rows of `width` int64 values.
void GatherRows(const int64_t* src, const int64_t* perm, int64_t n, int64_t width, int64_t* dst);

// ctx->allocate_output with the shape `dims` built by TensorShape::BuildTensorShape, so dims
// that come from input values fail as INVALID_ARGUMENT instead of CHECK-failing.
absl::Status AllocateOutput(OpKernelContext* ctx, int index, absl::Span<const int64_t> dims,
                            Tensor** out);

// Writes `values` to a new int64 vector output.
absl::Status OutputShapeVector(OpKernelContext* ctx, int index, absl::Span<const int64_t> values);

}  // namespace sparse
}  // namespace sluice

#endif  // SLUICE_KERNELS_CPU_SPARSE_SPARSE_TENSOR_UTIL_H_
