// The CUDA Cast kernel's conversions (cast_functors.h), compiled for the host, against Sluice's
// CPU Cast kernel: every pair of bool, int32, int64, half, bfloat16, float and double, with
// Truncate false and true, on special values (NaN, +-Inf, +-0, halfway cases, integer limits
// and the edges of each integer range) and random ones. Bit for bit, except that a NaN need
// only meet a NaN.
#include "kernels/cuda/cast_functors.h"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "Eigen/Core"
#include "graph/core/tensor.h"
#include "graph/core/types.h"
#include "gtest/gtest.h"
#include "kernels/cuda/half_bits.h"
#include "kernels/kernel_test_util.h"
#include "numerics/float_environment.h"
#include "runtime/framework/op_kernel_test_util.h"

namespace sluice {
namespace cuda {
namespace {

using test::MakeTensor;
using test::NodeDefBuilder;
using test::Values;

// The CUDA kernels' element type of a Sluice element type.
template <typename T>
struct CudaTypeOf {
  using type = T;
};
template <>
struct CudaTypeOf<Eigen::half> {
  using type = Half;
};
template <>
struct CudaTypeOf<Eigen::bfloat16> {
  using type = BFloat16;
};
template <typename T>
using CudaType = typename CudaTypeOf<T>::type;

template <typename To, typename From>
To BitCast(From from) {
  static_assert(sizeof(To) == sizeof(From), "same size");
  To to;
  std::memcpy(static_cast<void*>(&to), &from, sizeof(to));
  return to;
}

template <typename T>
bool IsNan(T v) {
  if constexpr (std::is_integral_v<T>) {
    return false;
  } else {
    return Eigen::numext::isnan(v);
  }
}

// Values of T to cast from.
template <typename T>
std::vector<T> Sources() {
  std::vector<T> out;
  std::mt19937_64 rng(11);
  if constexpr (std::is_same_v<T, bool>) {
    out = {true, false, true};
  } else if constexpr (std::is_integral_v<T>) {
    const int64_t specials[] = {0,
                                1,
                                -1,
                                2,
                                255,
                                256,
                                65504,
                                65520,
                                (int64_t{1} << 24) + 1,
                                (int64_t{1} << 31) - 1,
                                -(int64_t{1} << 31),
                                (int64_t{1} << 31),
                                (int64_t{1} << 53) + 1,
                                std::numeric_limits<int64_t>::max(),
                                std::numeric_limits<int64_t>::min()};
    for (int64_t v : specials) out.push_back(static_cast<T>(v));
    for (int i = 0; i < 3000; ++i) {
      const uint64_t bits = rng();
      out.push_back(static_cast<T>(i % 2 ? static_cast<int64_t>(bits)
                                         : static_cast<int64_t>(bits >> (bits % 60))));
    }
  } else {
    const double inf = std::numeric_limits<double>::infinity();
    const double specials[] = {0.0,
                               -0.0,
                               inf,
                               -inf,
                               std::nan(""),
                               -std::nan(""),
                               0.5,
                               -0.5,
                               1.5,
                               2.5,
                               -2.5,
                               0.99999,
                               -0.99999,
                               255.5,
                               256.0,
                               65504.0,
                               65519.0,
                               65520.0,
                               1e5,
                               2147483647.0,
                               2147483647.9,
                               2147483648.0,
                               -2147483648.0,
                               -2147483648.9,
                               -2147483649.0,
                               9.2e18,
                               9223372036854775807.0,
                               -9223372036854775808.0,
                               1e19,
                               -1e19,
                               1e30,
                               3.4e38,
                               3.5e38,
                               1e300,
                               1e-40,
                               1e-45,
                               6e-8,
                               3e-8,
                               1e-310,
                               1.0000001192092896,
                               1.00048828125,
                               1.00390625,
                               1.001953125};
    for (double v : specials) out.push_back(static_cast<T>(v));
    for (int i = 0; i < 3000; ++i) {
      const uint64_t bits = rng();
      double v;
      if (i % 2) {
        v = BitCast<double>(bits);
      } else {
        // Doubles near float and half boundaries: a random float's value nudged.
        v = static_cast<double>(BitCast<float>(static_cast<uint32_t>(bits))) *
            (1.0 + static_cast<double>(bits >> 40) * 1e-13);
      }
      out.push_back(static_cast<T>(v));
    }
  }
  return out;
}

class CastFunctorsTest : public test::KernelTest {
 protected:
  template <typename Src, typename Dst>
  void Check(bool truncate) {
    const std::vector<Src> x = Sources<Src>();
    ASSERT_TRUE(InitOp(NodeDefBuilder("cast", "Cast")
                           .Input("x")
                           .Attr("SrcT", DataTypeToEnum<Src>::value)
                           .Attr("DstT", DataTypeToEnum<Dst>::value)
                           .Attr("Truncate", truncate)
                           .Build())
                    .ok());
    AddInput(MakeTensor<Src>(TensorShape({static_cast<int64_t>(x.size())}), x));
    ASSERT_TRUE(RunOpKernel().ok());
    const std::vector<Dst> cpu = Values<Dst>(*GetOutput(0));
    ASSERT_EQ(cpu.size(), x.size());
    int failures = 0;
    for (size_t i = 0; i < x.size() && failures < 5; ++i) {
      const CudaType<Src> in = BitCast<CudaType<Src>>(x[i]);
      CudaType<Dst> out;
      {
        // Subnormals flushed, as the device code is built (-ftz=true) and the CPU kernels run.
        const numerics::ScopedFlushDenormals flush;
        out = truncate ? TruncatingConvert<CudaType<Dst>>(in) : Convert<CudaType<Dst>>(in);
      }
      const Dst mine = BitCast<Dst>(out);
      const Dst expected = cpu[i];  // a copy: std::vector<bool> has no element addresses
      const bool ok =
          (IsNan(mine) && IsNan(expected)) || std::memcmp(&mine, &expected, sizeof(Dst)) == 0;
      EXPECT_TRUE(ok) << DataTypeString(DataTypeToEnum<Src>::value) << " "
                      << static_cast<double>(x[i]) << " -> "
                      << DataTypeString(DataTypeToEnum<Dst>::value)
                      << (truncate ? " (truncate)" : "") << ": functor "
                      << static_cast<double>(mine) << ", CPU kernel "
                      << static_cast<double>(expected);
      if (!ok) ++failures;
    }
  }

