// Test helpers for the shape functions of graph/ops: run a registered op's shape function
// from one line of text.
//
//   EXPECT_EQ(Infer("Reshape", "T=DT_FLOAT", "[2,3];[2]", {{1, Ints({3, -1})}}), "[3,2]");
//   EXPECT_THAT(Infer("Reshape", "T=DT_FLOAT", "[2,3];[2]", {{1, Ints({4, 2})}}),
//               IsInvalidArgument("Cannot reshape"));
//
// Attrs are "name=value" pairs separated by ", ", values in the proto-text syntax of
// AttrValue fields (DT_FLOAT, 3, 0.5, true, 'SAME', [1, 2]) except shapes, which use the
// shape notation of shape_inference_testutil.h ("[2,?]", "?"). Unlisted attrs take their
// defaults. Input shapes use that notation too; `tensors` maps input indices to known
// values. The result is the output shapes joined by ';', or the error as
// "INVALID_ARGUMENT: message".
//
// tests/op_defs/check_shape_tests_with_tf.py re-runs every EXPECT_EQ/EXPECT_THAT(Infer(...))
// in TensorFlow and compares, so keep checks in this form, with literal (or constexpr char)
// op names, attrs and shapes.
#ifndef SLUICE_GRAPH_OPS_OPS_TEST_UTIL_H_
#define SLUICE_GRAPH_OPS_OPS_TEST_UTIL_H_

#include <cstdint>
#include <initializer_list>
#include <map>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/string_view.h"
#include "gmock/gmock.h"
#include "graph/core/tensor.h"
#include "proto/node_def.pb.h"

namespace sluice {
namespace ops_test {

// A NodeDef for `op` with `attrs` (see above). Fails the current test on bad attrs.
NodeDef OpNode(absl::string_view op, absl::string_view attrs);

std::string Infer(absl::string_view op, absl::string_view attrs, absl::string_view shapes,
                  const std::map<int, Tensor>& tensors = {});

// Small constant tensors.
template <typename T>
Tensor Scalar(T value) {
  Tensor t(DataTypeToEnum<T>::value, TensorShape({}));
  *t.base<T>() = value;
  return t;
}
template <typename T>
Tensor Vector(std::initializer_list<T> values) {
  Tensor t(DataTypeToEnum<T>::value, TensorShape({static_cast<int64_t>(values.size())}));
  int64_t i = 0;
  for (T v : values) t.base<T>()[i++] = v;
  return t;
}
inline Tensor Int(int32_t v) { return Scalar<int32_t>(v); }
inline Tensor Int64(int64_t v) { return Scalar<int64_t>(v); }
inline Tensor Ints(std::initializer_list<int32_t> v) { return Vector<int32_t>(v); }
inline Tensor Int64s(std::initializer_list<int64_t> v) { return Vector<int64_t>(v); }
// An int32 matrix given by rows (all of the same length).
Tensor IntMatrix(std::initializer_list<std::initializer_list<int32_t>> rows);

// Matches an Infer() result that is INVALID_ARGUMENT with `substring` in its message.
MATCHER_P(IsInvalidArgument, substring, "") {
  return absl::StartsWith(arg, "INVALID_ARGUMENT: ") && arg.find(substring) != std::string::npos;
}

}  // namespace ops_test
}  // namespace sluice

#endif  // SLUICE_GRAPH_OPS_OPS_TEST_UTIL_H_
