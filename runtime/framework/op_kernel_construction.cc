// OpKernelConstruction: attr access, signature checks, allocation and failure reporting for
// kernel constructors.
#include "runtime/framework/op_kernel_construction.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "glog/logging.h"
#include "graph/core/errors.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_shape.h"

namespace sluice {
namespace {

// An expected non-ref type also accepts the ref type of it (a kernel may read a ref input).
bool TypesCompatible(DataType expected, DataType actual) {
  return expected == actual || expected == BaseType(actual);
}

bool TypesMatch(DataTypeSlice expected, DataTypeSlice actual) {
  if (expected.size() != actual.size()) return false;
  for (size_t i = 0; i < expected.size(); ++i) {
    if (!TypesCompatible(expected[i], actual[i])) return false;
  }
  return true;
}

}  // namespace

std::string OpRequiresFailedMessage(const char* file, int line, const absl::Status& status) {
  absl::string_view path(file);
  const size_t slash = path.rfind('/');
  if (slash != absl::string_view::npos) path.remove_prefix(slash + 1);
  return absl::StrCat("OP_REQUIRES failed at ", path, ":", line, " : ", status.ToString());
}

absl::Status MatchSignatureHelper(DataTypeSlice expected_inputs, DataTypeSlice expected_outputs,
                                  DataTypeSlice inputs, DataTypeSlice outputs) {
  if (TypesMatch(expected_inputs, inputs) && TypesMatch(expected_outputs, outputs)) {
    return absl::OkStatus();
  }
  return errors::InvalidArgument("Signature mismatch, have: ", DataTypeSliceString(inputs), "->",
                                 DataTypeSliceString(outputs),
                                 " expected: ", DataTypeSliceString(expected_inputs), "->",
                                 DataTypeSliceString(expected_outputs));
}

OpKernelConstruction::OpKernelConstruction(
    DeviceType device_type, DeviceBase* device, Allocator* allocator, const NodeDef* node_def,
    const OpDef* op_def, DataTypeSlice input_types, MemoryTypeSlice input_memory_types,
    DataTypeSlice output_types, MemoryTypeSlice output_memory_types, absl::Status* status)
    : device_type_(std::move(device_type)),
      device_(device),
      allocator_(allocator),
      node_def_(node_def),
      op_def_(op_def),
      input_types_(input_types),
      input_memory_types_(input_memory_types),
      output_types_(output_types),
      output_memory_types_(output_memory_types),
      status_(status) {}

bool OpKernelConstruction::HasAttr(absl::string_view attr_name) const {
  return AttrSlice(*node_def_).Find(attr_name) != nullptr;
}

absl::Status OpKernelConstruction::MatchSignature(DataTypeSlice expected_inputs,
                                                  DataTypeSlice expected_outputs) {
  return MatchSignatureHelper(expected_inputs, expected_outputs, input_types_, output_types_);
}

absl::Status OpKernelConstruction::allocate_temp(DataType dtype, const TensorShape& shape,
                                                 Tensor* out_temp) {
  absl::StatusOr<Tensor> tensor = Tensor::Allocate(allocator_, dtype, shape);
  if (!tensor.ok()) {
    return errors::ResourceExhausted("OOM when allocating temporary tensor with shape",
                                     shape.DebugString(), ": ", tensor.status().message());
  }
  *out_temp = *std::move(tensor);
  return absl::OkStatus();
}

void OpKernelConstruction::SetStatus(const absl::Status& status) { status_->Update(status); }

void OpKernelConstruction::CtxFailure(const absl::Status& status) {
  VLOG(1) << status;
  SetStatus(status);
}

void OpKernelConstruction::CtxFailure(const char* file, int line, const absl::Status& status) {
  VLOG(1) << OpRequiresFailedMessage(file, line, status);
  SetStatus(status);
}

void OpKernelConstruction::CtxFailureWithWarning(const absl::Status& status) {
  LOG(WARNING) << status;
  SetStatus(status);
}

void OpKernelConstruction::CtxFailureWithWarning(const char* file, int line,
                                                 const absl::Status& status) {
  LOG(WARNING) << OpRequiresFailedMessage(file, line, status);
  SetStatus(status);
}

}  // namespace sluice
