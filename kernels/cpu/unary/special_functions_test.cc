// What the conformance fixture (tests/kernels/fixtures/special_functions.pbtxt) cannot show
// about the Bessel, Dawsn, Expint, Fresnel and Spence kernels: tensors large enough for the
// parallel path keep TensorFlow's split between its packets and its scalar tail (only the
// tensor's last total % 8 elements take the scalar form, wherever the pool cuts it), and the
// dtypes TensorFlow does not register stay unregistered.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "kernels/cpu/unary/bessel_lane.h"
#include "kernels/cpu/unary/cephes_functions.h"
#include "kernels/kernel_test_util.h"
#include "numerics/float_environment.h"
#include "runtime/framework/op_kernel_test_util.h"

namespace sluice {
namespace test {
namespace {

namespace ei = Eigen::internal;

// Above kMinParallelElements, so ParallelFor splits the loop over the harness's two threads;
// kLarge % 8 = 3 elements form the scalar tail.
constexpr int64_t kLarge = 100003;

template <typename T>
bool SameBits(T a, T b) {
  return std::memcmp(&a, &b, sizeof(T)) == 0;
}

class SpecialFunctionsTest : public KernelTest {
 public:
  template <typename T>
  std::vector<T> Run(const std::string& op, const std::vector<T>& x) {
    EXPECT_TRUE(
        InitOp(NodeDefBuilder("n", op).Input("x").Attr("T", DataTypeToEnum<T>::value).Build())
            .ok());
    AddInputFromArray<T>(TensorShape({static_cast<int64_t>(x.size())}), x);
    const absl::Status s = RunOpKernel();
    EXPECT_TRUE(s.ok()) << s;
    return s.ok() ? Values<T>(*GetOutput(0)) : std::vector<T>();
  }
};

// Values over [-30, 45), each sign, with zeros and small values among them.
std::vector<float> LargeInput() {
  std::vector<float> x(kLarge);
  for (int64_t i = 0; i < kLarge; ++i) x[i] = -30.0f + 75.0f * static_cast<float>(i) / kLarge;
  return x;
}

template <template <typename, typename> class Generic, template <typename> class ScalarOp>
void ExpectTensorFlowForms(SpecialFunctionsTest* test, const std::string& op) {
  const std::vector<float> x = LargeInput();
  const std::vector<float> y = test->Run<float>(op, x);
  ASSERT_EQ(y.size(), x.size());
  numerics::ScopedFlushDenormals kernel_mode;
  int vector_differs_from_scalar = 0;
  for (int64_t i = 0; i < kLarge; ++i) {
    const float vector = Generic<unary::TensorFlowLane, float>::run(x[i]).v;
    const float scalar = ScalarOp<float>()(x[i]);
    const float want = i < kLarge - 3 ? vector : scalar;
    ASSERT_TRUE(SameBits(y[i], want) || (std::isnan(y[i]) && std::isnan(want)))
        << op << "(" << x[i] << ") at " << i << ": " << y[i] << ", want " << want;
    vector_differs_from_scalar += !SameBits(vector, scalar);
  }
  // The two forms are not the same function, so the test could tell them apart.
  EXPECT_GT(vector_differs_from_scalar, 0) << op;
}

TEST_F(SpecialFunctionsTest, FloatBesselKeepsTensorFlowsPacketsAndTailInParallel) {
  ExpectTensorFlowForms<ei::generic_i0, ei::scalar_bessel_i0_op>(this, "BesselI0");
  ExpectTensorFlowForms<ei::generic_i0e, ei::scalar_bessel_i0e_op>(this, "BesselI0e");
  ExpectTensorFlowForms<ei::generic_i1, ei::scalar_bessel_i1_op>(this, "BesselI1");
  ExpectTensorFlowForms<ei::generic_i1e, ei::scalar_bessel_i1e_op>(this, "BesselI1e");
  ExpectTensorFlowForms<ei::generic_j0, ei::scalar_bessel_j0_op>(this, "BesselJ0");
  ExpectTensorFlowForms<ei::generic_j1, ei::scalar_bessel_j1_op>(this, "BesselJ1");
  ExpectTensorFlowForms<ei::generic_y0, ei::scalar_bessel_y0_op>(this, "BesselY0");
  ExpectTensorFlowForms<ei::generic_y1, ei::scalar_bessel_y1_op>(this, "BesselY1");
  ExpectTensorFlowForms<ei::generic_k0, ei::scalar_bessel_k0_op>(this, "BesselK0");
  ExpectTensorFlowForms<ei::generic_k0e, ei::scalar_bessel_k0e_op>(this, "BesselK0e");
  ExpectTensorFlowForms<ei::generic_k1, ei::scalar_bessel_k1_op>(this, "BesselK1");
  ExpectTensorFlowForms<ei::generic_k1e, ei::scalar_bessel_k1e_op>(this, "BesselK1e");
}

// Half goes through the float forms and is rounded once.
TEST_F(SpecialFunctionsTest, HalfBesselRoundsTheFloatForms) {
  const std::vector<float> xf = LargeInput();
  std::vector<Eigen::half> x(kLarge);
  for (int64_t i = 0; i < kLarge; ++i) x[i] = Eigen::half(xf[i]);
  const std::vector<Eigen::half> y = Run<Eigen::half>("BesselJ1", x);
  ASSERT_EQ(y.size(), x.size());
  numerics::ScopedFlushDenormals kernel_mode;
  for (int64_t i = 0; i < kLarge; ++i) {
    const float v = static_cast<float>(x[i]);
    const float want = i < kLarge - 3 ? ei::generic_j1<unary::TensorFlowLane, float>::run(v).v
                                      : ei::scalar_bessel_j1_op<float>()(v);
    ASSERT_TRUE(SameBits(y[i], Eigen::half(want))) << "BesselJ1(" << v << ") at " << i;
  }
}

TEST_F(SpecialFunctionsTest, CephesFunctionsAreElementwiseInParallel) {
  std::vector<double> x(kLarge);
  for (int64_t i = 0; i < kLarge; ++i) x[i] = -5.0 + 80.0 * static_cast<double>(i) / kLarge;
  const struct {
    const char* op;
    double (*f)(double);
  } kOps[] = {{"Dawsn", cephes::Dawsn<double>},
              {"Expint", cephes::Expint<double>},
              {"FresnelCos", cephes::FresnelCos<double>},
              {"FresnelSin", cephes::FresnelSin<double>},
              {"Spence", cephes::Spence<double>}};
  for (const auto& op : kOps) {
    const std::vector<double> y = Run<double>(op.op, x);
    ASSERT_EQ(y.size(), x.size());
    numerics::ScopedFlushDenormals kernel_mode;
    for (int64_t i = 0; i < kLarge; ++i) {
      const double want = op.f(x[i]);
      ASSERT_TRUE(SameBits(y[i], want) || (std::isnan(y[i]) && std::isnan(want)))
          << op.op << "(" << x[i] << ") at " << i;
    }
  }
}

// TensorFlow registers the Bessel functions for half, float and double only, and Dawsn,
// Expint, the Fresnel integrals and Spence for float and double only.
TEST_F(SpecialFunctionsTest, OnlyTensorFlowsDtypesAreRegistered) {
  for (const char* op : {"BesselJ0", "BesselK1e", "BesselI0"}) {
    EXPECT_FALSE(InitOp(NodeDefBuilder("n", op).Input("x").Attr("T", DT_BFLOAT16).Build()).ok())
        << op;
  }
  for (const char* op : {"Dawsn", "Expint", "FresnelCos", "FresnelSin", "Spence"}) {
    EXPECT_FALSE(InitOp(NodeDefBuilder("n", op).Input("x").Attr("T", DT_HALF).Build()).ok()) << op;
    EXPECT_FALSE(InitOp(NodeDefBuilder("n", op).Input("x").Attr("T", DT_BFLOAT16).Build()).ok())
        << op;
  }
}

}  // namespace
}  // namespace test
}  // namespace sluice
