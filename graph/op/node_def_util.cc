#include "graph/op/node_def_util.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "graph/core/errors.h"
#include "graph/core/partial_tensor_shape.h"
#include "graph/core/tensor_shape.h"
#include "graph/op/op_def_util.h"

namespace sluice {
namespace {

// More ports than this on one side of a node is refused rather than allocated: a number attr
// of a few bytes can claim billions of them (TensorFlow's own limit is int32), and every port
// costs the runtime up to a Tensor's size in several arrays (a kernel context's output slots,
// the values a step or constant folding returns, the type vectors). 2^18 keeps each such array
// near 20 MiB, and is still far past any graph TensorFlow's tools make (an AddN of 200,000
// inputs is accepted).
constexpr int64_t kMaxPortsPerNode = int64_t{1} << 18;

const AttrValueMap& EmptyAttrValueMap() {
  static const AttrValueMap* const kEmpty = new AttrValueMap;
  return *kEmpty;
}

// Attaches the node a slice views, if any.
absl::Status AttachSliceNode(const absl::Status& status, const AttrSlice& attrs) {
  if (status.ok() || attrs.node_def() == nullptr) return status;
  return AttachDef(status, *attrs.node_def());
}

// "a=1, b=true" with names sorted, then the device as a last `_device="..."` entry.
std::string SummarizeAttrs(const AttrSlice& attrs, absl::string_view device) {
  std::vector<const AttrValueMap::value_type*> sorted;
  sorted.reserve(attrs.size());
  for (const auto& entry : attrs) sorted.push_back(&entry);
  std::sort(sorted.begin(), sorted.end(),
            [](const auto* a, const auto* b) { return a->first < b->first; });
  std::vector<std::string> parts;
  parts.reserve(sorted.size() + 1);
  for (const auto* entry : sorted) {
    parts.push_back(absl::StrCat(entry->first, "=", SummarizeAttrValue(entry->second)));
  }
  if (!device.empty()) parts.push_back(absl::StrCat("_device=\"", device, "\""));
  return absl::StrJoin(parts, ", ");
}

}  // namespace

// ---- AttrSlice ----------------------------------------------------------------------------

AttrSlice::AttrSlice() : node_def_(nullptr), attrs_(&EmptyAttrValueMap()) {}

AttrSlice::AttrSlice(const NodeDef& node_def) : node_def_(&node_def), attrs_(&node_def.attr()) {}

AttrSlice::AttrSlice(const AttrValueMap* attrs) : node_def_(nullptr), attrs_(attrs) {}

const AttrValue* AttrSlice::Find(absl::string_view name) const {
  auto it = attrs_->find(std::string(name));
  return it == attrs_->end() ? nullptr : &it->second;
}

absl::Status AttrSlice::Find(absl::string_view name, const AttrValue** attr_value) const {
  *attr_value = Find(name);
  if (*attr_value != nullptr) return absl::OkStatus();
  absl::Status status = errors::NotFound("No attr named '", name, "' in NodeDef:");
  // Internal attrs are routinely absent; naming the node for them is not worth the cost.
  if (absl::StartsWith(name, "_")) return status;
  return AttachSliceNode(status, *this);
}

std::string AttrSlice::SummarizeNode() const {
  if (node_def_ != nullptr) return SummarizeNodeDef(*node_def_);
  return absl::StrCat("[", SummarizeAttrs(*this, ""), "]");
}

// ---- GetNodeAttr / TryGetNodeAttr ---------------------------------------------------------
//
// A reader names an attr type ("int") and the AttrValue fields holding its scalar and list
// values; ConvertAttr turns one stored element into the C++ type asked for, failing for
// int32s out of range and for shapes the C++ type cannot hold.

namespace {

absl::Status ForAttr(const absl::Status& status, absl::string_view name) {
  return errors::AppendToMessage(status, "\n\t for attr '", name, "'");
}

#define SLUICE_ATTR_READER(NAME, TYPE, FIELD)                                    \
  struct NAME {                                                                  \
    static constexpr const char* kType = TYPE;                                   \
    static decltype(auto) Scalar(const AttrValue& v) { return v.FIELD(); }       \
    static const auto& List(const AttrValue::ListValue& l) { return l.FIELD(); } \
  };
SLUICE_ATTR_READER(StringReader, "string", s)
SLUICE_ATTR_READER(IntReader, "int", i)
SLUICE_ATTR_READER(FloatReader, "float", f)
SLUICE_ATTR_READER(BoolReader, "bool", b)
SLUICE_ATTR_READER(TypeReader, "type", type)
SLUICE_ATTR_READER(ShapeReader, "shape", shape)
SLUICE_ATTR_READER(TensorReader, "tensor", tensor)
SLUICE_ATTR_READER(FuncReader, "func", func)
#undef SLUICE_ATTR_READER

template <class Stored, class T>
absl::Status ConvertAttr(absl::string_view, const Stored& in, T* out) {
  *out = static_cast<T>(in);
  return absl::OkStatus();
}

// The pointer forms point into the attr map rather than copy.
template <class Stored>
absl::Status ConvertAttr(absl::string_view, const Stored& in, const Stored** out) {
  *out = &in;
  return absl::OkStatus();
}

absl::Status ConvertAttr(absl::string_view name, const int64_t& in, int32_t* out) {
  if (in < std::numeric_limits<int32_t>::min() || in > std::numeric_limits<int32_t>::max()) {
    return errors::InvalidArgument("Attr ", name, " has value ", in, " out of range for an int32");
  }
  *out = static_cast<int32_t>(in);
  return absl::OkStatus();
}

absl::Status ConvertAttr(absl::string_view name, const TensorShapeProto& in, TensorShape* out) {
  return ForAttr(TensorShape::BuildTensorShapeFromProto(in, out), name);
}

absl::Status ConvertAttr(absl::string_view name, const TensorShapeProto& in,
                         PartialTensorShape* out) {
  return ForAttr(PartialTensorShape::BuildFromProto(in, out), name);
}

// Reads a scalar attr of `Reader`'s type into *value; *value is untouched on failure.
template <class Reader, class T>
absl::Status ReadScalar(const AttrSlice& attrs, absl::string_view name, T* value) {
  const AttrValue* attr_value;
  RETURN_IF_ERROR(attrs.Find(name, &attr_value));
  absl::Status status = ForAttr(AttrValueHasType(*attr_value, Reader::kType), name);
  if (status.ok()) {
    T converted{};
    status = ConvertAttr(name, Reader::Scalar(*attr_value), &converted);
    if (status.ok()) *value = std::move(converted);
  }
  return AttachSliceNode(status, attrs);
}

// Reads a list attr of `Reader`'s element type, replacing *value's contents on success.
template <class Reader, class Vector>
absl::Status ReadList(const AttrSlice& attrs, absl::string_view name, Vector* value) {
  const AttrValue* attr_value;
  RETURN_IF_ERROR(attrs.Find(name, &attr_value));
  absl::Status status =
      ForAttr(AttrValueHasType(*attr_value, absl::StrCat("list(", Reader::kType, ")")), name);
  Vector converted;
  if (status.ok()) {
    const auto& list = Reader::List(attr_value->list());
    converted.reserve(list.size());
    for (const auto& element : list) {
      typename Vector::value_type item{};
      status = ConvertAttr(name, element, &item);
      if (!status.ok()) break;
      converted.push_back(std::move(item));
    }
  }
  if (status.ok()) *value = std::move(converted);
  return AttachSliceNode(status, attrs);
}

}  // namespace

#define SLUICE_DEFINE_GET_NODE_ATTR(TYPE, READ)                                           \
  absl::Status GetNodeAttr(const AttrSlice& attrs, absl::string_view name, TYPE* value) { \
    return READ(attrs, name, value);                                                      \
  }                                                                                       \
  bool TryGetNodeAttr(const AttrSlice& attrs, absl::string_view name, TYPE* value) {      \
    return attrs.Find(name) != nullptr && READ(attrs, name, value).ok();                  \
  }
#define SLUICE_DEFINE_GET_NODE_ATTR_AND_LIST(TYPE, READER) \
  SLUICE_DEFINE_GET_NODE_ATTR(TYPE, ReadScalar<READER>)    \
  SLUICE_DEFINE_GET_NODE_ATTR(std::vector<TYPE>, ReadList<READER>)

SLUICE_DEFINE_GET_NODE_ATTR_AND_LIST(std::string, StringReader)
SLUICE_DEFINE_GET_NODE_ATTR_AND_LIST(int64_t, IntReader)
SLUICE_DEFINE_GET_NODE_ATTR_AND_LIST(int32_t, IntReader)
SLUICE_DEFINE_GET_NODE_ATTR_AND_LIST(float, FloatReader)
SLUICE_DEFINE_GET_NODE_ATTR_AND_LIST(bool, BoolReader)
SLUICE_DEFINE_GET_NODE_ATTR_AND_LIST(DataType, TypeReader)
SLUICE_DEFINE_GET_NODE_ATTR_AND_LIST(TensorShapeProto, ShapeReader)
SLUICE_DEFINE_GET_NODE_ATTR_AND_LIST(TensorShape, ShapeReader)
SLUICE_DEFINE_GET_NODE_ATTR_AND_LIST(PartialTensorShape, ShapeReader)
SLUICE_DEFINE_GET_NODE_ATTR_AND_LIST(TensorProto, TensorReader)
SLUICE_DEFINE_GET_NODE_ATTR_AND_LIST(NameAttrList, FuncReader)
SLUICE_DEFINE_GET_NODE_ATTR(DataTypeVector, ReadList<TypeReader>)
SLUICE_DEFINE_GET_NODE_ATTR(const TensorProto*, ReadScalar<TensorReader>)
SLUICE_DEFINE_GET_NODE_ATTR(const NameAttrList*, ReadScalar<FuncReader>)

#undef SLUICE_DEFINE_GET_NODE_ATTR_AND_LIST
#undef SLUICE_DEFINE_GET_NODE_ATTR

bool HasNodeAttr(const NodeDef& node_def, absl::string_view name) {
  return AttrSlice(node_def).Find(name) != nullptr;
}

// ---- Input and output types ---------------------------------------------------------------

namespace {

// Missing attrs found while resolving types are INVALID_ARGUMENT: the NodeDef, not a lookup,
// is at fault.
absl::Status AsInvalidArgument(const absl::Status& status) {
  if (!errors::IsNotFound(status)) return status;
  return absl::Status(absl::StatusCode::kInvalidArgument, status.message());
}

absl::Status TooManyPorts(const AttrSlice& attrs, const OpDef::ArgDef& arg, int64_t ports,
                          absl::string_view attr_name) {
  return AttachSliceNode(
      errors::InvalidArgument("Arg '", arg.name(), "' brings the node to ", ports,
                              " inputs or outputs (attr '", attr_name, "'); at most ",
                              kMaxPortsPerNode, " are supported"),
      attrs);
}

// The number of times an "N * T" arg repeats, checked against the ports already counted.
absl::Status NumberAttrValue(const AttrSlice& attrs, const OpDef::ArgDef& arg, int64_t ports_so_far,
                             int64_t* repeats) {
  RETURN_IF_ERROR(AsInvalidArgument(GetNodeAttr(attrs, arg.number_attr(), repeats)));
  if (*repeats > std::numeric_limits<int32_t>::max()) {
    return AttachSliceNode(errors::InvalidArgument("Number of outputs is too big: ", *repeats,
                                                   " for attr '", arg.number_attr(), "'"),
                           attrs);
  }
  if (*repeats < 0) {
    return AttachSliceNode(errors::InvalidArgument("Value for number_attr() ", *repeats,
                                                   " < 0 for attr '", arg.number_attr(), "'"),
                           attrs);
  }
  if (ports_so_far + *repeats > kMaxPortsPerNode) {
    return TooManyPorts(attrs, arg, ports_so_far + *repeats, arg.number_attr());
  }
  return absl::OkStatus();
}

absl::Status ArgSpecError(const AttrSlice& attrs, const OpDef::ArgDef& arg, const char* what) {
  return AttachSliceNode(errors::InvalidArgument(what, arg.ShortDebugString()), attrs);
}

// Appends the types of one arg to *sig.
absl::Status AppendArgTypes(const AttrSlice& attrs, const OpDef::ArgDef& arg, DataTypeVector* sig) {
  const size_t original_size = sig->size();
  if (!arg.number_attr().empty()) {
    int64_t repeats = 0;
    RETURN_IF_ERROR(NumberAttrValue(attrs, arg, sig->size(), &repeats));
    DataType dtype = arg.type();
    if (!arg.type_attr().empty()) {
      RETURN_IF_ERROR(AsInvalidArgument(GetNodeAttr(attrs, arg.type_attr(), &dtype)));
    } else if (dtype == DT_INVALID) {
      return ArgSpecError(attrs, arg, "Missing type or type_attr field in ");
    }
    sig->insert(sig->end(), static_cast<size_t>(repeats), dtype);
  } else if (!arg.type_attr().empty()) {
    DataType dtype;
    RETURN_IF_ERROR(AsInvalidArgument(GetNodeAttr(attrs, arg.type_attr(), &dtype)));
    sig->push_back(dtype);
  } else if (!arg.type_list_attr().empty()) {
    DataTypeVector types;
    RETURN_IF_ERROR(AsInvalidArgument(GetNodeAttr(attrs, arg.type_list_attr(), &types)));
    const int64_t ports = static_cast<int64_t>(sig->size() + types.size());
    if (ports > kMaxPortsPerNode) return TooManyPorts(attrs, arg, ports, arg.type_list_attr());
    sig->insert(sig->end(), types.begin(), types.end());
  } else if (arg.type() != DT_INVALID) {
    sig->push_back(arg.type());
  } else {
    return ArgSpecError(attrs, arg, "No type fields in ");
  }
  if (arg.is_ref()) {
    for (size_t i = original_size; i < sig->size(); ++i) {
      if (IsRefType((*sig)[i])) {
        return ArgSpecError(attrs, arg, "Requested reference to a reference type: ");
      }
      (*sig)[i] = MakeRefType((*sig)[i]);
    }
  }
  return absl::OkStatus();
}

absl::Status ArgTypes(const AttrSlice& attrs,
                      const google::protobuf::RepeatedPtrField<OpDef::ArgDef>& args,
                      DataTypeVector* sig) {
  for (const OpDef::ArgDef& arg : args) RETURN_IF_ERROR(AppendArgTypes(attrs, arg, sig));
  return absl::OkStatus();
}

// The type of flat port `port` among `args`; `kind` is "Input" or "Output".
absl::Status ArgTypeAt(const NodeDef& node_def,
                       const google::protobuf::RepeatedPtrField<OpDef::ArgDef>& args, int port,
                       const char* kind, DataType* type) {
  if (port >= 0) {
    DataTypeVector sig;
    for (const OpDef::ArgDef& arg : args) {
      RETURN_IF_ERROR(AppendArgTypes(node_def, arg, &sig));
      if (static_cast<int64_t>(sig.size()) > port) {
        *type = sig[port];
        return absl::OkStatus();
      }
    }
  }
  return errors::InvalidArgument(kind, " ", port, " not found for node ", node_def.name());
}

}  // namespace

absl::Status InputTypesForNode(const NodeDef& node_def, const OpDef& op_def,
                               DataTypeVector* inputs) {
  return ArgTypes(node_def, op_def.input_arg(), inputs);
}

absl::Status OutputTypesForNode(const NodeDef& node_def, const OpDef& op_def,
                                DataTypeVector* outputs) {
  return ArgTypes(node_def, op_def.output_arg(), outputs);
}

absl::Status InOutTypesForNode(const NodeDef& node_def, const OpDef& op_def, DataTypeVector* inputs,
                               DataTypeVector* outputs) {
  RETURN_IF_ERROR(InputTypesForNode(node_def, op_def, inputs));
  return OutputTypesForNode(node_def, op_def, outputs);
}

absl::Status InputTypeForNode(const NodeDef& node_def, const OpDef& op_def, int input_port,
                              DataType* input_type) {
  return ArgTypeAt(node_def, op_def.input_arg(), input_port, "Input", input_type);
}

absl::Status OutputTypeForNode(const NodeDef& node_def, const OpDef& op_def, int output_port,
                               DataType* output_type) {
  return ArgTypeAt(node_def, op_def.output_arg(), output_port, "Output", output_type);
}

absl::Status NumOutputsForNode(const NodeDef& node_def, const OpDef& op_def, int* num_outputs) {
  DataTypeVector outputs;
  RETURN_IF_ERROR(OutputTypesForNode(node_def, op_def, &outputs));
  *num_outputs = static_cast<int>(outputs.size());
  return absl::OkStatus();
}

// ---- Name ranges --------------------------------------------------------------------------

namespace {

// The number of flat ports one arg covers.
absl::Status ArgLength(const AttrSlice& attrs, const OpDef::ArgDef& arg, const OpDef& op_def,
                       int64_t ports_so_far, int64_t* length) {
  if (!arg.number_attr().empty()) {
    return NumberAttrValue(attrs, arg, ports_so_far, length);
  }
  if (!arg.type_list_attr().empty()) {
    const AttrValue* attr_value;
    RETURN_IF_ERROR(AsInvalidArgument(attrs.Find(arg.type_list_attr(), &attr_value)));
    RETURN_IF_ERROR(AttachSliceNode(
        ForAttr(AttrValueHasType(*attr_value, "list(type)"), arg.type_list_attr()), attrs));
    *length = attr_value->list().type_size();
    if (ports_so_far + *length > kMaxPortsPerNode) {
      return TooManyPorts(attrs, arg, ports_so_far + *length, arg.type_list_attr());
    }
    return absl::OkStatus();
  }
  if (!arg.type_attr().empty() || arg.type() != DT_INVALID) {
    *length = 1;
    return absl::OkStatus();
  }
  return errors::InvalidArgument(
      "Argument '", arg.name(),
      "' incorrectly specified in op definition: ", SummarizeOpDef(op_def));
}

absl::Status NameRanges(const AttrSlice& attrs,
                        const google::protobuf::RepeatedPtrField<OpDef::ArgDef>& args,
                        const OpDef& op_def, NameRangeMap* ranges) {
  int64_t start = 0;
  for (const OpDef::ArgDef& arg : args) {
    int64_t length = 0;
    RETURN_IF_ERROR(ArgLength(attrs, arg, op_def, start, &length));
    (*ranges)[arg.name()] = {static_cast<int>(start), static_cast<int>(start + length)};
    start += length;
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status NameRangesForNode(const AttrSlice& attrs, const OpDef& op_def, NameRangeMap* inputs,
                               NameRangeMap* outputs) {
  if (inputs != nullptr) RETURN_IF_ERROR(NameRanges(attrs, op_def.input_arg(), op_def, inputs));
  if (outputs != nullptr) {
    RETURN_IF_ERROR(NameRanges(attrs, op_def.output_arg(), op_def, outputs));
  }
  return absl::OkStatus();
}

// ---- Validation against the OpDef ---------------------------------------------------------

namespace {

// Counts data inputs, checking that control inputs come last and name whole nodes.
absl::Status CountDataInputs(const NodeDef& node_def, int64_t* num_inputs) {
  bool seen_control = false;
  *num_inputs = 0;
  for (const std::string& input : node_def.input()) {
    if (absl::StartsWith(input, "^")) {
      seen_control = true;
      if (absl::StrContains(input, ':')) {
        return errors::InvalidArgument("Control input '", input, "' must not have ':' in NodeDef: ",
                                       FormatNodeDefForError(node_def));
      }
    } else if (seen_control) {
      return errors::InvalidArgument(
          "Non-control input '", input,
          "' after control input in NodeDef: ", FormatNodeDefForError(node_def));
    } else {
      ++*num_inputs;
    }
  }
  return absl::OkStatus();
}

// Checks one attr of `node_def` against its declaration in `op_def`.
absl::Status ValidateAttrEntry(const AttrValueMap::value_type& entry, const NodeDef& node_def,
                               const OpDef& op_def) {
  // Internal attrs ("_class", "_output_shapes", ...) are not part of op signatures.
  if (absl::StartsWith(entry.first, "_")) return absl::OkStatus();
  const OpDef::AttrDef* attr_def = FindAttr(entry.first, op_def);
  if (attr_def == nullptr) {
    return errors::InvalidArgument(
        "NodeDef mentions attr '", entry.first, "' not in ", SummarizeOpDef(op_def),
        "; NodeDef: ", FormatNodeDefForError(node_def),
        ". (Check whether your GraphDef-interpreting binary is up to date with your "
        "GraphDef-generating binary.).");
  }
  // A placeholder stands for a function's attr and is resolved when the function is
  // instantiated, so there is nothing to check yet.
  if (entry.second.value_case() == AttrValue::kPlaceholder) return absl::OkStatus();
  // The message parts are built only on failure: they cost more than the check itself.
  absl::Status status = ValidateAttrValue(entry.second, *attr_def);
  if (!status.ok()) {
    return errors::AppendToMessage(std::move(status),
                                   "\n\t; NodeDef: ", FormatNodeDefForError(node_def), "; ",
                                   SummarizeOpDef(op_def));
  }
  return absl::OkStatus();
}

// Checks every attr of the NodeDef against the OpDef and that none of the OpDef's is missing.
// Attrs are visited in name order so that the first error reported is deterministic.
absl::Status ValidateAttrs(const NodeDef& node_def, const OpDef& op_def) {
  // Ops have a handful of attrs: comparing pairs is cheaper than building a hash set per node.
  const auto& op_attrs = op_def.attr();
  for (int i = 1; i < op_attrs.size(); ++i) {
    for (int j = 0; j < i; ++j) {
      if (op_attrs[i].name() == op_attrs[j].name()) {
        return errors::InvalidArgument("OpDef has duplicate attr name '", op_attrs[i].name(),
                                       "': ", SummarizeOpDef(op_def));
      }
    }
  }
  // Valid NodeDefs are the rule: the attrs are checked in map order first, and sorted (so
  // that the error reported does not depend on the map's order) only once one fails.
  bool all_valid = true;
  for (const auto& entry : node_def.attr()) {
    if (!ValidateAttrEntry(entry, node_def, op_def).ok()) {
      all_valid = false;
      break;
    }
  }
  if (!all_valid) {
    std::vector<const AttrValueMap::value_type*> sorted;
    for (const auto& entry : node_def.attr()) sorted.push_back(&entry);
    std::sort(sorted.begin(), sorted.end(),
              [](const auto* a, const auto* b) { return a->first < b->first; });
    for (const auto* entry : sorted) RETURN_IF_ERROR(ValidateAttrEntry(*entry, node_def, op_def));
  }
  std::vector<std::string> missing;
  for (const OpDef::AttrDef& attr : op_def.attr()) {
    if (node_def.attr().count(attr.name()) == 0) missing.push_back(attr.name());
  }
  if (!missing.empty()) {
    return errors::InvalidArgument(
        "NodeDef missing attr", missing.size() == 1 ? " '" : "s '", absl::StrJoin(missing, "', '"),
        "' from ", SummarizeOpDef(op_def), "; NodeDef: ", FormatNodeDefForError(node_def));
  }
  return absl::OkStatus();
}

// ValidateNodeDef for a NodeDef that has every attr the OpDef gives a default; leaves the
// flat types in *inputs and *outputs (which start empty).
absl::Status ValidateCompleteNodeDef(const NodeDef& node_def, const OpDef& op_def,
                                     DataTypeVector* inputs, DataTypeVector* outputs) {
  int64_t num_inputs = 0;
  RETURN_IF_ERROR(CountDataInputs(node_def, &num_inputs));
  RETURN_IF_ERROR(ValidateAttrs(node_def, op_def));
  RETURN_IF_ERROR(InOutTypesForNode(node_def, op_def, inputs, outputs));
  if (num_inputs != static_cast<int64_t>(inputs->size())) {
    // A type list can hold millions of entries; the message names the first few.
    constexpr size_t kMaxNamed = 16;
    const size_t named = std::min(inputs->size(), kMaxNamed);
    std::string expected =
        absl::StrJoin(inputs->begin(), inputs->begin() + named, ", ",
                      [](std::string* out, DataType t) { out->append(DataTypeString(t)); });
    if (named < inputs->size()) {
      absl::StrAppend(&expected, ", ... (", inputs->size() - named, " more)");
    }
    return errors::InvalidArgument("NodeDef expected inputs '", expected, "' do not match ",
                                   num_inputs, " inputs specified; ", SummarizeOpDef(op_def),
                                   "; NodeDef: ", FormatNodeDefForError(node_def));
  }
  return absl::OkStatus();
}

bool LacksADefault(const NodeDef& node_def, const OpDef& op_def) {
  for (const OpDef::AttrDef& attr : op_def.attr()) {
    if (attr.has_default_value() && node_def.attr().count(attr.name()) == 0) return true;
  }
  return false;
}

}  // namespace

absl::Status ValidateNodeDef(const NodeDef& node_def, const OpDef& op_def) {
  DataTypeVector inputs;
  DataTypeVector outputs;
  return ValidateNodeDef(node_def, op_def, &inputs, &outputs);
}

absl::Status ValidateNodeDef(const NodeDef& node_def, const OpDef& op_def, DataTypeVector* inputs,
                             DataTypeVector* outputs) {
  inputs->clear();
  outputs->clear();
  if (node_def.op() != op_def.name()) {
    return errors::InvalidArgument("NodeDef op '", node_def.op(), "' does not match ",
                                   SummarizeOpDef(op_def),
                                   "; NodeDef: ", FormatNodeDefForError(node_def));
  }
  // TensorFlow validates after its importer has added defaults; doing the same here lets
  // callers validate NodeDefs that leave defaulted attrs out, as exported graphs do.
  if (LacksADefault(node_def, op_def)) {
    NodeDef with_defaults = node_def;
    AddDefaultsToNodeDef(op_def, &with_defaults);
    return ValidateCompleteNodeDef(with_defaults, op_def, inputs, outputs);
  }
  return ValidateCompleteNodeDef(node_def, op_def, inputs, outputs);
}

void AddDefaultsToNodeDef(const OpDef& op_def, NodeDef* node_def) {
  for (const OpDef::AttrDef& attr : op_def.attr()) {
    if (attr.has_default_value() && node_def->attr().count(attr.name()) == 0) {
      (*node_def->mutable_attr())[attr.name()] = attr.default_value();
    }
  }
}

// ---- Syntax of external NodeDefs ----------------------------------------------------------

namespace {

bool IsNameStart(char c) { return absl::ascii_isalnum(static_cast<unsigned char>(c)) || c == '.'; }

bool IsNameChar(char c) { return IsNameStart(c) || c == '_' || c == '-' || c == '/'; }

// "node", "node:0" or "node:k" with k a decimal number without a leading zero.
bool IsValidDataInputName(absl::string_view input) {
  const size_t colon = input.find(':');
  if (colon == absl::string_view::npos) return IsValidNodeName(input);
  absl::string_view index = input.substr(colon + 1);
  if (index.empty() || (index.size() > 1 && index[0] == '0')) return false;
  for (char c : index) {
    if (!absl::ascii_isdigit(static_cast<unsigned char>(c))) return false;
  }
  return IsValidNodeName(input.substr(0, colon));
}

}  // namespace

bool IsValidNodeName(absl::string_view name, bool allow_internal) {
  if (name.empty()) return false;
  bool at_part_start = true;
  bool first_part = true;
  for (char c : name) {
    if (at_part_start) {
      if (!IsNameStart(c) && !(first_part && allow_internal && c == '_')) return false;
      at_part_start = false;
    } else if (c == '>') {
      at_part_start = true;
      first_part = false;
    } else if (!IsNameChar(c)) {
      return false;
    }
  }
  return !at_part_start;
}

absl::Status ValidateExternalNodeDefSyntax(const NodeDef& node_def) {
  if (!IsValidNodeName(node_def.name())) {
    return AttachDef(errors::InvalidArgument("Illegal op name '", node_def.name(), "'"), node_def);
  }
  bool in_control_inputs = false;
  for (const std::string& input : node_def.input()) {
    const bool is_control = absl::StartsWith(input, "^");
    const bool valid = is_control ? IsValidNodeName(absl::string_view(input).substr(1))
                                  : IsValidDataInputName(input);
    if (!valid) {
      return AttachDef(errors::InvalidArgument("Illegal op input name '", input, "'"), node_def);
    }
    if (in_control_inputs && !is_control) {
      return AttachDef(errors::InvalidArgument("All control inputs must follow all data inputs"),
                       node_def);
    }
    in_control_inputs = is_control;
  }
  return absl::OkStatus();
}

// ---- Summaries and error context ----------------------------------------------------------

std::string SummarizeNodeDef(const NodeDef& node_def, int max_inputs_in_summary) {
  std::string summary = absl::StrCat("{{node ", node_def.name(), "}} = ", node_def.op(), "[",
                                     SummarizeAttrs(node_def, node_def.device()), "](");
  for (int i = 0; i < node_def.input_size(); ++i) {
    if (i > 0) absl::StrAppend(&summary, ", ");
    if (max_inputs_in_summary >= 0 && i == max_inputs_in_summary) {
      absl::StrAppend(&summary, "...");
      break;
    }
    absl::StrAppend(&summary, node_def.input(i));
  }
  absl::StrAppend(&summary, ")");
  return summary;
}

std::string FormatNodeDefForError(const NodeDef& node_def) {
  const auto& original_names = node_def.experimental_debug_info().original_node_names();
  if (original_names.empty()) return absl::StrCat("{{node ", node_def.name(), "}}");
  return absl::StrJoin(original_names, ", ", [](std::string* out, const std::string& name) {
    absl::StrAppend(out, "{{node ", name, "}}");
  });
}

absl::Status AttachDef(const absl::Status& status, const NodeDef& node_def) {
  if (status.ok()) return status;
  // A message that already names a node keeps that one as the node error reporters rewrite;
  // the outer node is added by plain name.
  const std::string node = absl::StrContains(status.message(), "{{node ")
                               ? node_def.name()
                               : FormatNodeDefForError(node_def);
  return errors::AppendToMessage(status, "\n\t [[", node, "]]");
}

}  // namespace sluice
