// What the TensorFlow fixture (tests/kernels/fixtures/summary.pbtxt) cannot show: inputs on
// which TensorFlow's own kernel misbehaves, and the deprecated AudioSummary, which TensorFlow
// no longer builds.
#include <cfloat>
#include <string>
#include <vector>

#include "graph/core/tensor.h"
#include "graph/core/tensor_shape.h"
#include "graph/core/tensor_types.h"
#include "graph/core/types.h"
#include "gtest/gtest.h"
#include "kernels/kernel_test_util.h"
#include "proto/summary.pb.h"

namespace sluice {
namespace test {
namespace {

class SummaryKernelsTest : public KernelTest {
 protected:
  Summary OutputSummary() {
    Summary summary;
    const Tensor* output = GetOutput(0);
    EXPECT_NE(output, nullptr);
    if (output == nullptr) return summary;
    EXPECT_EQ(output->dims(), 0);
    EXPECT_TRUE(summary.ParseFromString(output->scalar<std::string>()()));
    return summary;
  }
};

TEST_F(SummaryKernelsTest, HistogramOfDblMaxCountsInTheLastBucket) {
  // TensorFlow's kernel writes past its bucket array for DBL_MAX (it corrupts its heap).
  ASSERT_TRUE(InitOp(NodeDefBuilder("h", "HistogramSummary")
                         .Input("tag")
                         .Input("values")
                         .Attr("T", DT_DOUBLE)
                         .Build())
                  .ok());
  AddInputFromArray<std::string>(TensorShape({}), {"big"});
  AddInputFromArray<double>(TensorShape({3}), {DBL_MAX, 1.0, -DBL_MAX});
  ASSERT_TRUE(RunOpKernel().ok());
  const Summary summary = OutputSummary();
  ASSERT_EQ(summary.value_size(), 1);
  const HistogramProto& histo = summary.value(0).histo();
  EXPECT_EQ(histo.min(), -DBL_MAX);
  EXPECT_EQ(histo.max(), DBL_MAX);
  EXPECT_EQ(histo.num(), 3);
  ASSERT_GE(histo.bucket_size(), 2);
  EXPECT_EQ(histo.bucket_limit(histo.bucket_size() - 1), DBL_MAX);
  EXPECT_EQ(histo.bucket(histo.bucket_size() - 1), 1);
}

TEST_F(SummaryKernelsTest, DeprecatedAudioSummaryTakesTheRateFromItsAttr) {
  const std::vector<float> samples = {0.0f, 0.5f, -0.25f, 1.0f, 0.125f, -1.0f};
  ASSERT_TRUE(InitOp(NodeDefBuilder("a", "AudioSummary")
                         .Input("tag")
                         .Input("tensor")
                         .Attr("sample_rate", 8000.5f)
                         .Attr("max_outputs", 1)
                         .Build())
                  .ok());
  AddInputFromArray<std::string>(TensorShape({}), {"snd"});
  AddInputFromArray<float>(TensorShape({2, 3}), samples);
  ASSERT_TRUE(RunOpKernel().ok());
  const std::string v1 = GetOutput(0)->scalar<std::string>()();

  ASSERT_TRUE(InitOp(NodeDefBuilder("a", "AudioSummaryV2")
                         .Input("tag")
                         .Input("tensor")
                         .Input("sample_rate")
                         .Attr("max_outputs", 1)
                         .Build())
                  .ok());
  AddInputFromArray<std::string>(TensorShape({}), {"snd"});
  AddInputFromArray<float>(TensorShape({2, 3}), samples);
  AddInputFromArray<float>(TensorShape({}), {8000.5f});
  ASSERT_TRUE(RunOpKernel().ok());
  EXPECT_EQ(GetOutput(0)->scalar<std::string>()(), v1);

  const Summary summary = OutputSummary();
  ASSERT_EQ(summary.value_size(), 1);
  EXPECT_EQ(summary.value(0).tag(), "snd/audio");
  EXPECT_EQ(summary.value(0).audio().sample_rate(), 8000.5f);
  EXPECT_EQ(summary.value(0).audio().num_channels(), 1);
  EXPECT_EQ(summary.value(0).audio().length_frames(), 3);
  EXPECT_EQ(summary.value(0).audio().content_type(), "audio/wav");
}

}  // namespace
}  // namespace test
}  // namespace sluice
