// Test helpers for shape functions (see shape_inference_testutil.h).
#include "graph/shape/shape_inference_testutil.h"

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "glog/logging.h"
#include "google/protobuf/text_format.h"
#include "graph/core/errors.h"
#include "graph/core/tensor.h"
#include "graph/op/node_def_util.h"
#include "graph/op/op_registry.h"

namespace sluice {
namespace shape_inference {

absl::StatusOr<PartialTensorShape> ParseShapeForTest(absl::string_view text) {
  text = absl::StripAsciiWhitespace(text);
  if (text == "?") return PartialTensorShape();
  if (text.size() < 2 || text.front() != '[' || text.back() != ']') {
    return errors::InvalidArgument("Shape must be '?' or '[d0,d1,...]', got '", text, "'");
  }
  const absl::string_view body = absl::StripAsciiWhitespace(text.substr(1, text.size() - 2));
  std::vector<int64_t> dims;
  if (!body.empty()) {
    for (absl::string_view dim : absl::StrSplit(body, ',')) {
      dim = absl::StripAsciiWhitespace(dim);
      int64_t size;
      if (dim == "?") {
        size = -1;
      } else if (!absl::SimpleAtoi(dim, &size) || size < 0) {
        return errors::InvalidArgument("Bad dimension '", dim, "' in shape '", text, "'");
      }
      dims.push_back(size);
    }
  }
  PartialTensorShape shape;
  RETURN_IF_ERROR(PartialTensorShape::BuildPartialTensorShape(dims, &shape));
  return shape;
}

absl::StatusOr<std::vector<PartialTensorShape>> ParseShapesForTest(absl::string_view text) {
  std::vector<PartialTensorShape> shapes;
  if (absl::StripAsciiWhitespace(text).empty()) return shapes;
  for (absl::string_view part : absl::StrSplit(text, ';')) {
    ASSIGN_OR_RETURN(PartialTensorShape shape, ParseShapeForTest(part));
    shapes.push_back(shape);
  }
  return shapes;
}

std::string ShapeStringForTest(const PartialTensorShape& shape) {
  if (shape.unknown_rank()) return "?";
  std::vector<std::string> dims;
  for (int64_t size : shape.dim_sizes()) dims.push_back(size < 0 ? "?" : absl::StrCat(size));
  return absl::StrCat("[", absl::StrJoin(dims, ","), "]");
}

absl::StatusOr<std::string> InferShapesForTest(const NodeDef& node_def,
                                               absl::string_view input_shapes,
                                               const std::vector<const Tensor*>& input_tensors) {
  const OpRegistrationData* reg;
  RETURN_IF_ERROR(OpRegistry::Global()->LookUp(node_def.op(), &reg));
  NodeDef node = node_def;
  AddDefaultsToNodeDef(reg->op_def, &node);
  ASSIGN_OR_RETURN(std::vector<PartialTensorShape> shapes, ParseShapesForTest(input_shapes));
  InferenceContext c(&node, reg->op_def, shapes, input_tensors);
  RETURN_IF_ERROR(c.construction_status());
  RETURN_IF_ERROR(c.Run(reg->shape_inference_fn));
  std::vector<std::string> outputs;
  for (int i = 0; i < c.num_outputs(); ++i) outputs.push_back(c.DebugString(c.output(i)));
  return absl::StrJoin(outputs, ";");
}

NodeDef NodeDefFromTextForTest(absl::string_view text_proto) {
  NodeDef node;
  CHECK(google::protobuf::TextFormat::ParseFromString(std::string(text_proto), &node))
      << "Bad NodeDef text: " << text_proto;
  if (node.name().empty()) node.set_name("n");
  const OpRegistrationData* reg;
  if (node.input_size() > 0 || !OpRegistry::Global()->LookUp(node.op(), &reg).ok()) return node;
  NodeDef with_defaults = node;
  AddDefaultsToNodeDef(reg->op_def, &with_defaults);
  NameRangeMap inputs;
  if (!NameRangesForNode(AttrSlice(with_defaults), reg->op_def, &inputs, nullptr).ok()) {
    return node;
  }
  int num_inputs = 0;
  for (const auto& entry : inputs) num_inputs = std::max(num_inputs, entry.second.second);
  for (int i = 0; i < num_inputs; ++i) node.add_input(absl::StrCat("in", i));
  return node;
}

}  // namespace shape_inference
}  // namespace sluice
