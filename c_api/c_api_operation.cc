// Building operations (tensorflow/c/c_api.h): TF_NewOperation, the input and attr setters,
// TF_FinishOperation.
//
// A description collects a NodeDef through sluice::NodeBuilder. Setters never fail on their
// own; an error they meet (a malformed proto, a bad tensor) is reported through their status
// when they take one and otherwise kept, and TF_FinishOperation returns the first. Finishing
// validates the node against its OpDef, adds it and runs its shape function; on any error
// the graph is left as it was. The description is deleted in every case.
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "c_api/c_api_internal.h"
#include "graph/core/partial_tensor_shape.h"
#include "graph/core/tensor_proto.h"
#include "graph/op/attr_value_util.h"
#include "proto/attr_value.pb.h"
#include "proto/tensor_shape.pb.h"

using sluice::AttrValue;
using sluice::c_api::SetStatus;
using sluice::c_api::ShapeProto;
using sluice::c_api::TensorToProto;
using sluice::c_api::ToNode;
using sluice::c_api::ToOperation;

namespace {

void SetAttr(TF_OperationDescription* desc, const char* attr_name, AttrValue value) {
  desc->builder.Attr(attr_name, std::move(value));
}

absl::Status ParseShapeProto(const void* proto, size_t proto_len, sluice::TensorShapeProto* out) {
  if (!sluice::c_api::ParseFromBytes(proto, proto_len, out)) {
    return absl::InvalidArgumentError("Unparseable TensorShapeProto");
  }
  return absl::OkStatus();
}

// Keeps the first error a setter met, for TF_FinishOperation, and reports it in `status`.
void Record(TF_OperationDescription* desc, const absl::Status& error, TF_Status* status) {
  if (status != nullptr) SetStatus(status, error);
  if (desc->status.ok()) desc->status = error;
}

TF_OperationDescription* NewOperation(TF_Graph* graph, const char* op_type, const char* oper_name) {
  return new TF_OperationDescription(graph, op_type == nullptr ? "" : op_type,
                                     oper_name == nullptr ? "" : oper_name);
}

// REQUIRES: desc->graph->mu held.
TF_Operation* FinishOperation(TF_OperationDescription* desc,
                              TF_Status* status) ABSL_NO_THREAD_SAFETY_ANALYSIS {
  TF_Graph* graph = desc->graph;
  if (!desc->status.ok()) {
    SetStatus(status, desc->status);
    return nullptr;
  }
  if (!desc->colocation.empty()) {
    std::vector<std::string> classes(desc->colocation.begin(), desc->colocation.end());
    desc->builder.Attr("_class", classes);
  }
  const std::string name = desc->builder.node_name();
  if (graph->graph.FindNodeByName(name) != nullptr) {
    SetStatus(status, absl::InvalidArgumentError(
                          absl::StrCat("Duplicate node name in graph: '", name, "'")));
    return nullptr;
  }
  sluice::Node* node = nullptr;
  absl::Status built = desc->builder.Finalize(&graph->graph, &node);
  if (!built.ok()) {
    SetStatus(status, built);
    return nullptr;
  }
  absl::Status shapes = graph->refiner.AddNode(node);
  if (!shapes.ok()) {
    graph->refiner.RemoveNode(node);
    graph->graph.RemoveNode(node);
    SetStatus(status, shapes);
    return nullptr;
  }
  SetStatus(status, absl::OkStatus());
  return ToOperation(node);
}

}  // namespace

namespace sluice {
namespace c_api {

// A TensorShapeProto for `num_dims` dims (-1: unknown rank); a dim of -1 is unknown.
TensorShapeProto ShapeProto(const int64_t* dims, int num_dims) {
  TensorShapeProto proto;
  if (num_dims < 0) {
    proto.set_unknown_rank(true);
    return proto;
  }
  for (int i = 0; i < num_dims; ++i) proto.add_dim()->set_size(dims[i] < 0 ? -1 : dims[i]);
  return proto;
}

// As TensorFlow's NodeBuilder stores a Tensor attr (SetAttrValue): the raw tensor_content
// for more than one element, the typed *_val field for one or none.
absl::Status TensorToProto(TF_Tensor* value, TensorProto* out) {
  absl::StatusOr<Tensor> tensor = c_api::TensorFromTF(value);
  if (!tensor.ok()) return tensor.status();
  if (tensor->NumElements() > 1) {
    TensorToProtoContent(*tensor, out);
  } else {
    TensorToProtoField(*tensor, out);
  }
  return absl::OkStatus();
}

}  // namespace c_api
}  // namespace sluice

