// Shape functions of the audio ops (audio_ops.cc).
#include "graph/ops/ops_test_util.h"
#include "gtest/gtest.h"

namespace sluice {
namespace ops_test {
namespace {

TEST(AudioShapeTest, DecodeWav) {
  EXPECT_EQ(Infer("DecodeWav", "", "[]"), "[?,?];[]");
  EXPECT_EQ(Infer("DecodeWav", "desired_channels=2, desired_samples=16000", "[]"), "[16000,2];[]");
  EXPECT_EQ(Infer("DecodeWav", "desired_channels=0", "?"), "[?,0];[]");
  EXPECT_THAT(Infer("DecodeWav", "", "[1]"), IsInvalidArgument("must be rank 0"));
  EXPECT_THAT(Infer("DecodeWav", "desired_channels=-2", "[]"),
              IsInvalidArgument("channels must be non-negative, got -2"));
  EXPECT_THAT(Infer("DecodeWav", "desired_samples=-3", "[]"),
              IsInvalidArgument("samples must be non-negative, got -3"));
}

TEST(AudioShapeTest, EncodeWav) {
  EXPECT_EQ(Infer("EncodeWav", "", "[10,2];[]"), "[]");
  EXPECT_EQ(Infer("EncodeWav", "", "?;?"), "[]");
  EXPECT_THAT(Infer("EncodeWav", "", "[10];[]"), IsInvalidArgument("must be rank 2"));
  EXPECT_THAT(Infer("EncodeWav", "", "[10,2];[1]"), IsInvalidArgument("must be rank 0"));
}

TEST(AudioShapeTest, AudioSpectrogram) {
  EXPECT_EQ(Infer("AudioSpectrogram", "window_size=480, stride=160", "[16000,1]"), "[1,98,257]");
  EXPECT_EQ(Infer("AudioSpectrogram", "window_size=512, stride=160", "[16000,2]"), "[2,97,257]");
  EXPECT_EQ(Infer("AudioSpectrogram", "window_size=2, stride=1", "[5,?]"), "[?,4,2]");
  EXPECT_EQ(Infer("AudioSpectrogram", "window_size=100, stride=10", "[99,1]"), "[1,0,65]");
  EXPECT_EQ(Infer("AudioSpectrogram", "window_size=100, stride=10", "[?,3]"), "[3,?,65]");
  EXPECT_EQ(Infer("AudioSpectrogram", "window_size=100, stride=10", "?"), "[?,?,65]");
  EXPECT_THAT(Infer("AudioSpectrogram", "window_size=100, stride=10", "[100]"),
              IsInvalidArgument("must be rank 2"));
  EXPECT_THAT(Infer("AudioSpectrogram", "window_size=1, stride=10", "[100,1]"),
              IsInvalidArgument("window size must be > 1, got 1"));
  EXPECT_THAT(Infer("AudioSpectrogram", "window_size=4, stride=0", "[100,1]"),
              IsInvalidArgument("stride must be strictly positive, got 0"));
}

TEST(AudioShapeTest, Mfcc) {
  EXPECT_EQ(Infer("Mfcc", "", "[1,98,257];[]"), "[1,98,13]");
  EXPECT_EQ(Infer("Mfcc", "dct_coefficient_count=40", "[2,?,129];?"), "[2,?,40]");
  EXPECT_EQ(Infer("Mfcc", "", "?;[]"), "[?,?,13]");
  EXPECT_THAT(Infer("Mfcc", "", "[98,257];[]"), IsInvalidArgument("must be rank 3"));
  EXPECT_THAT(Infer("Mfcc", "", "[1,98,257];[1]"), IsInvalidArgument("must be rank 0"));
}

}  // namespace
}  // namespace ops_test
}  // namespace sluice
