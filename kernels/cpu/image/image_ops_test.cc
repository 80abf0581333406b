// Unit tests for what the TensorFlow fixtures (tests/kernels/fixtures/image.pbtxt) cannot
// show cheaply: large shapes that take the parallel paths, checked against values known in
// closed form, and the quantized dtype SpaceToDepth registers.
#include <cstdint>
#include <string>
#include <vector>

#include "graph/core/allocator.h"
#include "gtest/gtest.h"
#include "kernels/kernel_test_util.h"

namespace sluice {
namespace test {
namespace {

class ImageOpsTest : public KernelTest {
 protected:
  void Init(const NodeDef& node) {
    absl::Status s = InitOp(node);
    ASSERT_TRUE(s.ok()) << s;
  }
};

// With align_corners and out = 2 * in - 1 every source coordinate is a multiple of 0.5, so
// resizing the ramp x + 100 y gives 0.5 x + 50 y exactly.
TEST_F(ImageOpsTest, LargeBilinearOfARampIsExact) {
  Init(NodeDefBuilder("r", "ResizeBilinear")
           .Input("x")
           .Input("s")
           .Attr("T", DT_INT32)
           .Attr("align_corners", true)
           .Build());
  const int64_t h = 100, w = 150;
  std::vector<int32_t> x(h * w);
  for (int64_t y = 0; y < h; ++y) {
    for (int64_t c = 0; c < w; ++c) x[y * w + c] = static_cast<int32_t>(c + 100 * y);
  }
  AddInputFromArray<int32_t>(TensorShape({1, h, w, 1}), x);
  AddInputFromArray<int32_t>(TensorShape({2}), {2 * h - 1, 2 * w - 1});
  ASSERT_TRUE(RunOpKernel().ok());
  const Tensor& out = *GetOutput(0);
  ASSERT_EQ(out.shape(), TensorShape({1, 2 * h - 1, 2 * w - 1, 1}));
  const float* v = out.base<float>();
  for (int64_t y = 0; y < 2 * h - 1; ++y) {
    for (int64_t c = 0; c < 2 * w - 1; ++c) {
      ASSERT_EQ(v[y * (2 * w - 1) + c], 0.5f * c + 50.0f * y) << y << "," << c;
    }
  }
}

// Nearest-neighbour upscaling by an integer factor repeats each pixel factor x factor times.
TEST_F(ImageOpsTest, LargeNearestIntegerUpscale) {
  Init(NodeDefBuilder("r", "ResizeNearestNeighbor")
           .Input("x")
           .Input("s")
           .Attr("T", DT_FLOAT)
           .Build());
  const int64_t h = 60, w = 70, ch = 2, f = 3;
  std::vector<float> x(h * w * ch);
  for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>(i);
  AddInputFromArray<float>(TensorShape({1, h, w, ch}), x);
  AddInputFromArray<int32_t>(TensorShape({2}),
                             {static_cast<int32_t>(h * f), static_cast<int32_t>(w * f)});
  ASSERT_TRUE(RunOpKernel().ok());
  const float* v = GetOutput(0)->base<float>();
  for (int64_t y = 0; y < h * f; ++y) {
    for (int64_t c = 0; c < w * f; ++c) {
      for (int64_t k = 0; k < ch; ++k) {
        ASSERT_EQ(v[(y * w * f + c) * ch + k], x[((y / f) * w + c / f) * ch + k]);
      }
    }
  }
}

TEST_F(ImageOpsTest, LargeSpaceToDepthThenDepthToSpaceRoundTrips) {
  const int64_t n = 2, h = 64, w = 48, d = 6;
  std::vector<float> x(n * h * w * d);
  for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>(i);
  Init(NodeDefBuilder("s", "SpaceToDepth")
           .Input("x")
           .Attr("T", DT_FLOAT)
           .Attr("block_size", 4)
           .Build());
  AddInputFromArray<float>(TensorShape({n, h, w, d}), x);
  ASSERT_TRUE(RunOpKernel().ok());
  const Tensor depth = *GetOutput(0);
  ASSERT_EQ(depth.shape(), TensorShape({n, h / 4, w / 4, d * 16}));
  // Element (b, y, x, c) of the input lands at depth index ((y % 4) * 4 + x % 4) * d + c.
  const float* v = depth.base<float>();
  EXPECT_EQ(v[((1 * (h / 4) + 2) * (w / 4) + 3) * d * 16 + (1 * 4 + 2) * d + 5],
            x[((1 * h + 2 * 4 + 1) * w + 3 * 4 + 2) * d + 5]);
  Init(NodeDefBuilder("d", "DepthToSpace")
           .Input("x")
           .Attr("T", DT_FLOAT)
           .Attr("block_size", 4)
           .Build());
  AddInput(depth);
  ASSERT_TRUE(RunOpKernel().ok());
  EXPECT_EQ(GetOutput(0)->shape(), TensorShape({n, h, w, d}));
  EXPECT_EQ(Values<float>(*GetOutput(0)), x);
}

TEST_F(ImageOpsTest, SpaceToDepthQint8) {
  Init(NodeDefBuilder("s", "SpaceToDepth")
           .Input("x")
           .Attr("T", DT_QINT8)
           .Attr("block_size", 2)
           .Build());
  AddInputFromArray<qint8>(TensorShape({1, 2, 2, 1}), {1, -2, 3, -4});
  ASSERT_TRUE(RunOpKernel().ok());
  const Tensor& out = *GetOutput(0);
  ASSERT_EQ(out.dtype(), DT_QINT8);
  ASSERT_EQ(out.shape(), TensorShape({1, 1, 1, 4}));
  const qint8* v = out.base<qint8>();
  EXPECT_EQ(v[0].value, 1);
  EXPECT_EQ(v[1].value, -2);
  EXPECT_EQ(v[2].value, 3);
  EXPECT_EQ(v[3].value, -4);
}

// Issue 25: the interpolation weights come from the device's allocator, so weights too
// large for it are RESOURCE_EXHAUSTED (which the executor attributes to the node), not a
// heap allocation outside the memory limit. A 1x1 image widened to 100000 columns has a
// 400 KB output but 2.4 MB of column weights.
TEST_F(ImageOpsTest, BilinearWeightsComeFromTheAllocator) {
  const auto small = CpuAllocator::WithBytesLimit(1 << 20);
  UseAllocator(small.get());
  const NodeDef node =
      NodeDefBuilder("r", "ResizeBilinear").Input("x").Input("s").Attr("T", DT_FLOAT).Build();
  Init(node);
  AddInputFromArray<float>(TensorShape({1, 1, 1, 1}), {3});
  AddInputFromArray<int32_t>(TensorShape({2}), {1, 100});
  absl::Status s = RunOpKernel();
  ASSERT_TRUE(s.ok()) << s;
  EXPECT_EQ(Values<float>(*GetOutput(0)), std::vector<float>(100, 3.0f));

  Init(node);
  AddInputFromArray<float>(TensorShape({1, 1, 1, 1}), {3});
  AddInputFromArray<int32_t>(TensorShape({2}), {1, 100000});
  s = RunOpKernel();
  EXPECT_EQ(s.code(), absl::StatusCode::kResourceExhausted) << s;
  EXPECT_NE(s.message().find("OOM when allocating"), std::string::npos) << s;
  // The run's output came from `small`: release it while `small` lives.
  UseAllocator(DefaultCpuAllocator());
}

}  // namespace
}  // namespace test
}  // namespace sluice
