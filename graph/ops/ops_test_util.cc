#include "graph/ops/ops_test_util.h"

#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "graph/core/tensor_types.h"
#include "graph/op/attr_value_util.h"
#include "graph/op/op_def_util.h"
#include "graph/op/op_registry.h"
#include "graph/shape/shape_inference_testutil.h"
#include "gtest/gtest.h"

namespace sluice {
namespace ops_test {
namespace {

// Splits "a=1, b=[1, 2], c='x'" at the commas outside brackets and quotes.
std::vector<std::string> SplitAttrs(absl::string_view attrs) {
  std::vector<std::string> parts;
  std::string current;
  int depth = 0;
  char quote = 0;
  for (char ch : attrs) {
    if (quote != 0) {
      if (ch == quote) quote = 0;
    } else if (ch == '\'' || ch == '"') {
      quote = ch;
    } else if (ch == '[' || ch == '{') {
      ++depth;
    } else if (ch == ']' || ch == '}') {
      --depth;
    } else if (ch == ',' && depth == 0) {
      parts.push_back(current);
      current.clear();
      continue;
    }
    current.push_back(ch);
  }
  if (!absl::StripAsciiWhitespace(current).empty()) parts.push_back(current);
  return parts;
}

}  // namespace

NodeDef OpNode(absl::string_view op, absl::string_view attrs) {
  NodeDef node;
  node.set_name("n");
  node.set_op(std::string(op));
  const OpDef* op_def = nullptr;
  absl::Status s = OpRegistry::Global()->LookUpOpDef(std::string(op), &op_def);
  if (!s.ok()) {
    ADD_FAILURE() << s;
    return node;
  }
  for (const std::string& part : SplitAttrs(attrs)) {
    std::pair<std::string, std::string> kv = absl::StrSplit(part, absl::MaxSplits('=', 1));
    const std::string name(absl::StripAsciiWhitespace(kv.first));
    const absl::string_view value = absl::StripAsciiWhitespace(kv.second);
    const OpDef::AttrDef* attr = FindAttr(name, *op_def);
    if (attr == nullptr) {
      ADD_FAILURE() << op << " has no attr " << name;
      continue;
    }
    AttrValue attr_value;
    if (attr->type() == "shape") {
      absl::StatusOr<PartialTensorShape> shape = shape_inference::ParseShapeForTest(value);
      if (!shape.ok()) {
        ADD_FAILURE() << "bad shape for " << name << ": " << shape.status();
        continue;
      }
      SetAttrValue(*shape, &attr_value);
    } else if (attr->type() == "list(shape)") {
      // "[[2], [?,3], ?]": each element in the shape notation.
      std::vector<PartialTensorShape> shapes;
      absl::string_view inner = value;
      if (!absl::ConsumePrefix(&inner, "[") || !absl::ConsumeSuffix(&inner, "]")) {
        ADD_FAILURE() << "bad value for " << name << " (list(shape)): " << value;
        continue;
      }
      for (const std::string& element : SplitAttrs(inner)) {
        absl::StatusOr<PartialTensorShape> shape =
            shape_inference::ParseShapeForTest(absl::StripAsciiWhitespace(element));
        if (!shape.ok()) {
          ADD_FAILURE() << "bad shape for " << name << ": " << shape.status();
          continue;
        }
        shapes.push_back(*shape);
      }
      SetAttrValue(absl::Span<const PartialTensorShape>(shapes), &attr_value);
    } else if (!ParseAttrValue(attr->type(), value, &attr_value)) {
      ADD_FAILURE() << "bad value for " << name << " (" << attr->type() << "): " << value;
      continue;
    }
    (*node.mutable_attr())[name] = attr_value;
  }
  return node;
}

std::string Infer(absl::string_view op, absl::string_view attrs, absl::string_view shapes,
                  const std::map<int, Tensor>& tensors) {
  std::vector<const Tensor*> inputs;
  for (const auto& [index, tensor] : tensors) {
    if (inputs.size() <= static_cast<size_t>(index)) inputs.resize(index + 1, nullptr);
    inputs[index] = &tensor;
  }
  absl::StatusOr<std::string> result =
      shape_inference::InferShapesForTest(OpNode(op, attrs), shapes, inputs);
  return result.ok() ? *result : result.status().ToString();
}

Tensor IntMatrix(std::initializer_list<std::initializer_list<int32_t>> rows) {
  const int64_t cols = rows.size() == 0 ? 0 : rows.begin()->size();
  Tensor t(DT_INT32, TensorShape({static_cast<int64_t>(rows.size()), cols}));
  int64_t i = 0;
  for (const auto& row : rows) {
    for (int32_t v : row) t.flat<int32_t>()(i++) = v;
  }
  return t;
}

}  // namespace ops_test
}  // namespace sluice
