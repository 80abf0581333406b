// Test helpers for shape functions: run a registered op's shape function on shapes written
// as text and get the output shapes back as text.
//
// Shape notation: "?" is a shape of unknown rank; "[2,?,3]" lists dims, "?" for unknown
// ones; "[]" is a scalar. Several shapes are joined by ';': "[2,3];?;[]".
//
//   NodeDef def = NodeDefFromTextForTest("op: 'MatMul' attr { key: 'T' value { type: DT_FLOAT }
//   }"); EXPECT_EQ(*InferShapesForTest(def, "[2,3];[3,4]"), "[2,4]");
//
// Test-only (testonly = 1); failures come back as Status, never as crashes.
#ifndef SLUICE_GRAPH_SHAPE_SHAPE_INFERENCE_TESTUTIL_H_
#define SLUICE_GRAPH_SHAPE_SHAPE_INFERENCE_TESTUTIL_H_

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "graph/core/partial_tensor_shape.h"
#include "graph/shape/shape_inference.h"
#include "proto/node_def.pb.h"

namespace sluice {

class Tensor;

namespace shape_inference {

// Looks up node_def.op() in OpRegistry::Global(), adds default attrs, builds an
// InferenceContext with `input_shapes` (the notation above; "" for no inputs) and
// `input_tensors` (may be shorter than the inputs; nullptr = value unknown) and runs the
// op's shape function. Returns the output shapes joined by ';'. Errors of the shape
// function come back as-is (with the node context Run attaches); bad notation, an unknown
// op or a construction failure are INVALID_ARGUMENT / NOT_FOUND.
absl::StatusOr<std::string> InferShapesForTest(
    const NodeDef& node_def, absl::string_view input_shapes,
    const std::vector<const Tensor*>& input_tensors = {});

// Parses one shape in the notation above ("?", "[2,?]", "[]").
absl::StatusOr<PartialTensorShape> ParseShapeForTest(absl::string_view text);
// Parses ';'-separated shapes; "" is no shapes.
absl::StatusOr<std::vector<PartialTensorShape>> ParseShapesForTest(absl::string_view text);
// Formats a shape in the notation above.
std::string ShapeStringForTest(const PartialTensorShape& shape);

// Parses a NodeDef from text proto. A missing name becomes "n"; when the text has no inputs
// and the op is registered, inputs "in0", "in1", ... are filled in as the op (with default
// attrs) needs. Parse errors abort the test binary (this is test-only code with literal input).
NodeDef NodeDefFromTextForTest(absl::string_view text_proto);

}  // namespace shape_inference
}  // namespace sluice

#endif  // SLUICE_GRAPH_SHAPE_SHAPE_INFERENCE_TESTUTIL_H_
