// The generator against Random123's known answers, and the value conversions at their edges.
#include "kernels/cpu/random/philox.h"

#include <cmath>
#include <cstdint>

#include "graph/core/types.h"
#include "gtest/gtest.h"
#include "kernels/cpu/random/random_distributions.h"

namespace sluice {
namespace random {
namespace {

using Block = Philox4x32::Block;

TEST(PhiloxTest, KnownAnswers) {
  EXPECT_EQ(Philox4x32({0, 0, 0, 0}, {0, 0})(),
            (Block{0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8}));
  EXPECT_EQ(Philox4x32({~0u, ~0u, ~0u, ~0u}, {~0u, ~0u})(),
            (Block{0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd}));
  EXPECT_EQ(
      Philox4x32({0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344}, {0xa4093822, 0x299f31d0})(),
      (Block{0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1}));
}

TEST(PhiloxTest, EachCallAdvancesTheCounterByOne) {
  Philox4x32 stream({~0u, ~0u, 7, 0}, {1, 2});
  stream();
  EXPECT_EQ(stream.counter(), (Block{0, 0, 8, 0}));
}

TEST(PhiloxTest, SkipCarriesAcrossWords) {
  Philox4x32 stream({~0u - 1, ~0u, ~0u, 3}, {0, 0});
  stream.Skip(5);
  EXPECT_EQ(stream.counter(), (Block{3, 0, 0, 4}));
  Philox4x32 a({9, 0, 0, 0}, {4, 5});
  Philox4x32 b = a;
  a.Skip(3);
  b();
  b();
  b();
  EXPECT_EQ(a(), b());
}

TEST(PhiloxTest, StatelessGeneratorMixesTheSeedPair) {
  // TensorFlow's StatelessRandomGetKeyCounter(seed=[1, 2]): key 0x908502c96d2f7fba, counter
  // [0, 0xf7734320619cb60b].
  const Philox4x32 stream = StatelessGenerator(1, 2);
  EXPECT_EQ(stream.key(), (Philox4x32::Key{0x6d2f7fba, 0x908502c9}));
  EXPECT_EQ(stream.counter(), (Block{0, 0, 0x619cb60b, 0xf7734320}));
}

TEST(RandomConversionTest, UniformValuesCoverZeroToOneExclusive) {
  EXPECT_EQ(UniformFloat(0), 0.0f);
  EXPECT_EQ(UniformFloat(~0u), 1.0f - std::ldexp(1.0f, -23));
  EXPECT_EQ(UniformDouble(0, 0), 0.0);
  EXPECT_EQ(UniformDouble(~0u, ~0u), 1.0 - std::ldexp(1.0, -52));
  EXPECT_EQ(static_cast<float>(UniformHalf(0xffff)), 1.0f - std::ldexp(1.0f, -10));
  EXPECT_EQ(static_cast<float>(UniformBfloat16(0xff)), 1.0f - std::ldexp(1.0f, -7));
  // Only the low bits count.
  EXPECT_EQ(UniformFloat(0xff800001u), UniformFloat(1));
}

TEST(RandomConversionTest, BoxMullerClampsTheRadiusAtTheSmallestUniform) {
  float f0, f1;
  BoxMullerFloat(0, 0, &f0, &f1);  // u1 = 0 is taken as 1e-7; the angle is 0
  EXPECT_EQ(f0, 0.0f);
  EXPECT_FLOAT_EQ(f1, std::sqrt(-2.0f * std::log(1.0e-7f)));
}

TEST(RandomConversionTest, UniformIntCoversTheFullInt32Range) {
  const UniformInt<int32_t> full(INT32_MIN, INT32_MAX);
  Philox4x32 stream({0, 0, 0, 0}, {0, 0});
  int32_t values[4];
  full(&stream, values);
  const Block block = Philox4x32({0, 0, 0, 0}, {0, 0})();
  for (int i = 0; i < 4; ++i) {
    EXPECT_EQ(values[i], static_cast<int32_t>(INT32_MIN + int64_t{block[i] % 0xffffffffu}));
  }
}

}  // namespace
}  // namespace random
}  // namespace sluice