  template <typename Src>
  void CheckFrom() {
    for (bool truncate : {false, true}) {
      if (!std::is_same_v<Src, bool>) Check<Src, bool>(truncate);
      if (!std::is_same_v<Src, int32_t>) Check<Src, int32_t>(truncate);
      if (!std::is_same_v<Src, int64_t>) Check<Src, int64_t>(truncate);
      if (!std::is_same_v<Src, Eigen::half>) Check<Src, Eigen::half>(truncate);
      if (!std::is_same_v<Src, Eigen::bfloat16>) Check<Src, Eigen::bfloat16>(truncate);
      if (!std::is_same_v<Src, float>) Check<Src, float>(truncate);
      if (!std::is_same_v<Src, double>) Check<Src, double>(truncate);
    }
  }
};

TEST_F(CastFunctorsTest, FromBool) { CheckFrom<bool>(); }
TEST_F(CastFunctorsTest, FromInt32) { CheckFrom<int32_t>(); }
TEST_F(CastFunctorsTest, FromInt64) { CheckFrom<int64_t>(); }
TEST_F(CastFunctorsTest, FromHalf) { CheckFrom<Eigen::half>(); }
TEST_F(CastFunctorsTest, FromBFloat16) { CheckFrom<Eigen::bfloat16>(); }
TEST_F(CastFunctorsTest, FromFloat) { CheckFrom<float>(); }
TEST_F(CastFunctorsTest, FromDouble) { CheckFrom<double>(); }

}  // namespace
}  // namespace cuda
}  // namespace sluice