extern "C" {

TF_OperationDescription* TF_NewOperationLocked(TF_Graph* graph, const char* op_type,
                                               const char* oper_name) {
  return NewOperation(graph, op_type, oper_name);
}

TF_OperationDescription* TF_NewOperation(TF_Graph* graph, const char* op_type,
                                         const char* oper_name) {
  absl::MutexLock lock(&graph->mu);
  return NewOperation(graph, op_type, oper_name);
}

void TF_SetDevice(TF_OperationDescription* desc, const char* device) {
  desc->builder.Device(device == nullptr ? "" : device);
}

void TF_AddInput(TF_OperationDescription* desc, TF_Output input) {
  desc->builder.Input(sluice::Output(ToNode(input.oper), input.index));
}

void TF_AddInputList(TF_OperationDescription* desc, const TF_Output* inputs, int num_inputs) {
  std::vector<sluice::Output> list;
  list.reserve(num_inputs > 0 ? num_inputs : 0);
  for (int i = 0; i < num_inputs; ++i) {
    list.emplace_back(ToNode(inputs[i].oper), inputs[i].index);
  }
  desc->builder.Input(list);
}

void TF_AddControlInput(TF_OperationDescription* desc, TF_Operation* input) {
  desc->builder.ControlInput(ToNode(input));
}

void TF_ColocateWith(TF_OperationDescription* desc, TF_Operation* op) {
  desc->colocation.insert(absl::StrCat("loc:@", ToNode(op)->name()));
}

void TF_SetAttrString(TF_OperationDescription* desc, const char* attr_name, const void* value,
                      size_t length) {
  AttrValue attr;
  attr.set_s(static_cast<const char*>(value), length);
  SetAttr(desc, attr_name, std::move(attr));
}

void TF_SetAttrStringList(TF_OperationDescription* desc, const char* attr_name,
                          const void* const* values, const size_t* lengths, int num_values) {
  AttrValue attr;
  auto* list = attr.mutable_list();
  for (int i = 0; i < num_values; ++i) {
    list->add_s(static_cast<const char*>(values[i]), lengths[i]);
  }
  SetAttr(desc, attr_name, std::move(attr));
}

void TF_SetAttrInt(TF_OperationDescription* desc, const char* attr_name, int64_t value) {
  AttrValue attr;
  attr.set_i(value);
  SetAttr(desc, attr_name, std::move(attr));
}

void TF_SetAttrIntList(TF_OperationDescription* desc, const char* attr_name, const int64_t* values,
                       int num_values) {
  AttrValue attr;
  auto* list = attr.mutable_list();
  for (int i = 0; i < num_values; ++i) list->add_i(values[i]);
  SetAttr(desc, attr_name, std::move(attr));
}

void TF_SetAttrFloat(TF_OperationDescription* desc, const char* attr_name, float value) {
  AttrValue attr;
  attr.set_f(value);
  SetAttr(desc, attr_name, std::move(attr));
}

void TF_SetAttrFloatList(TF_OperationDescription* desc, const char* attr_name, const float* values,
                         int num_values) {
  AttrValue attr;
  auto* list = attr.mutable_list();
  for (int i = 0; i < num_values; ++i) list->add_f(values[i]);
  SetAttr(desc, attr_name, std::move(attr));
}

void TF_SetAttrBool(TF_OperationDescription* desc, const char* attr_name, unsigned char value) {
  AttrValue attr;
  attr.set_b(value != 0);
  SetAttr(desc, attr_name, std::move(attr));
}

void TF_SetAttrBoolList(TF_OperationDescription* desc, const char* attr_name,
                        const unsigned char* values, int num_values) {
  AttrValue attr;
  auto* list = attr.mutable_list();
  for (int i = 0; i < num_values; ++i) list->add_b(values[i] != 0);
  SetAttr(desc, attr_name, std::move(attr));
}

void TF_SetAttrType(TF_OperationDescription* desc, const char* attr_name, TF_DataType value) {
  AttrValue attr;
  attr.set_type(static_cast<sluice::DataType>(value));
  SetAttr(desc, attr_name, std::move(attr));
}

void TF_SetAttrTypeList(TF_OperationDescription* desc, const char* attr_name,
                        const TF_DataType* values, int num_values) {
  AttrValue attr;
  auto* list = attr.mutable_list();
  for (int i = 0; i < num_values; ++i) list->add_type(static_cast<sluice::DataType>(values[i]));
  SetAttr(desc, attr_name, std::move(attr));
}

void TF_SetAttrPlaceholder(TF_OperationDescription* desc, const char* attr_name,
                           const char* placeholder) {
  AttrValue attr;
  attr.set_placeholder(placeholder == nullptr ? "" : placeholder);
  SetAttr(desc, attr_name, std::move(attr));
}

void TF_SetAttrFuncName(TF_OperationDescription* desc, const char* attr_name, const char* value,
                        size_t length) {
  AttrValue attr;
  attr.mutable_func()->set_name(value, length);
  SetAttr(desc, attr_name, std::move(attr));
}

void TF_SetAttrShape(TF_OperationDescription* desc, const char* attr_name, const int64_t* dims,
                     int num_dims) {
  AttrValue attr;
  *attr.mutable_shape() = ShapeProto(dims, num_dims);
  SetAttr(desc, attr_name, std::move(attr));
}

void TF_SetAttrShapeList(TF_OperationDescription* desc, const char* attr_name,
                         const int64_t* const* dims, const int* num_dims, int num_shapes) {
  AttrValue attr;
  auto* list = attr.mutable_list();
  for (int i = 0; i < num_shapes; ++i) *list->add_shape() = ShapeProto(dims[i], num_dims[i]);
  SetAttr(desc, attr_name, std::move(attr));
}

void TF_SetAttrTensorShapeProto(TF_OperationDescription* desc, const char* attr_name,
                                const void* proto, size_t proto_len, TF_Status* status) {
  AttrValue attr;
  absl::Status parsed = ParseShapeProto(proto, proto_len, attr.mutable_shape());
  if (!parsed.ok()) return Record(desc, parsed, status);
  SetAttr(desc, attr_name, std::move(attr));
  SetStatus(status, absl::OkStatus());
}

void TF_SetAttrTensorShapeProtoList(TF_OperationDescription* desc, const char* attr_name,
                                    const void* const* protos, const size_t* proto_lens,
                                    int num_shapes, TF_Status* status) {
  AttrValue attr;
  auto* list = attr.mutable_list();
  for (int i = 0; i < num_shapes; ++i) {
    absl::Status parsed = ParseShapeProto(protos[i], proto_lens[i], list->add_shape());
    if (!parsed.ok()) return Record(desc, parsed, status);
  }
  SetAttr(desc, attr_name, std::move(attr));
  SetStatus(status, absl::OkStatus());
}

void TF_SetAttrTensor(TF_OperationDescription* desc, const char* attr_name, TF_Tensor* value,
                      TF_Status* status) {
  AttrValue attr;
  absl::Status converted = TensorToProto(value, attr.mutable_tensor());
  if (!converted.ok()) return Record(desc, converted, status);
  SetAttr(desc, attr_name, std::move(attr));
  SetStatus(status, absl::OkStatus());
}

void TF_SetAttrTensorList(TF_OperationDescription* desc, const char* attr_name,
                          TF_Tensor* const* values, int num_values, TF_Status* status) {
  AttrValue attr;
  auto* list = attr.mutable_list();
  for (int i = 0; i < num_values; ++i) {
    absl::Status converted = TensorToProto(values[i], list->add_tensor());
    if (!converted.ok()) return Record(desc, converted, status);
  }
  SetAttr(desc, attr_name, std::move(attr));
  SetStatus(status, absl::OkStatus());
}

void TF_SetAttrValueProto(TF_OperationDescription* desc, const char* attr_name, const void* proto,
                          size_t proto_len, TF_Status* status) {
  AttrValue attr;
  if (!sluice::c_api::ParseFromBytes(proto, proto_len, &attr)) {
    return Record(desc, absl::InvalidArgumentError("Unparseable AttrValue proto"), status);
  }
  if (std::string(attr_name) == "_class") {
    // Colocation given as an attr joins what TF_ColocateWith collected.
    desc->colocation.clear();
    for (const std::string& entry : attr.list().s()) desc->colocation.insert(entry);
  } else {
    SetAttr(desc, attr_name, std::move(attr));
  }
  SetStatus(status, absl::OkStatus());
}

TF_Operation* TF_FinishOperationLocked(TF_OperationDescription* desc, TF_Status* status) {
  TF_Operation* op = FinishOperation(desc, status);
  delete desc;
  return op;
}

TF_Operation* TF_FinishOperation(TF_OperationDescription* desc, TF_Status* status) {
  TF_Operation* op;
  {
    absl::MutexLock lock(&desc->graph->mu);
    op = FinishOperation(desc, status);
  }
  delete desc;
  return op;
}

}  // extern "C"
