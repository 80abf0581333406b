// AdjustHue where TensorFlow gives no answer (the fixture leaves it out): a delta so large
// that TensorFlow's loop bringing the hue back into [0, 6) never ends still finishes here,
// with every channel one of the pixel's min, max or a value between them.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "graph/core/tensor.h"
#include "graph/core/types.h"
#include "gtest/gtest.h"
#include "kernels/kernel_test_util.h"

namespace sluice {
namespace test {
namespace {

class AdjustHueTest : public KernelTest {};

TEST_F(AdjustHueTest, HugeDeltaFinishes) {
  const std::vector<float> pixels = {0.9f, 0.2f, 0.4f, 0.1f, 0.6f, 0.3f};
  for (float delta : {1e10f, -3e9f, 1e30f}) {
    ASSERT_TRUE(InitOp(NodeDefBuilder("h", "AdjustHue")
                           .Input("images")
                           .Input("delta")
                           .Attr("T", DT_FLOAT)
                           .Build())
                    .ok());
    AddInputFromArray<float>(TensorShape({1, 2, 3}), pixels);
    AddInputFromArray<float>(TensorShape({}), {delta});
    ASSERT_TRUE(RunOpKernel().ok());
    const std::vector<float> out = Values<float>(*GetOutput(0));
    for (int p = 0; p < 2; ++p) {
      const float lo = *std::min_element(pixels.begin() + 3 * p, pixels.begin() + 3 * p + 3);
      const float hi = *std::max_element(pixels.begin() + 3 * p, pixels.begin() + 3 * p + 3);
      for (int c = 0; c < 3; ++c) {
        EXPECT_GE(out[3 * p + c], lo) << delta;
        EXPECT_LE(out[3 * p + c], hi) << delta;
      }
    }
  }
}

}  // namespace
}  // namespace test
}  // namespace sluice
