#include "graph/core/tensor_shape.h"

#include <limits>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "glog/logging.h"
#include "graph/core/errors.h"

namespace sluice {

int64_t MultiplyWithoutOverflow(int64_t x, int64_t y) {
  if (x < 0 || y < 0) return -1;
  if (x == 0 || y == 0) return 0;
  if (x > std::numeric_limits<int64_t>::max() / y) return -1;
  return x * y;
}

namespace {

std::string ProtoDebugString(const TensorShapeProto& proto) {
  if (proto.unknown_rank()) return "<unknown>";
  std::string out = "[";
  for (int i = 0; i < proto.dim_size(); ++i) {
    if (i > 0) out += ",";
    const int64_t size = proto.dim(i).size();
    absl::StrAppend(&out, size == -1 ? std::string("?") : absl::StrCat(size));
  }
  return out + "]";
}

// Validates `dims` and returns their element count through `num_elements`. Unlike
// TensorFlow, the product of the non-zero dims must fit as well (TensorFlow's check depends
// on where a 0 sits): then every sub-shape a kernel derives by dropping or reordering dims
// is representable, and no later arithmetic on a valid shape can overflow.
absl::Status CheckDims(absl::Span<const int64_t> dims, int64_t* num_elements) {
  if (dims.size() > static_cast<size_t>(TensorShape::kMaxDims)) {
    return errors::InvalidArgument("Shape has ", dims.size(), " dimensions; at most ",
                                   TensorShape::kMaxDims, " are allowed");
  }
  int64_t nonzero_product = 1;
  bool has_zero = false;
  for (int64_t size : dims) {
    if (size < 0) {
      return errors::InvalidArgument("Expected a non-negative size, got ", size, " in shape [",
                                     absl::StrJoin(dims, ","), "]");
    }
    if (size == 0) {
      has_zero = true;
      continue;
    }
    nonzero_product = MultiplyWithoutOverflow(nonzero_product, size);
    if (nonzero_product < 0) {
      return errors::InvalidArgument("Shape [", absl::StrJoin(dims, ","),
                                     "] is too large (more than 2**63 - 1 entries)");
    }
  }
  *num_elements = has_zero ? 0 : nonzero_product;
  return absl::OkStatus();
}

}  // namespace

TensorShape::TensorShape() = default;

TensorShape::TensorShape(std::initializer_list<int64_t> dims)
    : TensorShape(absl::Span<const int64_t>(dims.begin(), dims.size())) {}

TensorShape::TensorShape(absl::Span<const int64_t> dims) {
  const absl::Status status = BuildTensorShape(dims, this);
  CHECK(status.ok()) << status;
}

absl::Status TensorShape::BuildTensorShape(absl::Span<const int64_t> dims, TensorShape* out) {
  int64_t num_elements = 0;
  RETURN_IF_ERROR(CheckDims(dims, &num_elements));
  out->dims_.assign(dims.begin(), dims.end());
  out->num_elements_ = num_elements;
  return absl::OkStatus();
}

absl::Status TensorShape::IsValidShape(const TensorShapeProto& proto) {
  if (proto.unknown_rank()) {
    return errors::InvalidArgument("Shape ", ProtoDebugString(proto),
                                   " has unknown rank; a fully defined shape is required");
  }
  if (proto.dim_size() > kMaxDims) {
    return errors::InvalidArgument("Shape has ", proto.dim_size(), " dimensions; at most ",
                                   kMaxDims, " are allowed");
  }
  absl::InlinedVector<int64_t, 4> dims;
  dims.reserve(proto.dim_size());
  for (const auto& dim : proto.dim()) {
    if (dim.size() < 0) {
      return errors::InvalidArgument("Shape ", ProtoDebugString(proto),
                                     " has negative or unknown (-1) dimensions");
    }
    dims.push_back(dim.size());
  }
  int64_t num_elements = 0;
  return CheckDims(dims, &num_elements);
}

bool TensorShape::IsValid(const TensorShapeProto& proto) { return IsValidShape(proto).ok(); }

absl::Status TensorShape::BuildTensorShapeFromProto(const TensorShapeProto& proto,
                                                    TensorShape* out) {
  RETURN_IF_ERROR(IsValidShape(proto));
  absl::InlinedVector<int64_t, 4> dims;
  dims.reserve(proto.dim_size());
  for (const auto& dim : proto.dim()) dims.push_back(dim.size());
  return BuildTensorShape(dims, out);
}

int64_t TensorShape::dim_size(int d) const {
  CHECK_GE(d, 0);
  CHECK_LT(d, dims()) << "Dimension out of range for shape " << DebugString();
  return dims_[d];
}

bool TensorShape::RecomputeNumElements() {
  int64_t n = 0;
  if (!CheckDims(dims_, &n).ok()) return false;
  num_elements_ = n;
  return true;
}

absl::Status TensorShape::AddDimWithStatus(int64_t size) {
  if (size < 0) return errors::InvalidArgument("Expected a non-negative size, got ", size);
  if (dims() >= kMaxDims) {
    return errors::InvalidArgument("Too many dimensions in tensor: at most ", kMaxDims,
                                   " are allowed");
  }
  dims_.push_back(size);
  if (!RecomputeNumElements()) {
    dims_.pop_back();
    return errors::InvalidArgument("Encountered overflow when adding dimension ", size,
                                   " to shape ", DebugString());
  }
  return absl::OkStatus();
}

void TensorShape::AddDim(int64_t size) {
  const absl::Status status = AddDimWithStatus(size);
  CHECK(status.ok()) << status;
}

absl::Status TensorShape::AppendShapeWithStatus(const TensorShape& other) {
  TensorShape result = *this;
  for (int64_t size : other.dims_) RETURN_IF_ERROR(result.AddDimWithStatus(size));
  *this = std::move(result);
  return absl::OkStatus();
}

void TensorShape::AppendShape(const TensorShape& other) {
  const absl::Status status = AppendShapeWithStatus(other);
  CHECK(status.ok()) << status;
}

absl::Status TensorShape::SetDimWithStatus(int d, int64_t size) {
  // TensorFlow's messages: kernels that set a dim of an input's shape pass them on.
  if (d < 0) return errors::InvalidArgument("Index must be non-negative, got ", d);
  if (d >= dims()) return errors::InvalidArgument("Index must be less than ", dims(), ", got ", d);
  if (size < 0) return errors::InvalidArgument("Expected a non-negative size, got ", size);
  const int64_t old_size = dims_[d];
  dims_[d] = size;
  if (!RecomputeNumElements()) {
    dims_[d] = old_size;
    return errors::InvalidArgument("Setting dimension ", d, " of shape ", DebugString(), " to ",
                                   size, " overflows the element count");
  }
  return absl::OkStatus();
}

void TensorShape::set_dim(int d, int64_t size) {
  const absl::Status status = SetDimWithStatus(d, size);
  CHECK(status.ok()) << status;
}

void TensorShape::RemoveDimRange(int begin, int end) {
  CHECK_GE(begin, 0);
  CHECK_LE(begin, end);
  CHECK_LE(end, dims());
  dims_.erase(dims_.begin() + begin, dims_.begin() + end);
  // Cannot fail: CheckDims bounds the product of the non-zero dims.
  CHECK(RecomputeNumElements());
}

void TensorShape::RemoveDim(int d) {
  CHECK_GE(d, 0);
  CHECK_LT(d, dims());
  RemoveDimRange(d, d + 1);
}

void TensorShape::RemoveLastDims(int n) {
  CHECK_GE(n, 0);
  CHECK_LE(n, dims());
  RemoveDimRange(dims() - n, dims());
}

absl::Status TensorShape::InsertDimWithStatus(int d, int64_t size) {
  if (d < 0 || d > dims()) {
    return errors::InvalidArgument("Insertion index ", d, " out of range for shape ",
                                   DebugString());
  }
  if (size < 0) return errors::InvalidArgument("Expected a non-negative size, got ", size);
  if (dims() >= kMaxDims) {
    return errors::InvalidArgument("Too many dimensions in tensor: at most ", kMaxDims,
                                   " are allowed");
  }
  dims_.insert(dims_.begin() + d, size);
  if (!RecomputeNumElements()) {
    dims_.erase(dims_.begin() + d);
    return errors::InvalidArgument("Encountered overflow when inserting dimension ", size,
                                   " into shape ", DebugString());
  }
  return absl::OkStatus();
}

void TensorShape::InsertDim(int d, int64_t size) {
  const absl::Status status = InsertDimWithStatus(d, size);
  CHECK(status.ok()) << status;
}

void TensorShape::Clear() {
  dims_.clear();
  num_elements_ = 1;
}

void TensorShape::AsProto(TensorShapeProto* proto) const {
  proto->Clear();
  for (int64_t size : dims_) proto->add_dim()->set_size(size);
}

TensorShapeProto TensorShape::AsProto() const {
  TensorShapeProto proto;
  AsProto(&proto);
  return proto;
}

std::string TensorShape::DebugString() const {
  return absl::StrCat("[", absl::StrJoin(dims_, ","), "]");
}

std::ostream& operator<<(std::ostream& os, const TensorShape& shape) {
  return os << shape.DebugString();
}

}  // namespace sluice
