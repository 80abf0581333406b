// PartialTensorShape: a shape that may be only partly known, as shape inference and the
// "shape" attrs of placeholders see it.
//
// A dim of -1 is unknown; dims() == -1 means the rank itself is unknown. Known dims are >= 0,
// the rank is at most TensorShape::kMaxDims and the product of the known dims fits in
// int64_t; the Build* functions return INVALID_ARGUMENT for anything else, the constructors
// CHECK (programmer use). A value type, not synchronized.
#ifndef SLUICE_GRAPH_CORE_PARTIAL_TENSOR_SHAPE_H_
#define SLUICE_GRAPH_CORE_PARTIAL_TENSOR_SHAPE_H_

#include <cstdint>
#include <initializer_list>
#include <ostream>
#include <string>

#include "absl/container/inlined_vector.h"
#include "absl/status/status.h"
#include "absl/types/span.h"
#include "graph/core/tensor_shape.h"
#include "proto/tensor_shape.pb.h"

namespace sluice {

class PartialTensorShape {
 public:
  // Unknown rank.
  PartialTensorShape();
  PartialTensorShape(std::initializer_list<int64_t> dims);
  explicit PartialTensorShape(absl::Span<const int64_t> dims);
  // A fully known shape; implicit so a TensorShape passes wherever a partial one is expected.
  PartialTensorShape(const TensorShape& shape);  // NOLINT(runtime/explicit)

  // INVALID_ARGUMENT for a dim < -1, rank > kMaxDims or overflow of the known product.
  static absl::Status BuildPartialTensorShape(absl::Span<const int64_t> dims,
                                              PartialTensorShape* out);
  // Honours unknown_rank; a proto with unknown_rank and dims is INVALID_ARGUMENT.
  static absl::Status BuildFromProto(const TensorShapeProto& proto, PartialTensorShape* out);
  static bool IsValid(const TensorShapeProto& proto);

  bool unknown_rank() const { return unknown_rank_; }
  // -1 when the rank is unknown.
  int dims() const { return unknown_rank_ ? -1 : static_cast<int>(dims_.size()); }
  // REQUIRES: 0 <= d < dims() (CHECKed). -1 for an unknown dim.
  int64_t dim_size(int d) const;
  // Empty when the rank is unknown.
  absl::Span<const int64_t> dim_sizes() const { return dims_; }
  // -1 unless fully defined.
  int64_t num_elements() const;
  bool IsFullyDefined() const;
  // Fills `shape` and returns true when fully defined; returns false otherwise.
  bool AsTensorShape(TensorShape* shape) const;

  // True when some fully defined shape matches both (unknown dims and ranks match anything).
  bool IsCompatibleWith(const PartialTensorShape& other) const;
  // The most specific shape compatible with both; INVALID_ARGUMENT naming both shapes when
  // they are incompatible. `result` may alias this or `other`.
  absl::Status MergeWith(const PartialTensorShape& other, PartialTensorShape* result) const;
  // Appends one dim (-1 for unknown); an unknown rank stays unknown. CHECKs the result is
  // valid.
  PartialTensorShape Concatenate(int64_t size) const;
  PartialTensorShape Concatenate(const PartialTensorShape& other) const;
  // As Concatenate, returning INVALID_ARGUMENT where the result would be invalid.
  absl::Status ConcatenateWithStatus(int64_t size, PartialTensorShape* out) const;
  absl::Status ConcatenateWithStatus(const PartialTensorShape& other,
                                     PartialTensorShape* out) const;
  // Same rank knowledge and the same dims, unknown ones in the same places.
  bool IsIdenticalTo(const PartialTensorShape& other) const;

  void AsProto(TensorShapeProto* proto) const;
  TensorShapeProto AsProto() const;
  // "[?,3]"; "<unknown>" for unknown rank.
  std::string DebugString() const;

 private:
  absl::InlinedVector<int64_t, 4> dims_;
  bool unknown_rank_ = true;
};

std::ostream& operator<<(std::ostream& os, const PartialTensorShape& shape);

}  // namespace sluice

#endif  // SLUICE_GRAPH_CORE_PARTIAL_TENSOR_SHAPE_H_
