// Eager operations (tensorflow/c/eager/c_api.h): TFE_NewOp, inputs, attr setters and the
// queries of an operation being described. TFE_Execute is in tfe_execute.cc.
//
// Inputs follow the op's input arguments in order, one TFE_OpAddInput per single-tensor
// argument and one TFE_OpAddInputList per list; the type and length attrs an argument names are
// inferred from the handles unless set before, as TensorFlow's eager operations infer them.
#include <unistd.h>

#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "c_api/c_api_internal.h"
#include "c_api/tfe_internal.h"
#include "graph/core/device_name.h"
#include "graph/op/attr_value_util.h"
#include "graph/op/node_def_util.h"
#include "graph/op/op_registry.h"
#include "proto/attr_value.pb.h"

using sluice::AttrValue;
using sluice::c_api::SetStatus;

namespace {

std::string HostName() {
  char name[256] = {};
  if (gethostname(name, sizeof(name) - 1) != 0) return "localhost";
  return name;
}

void SetAttr(TFE_Op* op, const char* attr_name, AttrValue value) {
  if (attr_name == nullptr) return;
  (*op->node.mutable_attr())[attr_name] = std::move(value);
}

bool HasAttr(const TFE_Op* op, const std::string& name) { return op->node.attr().count(name) > 0; }

// Sets the attrs `arg` names from the dtypes of the handles given for it, unless set.
void InferArgAttrs(TFE_Op* op, const sluice::OpDef::ArgDef& arg,
                   const std::vector<sluice::DataType>& dtypes) {
  AttrValue value;
  if (!arg.number_attr().empty() && !HasAttr(op, arg.number_attr())) {
    sluice::SetAttrValue(static_cast<int64_t>(dtypes.size()), &value);
    SetAttr(op, arg.number_attr().c_str(), value);
  }
  if (!arg.type_attr().empty() && !HasAttr(op, arg.type_attr()) && !dtypes.empty()) {
    sluice::SetAttrValue(dtypes[0], &value);
    SetAttr(op, arg.type_attr().c_str(), value);
  }
  if (!arg.type_list_attr().empty() && !HasAttr(op, arg.type_list_attr())) {
    sluice::SetAttrValue(absl::Span<const sluice::DataType>(dtypes), &value);
    SetAttr(op, arg.type_list_attr().c_str(), value);
  }
}

bool IsListArg(const sluice::OpDef::ArgDef& arg) {
  return !arg.number_attr().empty() || !arg.type_list_attr().empty();
}

// Adds `handles` as the op's next input argument; `as_list` for TFE_OpAddInputList.
absl::Status AddInputs(TFE_Op* op, TFE_TensorHandle* const* handles, int num, bool as_list) {
  if (num < 0) return absl::InvalidArgumentError("The number of inputs is negative");
  if (num > 0 && handles == nullptr) return absl::InvalidArgumentError("The inputs are null");
  for (int i = 0; i < num; ++i) {
    if (handles[i] == nullptr) return absl::InvalidArgumentError("Invalid handle");
  }
  if (op->next_input_arg >= op->op_def.input_arg_size()) {
    return absl::InvalidArgumentError(absl::StrCat(op->type, " takes ", op->op_def.input_arg_size(),
                                                   " input arguments; all have been given"));
  }
  const sluice::OpDef::ArgDef& arg = op->op_def.input_arg(op->next_input_arg);
  if (as_list && !IsListArg(arg))
    return absl::InvalidArgumentError("Invalid input list definition");
  std::vector<sluice::DataType> dtypes;
  for (int i = 0; i < num; ++i) {
    dtypes.push_back(handles[i]->tensor.dtype());
    op->inputs.push_back(std::make_unique<TFE_TensorHandle>(*handles[i]));
  }
  InferArgAttrs(op, arg, dtypes);
  ++op->next_input_arg;
  return absl::OkStatus();
}

// TF_AttrType for an OpDef attr type ("int", "list(shape)"...), and whether it is a list.
TF_AttrType AttrTypeOf(const std::string& type, unsigned char* is_list) {
  std::string base = type;
  *is_list = 0;
  if (base.rfind("list(", 0) == 0 && base.back() == ')') {
    *is_list = 1;
    base = base.substr(5, base.size() - 6);
  }
  if (base == "int") return TF_ATTR_INT;
  if (base == "float") return TF_ATTR_FLOAT;
  if (base == "bool") return TF_ATTR_BOOL;
  if (base == "type") return TF_ATTR_TYPE;
  if (base == "shape") return TF_ATTR_SHAPE;
  if (base == "tensor") return TF_ATTR_TENSOR;
  if (base == "func") return TF_ATTR_FUNC;
  return TF_ATTR_STRING;
}

// The length of argument `name` among `args` (inputs or outputs) under the op's attrs.
int ArgLength(TFE_Op* op, const char* name, bool input, TF_Status* status) {
  sluice::NameRangeMap inputs;
  sluice::NameRangeMap outputs;
  sluice::NodeDef node = op->node;
  if (!op->is_function) sluice::AddDefaultsToNodeDef(op->op_def, &node);
  absl::Status ranges = sluice::NameRangesForNode(node, op->op_def, &inputs, &outputs);
  if (!ranges.ok()) {
    SetStatus(status, ranges);
    return -1;
  }
  const sluice::NameRangeMap& map = input ? inputs : outputs;
  auto it = map.find(name == nullptr ? "" : name);
  if (it == map.end()) {
    SetStatus(status,
              absl::InvalidArgumentError(absl::StrCat(input ? "Input '" : "Output '",
                                                      name == nullptr ? "" : name, "' not found")));
    return -1;
  }
  SetStatus(status, absl::OkStatus());
  return it->second.second - it->second.first;
}

}  // namespace

