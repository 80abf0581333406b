// Reading operations (tensorflow/c/c_api.h): names, types, inputs, consumers, control edges,
// and every attr getter.
//
// Indices out of range never crash: type queries answer 0 (no type), TF_OperationInput a
// null operation, and functions with a status report OUT_OF_RANGE or INVALID_ARGUMENT.
#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "c_api/c_api_internal.h"
#include "graph/core/tensor_proto.h"
#include "graph/op/node_def_util.h"
#include "proto/attr_value.pb.h"

using sluice::AttrValue;
using sluice::c_api::MessageToBuffer;
using sluice::c_api::SetStatus;
using sluice::c_api::ToNode;
using sluice::c_api::ToOperation;

namespace {

absl::Status ArgListLength(const sluice::Node* node, const char* arg_name, bool outputs,
                           int* length) {
  sluice::NameRangeMap inputs;
  sluice::NameRangeMap output_ranges;
  absl::Status ranges =
      sluice::NameRangesForNode(node->attrs(), node->op_def(), &inputs, &output_ranges);
  if (!ranges.ok()) return ranges;
  const sluice::NameRangeMap& map = outputs ? output_ranges : inputs;
  auto it = map.find(arg_name == nullptr ? "" : arg_name);
  if (it == map.end()) {
    return absl::InvalidArgumentError(
        absl::StrCat(outputs ? "Output" : "Input", " arg '", arg_name == nullptr ? "" : arg_name,
                     "' not found in operation '", node->name(), "'"));
  }
  *length = it->second.second - it->second.first;
  return absl::OkStatus();
}

// The attr, or INVALID_ARGUMENT naming the operation.
absl::Status FindAttr(TF_Operation* oper, const char* attr_name, const AttrValue** value) {
  const sluice::Node* node = ToNode(oper);
  *value = node->attrs().Find(attr_name == nullptr ? "" : attr_name);
  if (*value == nullptr) {
    return absl::InvalidArgumentError(absl::StrCat("Operation '", node->name(),
                                                   "' has no attr named '",
                                                   attr_name == nullptr ? "" : attr_name, "'."));
  }
  return absl::OkStatus();
}

// The name of what `value` holds, for error messages ("int", "list(string)", ...).
std::string ValueKind(const AttrValue& value) {
  switch (value.value_case()) {
    case AttrValue::kS:
      return "string";
    case AttrValue::kI:
      return "int";
    case AttrValue::kF:
      return "float";
    case AttrValue::kB:
      return "bool";
    case AttrValue::kType:
      return "type";
    case AttrValue::kShape:
      return "shape";
    case AttrValue::kTensor:
      return "tensor";
    case AttrValue::kList:
      return "list";
    case AttrValue::kFunc:
      return "func";
    case AttrValue::kPlaceholder:
      return "placeholder";
    default:
      return "empty value";
  }
}

absl::Status WrongKind(TF_Operation* oper, const char* attr_name, const AttrValue& value,
                       const char* wanted) {
  return absl::InvalidArgumentError(absl::StrCat("Attribute '", attr_name, "' of operation '",
                                                 ToNode(oper)->name(), "' holds a ",
                                                 ValueKind(value), ", not a ", wanted));
}

// Finds the attr and checks it holds `kind` (a scalar), or a list when kind is kList.
absl::Status FindAttrOfKind(TF_Operation* oper, const char* attr_name, AttrValue::ValueCase kind,
                            const char* wanted, const AttrValue** value) {
  absl::Status found = FindAttr(oper, attr_name, value);
  if (!found.ok()) return found;
  if ((*value)->value_case() != kind) return WrongKind(oper, attr_name, **value, wanted);
  return absl::OkStatus();
}

template <typename Out, typename Field>
void CopyList(const Field& field, Out* values, int max_values) {
  const int n = std::min(max_values, static_cast<int>(field.size()));
  for (int i = 0; i < n; ++i) values[i] = static_cast<Out>(field.Get(i));
}

}  // namespace

