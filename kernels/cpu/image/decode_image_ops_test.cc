// What the recorded cases cannot show: the formats TensorFlow decodes and Sluice does not, and
// inputs the fuzzer found (fuzz/regressions/image_decoders_fuzzer/), with TensorFlow 2.21's
// results.
#include <string>

#include "absl/status/status.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_types.h"
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

TEST_F(DecodeImageOpsTest, ExtractJpegShapeOfAHeaderCutShort) {
  // A JFIF header cut short inside its quantization table (the fuzzer's first find): libjpeg
  // stops inside the header, and TensorFlow's ExtractJpegShape, which then starts
  // decompressing, fails where Sluice used to read a shape of zeros.
  static constexpr char kJpeg[] =
      "\xff\xd8\xff\xe0\x00\x10JFIF\x00\x01\x01\x01\x01\x2c\x01\x2c\x00\x00\xff\xdb\x00"
      "\x42\x00\x10\x0b\x0c\x3b\x00\x00\x00\x00\x00\x00\x00\x0e\x22\x3d\xcf\x63\x59\xd4"
      "\x7e\x1e\x08\xfb\x00\x01\xd1\x00";
  const std::string jpeg(kJpeg, sizeof(kJpeg) - 1);
  ASSERT_EQ(jpeg.size(), 51u);
  const absl::Status status = Decode("ExtractJpegShape", jpeg);
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(status.message(), "Invalid JPEG data, size 51");
}

TEST_F(DecodeImageOpsTest, ExtractJpegShapeReadsTheHeaderOnly) {
  // TensorFlow 2.21's 9x11 grayscale JPEG with its quantization table taken out: the header
  // gives a shape, which TensorFlow's ExtractJpegShape returns; decoding it fails.
  static constexpr char kJpeg[] =
      "\xff\xd8\xff\xe0\x00\x10\x4a\x46\x49\x46\x00\x01\x01\x01\x01\x2c"
      "\x01\x2c\x00\x00\xff\xc0\x00\x0b\x08\x00\x09\x00\x0b\x01\x01\x11"
      "\x00\xff\xc4\x00\x15\x00\x01\x01\x00\x00\x00\x00\x00\x00\x00\x00"
      "\x00\x00\x00\x00\x00\x00\x00\x05\xff\xc4\x00\x14\x10\x01\x00\x00"
      "\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\xff\xda"
      "\x00\x08\x01\x01\x00\x00\x3f\x00\x8a\x03\xff\xd9";
  const std::string jpeg(kJpeg, sizeof(kJpeg) - 1);
  ASSERT_EQ(jpeg.size(), 92u);
  ASSERT_TRUE(InitOp(NodeDefBuilder("d", "ExtractJpegShape").Input("contents").Build()).ok());
  Tensor contents(DT_STRING, TensorShape({}));
  contents.scalar<std::string>()() = jpeg;
  AddInput(contents);
  ASSERT_TRUE(RunOpKernel().ok());
  const Tensor& shape = *GetOutput(0);
  ASSERT_EQ(shape.NumElements(), 3);
  EXPECT_EQ(shape.flat<int32_t>()(0), 9);
  EXPECT_EQ(shape.flat<int32_t>()(1), 11);
  EXPECT_EQ(shape.flat<int32_t>()(2), 1);
  const absl::Status decoded = Decode("DecodeJpeg", jpeg);
  EXPECT_EQ(decoded.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(decoded.message(), "jpeg::Uncompress failed. Invalid JPEG data or crop window.");
}

TEST_F(DecodeImageOpsTest, DecodeJpegRecoveryEnds) {
  // A JFIF header, then fill bytes to the end (the fuzzer's second find). Without recovery
  // libjpeg suspends inside the markers and TensorFlow 2.21 fails; with try_recover_truncated
  // TensorFlow hands libjpeg the same fill bytes again forever and never returns. Sluice stops
  // recovering after a bound and fails as without recovery.
  const std::string jpeg = std::string("\xff\xd8\xff\xe0\x00\x10\x4a", 7) + std::string(24, '\xff');
  for (bool recover : {false, true}) {
    SCOPED_TRACE(recover);
    ASSERT_TRUE(InitOp(NodeDefBuilder("d", "DecodeJpeg")
                           .Input("contents")
                           .Attr("channels", int64_t{3})
                           .Attr("try_recover_truncated", recover)
                           .Build())
                    .ok());
    Tensor contents(DT_STRING, TensorShape({}));
    contents.scalar<std::string>()() = jpeg;
    AddInput(contents);
    const absl::Status status = RunOpKernel();
    EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
    EXPECT_EQ(status.message(), "jpeg::Uncompress failed. Invalid JPEG data or crop window.");
  }
}

}  // namespace
}  // namespace test
}  // namespace sluice