extern "C" {

TFE_Op* TFE_NewOp(TFE_Context* ctx, const char* op_or_function_name, TF_Status* status) {
  const std::string type = op_or_function_name == nullptr ? "" : op_or_function_name;
  auto op = std::make_unique<TFE_Op>();
  op->ctx = ctx;
  op->type = type;
  sluice::FunctionDef function;
  const sluice::OpDef* op_def = nullptr;
  if (sluice::eager::FindFunction(ctx, type, &function)) {
    op->op_def = function.signature();
    op->is_function = true;
  } else if (sluice::OpRegistry::Global()->LookUpOpDef(type, &op_def).ok()) {
    op->op_def = *op_def;
  } else {
    SetStatus(status, absl::NotFoundError(absl::StrCat(
                          "'", type,
                          "' is neither a type of a primitive operation nor a name of a function "
                          "registered in binary running on ",
                          HostName(),
                          ". Make sure the operation or function is registered in the binary "
                          "running in this process.")));
    return nullptr;
  }
  op->node.set_op(type);
  SetStatus(status, absl::OkStatus());
  return op.release();
}

void TFE_DeleteOp(TFE_Op* op) { delete op; }

const char* TFE_OpGetName(const TFE_Op* op, TF_Status* status) {
  SetStatus(status, absl::OkStatus());
  return op->type.c_str();
}

TFE_Context* TFE_OpGetContext(const TFE_Op* op, TF_Status* status) {
  SetStatus(status, absl::OkStatus());
  return op->ctx;
}

void TFE_OpSetDevice(TFE_Op* op, const char* device_name, TF_Status* status) {
  const std::string device = device_name == nullptr ? "" : device_name;
  sluice::ParsedDeviceName parsed;
  if (!sluice::ParseFullName(device, &parsed)) {
    return SetStatus(
        status, absl::InvalidArgumentError(absl::StrCat("Malformed device specification '", device,
                                                        "' in eager op: ", op->type)));
  }
  op->node.set_device(device);
  SetStatus(status, absl::OkStatus());
}

const char* TFE_OpGetDevice(const TFE_Op* op, TF_Status* status) {
  SetStatus(status, absl::OkStatus());
  return op->node.device().c_str();
}

void TFE_OpAddInput(TFE_Op* op, TFE_TensorHandle* input, TF_Status* status) {
  absl::Status added = AddInputs(op, &input, 1, /*as_list=*/false);
  if (!added.ok() && op->status.ok()) op->status = added;
  SetStatus(status, added);
}

void TFE_OpAddInputList(TFE_Op* op, TFE_TensorHandle** inputs, int num_inputs, TF_Status* status) {
  absl::Status added = AddInputs(op, inputs, num_inputs, /*as_list=*/true);
  if (!added.ok() && op->status.ok()) op->status = added;
  SetStatus(status, added);
}

int TFE_OpGetFlatInputCount(const TFE_Op* op, TF_Status* status) {
  SetStatus(status, absl::OkStatus());
  return static_cast<int>(op->inputs.size());
}

TFE_TensorHandle* TFE_OpGetFlatInput(const TFE_Op* op, int index, TF_Status* status) {
  if (index < 0 || index >= static_cast<int>(op->inputs.size())) {
    SetStatus(status, absl::InvalidArgumentError(absl::StrCat("Input index ", index,
                                                              " is out of range: the op has ",
                                                              op->inputs.size(), " inputs")));
    return nullptr;
  }
  SetStatus(status, absl::OkStatus());
  return op->inputs[index].get();
}

TF_AttrType TFE_OpGetAttrType(TFE_Op* op, const char* attr_name, unsigned char* is_list,
                              TF_Status* status) {
  const std::string name = attr_name == nullptr ? "" : attr_name;
  for (const sluice::OpDef::AttrDef& attr : op->op_def.attr()) {
    if (attr.name() != name) continue;
    unsigned char list = 0;
    TF_AttrType type = AttrTypeOf(attr.type(), &list);
    if (is_list != nullptr) *is_list = list;
    SetStatus(status, absl::OkStatus());
    return type;
  }
  SetStatus(status, absl::InvalidArgumentError(
                        absl::StrCat("Attribute '", name, "' does not exist for this operation")));
  return TF_ATTR_INT;
}

TF_AttrType TFE_OpNameGetAttrType(TFE_Context* ctx, const char* op_or_function_name,
                                  const char* attr_name, unsigned char* is_list,
                                  TF_Status* status) {
  TFE_Op* op = TFE_NewOp(ctx, op_or_function_name, status);
  if (op == nullptr) return TF_ATTR_INT;
  TF_AttrType type = TFE_OpGetAttrType(op, attr_name, is_list, status);
  TFE_DeleteOp(op);
  return type;
}

void TFE_OpSetAttrString(TFE_Op* op, const char* attr_name, const void* value, size_t length) {
  AttrValue attr;
  attr.set_s(value == nullptr ? std::string()
                              : std::string(static_cast<const char*>(value), length));
  SetAttr(op, attr_name, std::move(attr));
}

void TFE_OpSetAttrInt(TFE_Op* op, const char* attr_name, int64_t value) {
  AttrValue attr;
  attr.set_i(value);
  SetAttr(op, attr_name, std::move(attr));
}

void TFE_OpSetAttrFloat(TFE_Op* op, const char* attr_name, float value) {
  AttrValue attr;
  attr.set_f(value);
  SetAttr(op, attr_name, std::move(attr));
}

void TFE_OpSetAttrBool(TFE_Op* op, const char* attr_name, unsigned char value) {
  AttrValue attr;
  attr.set_b(value != 0);
  SetAttr(op, attr_name, std::move(attr));
}

void TFE_OpSetAttrType(TFE_Op* op, const char* attr_name, TF_DataType value) {
  AttrValue attr;
  attr.set_type(static_cast<sluice::DataType>(value));
  SetAttr(op, attr_name, std::move(attr));
}

void TFE_OpSetAttrShape(TFE_Op* op, const char* attr_name, const int64_t* dims, const int num_dims,
                        TF_Status* out_status) {
  if (num_dims > sluice::TensorShape::kMaxDims) {
    return SetStatus(out_status, absl::InvalidArgumentError(absl::StrCat(
                                     "Value specified for `", attr_name == nullptr ? "" : attr_name,
                                     "` has ", num_dims, " dimensions which is over the limit of ",
                                     sluice::TensorShape::kMaxDims, ".")));
  }
  AttrValue attr;
  *attr.mutable_shape() = sluice::c_api::ShapeProto(dims, num_dims);
  SetAttr(op, attr_name, std::move(attr));
  SetStatus(out_status, absl::OkStatus());
}

void TFE_OpSetAttrFunction(TFE_Op* op, const char* attr_name, const TFE_Op* value) {
  AttrValue attr;
  attr.mutable_func()->set_name(value->type);
  *attr.mutable_func()->mutable_attr() = value->node.attr();
  SetAttr(op, attr_name, std::move(attr));
}

void TFE_OpSetAttrFunctionName(TFE_Op* op, const char* attr_name, const char* data, size_t length) {
  AttrValue attr;
  attr.mutable_func()->set_name(data == nullptr ? std::string() : std::string(data, length));
  SetAttr(op, attr_name, std::move(attr));
}

void TFE_OpSetAttrTensor(TFE_Op* op, const char* attr_name, TF_Tensor* tensor, TF_Status* status) {
  AttrValue attr;
  absl::Status converted = tensor == nullptr
                               ? absl::InvalidArgumentError("The tensor is null")
                               : sluice::c_api::TensorToProto(tensor, attr.mutable_tensor());
  if (converted.ok()) SetAttr(op, attr_name, std::move(attr));
  SetStatus(status, converted);
}

void TFE_OpSetAttrStringList(TFE_Op* op, const char* attr_name, const void* const* values,
                             const size_t* lengths, int num_values) {
  AttrValue attr;
  auto* list = attr.mutable_list();
  for (int i = 0; i < num_values; ++i) {
    list->add_s(std::string(static_cast<const char*>(values[i]), lengths[i]));
  }
  SetAttr(op, attr_name, std::move(attr));
}

void TFE_OpSetAttrIntList(TFE_Op* op, const char* attr_name, const int64_t* values,
                          int num_values) {
  AttrValue attr;
  auto* list = attr.mutable_list();
  for (int i = 0; i < num_values; ++i) list->add_i(values[i]);
  SetAttr(op, attr_name, std::move(attr));
}

void TFE_OpSetAttrFloatList(TFE_Op* op, const char* attr_name, const float* values,
                            int num_values) {
  AttrValue attr;
  auto* list = attr.mutable_list();
  for (int i = 0; i < num_values; ++i) list->add_f(values[i]);
  SetAttr(op, attr_name, std::move(attr));
}

void TFE_OpSetAttrBoolList(TFE_Op* op, const char* attr_name, const unsigned char* values,
                           int num_values) {
  AttrValue attr;
  auto* list = attr.mutable_list();
  for (int i = 0; i < num_values; ++i) list->add_b(values[i] != 0);
  SetAttr(op, attr_name, std::move(attr));
}

void TFE_OpSetAttrTypeList(TFE_Op* op, const char* attr_name, const TF_DataType* values,
                           int num_values) {
  AttrValue attr;
  auto* list = attr.mutable_list();
  for (int i = 0; i < num_values; ++i) list->add_type(static_cast<sluice::DataType>(values[i]));
  SetAttr(op, attr_name, std::move(attr));
}

void TFE_OpSetAttrShapeList(TFE_Op* op, const char* attr_name, const int64_t** dims,
                            const int* num_dims, int num_values, TF_Status* out_status) {
  AttrValue attr;
  auto* list = attr.mutable_list();
  for (int i = 0; i < num_values; ++i) {
    if (num_dims[i] > sluice::TensorShape::kMaxDims) {
      return SetStatus(
          out_status,
          absl::InvalidArgumentError(absl::StrCat(
              "Value specified for `", attr_name == nullptr ? "" : attr_name, "` has ", num_dims[i],
              " dimensions which is over the limit of ", sluice::TensorShape::kMaxDims, ".")));
    }
    *list->add_shape() = sluice::c_api::ShapeProto(dims[i], num_dims[i]);
  }
  SetAttr(op, attr_name, std::move(attr));
  SetStatus(out_status, absl::OkStatus());
}

void TFE_OpSetAttrFunctionList(TFE_Op* op, const char* attr_name, const TFE_Op** value,
                               int num_values) {
  AttrValue attr;
  auto* list = attr.mutable_list();
  for (int i = 0; i < num_values; ++i) {
    sluice::NameAttrList* func = list->add_func();
    func->set_name(value[i]->type);
    *func->mutable_attr() = value[i]->node.attr();
  }
  SetAttr(op, attr_name, std::move(attr));
}

int TFE_OpGetInputLength(TFE_Op* op, const char* input_name, TF_Status* status) {
  return ArgLength(op, input_name, /*input=*/true, status);
}

int TFE_OpGetOutputLength(TFE_Op* op, const char* output_name, TF_Status* status) {
  return ArgLength(op, output_name, /*input=*/false, status);
}

}  // extern "C"