extern "C" {

const char* TF_OperationName(TF_Operation* oper) { return ToNode(oper)->name().c_str(); }

const char* TF_OperationOpType(TF_Operation* oper) { return ToNode(oper)->type_string().c_str(); }

const char* TF_OperationDevice(TF_Operation* oper) {
  return ToNode(oper)->requested_device().c_str();
}

int TF_OperationNumOutputs(TF_Operation* oper) { return ToNode(oper)->num_outputs(); }

TF_DataType TF_OperationOutputType(TF_Output oper_out) {
  const sluice::Node* node = ToNode(oper_out.oper);
  if (node == nullptr || oper_out.index < 0 || oper_out.index >= node->num_outputs()) {
    return static_cast<TF_DataType>(0);
  }
  return static_cast<TF_DataType>(node->output_type(oper_out.index));
}

int TF_OperationOutputListLength(TF_Operation* oper, const char* arg_name, TF_Status* status) {
  int length = -1;
  SetStatus(status, ArgListLength(ToNode(oper), arg_name, /*outputs=*/true, &length));
  return length;
}

int TF_OperationNumInputs(TF_Operation* oper) { return ToNode(oper)->num_inputs(); }

TF_DataType TF_OperationInputType(TF_Input oper_in) {
  const sluice::Node* node = ToNode(oper_in.oper);
  if (node == nullptr || oper_in.index < 0 || oper_in.index >= node->num_inputs()) {
    return static_cast<TF_DataType>(0);
  }
  return static_cast<TF_DataType>(node->input_type(oper_in.index));
}

int TF_OperationInputListLength(TF_Operation* oper, const char* arg_name, TF_Status* status) {
  int length = -1;
  SetStatus(status, ArgListLength(ToNode(oper), arg_name, /*outputs=*/false, &length));
  return length;
}

TF_Output TF_OperationInput(TF_Input oper_in) {
  const sluice::Edge* edge = nullptr;
  const sluice::Node* node = ToNode(oper_in.oper);
  if (node == nullptr || !node->input_edge(oper_in.index, &edge).ok()) {
    return TF_Output{nullptr, -1};
  }
  return TF_Output{ToOperation(edge->src()), edge->src_output()};
}

void TF_OperationAllInputs(TF_Operation* oper, TF_Output* inputs, int max_inputs) {
  for (const sluice::Edge* edge : ToNode(oper)->in_edges()) {
    if (edge->IsControlEdge() || edge->dst_input() >= max_inputs) continue;
    inputs[edge->dst_input()] = TF_Output{ToOperation(edge->src()), edge->src_output()};
  }
}

int TF_OperationOutputNumConsumers(TF_Output oper_out) {
  int count = 0;
  for (const sluice::Edge* edge : ToNode(oper_out.oper)->out_edges()) {
    if (edge->src_output() == oper_out.index) ++count;
  }
  return count;
}

int TF_OperationOutputConsumers(TF_Output oper_out, TF_Input* consumers, int max_consumers) {
  int count = 0;
  for (const sluice::Edge* edge : ToNode(oper_out.oper)->out_edges()) {
    if (edge->src_output() != oper_out.index) continue;
    if (count < max_consumers) {
      consumers[count] = TF_Input{ToOperation(edge->dst()), edge->dst_input()};
    }
    ++count;
  }
  return count;
}

int TF_OperationNumControlInputs(TF_Operation* oper) {
  int count = 0;
  for (const sluice::Edge* edge : ToNode(oper)->in_edges()) {
    if (edge->IsControlEdge() && edge->src()->IsOp()) ++count;
  }
  return count;
}

int TF_OperationGetControlInputs(TF_Operation* oper, TF_Operation** control_inputs,
                                 int max_control_inputs) {
  int count = 0;
  for (const sluice::Edge* edge : ToNode(oper)->in_edges()) {
    if (!edge->IsControlEdge() || !edge->src()->IsOp()) continue;
    if (count < max_control_inputs) control_inputs[count] = ToOperation(edge->src());
    ++count;
  }
  return count;
}

int TF_OperationNumControlOutputs(TF_Operation* oper) {
  int count = 0;
  for (const sluice::Edge* edge : ToNode(oper)->out_edges()) {
    if (edge->IsControlEdge() && edge->dst()->IsOp()) ++count;
  }
  return count;
}

int TF_OperationGetControlOutputs(TF_Operation* oper, TF_Operation** control_outputs,
                                  int max_control_outputs) {
  int count = 0;
  for (const sluice::Edge* edge : ToNode(oper)->out_edges()) {
    if (!edge->IsControlEdge() || !edge->dst()->IsOp()) continue;
    if (count < max_control_outputs) control_outputs[count] = ToOperation(edge->dst());
    ++count;
  }
  return count;
}

TF_AttrMetadata TF_OperationGetAttrMetadata(TF_Operation* oper, const char* attr_name,
                                            TF_Status* status) {
  TF_AttrMetadata metadata = {0, -1, TF_ATTR_STRING, -1};
  const AttrValue* value = nullptr;
  absl::Status found = FindAttr(oper, attr_name, &value);
  SetStatus(status, found);
  if (!found.ok()) return metadata;
  switch (value->value_case()) {
    case AttrValue::kS:
      metadata.type = TF_ATTR_STRING;
      metadata.total_size = static_cast<int64_t>(value->s().size());
      break;
    case AttrValue::kI:
      metadata.type = TF_ATTR_INT;
      break;
    case AttrValue::kF:
      metadata.type = TF_ATTR_FLOAT;
      break;
    case AttrValue::kB:
      metadata.type = TF_ATTR_BOOL;
      break;
    case AttrValue::kType:
      metadata.type = TF_ATTR_TYPE;
      break;
    case AttrValue::kShape:
      metadata.type = TF_ATTR_SHAPE;
      metadata.total_size = value->shape().unknown_rank() ? -1 : value->shape().dim_size();
      break;
    case AttrValue::kTensor:
      metadata.type = TF_ATTR_TENSOR;
      break;
    case AttrValue::kFunc:
      metadata.type = TF_ATTR_FUNC;
      break;
    case AttrValue::kPlaceholder:
      metadata.type = TF_ATTR_PLACEHOLDER;
      break;
    case AttrValue::kList: {
      const auto& list = value->list();
      metadata.is_list = 1;
      metadata.total_size = -1;
      if (list.s_size() > 0) {
        metadata.type = TF_ATTR_STRING;
        metadata.list_size = list.s_size();
        metadata.total_size = 0;
        for (const std::string& s : list.s()) metadata.total_size += s.size();
      } else if (list.i_size() > 0) {
        metadata.type = TF_ATTR_INT;
        metadata.list_size = list.i_size();
      } else if (list.f_size() > 0) {
        metadata.type = TF_ATTR_FLOAT;
        metadata.list_size = list.f_size();
      } else if (list.b_size() > 0) {
        metadata.type = TF_ATTR_BOOL;
        metadata.list_size = list.b_size();
      } else if (list.type_size() > 0) {
        metadata.type = TF_ATTR_TYPE;
        metadata.list_size = list.type_size();
      } else if (list.shape_size() > 0) {
        metadata.type = TF_ATTR_SHAPE;
        metadata.list_size = list.shape_size();
        metadata.total_size = 0;
        for (const auto& shape : list.shape()) {
          if (!shape.unknown_rank()) metadata.total_size += shape.dim_size();
        }
      } else if (list.tensor_size() > 0) {
        metadata.type = TF_ATTR_TENSOR;
        metadata.list_size = list.tensor_size();
      } else if (list.func_size() > 0) {
        metadata.type = TF_ATTR_FUNC;
        metadata.list_size = list.func_size();
      } else {
        // An empty list: its element type comes from the op's declaration of the attr.
        metadata.list_size = 0;
        for (const auto& attr : ToNode(oper)->op_def().attr()) {
          if (attr.name() != attr_name) continue;
          const std::string& type = attr.type();
          if (type == "list(string)") metadata.type = TF_ATTR_STRING;
          if (type == "list(int)") metadata.type = TF_ATTR_INT;
          if (type == "list(float)") metadata.type = TF_ATTR_FLOAT;
          if (type == "list(bool)") metadata.type = TF_ATTR_BOOL;
          if (type == "list(type)") metadata.type = TF_ATTR_TYPE;
          if (type == "list(shape)") metadata.type = TF_ATTR_SHAPE;
          if (type == "list(tensor)") metadata.type = TF_ATTR_TENSOR;
          if (type == "list(func)") metadata.type = TF_ATTR_FUNC;
        }
      }
      break;
    }
    default:
      SetStatus(status, absl::InvalidArgumentError(
                            absl::StrCat("Attribute '", attr_name, "' of operation '",
                                         ToNode(oper)->name(), "' has no value")));
  }
  return metadata;
}

void TF_OperationGetAttrString(TF_Operation* oper, const char* attr_name, void* value,
                               size_t max_length, TF_Status* status) {
  const AttrValue* attr = nullptr;
  absl::Status found = FindAttrOfKind(oper, attr_name, AttrValue::kS, "string", &attr);
  if (!found.ok()) return SetStatus(status, found);
  if (max_length > 0) std::memcpy(value, attr->s().data(), std::min(max_length, attr->s().size()));
  SetStatus(status, absl::OkStatus());
}

void TF_OperationGetAttrStringList(TF_Operation* oper, const char* attr_name, void** values,
                                   size_t* lengths, int max_values, void* storage,
                                   size_t storage_size, TF_Status* status) {
  const AttrValue* attr = nullptr;
  absl::Status found = FindAttrOfKind(oper, attr_name, AttrValue::kList, "list(string)", &attr);
  if (!found.ok()) return SetStatus(status, found);
  const int n = std::min(max_values, attr->list().s_size());
  char* next = static_cast<char*>(storage);
  size_t left = storage_size;
  for (int i = 0; i < n; ++i) {
    const std::string& s = attr->list().s(i);
    if (s.size() > left) {
      return SetStatus(status, absl::InvalidArgumentError(
                                   "Not enough storage to hold the requested list of strings"));
    }
    std::memcpy(next, s.data(), s.size());
    values[i] = next;
    lengths[i] = s.size();
    next += s.size();
    left -= s.size();
  }
  SetStatus(status, absl::OkStatus());
}

void TF_OperationGetAttrInt(TF_Operation* oper, const char* attr_name, int64_t* value,
                            TF_Status* status) {
  const AttrValue* attr = nullptr;
  absl::Status found = FindAttrOfKind(oper, attr_name, AttrValue::kI, "int", &attr);
  if (found.ok()) *value = attr->i();
  SetStatus(status, found);
}

void TF_OperationGetAttrIntList(TF_Operation* oper, const char* attr_name, int64_t* values,
                                int max_values, TF_Status* status) {
  const AttrValue* attr = nullptr;
  absl::Status found = FindAttrOfKind(oper, attr_name, AttrValue::kList, "list(int)", &attr);
  if (found.ok()) CopyList(attr->list().i(), values, max_values);
  SetStatus(status, found);
}

void TF_OperationGetAttrFloat(TF_Operation* oper, const char* attr_name, float* value,
                              TF_Status* status) {
  const AttrValue* attr = nullptr;
  absl::Status found = FindAttrOfKind(oper, attr_name, AttrValue::kF, "float", &attr);
  if (found.ok()) *value = attr->f();
  SetStatus(status, found);
}

void TF_OperationGetAttrFloatList(TF_Operation* oper, const char* attr_name, float* values,
                                  int max_values, TF_Status* status) {
  const AttrValue* attr = nullptr;
  absl::Status found = FindAttrOfKind(oper, attr_name, AttrValue::kList, "list(float)", &attr);
  if (found.ok()) CopyList(attr->list().f(), values, max_values);
  SetStatus(status, found);
}

void TF_OperationGetAttrBool(TF_Operation* oper, const char* attr_name, unsigned char* value,
                             TF_Status* status) {
  const AttrValue* attr = nullptr;
  absl::Status found = FindAttrOfKind(oper, attr_name, AttrValue::kB, "bool", &attr);
  if (found.ok()) *value = attr->b() ? 1 : 0;
  SetStatus(status, found);
}

void TF_OperationGetAttrBoolList(TF_Operation* oper, const char* attr_name, unsigned char* values,
                                 int max_values, TF_Status* status) {
  const AttrValue* attr = nullptr;
  absl::Status found = FindAttrOfKind(oper, attr_name, AttrValue::kList, "list(bool)", &attr);
  if (found.ok()) CopyList(attr->list().b(), values, max_values);
  SetStatus(status, found);
}

void TF_OperationGetAttrType(TF_Operation* oper, const char* attr_name, TF_DataType* value,
                             TF_Status* status) {
  const AttrValue* attr = nullptr;
  absl::Status found = FindAttrOfKind(oper, attr_name, AttrValue::kType, "type", &attr);
  if (found.ok()) *value = static_cast<TF_DataType>(attr->type());
  SetStatus(status, found);
}

void TF_OperationGetAttrTypeList(TF_Operation* oper, const char* attr_name, TF_DataType* values,
                                 int max_values, TF_Status* status) {
  const AttrValue* attr = nullptr;
  absl::Status found = FindAttrOfKind(oper, attr_name, AttrValue::kList, "list(type)", &attr);
  if (found.ok()) CopyList(attr->list().type(), values, max_values);
  SetStatus(status, found);
}

void TF_OperationGetAttrShape(TF_Operation* oper, const char* attr_name, int64_t* value,
                              int num_dims, TF_Status* status) {
  const AttrValue* attr = nullptr;
  absl::Status found = FindAttrOfKind(oper, attr_name, AttrValue::kShape, "shape", &attr);
  if (!found.ok()) return SetStatus(status, found);
  const int n = std::min(num_dims, attr->shape().dim_size());
  for (int i = 0; i < n; ++i) value[i] = attr->shape().dim(i).size();
  SetStatus(status, absl::OkStatus());
}

void TF_OperationGetAttrShapeList(TF_Operation* oper, const char* attr_name, int64_t** dims,
                                  int* num_dims, int num_shapes, int64_t* storage, int storage_size,
                                  TF_Status* status) {
  const AttrValue* attr = nullptr;
  absl::Status found = FindAttrOfKind(oper, attr_name, AttrValue::kList, "list(shape)", &attr);
  if (!found.ok()) return SetStatus(status, found);
  const int n = std::min(num_shapes, attr->list().shape_size());
  int64_t* next = storage;
  int left = storage_size;
  for (int i = 0; i < n; ++i) {
    const auto& shape = attr->list().shape(i);
    if (shape.unknown_rank()) {
      num_dims[i] = -1;
      dims[i] = nullptr;
      continue;
    }
    const int rank = shape.dim_size();
    if (rank > left) {
      return SetStatus(status, absl::InvalidArgumentError(
                                   "Not enough storage to hold the requested list of shapes"));
    }
    num_dims[i] = rank;
    dims[i] = next;
    for (int d = 0; d < rank; ++d) next[d] = shape.dim(d).size();
    next += rank;
    left -= rank;
  }
  SetStatus(status, absl::OkStatus());
}

void TF_OperationGetAttrTensorShapeProto(TF_Operation* oper, const char* attr_name,
                                         TF_Buffer* value, TF_Status* status) {
  const AttrValue* attr = nullptr;
  absl::Status found = FindAttrOfKind(oper, attr_name, AttrValue::kShape, "shape", &attr);
  if (!found.ok()) return SetStatus(status, found);
  SetStatus(status, MessageToBuffer(attr->shape(), value));
}

void TF_OperationGetAttrTensorShapeProtoList(TF_Operation* oper, const char* attr_name,
                                             TF_Buffer** values, int max_values,
                                             TF_Status* status) {
  const AttrValue* attr = nullptr;
  absl::Status found = FindAttrOfKind(oper, attr_name, AttrValue::kList, "list(shape)", &attr);
  if (!found.ok()) return SetStatus(status, found);
  const int n = std::min(max_values, attr->list().shape_size());
  for (int i = 0; i < n; ++i) {
    values[i] = TF_NewBuffer();
    absl::Status written = MessageToBuffer(attr->list().shape(i), values[i]);
    if (!written.ok()) {
      for (int j = 0; j <= i; ++j) {
        TF_DeleteBuffer(values[j]);
        values[j] = nullptr;
      }
      return SetStatus(status, written);
    }
  }
  SetStatus(status, absl::OkStatus());
}

void TF_OperationGetAttrTensor(TF_Operation* oper, const char* attr_name, TF_Tensor** value,
                               TF_Status* status) {
  *value = nullptr;
  const AttrValue* attr = nullptr;
  absl::Status found = FindAttrOfKind(oper, attr_name, AttrValue::kTensor, "tensor", &attr);
  if (!found.ok()) return SetStatus(status, found);
  sluice::Tensor tensor;
  absl::Status parsed = sluice::TensorFromProto(attr->tensor(), &tensor);
  if (!parsed.ok()) return SetStatus(status, parsed);
  absl::StatusOr<TF_Tensor*> converted = sluice::c_api::TensorToTF(tensor);
  if (!converted.ok()) return SetStatus(status, converted.status());
  *value = *converted;
  SetStatus(status, absl::OkStatus());
}

void TF_OperationGetAttrTensorList(TF_Operation* oper, const char* attr_name, TF_Tensor** values,
                                   int max_values, TF_Status* status) {
  const AttrValue* attr = nullptr;
  absl::Status found = FindAttrOfKind(oper, attr_name, AttrValue::kList, "list(tensor)", &attr);
  if (!found.ok()) return SetStatus(status, found);
  const int n = std::min(max_values, attr->list().tensor_size());
  for (int i = 0; i < n; ++i) {
    sluice::Tensor tensor;
    absl::Status parsed = sluice::TensorFromProto(attr->list().tensor(i), &tensor);
    absl::StatusOr<TF_Tensor*> converted =
        parsed.ok() ? sluice::c_api::TensorToTF(tensor) : absl::StatusOr<TF_Tensor*>(parsed);
    if (!converted.ok()) {
      for (int j = 0; j < i; ++j) {
        TF_DeleteTensor(values[j]);
        values[j] = nullptr;
      }
      return SetStatus(status, converted.status());
    }
    values[i] = *converted;
  }
  SetStatus(status, absl::OkStatus());
}

void TF_OperationGetAttrValueProto(TF_Operation* oper, const char* attr_name,
                                   TF_Buffer* output_attr_value, TF_Status* status) {
  const AttrValue* attr = nullptr;
  absl::Status found = FindAttr(oper, attr_name, &attr);
  if (!found.ok()) return SetStatus(status, found);
  SetStatus(status, MessageToBuffer(*attr, output_attr_value));
}

}  // extern "C"

