// What the fixtures of tests/gradients cannot show: the gradient functions' errors (with
// TensorFlow's codes and messages), the checks they put in the gradient graph, and the inputs
// they give no gradient.
#include "cc_api/gradients.h"

#include <cmath>
#include <limits>
#include <vector>

#include "absl/strings/match.h"
#include "cc_api/client_session.h"
#include "cc_api/const_op.h"
#include "cc_api/scope.h"
#include "cc_api/standard_ops.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_types.h"
#include "gtest/gtest.h"

namespace sluice {
namespace {

TEST(GradientsTest, GatherV2WithNegativeBatchDimsIsInvalidArgument) {
  Scope root = Scope::NewRootScope();
  auto params = ops::Const(root, {{1.f, 2.f, 3.f}, {4.f, 5.f, 6.f}});
  auto indices = ops::Const(root, {{0, 2}, {1, 1}});
  auto y = ops::GatherV2(root, params, indices, 1, ops::GatherV2::BatchDims(-1));
  ASSERT_TRUE(root.ok()) << root.status();
  std::vector<Output> grads;
  const absl::Status s = AddSymbolicGradients(root, {y}, {params}, &grads);
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(s.message(), "C++ GatherV2 gradient does not support negative batch_dims.");
}

TEST(GradientsTest, CheckNumericsChecksTheGradientToo) {
  Scope root = Scope::NewRootScope();
  auto x = ops::Const(root, {1.f, 2.f});
  auto y = ops::CheckNumerics(root, x, "forward");
  auto seed = ops::Const(root, {1.f, std::numeric_limits<float>::quiet_NaN()});
  std::vector<Output> grads;
  ASSERT_TRUE(AddSymbolicGradients(root, {y}, {x}, {seed}, &grads).ok());
  ClientSession session(root);
  std::vector<Tensor> out;
  const absl::Status s = session.Run({grads[0]}, &out);
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_TRUE(absl::StrContains(
      s.message(),
      "Not a number (NaN) or infinity (Inf) values detected in gradient. forward : Tensor had "
      "NaN values"))
      << s;
}

TEST(GradientsTest, ApproximateEqualPassesNoGradient) {
  Scope root = Scope::NewRootScope();
  auto x = ops::Const(root, {1.f, 2.f});
  auto y = ops::Cast(root, ops::ApproximateEqual(root, x, ops::Const(root, {1.f, 3.f})), DT_FLOAT);
  std::vector<Output> grads;
  ASSERT_TRUE(AddSymbolicGradients(root, {y}, {x}, &grads).ok());
  ASSERT_EQ(grads.size(), 1u);
  EXPECT_EQ(grads[0].node(), nullptr);
}

// The ids and the other integer inputs of the new gradients get none; the data gets its own.
TEST(GradientsTest, SegmentIdsAndStitchIndicesGetNoGradient) {
  Scope root = Scope::NewRootScope();
  auto data = ops::Const(root, {1.f, 2.f, 3.f});
  auto ids = ops::Const(root, {0, 0, 1});
  auto y = ops::UnsortedSegmentMax(root, data, ids, 2);
  auto stitched = ops::DynamicStitch(root, {ops::Const(root, {1, 0})}, {y});
  std::vector<Output> grads;
  ASSERT_TRUE(AddSymbolicGradients(root, {stitched}, {data, ids}, &grads).ok());
  ASSERT_EQ(grads.size(), 2u);
  EXPECT_NE(grads[0].node(), nullptr);
  EXPECT_EQ(grads[1].node(), nullptr);
}

// Prod's gradient is exact where the group holds a zero: the product of the other elements,
// with no division by the zero.
TEST(GradientsTest, ProdOfAGroupWithAZero) {
  Scope root = Scope::NewRootScope();
  auto x = ops::Const(root, {{2.f, 0.f, 3.f}, {0.f, 0.f, 5.f}});
  auto y = ops::Prod(root, x, 1);
  std::vector<Output> grads;
  ASSERT_TRUE(AddSymbolicGradients(root, {y}, {x}, &grads).ok());
  ClientSession session(root);
  std::vector<Tensor> out;
  ASSERT_TRUE(session.Run({grads[0]}, &out).ok());
  const auto g = out[0].flat<float>();
  const std::vector<float> want = {0.f, 6.f, 0.f, 0.f, 0.f, 0.f};
  for (int i = 0; i < 6; ++i) EXPECT_EQ(g(i), want[i]) << i;
}

}  // namespace
}  // namespace sluice
