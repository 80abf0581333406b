// What the recorded cases cannot show: the formats TensorFlow decodes and Sluice does not.
#include <string>

#include "absl/status/status.h"
#include "graph/core/tensor.h"
#include "graph/core/types.h"
#include "gtest/gtest.h"
#include "kernels/kernel_test_util.h"

namespace sluice {
namespace test {
namespace {

class DecodeImageOpsTest : public KernelTest {
 protected:
  absl::Status Decode(const std::string& op, const std::string& data) {
    EXPECT_TRUE(InitOp(NodeDefBuilder("d", op).Input("contents").Build()).ok());
    Tensor contents(DT_STRING, TensorShape({}));
    contents.scalar<std::string>()() = data;
    AddInput(contents);
    return RunOpKernel();
  }
};

TEST_F(DecodeImageOpsTest, WebPIsUnimplemented) {
  // Built piecewise: the RIFF size field holds NUL bytes.
  const std::string webp =
      "RIFF" + std::string("\x10\0\0\0", 4) + "WEBPVP8 " + std::string(8, '\0');
  EXPECT_EQ(Decode("DecodePng", webp).code(), absl::StatusCode::kUnimplemented);
  EXPECT_EQ(Decode("DecodeImage", webp).code(), absl::StatusCode::kUnimplemented);
}

}  // namespace
}  // namespace test
}  // namespace sluice
