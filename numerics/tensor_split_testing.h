// A check shared by the tests of numerics/' functions that split a tensor into a vector form
// and a scalar tail (rsqrt.h, reciprocal.h, exp_float.h, log_float.h): where an element sits
// decides its form, not how the tensor is cut. Test-only.
#ifndef SLUICE_NUMERICS_TENSOR_SPLIT_TESTING_H_
#define SLUICE_NUMERICS_TENSOR_SPLIT_TESTING_H_

#include <cstdint>
#include <vector>

#include "gtest/gtest.h"
#include "numerics/float_bits.h"
#include "numerics/float_environment.h"

namespace sluice {
namespace numerics {

// f(x, y, n, flat, total): y for the n elements at flat indices [flat, flat + n) of a tensor
// of `total` elements.
using TensorRangeFunction = void (*)(const float*, float*, int64_t, int64_t, int64_t);

// For a tensor x of 21 elements (packets of 8): computed in pieces of 3 and in place (as
// compiled clusters call these functions), it gives the whole call's bits; its first 16
// elements are those of a tensor of 16 (all vector form) and its last 5 those of a tensor of 5
// (all scalar tail).
inline void ExpectPiecesMatchTheWholeTensor(TensorRangeFunction f, const std::vector<float>& x) {
  ASSERT_EQ(x.size(), 21u);
  ScopedFlushDenormals kernel_mode;
  std::vector<float> whole(21);
  f(x.data(), whole.data(), 21, 0, 21);
  std::vector<float> pieces = x;
  for (int64_t flat = 0; flat < 21; flat += 3) {
    f(pieces.data() + flat, pieces.data() + flat, 3, flat, 21);
  }
  std::vector<float> vector_alone(16), tail_alone(5);
  f(x.data(), vector_alone.data(), 16, 0, 16);
  f(x.data() + 16, tail_alone.data(), 5, 0, 5);
  for (size_t i = 0; i < 21; ++i) {
    EXPECT_EQ(FloatBits(pieces[i]), FloatBits(whole[i])) << "in pieces, element " << i;
    const float want = i < 16 ? vector_alone[i] : tail_alone[i - 16];
    EXPECT_EQ(FloatBits(whole[i]), FloatBits(want)) << "element " << i;
  }
}

}  // namespace numerics
}  // namespace sluice

#endif  // SLUICE_NUMERICS_TENSOR_SPLIT_TESTING_H_
