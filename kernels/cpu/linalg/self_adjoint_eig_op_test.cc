// SelfAdjointEigV2 beyond the fixtures (tests/kernels/fixtures/linalg_ops.pbtxt): without
// compute_v, whose unused output TensorFlow leaves unwritten, v is a scalar 0 and e holds
// the eigenvalues compute_v gives.
#include <cmath>
#include <cstdint>
#include <vector>

#include "graph/core/tensor.h"
#include "graph/core/types.h"
#include "gtest/gtest.h"
#include "kernels/kernel_test_util.h"

namespace sluice {
namespace test {
namespace {

class SelfAdjointEigOpTest : public KernelTest {
 protected:
  // The outputs of one run on `input` ([2, 3, 3]).
  void Run(bool compute_v, const std::vector<double>& input, std::vector<double>* e, Tensor* v) {
    ASSERT_TRUE(InitOp(NodeDefBuilder("n", "SelfAdjointEigV2")
                           .Input("input")
                           .Attr("T", DT_DOUBLE)
                           .Attr("compute_v", compute_v)
                           .Build())
                    .ok());
    AddInputFromArray<double>(TensorShape({2, 3, 3}), input);
    ASSERT_TRUE(RunOpKernel().ok());
    *e = Values<double>(*GetOutput(0));
    *v = *GetOutput(1);
  }
};

TEST_F(SelfAdjointEigOpTest, WithoutVectorsVIsAScalarZero) {
  const std::vector<double> input = {2,  1,   0, 1,   3, 1,    0, 1,    4,
                                     -1, 0.5, 0, 0.5, 1, 0.25, 0, 0.25, 2};
  std::vector<double> values, with_vectors;
  Tensor v, unused;
  Run(false, input, &values, &v);
  EXPECT_EQ(v.shape().DebugString(), "[]");
  EXPECT_EQ(v.flat<double>()(0), 0.0);
  Run(true, input, &with_vectors, &unused);
  ASSERT_EQ(values.size(), with_vectors.size());
  for (size_t i = 0; i < values.size(); ++i) {
    EXPECT_NEAR(values[i], with_vectors[i], 1e-13) << i;
  }
}

}  // namespace
}  // namespace test
}  // namespace sluice
