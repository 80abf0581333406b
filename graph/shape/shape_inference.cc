// InferenceContext: construction, inputs and outputs, running a shape function and
// reporting its errors, and turning protos, partial shapes and shape tensors into shapes.
// The shape algebra (rank checks, merging, slicing, dimension arithmetic) lives in
// shape_inference_algebra.cc, values of constant inputs in shape_inference_tensors.cc.
#include "graph/shape/shape_inference.h"

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "graph/core/errors.h"
#include "graph/core/tensor.h"
#include "graph/core/types.h"

namespace sluice {
namespace shape_inference {
namespace {

// Shared, immutable stand-ins returned where a caller's bug (an index out of range) would
// otherwise crash. They are never handed out as results of successful checks.
const Dimension* SharedUnknownDimension() {
  static const Dimension* const dim = new Dimension(InferenceContext::kUnknownDim);
  return dim;
}

const Shape* SharedUnknownShape() {
  static const Shape* const shape = new Shape();
  return shape;
}

// Largest end of the [start, end) ranges in `map`: the number of ports it covers.
int NumPorts(const NameRangeMap& map) {
  int n = 0;
  for (const auto& entry : map) n = std::max(n, entry.second.second);
  return n;
}

}  // namespace

DimensionOrConstant::DimensionOrConstant(DimensionHandle d)
    : dim(d), val(InferenceContext::kUnknownDim) {}

DimensionOrConstant::DimensionOrConstant(int64_t v) : val(v) {}

InferenceContext::InferenceContext(const NodeDef* node_def, const OpDef& op_def,
                                   const std::vector<PartialTensorShape>& input_shapes,
                                   const std::vector<const Tensor*>& input_tensors,
                                   const std::vector<PartialTensorShape>& input_tensors_as_shapes)
    : node_def_(node_def != nullptr ? *node_def : NodeDef::default_instance()) {
  if (node_def == nullptr) {
    construction_status_ = errors::InvalidArgument("InferenceContext needs a NodeDef");
  } else {
    InitNameRanges(op_def);
  }
  input_tensors_.assign(input_tensors.begin(), input_tensors.end());
  InitInputs(input_shapes, input_tensors_as_shapes);
}

InferenceContext::InferenceContext(const NodeDef& node_def, const OpDef& op_def, int num_outputs,
                                   std::vector<ShapeHandle> input_shapes)
    : node_def_(node_def), op_def_(&op_def), inputs_(std::move(input_shapes)) {
  outputs_.resize(num_outputs);
  output_handle_shapes_and_types_.resize(num_outputs);
  for (ShapeHandle& input : inputs_) {
    if (!input.IsSet()) input = UnknownShape();
  }
  SizeInputState();
}

InferenceContext::~InferenceContext() = default;

absl::Status InferenceContext::EnsureNameRanges() const {
  if (op_def_ == nullptr) return absl::OkStatus();
  const OpDef* op_def = op_def_;
  op_def_ = nullptr;
  return NameRangesForNode(AttrSlice(node_def_), *op_def, &input_name_map_, &output_name_map_);
}

void InferenceContext::InitNameRanges(const OpDef& op_def) {
  construction_status_ =
      NameRangesForNode(AttrSlice(node_def_), op_def, &input_name_map_, &output_name_map_);
  if (!construction_status_.ok()) return;
  outputs_.resize(NumPorts(output_name_map_));
  output_handle_shapes_and_types_.resize(outputs_.size());
}

void InferenceContext::InitInputs(const std::vector<PartialTensorShape>& input_shapes,
                                  const std::vector<PartialTensorShape>& input_tensors_as_shapes) {
  for (const PartialTensorShape& p : input_shapes) {
    ShapeHandle shape;
    // Cannot fail: a PartialTensorShape is always valid.
    MakeShapeFromPartialTensorShape(p, &shape).IgnoreError();
    inputs_.push_back(shape);
  }
  for (const PartialTensorShape& p : input_tensors_as_shapes) {
    ShapeHandle shape;
    MakeShapeFromPartialTensorShape(p, &shape).IgnoreError();
    input_tensors_as_shapes_.push_back(shape);
  }
  const size_t n = inputs_.size();
  if (construction_status_.ok()) {
    const int expected = NumPorts(input_name_map_);
    if (static_cast<int>(n) != expected) {
      construction_status_ = errors::InvalidArgument(
          "Wrong number of inputs passed: ", n, " while ", expected, " expected based on NodeDef");
    } else if (input_tensors_.size() > n) {
      construction_status_ =
          errors::InvalidArgument("Wrong number of input tensors passed: ", input_tensors_.size(),
                                  " while at most ", n, " expected based on NodeDef");
    }
  }
  // Sized to the inputs whatever happened above, so that no accessor can index past them.
  SizeInputState();
}

void InferenceContext::SizeInputState() {
  const size_t n = inputs_.size();
  input_tensors_.resize(n, nullptr);
  requested_input_tensor_.resize(n, false);
  requested_input_tensor_as_partial_shape_.resize(n, false);
  input_handle_shapes_and_types_.resize(n);
}

// ---- Running a shape function ----------------------------------------------------------

absl::Status InferenceContext::Run(const std::function<absl::Status(InferenceContext* c)>& fn) {
  RETURN_IF_ERROR(construction_status_);
  if (!fn) {
    for (ShapeHandle& out : outputs_) out = UnknownShape();
    return absl::OkStatus();
  }
  absl::Status status = fn(this);
  if (!status.ok()) return AttachContext(status);
  for (int i = 0; i < num_outputs(); ++i) {
    if (!outputs_[i].IsSet()) {
      return errors::Internal("Shape function of op '", node_def_.op(), "' did not set output ", i,
                              " for '", AttrSlice(node_def_).SummarizeNode(), "'");
    }
  }
  return absl::OkStatus();
}

std::string InferenceContext::InputContextString() const {
  std::vector<std::string> from_tensors;
  std::vector<std::string> from_partial_shapes;
  for (int i = 0; i < num_inputs(); ++i) {
    const bool have_partial_shape = i < static_cast<int>(input_tensors_as_shapes_.size()) &&
                                    RankKnown(input_tensors_as_shapes_[i]);
    if (requested_input_tensor_as_partial_shape_[i] && have_partial_shape) {
      from_partial_shapes.push_back(
          absl::StrCat("input[", i, "] = ", DebugString(input_tensors_as_shapes_[i])));
    } else if (requested_input_tensor_[i] && input_tensors_[i] != nullptr) {
      from_tensors.push_back(
          absl::StrCat("input[", i, "] = <", input_tensors_[i]->SummarizeValue(256), ">"));
    }
  }
  std::string context;
  if (!from_tensors.empty()) {
    absl::StrAppend(&context,
                    " and with computed input tensors: ", absl::StrJoin(from_tensors, ", "));
  }
  if (!from_partial_shapes.empty()) {
    // TensorFlow joins these without a space.
    absl::StrAppend(&context, " and with input tensors computed as partial shapes: ",
                    absl::StrJoin(from_partial_shapes, ","));
  }
  return context;
}

absl::Status InferenceContext::AttachContext(const absl::Status& status) {
  std::vector<std::string> input_shapes;
  input_shapes.reserve(inputs_.size());
  for (ShapeHandle s : inputs_) input_shapes.push_back(DebugString(s));
  return absl::Status(status.code(),
                      absl::StrCat(status.message(), " for '", AttrSlice(node_def_).SummarizeNode(),
                                   "' with input shapes: ", absl::StrJoin(input_shapes, ", "),
                                   InputContextString(), "."));
}

// ---- Inputs and outputs ----------------------------------------------------------------

ShapeHandle InferenceContext::input(int64_t idx) const {
  if (!ValidInput(idx)) return ShapeHandle(SharedUnknownShape());
  return inputs_[idx];
}

absl::Status InferenceContext::input(absl::string_view input_name,
                                     std::vector<ShapeHandle>* output) const {
  RETURN_IF_ERROR(EnsureNameRanges());
  const auto it = input_name_map_.find(input_name);
  if (it == input_name_map_.end()) {
    return errors::InvalidArgument("Unknown input name: ", input_name);
  }
  output->clear();
  for (int i = it->second.first; i < it->second.second; ++i) output->push_back(inputs_[i]);
  return absl::OkStatus();
}

void InferenceContext::SetInput(int idx, ShapeHandle shape) {
  if (ValidInput(idx)) inputs_[idx] = shape;
}

bool InferenceContext::MergeInput(int idx, ShapeHandle shape) {
  if (!ValidInput(idx)) return false;
  ShapeHandle merged;
  if (!Merge(inputs_[idx], shape, &merged).ok()) return false;
  const bool changed = !merged.SameHandle(inputs_[idx]);
  inputs_[idx] = merged;
  return changed;
}

bool InferenceContext::RelaxInput(int idx, ShapeHandle shape) {
  if (!ValidInput(idx)) return false;
  ShapeHandle relaxed;
  Relax(inputs_[idx], shape, &relaxed);
  const bool changed = !relaxed.SameHandle(inputs_[idx]);
  inputs_[idx] = relaxed;
  return changed;
}

const Tensor* InferenceContext::input_tensor(int idx) {
  if (!ValidInput(idx)) return nullptr;
  requested_input_tensor_[idx] = true;
  return input_tensors_[idx];
}

bool InferenceContext::requested_input_tensor(int idx) const {
  return ValidInput(idx) && requested_input_tensor_[idx];
}

void InferenceContext::request_input_tensor_as_partial_shape(int idx) {
  if (ValidInput(idx)) requested_input_tensor_as_partial_shape_[idx] = true;
}

bool InferenceContext::requested_input_tensor_as_partial_shape(int idx) const {
  return ValidInput(idx) && requested_input_tensor_as_partial_shape_[idx];
}

void InferenceContext::set_input_tensors(const std::vector<const Tensor*>& input_tensors) {
  input_tensors_.assign(input_tensors.begin(), input_tensors.end());
  input_tensors_.resize(inputs_.size(), nullptr);
}

void InferenceContext::set_input_tensors_as_shapes(
    const std::vector<ShapeHandle>& input_tensors_as_shapes) {
  input_tensors_as_shapes_ = input_tensors_as_shapes;
}

ShapeHandle InferenceContext::output(int64_t idx) const {
  if (idx < 0 || idx >= num_outputs()) return ShapeHandle();
  return outputs_[idx];
}

void InferenceContext::set_output(int idx, ShapeHandle shape) {
  if (idx >= 0 && idx < num_outputs()) outputs_[idx] = shape;
}

absl::Status InferenceContext::set_output(absl::string_view output_name,
                                          const std::vector<ShapeHandle>& shapes) {
  RETURN_IF_ERROR(EnsureNameRanges());
  const auto it = output_name_map_.find(output_name);
  if (it == output_name_map_.end()) {
    return errors::InvalidArgument("Unknown output name: ", output_name);
  }
  const int start = it->second.first;
  const int size = it->second.second - start;
  if (size != static_cast<int>(shapes.size())) {
    return errors::InvalidArgument("Must have exactly ", size, " shapes.");
  }
  for (int i = 0; i < size; ++i) outputs_[start + i] = shapes[i];
  return absl::OkStatus();
}

absl::Status InferenceContext::output(absl::string_view output_name,
                                      std::vector<ShapeHandle>* output) const {
  RETURN_IF_ERROR(EnsureNameRanges());
  const auto it = output_name_map_.find(output_name);
  if (it == output_name_map_.end()) {
    return errors::InvalidArgument("Unknown output name: ", output_name);
  }
  output->clear();
  for (int i = it->second.first; i < it->second.second; ++i) output->push_back(outputs_[i]);
  return absl::OkStatus();
}

const std::vector<ShapeAndType>* InferenceContext::input_handle_shapes_and_types(int idx) const {
  if (!ValidInput(idx)) return nullptr;
  return input_handle_shapes_and_types_[idx].get();
}

const std::vector<ShapeAndType>* InferenceContext::output_handle_shapes_and_types(int idx) const {
  if (idx < 0 || idx >= num_outputs()) return nullptr;
  return output_handle_shapes_and_types_[idx].get();
}

void InferenceContext::set_input_handle_shapes_and_types(int idx,
                                                         const std::vector<ShapeAndType>& v) {
  if (ValidInput(idx)) {
    input_handle_shapes_and_types_[idx] = std::make_unique<std::vector<ShapeAndType>>(v);
  }
}

void InferenceContext::set_output_handle_shapes_and_types(int idx,
                                                          const std::vector<ShapeAndType>& v) {
  if (idx >= 0 && idx < num_outputs()) {
    output_handle_shapes_and_types_[idx] = std::make_unique<std::vector<ShapeAndType>>(v);
  }
}

// ---- Reading shapes --------------------------------------------------------------------

DimensionHandle InferenceContext::DimKnownRank(ShapeHandle s, int64_t idx) {
  const int32_t rank = Rank(s);
  if (rank == kUnknownRank) return DimensionHandle(SharedUnknownDimension());
  if (idx < 0) idx += rank;
  if (idx < 0 || idx >= rank) return DimensionHandle(SharedUnknownDimension());
  return s.ptr_->dims_[idx];
}

DimensionHandle InferenceContext::Dim(ShapeHandle s, int64_t idx) {
  if (!RankKnown(s)) return UnknownDim();
  return DimKnownRank(s, idx);
}

bool InferenceContext::FullyDefined(ShapeHandle s) {
  if (!RankKnown(s)) return false;
  for (DimensionHandle d : s.ptr_->dims_) {
    if (!ValueKnown(d)) return false;
  }
  return true;
}

DimensionHandle InferenceContext::NumElements(ShapeHandle s) {
  if (!RankKnown(s)) return UnknownDim();
  int64_t size = 1;
  bool unknown = false;
  for (DimensionHandle d : s.ptr_->dims_) {
    const int64_t v = Value(d);
    if (v == 0) return MakeDim(0);
    if (v == kUnknownDim || unknown) {
      unknown = true;
    } else if (__builtin_mul_overflow(size, v, &size)) {
      unknown = true;
    }
  }
  return unknown ? UnknownDim() : MakeDim(size);
}

std::string InferenceContext::DebugString(ShapeHandle s) const {
  if (!RankKnown(s)) return "?";
  std::vector<std::string> dims;
  dims.reserve(s.ptr_->dims_.size());
  for (DimensionHandle d : s.ptr_->dims_) dims.push_back(DebugString(d));
  return absl::StrCat("[", absl::StrJoin(dims, ","), "]");
}

std::string InferenceContext::DebugString(DimensionHandle d) const {
  return ValueKnown(d) ? absl::StrCat(Value(d)) : "?";
}

absl::Status InferenceContext::AsPartialTensorShape(ShapeHandle s, PartialTensorShape* out) const {
  if (!RankKnown(s)) {
    *out = PartialTensorShape();
    return absl::OkStatus();
  }
  const int rank = Rank(s);
  if (rank > TensorShape::kMaxDims) {
    return errors::InvalidArgument("Shape must have rank at most ", TensorShape::kMaxDims,
                                   " but has rank ", rank);
  }
  std::vector<int64_t> dims;
  dims.reserve(rank);
  for (DimensionHandle d : s.ptr_->dims_) dims.push_back(Value(d));
  if (PartialTensorShape::BuildPartialTensorShape(dims, out).ok()) return absl::OkStatus();
  // Only a product of known dims overflowing int64 gets here (shape inference allows what
  // a PartialTensorShape cannot hold); keep the rank and forget the sizes.
  return PartialTensorShape::BuildPartialTensorShape(std::vector<int64_t>(rank, kUnknownDim), out);
}

void InferenceContext::ShapeHandleToProto(ShapeHandle s, TensorShapeProto* proto) const {
  proto->Clear();
  if (!RankKnown(s)) {
    proto->set_unknown_rank(true);
    return;
  }
  for (DimensionHandle d : s.ptr_->dims_) proto->add_dim()->set_size(Value(d));
}

// ---- Making shapes ---------------------------------------------------------------------

DimensionHandle InferenceContext::MakeDim(DimensionOrConstant d) {
  if (d.dim.IsSet()) return d.dim;
  return DimensionHandle(all_dims_.Emplace(d.val < kUnknownDim ? kUnknownDim : d.val));
}

ShapeHandle InferenceContext::MakeShape(const std::vector<DimensionHandle>& dims) {
  std::vector<DimensionHandle> set_dims = dims;
  // An unset handle in `dims` is a caller's bug; reading it as unknown keeps every
  // accessor total.
  for (DimensionHandle& d : set_dims) {
    if (!d.IsSet()) d = UnknownDim();
  }
  return ShapeHandle(all_shapes_.Emplace(std::move(set_dims)));
}

ShapeHandle InferenceContext::MakeShape(std::initializer_list<DimensionOrConstant> dims) {
  std::vector<DimensionHandle> handles;
  handles.reserve(dims.size());
  for (const DimensionOrConstant& d : dims) handles.push_back(MakeDim(d));
  return MakeShape(handles);
}

ShapeHandle InferenceContext::UnknownShape() { return ShapeHandle(all_shapes_.Emplace()); }

ShapeHandle InferenceContext::UnknownShapeOfRank(int64_t rank) {
  if (rank < 0 || rank > TensorShape::kMaxDims) return UnknownShape();
  std::vector<DimensionHandle> dims(rank);
  for (DimensionHandle& d : dims) d = UnknownDim();
  return MakeShape(dims);
}

ShapeHandle InferenceContext::Scalar() { return MakeShape(std::vector<DimensionHandle>()); }

ShapeHandle InferenceContext::Vector(DimensionOrConstant dim) { return MakeShape({dim}); }

ShapeHandle InferenceContext::Matrix(DimensionOrConstant dim1, DimensionOrConstant dim2) {
  return MakeShape({dim1, dim2});
}

absl::Status InferenceContext::MakeShapeFromPartialTensorShape(const PartialTensorShape& s,
                                                               ShapeHandle* out) {
  if (s.unknown_rank()) return ReturnUnknownShape(out);
  std::vector<DimensionHandle> dims;
  dims.reserve(s.dims());
  for (int64_t size : s.dim_sizes()) dims.push_back(MakeDim(size));
  return ReturnCreatedShape(dims, out);
}

absl::Status InferenceContext::MakeShapeFromTensorShape(const TensorShape& s, ShapeHandle* out) {
  // shape-safe: converts a TensorShape, which is valid
  return MakeShapeFromPartialTensorShape(PartialTensorShape(s), out);
}

absl::Status InferenceContext::MakeShapeFromShapeProto(const TensorShapeProto& proto,
                                                       ShapeHandle* out) {
  PartialTensorShape partial;
  RETURN_IF_ERROR(PartialTensorShape::BuildFromProto(proto, &partial));
  return MakeShapeFromPartialTensorShape(partial, out);
}

}  // namespace shape_inference
}  // namespace sluice
