// TensorShape: the fully known shape of a Tensor (every dimension a size >= 0).
//
// Contract:
//  - A TensorShape is always valid: rank <= kMaxDims, every dim >= 0, and the product of the
//    non-zero dims fits in int64_t (stricter than TensorFlow, whose check stops mattering
//    after a 0 dim; this way every sub-shape obtained by dropping dims is valid too, so no
//    shape arithmetic on a valid shape can overflow). num_elements() is the product of the
//    dims (1 for a scalar). Shapes that come from users (protos, attrs, feeds) are built
//    with the *WithStatus / Build* functions, which return INVALID_ARGUMENT instead of
//    breaking the invariant. The plain mutators and the constructors taking dims CHECK-fail:
//    they are for shapes the program itself computes.
//  - A value type: cheap to copy (dims stored inline up to rank 4), no sharing, not
//    synchronized (const use from many threads is fine).
//  - Shapes with unknown dims or unknown rank are PartialTensorShape (partial_tensor_shape.h).
#ifndef SLUICE_GRAPH_CORE_TENSOR_SHAPE_H_
#define SLUICE_GRAPH_CORE_TENSOR_SHAPE_H_

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <ostream>
#include <string>

#include "absl/container/inlined_vector.h"
#include "absl/status/status.h"
#include "absl/types/span.h"
#include "proto/tensor_shape.pb.h"

namespace sluice {

// Returns x * y for x, y >= 0, or -1 when the product overflows int64_t (or an operand is
// negative). Shape arithmetic everywhere goes through this.
int64_t MultiplyWithoutOverflow(int64_t x, int64_t y);

class TensorShape {
 public:
  // TensorFlow's limit on rank.
  static constexpr int kMaxDims = 254;

  // A scalar: rank 0, one element.
  TensorShape();
  TensorShape(std::initializer_list<int64_t> dims);
  explicit TensorShape(absl::Span<const int64_t> dims);

  TensorShape(const TensorShape& other) = default;
  TensorShape(TensorShape&& other) = default;
  TensorShape& operator=(TensorShape&& other) = default;
  // InlinedVector's copy assignment goes through an out-of-line element-wise Assign; a copy
  // construction and a move assignment are inline memcpys of the inline storage. Tensors
  // copy shapes on every hand-off between kernels, so this is on the executor's hot path.
  TensorShape& operator=(const TensorShape& other) {
    dims_ = absl::InlinedVector<int64_t, 4>(other.dims_);
    num_elements_ = other.num_elements_;
    return *this;
  }

  // INVALID_ARGUMENT for a negative dim, rank > kMaxDims, or an element count overflowing
  // int64_t. `out` is left unchanged on error.
  static absl::Status BuildTensorShape(absl::Span<const int64_t> dims, TensorShape* out);
  // As BuildTensorShape; also rejects unknown rank and unknown (-1) dims.
  static absl::Status BuildTensorShapeFromProto(const TensorShapeProto& proto, TensorShape* out);
  // OK when `proto` describes a valid fully known shape; otherwise why it does not.
  static absl::Status IsValidShape(const TensorShapeProto& proto);
  static bool IsValid(const TensorShapeProto& proto);

  int dims() const { return static_cast<int>(dims_.size()); }
  // REQUIRES: 0 <= d < dims() (CHECKed).
  int64_t dim_size(int d) const;
  int64_t num_elements() const { return num_elements_; }
  absl::Span<const int64_t> dim_sizes() const { return dims_; }

  // Appends a dimension. INVALID_ARGUMENT on a negative size, too many dims or overflow.
  absl::Status AddDimWithStatus(int64_t size);
  void AddDim(int64_t size);
  // Appends all of `other`'s dimensions.
  absl::Status AppendShapeWithStatus(const TensorShape& other);
  void AppendShape(const TensorShape& other);
  // Replaces dimension d. INVALID_ARGUMENT on a bad index, a negative size or overflow.
  absl::Status SetDimWithStatus(int d, int64_t size);
  void set_dim(int d, int64_t size);

  // Removing dims only lowers the element count, so these CHECK only their indices.
  void RemoveDim(int d);
  void RemoveLastDims(int n);
  // Removes dims [begin, end).
  void RemoveDimRange(int begin, int end);
  // Inserts a dim before index d (d == dims() appends).
  absl::Status InsertDimWithStatus(int d, int64_t size);
  void InsertDim(int d, int64_t size);
  // Back to a scalar.
  void Clear();

  bool IsSameSize(const TensorShape& other) const {
    // Inline rather than InlinedVector's operator==, which is an out-of-line call.
    const size_t rank = dims_.size();
    if (rank != other.dims_.size() || num_elements_ != other.num_elements_) return false;
    const int64_t* a = dims_.data();
    const int64_t* b = other.dims_.data();
    for (size_t d = 0; d < rank; ++d) {
      if (a[d] != b[d]) return false;
    }
    return true;
  }
  bool operator==(const TensorShape& other) const { return IsSameSize(other); }
  bool operator!=(const TensorShape& other) const { return !IsSameSize(other); }

  void AsProto(TensorShapeProto* proto) const;
  TensorShapeProto AsProto() const;
  // "[2,3]"; "[]" for a scalar.
  std::string DebugString() const;

 private:
  // Recomputes num_elements_; false (state unchanged otherwise) when it would overflow.
  bool RecomputeNumElements();

  absl::InlinedVector<int64_t, 4> dims_;
  int64_t num_elements_ = 1;
};

std::ostream& operator<<(std::ostream& os, const TensorShape& shape);

}  // namespace sluice

#endif  // SLUICE_GRAPH_CORE_TENSOR_SHAPE_H_
