#include "fuzz/random_attrs.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "fuzz/random_tensor.h"
#include "graph/core/errors.h"
#include "graph/core/tensor_proto.h"
#include "graph/core/types.h"
#include "proto/attr_value.pb.h"

namespace sluice {
namespace fuzz {
namespace {

// The dtypes CPU kernels are registered for, quantized and string included.
const std::vector<DataType>& CommonTypes() {
  static const auto* types = new std::vector<DataType>{
      DT_FLOAT,      DT_INT32,  DT_INT64, DT_DOUBLE, DT_BOOL,   DT_HALF,   DT_BFLOAT16,
      DT_UINT8,      DT_INT8,   DT_INT16, DT_UINT16, DT_UINT32, DT_UINT64, DT_COMPLEX64,
      DT_COMPLEX128, DT_STRING, DT_QINT8, DT_QUINT8, DT_QINT32};
  return *types;
}

// String attrs without allowed values are mostly formats, paddings and modes; these are the
// spellings kernels compare against.
const std::vector<std::string>& CommonStrings() {
  static const auto* strings = new std::vector<std::string>{
      "",         "SAME",    "VALID",     "EXPLICIT", "NHWC",  "NCHW", "NDHWC", "NCDHW",
      "CONSTANT", "REFLECT", "SYMMETRIC", "LEFT",     "RIGHT", "%s",   "{}",    "ab,cd->ad"};
  return *strings;
}

// The types `kernel` allows for attr `name`, or none when it does not constrain it.
std::vector<DataType> KernelTypes(const KernelDef* kernel, const std::string& name) {
  std::vector<DataType> types;
  if (kernel == nullptr) return types;
  for (const KernelDef::AttrConstraint& constraint : kernel->constraint()) {
    if (constraint.name() != name) continue;
    for (int t : constraint.allowed_values().list().type()) types.push_back(DataType(t));
  }
  return types;
}

DataType DrawType(const OpDef::AttrDef& attr, const KernelDef* kernel, ByteSource* bytes) {
  if (bytes->OneIn(16)) return bytes->Pick(CommonTypes());
  std::vector<DataType> allowed = KernelTypes(kernel, attr.name());
  if (allowed.empty()) {
    for (int t : attr.allowed_values().list().type()) allowed.push_back(DataType(t));
  }
  return allowed.empty() ? bytes->Pick(CommonTypes()) : bytes->Pick(allowed);
}

std::string DrawString(const OpDef::AttrDef& attr, ByteSource* bytes) {
  if (bytes->OneIn(16)) return bytes->String(12);
  const auto& allowed = attr.allowed_values().list().s();
  if (!allowed.empty()) return allowed[bytes->Below(allowed.size())];
  return bytes->Pick(CommonStrings());
}

// Whether an input of `op_def` takes its count from int attr `name`.
bool IsNumberAttr(const OpDef& op_def, const std::string& name) {
  for (const OpDef::ArgDef& arg : op_def.input_arg()) {
    if (arg.number_attr() == name) return true;
  }
  return false;
}

int64_t DrawInt(const OpDef& op_def, const OpDef::AttrDef& attr, ByteSource* bytes) {
  const int64_t minimum = attr.has_minimum() ? attr.minimum() : 0;
  if (IsNumberAttr(op_def, attr.name())) {
    if (bytes->OneIn(16)) return bytes->InRange(-1, 0);
    return std::max<int64_t>(minimum, 0) + bytes->InRange(0, 3);
  }
  const int64_t value = RandomInt(bytes);
  if (!attr.has_minimum() || bytes->OneIn(8)) return value;
  return std::max(value, minimum);
}

float DrawFloat(ByteSource* bytes) {
  const double value = RandomDouble(bytes);
  // Past float's range is infinity (a double-to-float cast there is undefined).
  if (value > 3.4e38) return std::numeric_limits<float>::infinity();
  if (value < -3.4e38) return -std::numeric_limits<float>::infinity();
  return static_cast<float>(value);
}

void DrawShape(ByteSource* bytes, TensorShapeProto* proto) {
  if (bytes->OneIn(16)) {
    // Invalid dims (below -1) and huge ones, and ranks past 254, as a hand-written GraphDef
    // may hold.
    const int rank = bytes->OneIn(4) ? static_cast<int>(bytes->InRange(250, 300))
                                     : static_cast<int>(bytes->Below(4));
    for (int d = 0; d < rank; ++d) {
      // Shifted down by 2 so that -2 and below come often; the two lowest values stay as
      // they are (subtracting would overflow).
      const int64_t size = RandomInt(bytes);
      proto->add_dim()->set_size(size >= std::numeric_limits<int64_t>::min() + 2 ? size - 2 : size);
    }
    return;
  }
  RandomPartialShape(bytes).AsProto(proto);
}

int64_t ListLength(const OpDef::AttrDef& attr, ByteSource* bytes) {
  static constexpr int64_t kLengths[] = {0, 1, 2, 3, 4, 4, 4, 5};
  int64_t length = bytes->Pick(absl::MakeConstSpan(kLengths));
  if (attr.has_minimum() && !bytes->OneIn(8)) length = std::max(length, attr.minimum());
  return std::min<int64_t>(length, 8);
}

absl::Status DrawTensor(ByteSource* bytes, TensorProto* proto) {
  ASSIGN_OR_RETURN(Tensor tensor, RandomTensor(bytes->Pick(CommonTypes()), bytes));
  TensorToProtoContent(tensor, proto);
  return absl::OkStatus();
}

absl::Status DrawList(const OpDef& op_def, const OpDef::AttrDef& attr, const KernelDef* kernel,
                      ByteSource* bytes, AttrValue::ListValue* list) {
  const std::string element = attr.type().substr(5, attr.type().size() - 6);  // list(<x>)
  const int64_t length = ListLength(attr, bytes);
  for (int64_t i = 0; i < length; ++i) {
    if (element == "type") {
      list->add_type(DrawType(attr, kernel, bytes));
    } else if (element == "int") {
      // Strides, sizes and dilations: mostly 1 and 2, which make valid windows.
      list->add_i(bytes->OneIn(3) ? RandomInt(bytes) : bytes->InRange(1, 2));
    } else if (element == "float") {
      list->add_f(DrawFloat(bytes));
    } else if (element == "bool") {
      list->add_b(bytes->Bool());
    } else if (element == "string") {
      list->add_s(DrawString(attr, bytes));
    } else if (element == "shape") {
      DrawShape(bytes, list->add_shape());
    } else if (element == "tensor") {
      RETURN_IF_ERROR(DrawTensor(bytes, list->add_tensor()));
    } else {
      return errors::Unimplemented("attr '", attr.name(), "' of type ", attr.type(), " of op ",
                                   op_def.name(), " cannot be generated");
    }
  }
  return absl::OkStatus();
}

absl::Status DrawAttr(const OpDef& op_def, const OpDef::AttrDef& attr, const KernelDef* kernel,
                      ByteSource* bytes, AttrValue* value) {
  const std::string& type = attr.type();
  if (type == "type") {
    value->set_type(DrawType(attr, kernel, bytes));
  } else if (type == "int") {
    value->set_i(DrawInt(op_def, attr, bytes));
  } else if (type == "float") {
    value->set_f(DrawFloat(bytes));
  } else if (type == "bool") {
    value->set_b(bytes->Bool());
  } else if (type == "string") {
    value->set_s(DrawString(attr, bytes));
  } else if (type == "shape") {
    DrawShape(bytes, value->mutable_shape());
  } else if (type == "tensor") {
    RETURN_IF_ERROR(DrawTensor(bytes, value->mutable_tensor()));
  } else if (absl::StartsWith(type, "list(")) {
    RETURN_IF_ERROR(DrawList(op_def, attr, kernel, bytes, value->mutable_list()));
  } else {
    return errors::Unimplemented("attr '", attr.name(), "' of type ", type, " of op ",
                                 op_def.name(), " cannot be generated");
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status AddRandomAttrs(const OpDef& op_def, const KernelDef* kernel, ByteSource* bytes,
                            NodeDef* node) {
  auto& attrs = *node->mutable_attr();
  for (const OpDef::AttrDef& attr : op_def.attr()) {
    if (attrs.count(attr.name()) > 0) continue;
    if (attr.has_default_value() && bytes->Bool()) continue;
    AttrValue value;
    RETURN_IF_ERROR(DrawAttr(op_def, attr, kernel, bytes, &value));
    attrs[attr.name()] = value;
  }
  return absl::OkStatus();
}

}  // namespace fuzz
}  // namespace sluice