namespace {

// The node's attr names in a fixed (sorted) order, for the index-based functions below.
std::vector<std::string> SortedAttrNames(TF_Operation* oper) {
  std::vector<std::string> names;
  for (const auto& [name, value] : ToNode(oper)->def().attr()) names.push_back(name);
  std::sort(names.begin(), names.end());
  return names;
}

}  // namespace

extern "C" {

int TF_OperationGetNumAttrs(TF_Operation* oper) { return ToNode(oper)->def().attr_size(); }

int TF_OperationGetAttrNameLength(TF_Operation* oper, int i) {
  std::vector<std::string> names = SortedAttrNames(oper);
  if (i < 0 || i >= static_cast<int>(names.size())) return -1;
  return static_cast<int>(names[i].size());
}

void TF_OperationGetAttrName(TF_Operation* oper, int i, char* output, TF_Status* status) {
  std::vector<std::string> names = SortedAttrNames(oper);
  if (i < 0 || i >= static_cast<int>(names.size())) {
    return SetStatus(status, absl::OutOfRangeError(absl::StrCat(
                                 "Operation '", ToNode(oper)->name(), "' has ", names.size(),
                                 " attrs; index ", i, " is out of range")));
  }
  std::memcpy(output, names[i].data(), names[i].size());
  SetStatus(status, absl::OkStatus());
}

}  // extern "C"
