#include "graph/core/partial_tensor_shape.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "glog/logging.h"
#include "graph/core/errors.h"

namespace sluice {
namespace {

std::string DimsString(absl::Span<const int64_t> dims) {
  std::string out = "[";
  for (size_t i = 0; i < dims.size(); ++i) {
    if (i > 0) out += ",";
    if (dims[i] < 0) {
      out += "?";
    } else {
      absl::StrAppend(&out, dims[i]);
    }
  }
  return out + "]";
}

// Known dims follow TensorShape's rule (the product of the non-zero ones fits in int64_t),
// so a partial shape always completes to a valid TensorShape once its unknowns are small.
absl::Status CheckPartialDims(absl::Span<const int64_t> dims) {
  if (dims.size() > static_cast<size_t>(TensorShape::kMaxDims)) {
    return errors::InvalidArgument("Shape has ", dims.size(), " dimensions; at most ",
                                   TensorShape::kMaxDims, " are allowed");
  }
  int64_t product = 1;
  for (int64_t size : dims) {
    if (size < -1) {
      return errors::InvalidArgument("Expected a size >= -1 (-1 = unknown), got ", size,
                                     " in shape ", DimsString(dims));
    }
    if (size <= 0) continue;
    product = MultiplyWithoutOverflow(product, size);
    if (product < 0) {
      return errors::InvalidArgument("Shape ", DimsString(dims),
                                     " is too large (more than 2**63 - 1 entries)");
    }
  }
  return absl::OkStatus();
}

}  // namespace

PartialTensorShape::PartialTensorShape() = default;

PartialTensorShape::PartialTensorShape(std::initializer_list<int64_t> dims)
    : PartialTensorShape(absl::Span<const int64_t>(dims.begin(), dims.size())) {}

PartialTensorShape::PartialTensorShape(absl::Span<const int64_t> dims) {
  const absl::Status status = BuildPartialTensorShape(dims, this);
  CHECK(status.ok()) << status;
}

PartialTensorShape::PartialTensorShape(const TensorShape& shape)
    : dims_(shape.dim_sizes().begin(), shape.dim_sizes().end()), unknown_rank_(false) {}

absl::Status PartialTensorShape::BuildPartialTensorShape(absl::Span<const int64_t> dims,
                                                         PartialTensorShape* out) {
  RETURN_IF_ERROR(CheckPartialDims(dims));
  out->dims_.assign(dims.begin(), dims.end());
  out->unknown_rank_ = false;
  return absl::OkStatus();
}

absl::Status PartialTensorShape::BuildFromProto(const TensorShapeProto& proto,
                                                PartialTensorShape* out) {
  if (proto.unknown_rank()) {
    if (proto.dim_size() > 0) {
      return errors::InvalidArgument("An unknown-rank shape must have no dims, got ",
                                     proto.dim_size());
    }
    *out = PartialTensorShape();
    return absl::OkStatus();
  }
  absl::InlinedVector<int64_t, 4> dims;
  dims.reserve(proto.dim_size());
  for (const auto& dim : proto.dim()) dims.push_back(dim.size());
  return BuildPartialTensorShape(dims, out);
}

bool PartialTensorShape::IsValid(const TensorShapeProto& proto) {
  PartialTensorShape unused;
  return BuildFromProto(proto, &unused).ok();
}

int64_t PartialTensorShape::dim_size(int d) const {
  CHECK(!unknown_rank_) << "dim_size() on a shape of unknown rank";
  CHECK_GE(d, 0);
  CHECK_LT(d, dims()) << "Dimension out of range for shape " << DebugString();
  return dims_[d];
}

int64_t PartialTensorShape::num_elements() const {
  if (!IsFullyDefined()) return -1;
  int64_t n = 1;
  for (int64_t size : dims_) n *= size;  // cannot overflow: see CheckPartialDims
  return n;
}

bool PartialTensorShape::IsFullyDefined() const {
  if (unknown_rank_) return false;
  for (int64_t size : dims_) {
    if (size < 0) return false;
  }
  return true;
}

bool PartialTensorShape::AsTensorShape(TensorShape* shape) const {
  if (!IsFullyDefined()) return false;
  return TensorShape::BuildTensorShape(dims_, shape).ok();
}

bool PartialTensorShape::IsCompatibleWith(const PartialTensorShape& other) const {
  if (unknown_rank_ || other.unknown_rank_) return true;
  if (dims_.size() != other.dims_.size()) return false;
  for (size_t i = 0; i < dims_.size(); ++i) {
    if (dims_[i] >= 0 && other.dims_[i] >= 0 && dims_[i] != other.dims_[i]) return false;
  }
  return true;
}

absl::Status PartialTensorShape::MergeWith(const PartialTensorShape& other,
                                           PartialTensorShape* result) const {
  if (unknown_rank_) {
    *result = other;
    return absl::OkStatus();
  }
  if (other.unknown_rank_) {
    *result = *this;
    return absl::OkStatus();
  }
  if (dims_.size() != other.dims_.size()) {
    return errors::InvalidArgument("PartialTensorShape: Incompatible ranks during merge: ", dims(),
                                   " vs. ", other.dims());
  }
  PartialTensorShape merged = *this;
  for (size_t i = 0; i < dims_.size(); ++i) {
    const int64_t a = dims_[i];
    const int64_t b = other.dims_[i];
    if (a >= 0 && b >= 0 && a != b) {
      return errors::InvalidArgument("PartialTensorShape: Incompatible shapes during merge: ",
                                     DebugString(), " vs. ", other.DebugString());
    }
    merged.dims_[i] = a >= 0 ? a : b;
  }
  *result = std::move(merged);
  return absl::OkStatus();
}

absl::Status PartialTensorShape::ConcatenateWithStatus(int64_t size,
                                                       PartialTensorShape* out) const {
  if (unknown_rank_) {
    *out = PartialTensorShape();
    return absl::OkStatus();
  }
  absl::InlinedVector<int64_t, 4> dims = dims_;
  dims.push_back(size);
  return BuildPartialTensorShape(dims, out);
}

PartialTensorShape PartialTensorShape::Concatenate(int64_t size) const {
  PartialTensorShape out;
  const absl::Status status = ConcatenateWithStatus(size, &out);
  CHECK(status.ok()) << status;
  return out;
}

absl::Status PartialTensorShape::ConcatenateWithStatus(const PartialTensorShape& other,
                                                       PartialTensorShape* out) const {
  if (unknown_rank_ || other.unknown_rank_) {
    *out = PartialTensorShape();
    return absl::OkStatus();
  }
  absl::InlinedVector<int64_t, 4> dims = dims_;
  dims.insert(dims.end(), other.dims_.begin(), other.dims_.end());
  return BuildPartialTensorShape(dims, out);
}

PartialTensorShape PartialTensorShape::Concatenate(const PartialTensorShape& other) const {
  PartialTensorShape out;
  const absl::Status status = ConcatenateWithStatus(other, &out);
  CHECK(status.ok()) << status;
  return out;
}

bool PartialTensorShape::IsIdenticalTo(const PartialTensorShape& other) const {
  return unknown_rank_ == other.unknown_rank_ && dims_ == other.dims_;
}

void PartialTensorShape::AsProto(TensorShapeProto* proto) const {
  proto->Clear();
  if (unknown_rank_) {
    proto->set_unknown_rank(true);
    return;
  }
  for (int64_t size : dims_) proto->add_dim()->set_size(size);
}

TensorShapeProto PartialTensorShape::AsProto() const {
  TensorShapeProto proto;
  AsProto(&proto);
  return proto;
}

std::string PartialTensorShape::DebugString() const {
  return unknown_rank_ ? "<unknown>" : DimsString(dims_);
}

std::ostream& operator<<(std::ostream& os, const PartialTensorShape& shape) {
  return os << shape.DebugString();
}

}  // namespace sluice
