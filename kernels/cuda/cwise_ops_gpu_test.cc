// The CUDA kernels of kernels/cuda against Sluice's CPU kernels: each node runs on the GPU
// device and on the CPU device (DeviceKernelRunner), on the same random inputs with NaN,
// +-Inf, +-0 and large values mixed in, over broadcast and edge shapes (scalars, size-1 dims,
// rank 5, empty tensors); errors must match in code and message. Also FusedBatchNormV3
// (inference bit for bit; training within 2 ulp: double sums in another order) and
// ArgMax/ArgMin (exact). Skipped, with "no
// CUDA device", where the process has no GPU device.
//
// Tolerances (NaN must meet NaN; values compare as numbers, so +0 equals -0):
//  - exact: Relu, Relu6, LeakyRelu, Softsign, Neg, Abs, Square, Floor, Ceil, Reciprocal
//    but float's (3 ulp: the CPU's is TensorFlow's estimate and Newton step), float Sqrt,
//    AddV2/Add, Sub, Mul, RealDiv/Div, Maximum, Minimum, SquaredDifference, BiasAdd, Max, Min, the
//    reductions that fold nothing, and Cast (bit for bit there, NaN aside);
//  - float transcendental ops: those of cwise_functors_test.cc (Eigen against the C library)
//    plus 2 ulp for CUDA's functions: Elu/Selu/Softplus 4 ulp or 1.2e-7/2.1e-7/1.2e-7
//    absolute, Tanh 8 ulp, Sigmoid 6 ulp or 1.2e-7 absolute (relative 1.3e-4 below -9), Pow
//    4 ulp; Rsqrt 3 ulp (Eigen's approximation; inf for subnormals, unchecked there), Exp 6
//    ulp (or 3e-39: subnormals flushed), Erf 8 ulp or 1e-37 absolute (subnormals), Expm1, Log,
//    Log1p, Erfc, Sin and Cos 6 ulp;
//  - half and bfloat16 transcendental ops, Softmax and LogSoftmax: 2 ulp of the type;
//  - float Softmax: 8 ulp or relative 4e-6 (different exp and summation order); LogSoftmax
//    8 ulp or 4e-6 absolute;
//  - Sum and Mean: 2^-22 * (elements folded) * max |x| absolute, on top of 1 ulp of the
//    16-bit types (float accumulation in another order); Prod: relative 1e-7 per element.
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_shape.h"
#include "graph/core/types.h"
#include "graph/ops/fused_elementwise_spec.h"
#include "gtest/gtest.h"
#include "kernels/cuda/gpu_kernel_test_util.h"
#include "kernels/kernel_test_util.h"
#include "runtime/framework/op_kernel_test_util.h"

namespace sluice {
namespace test {
namespace {

constexpr DataType kFloatTypes[] = {DT_FLOAT, DT_HALF, DT_BFLOAT16};

struct Tolerance {
  int64_t ulps = 0;
  double absolute = 0;
  double relative = 0;
  bool bitwise = false;    // compare bits (NaN aside)
  bool unchecked = false;  // the CPU kernel's value is no reference for this element
};

// Tolerance for output element i.
using ToleranceFn = std::function<Tolerance(int64_t i)>;

ToleranceFn Fixed(Tolerance t) {
  return [t](int64_t) { return t; };
}

bool IsFloating(DataType t) {
  return t == DT_FLOAT || t == DT_HALF || t == DT_BFLOAT16 || t == DT_DOUBLE;
}

double ValueAt(const Tensor& t, int64_t i) {
  switch (t.dtype()) {
    case DT_FLOAT:
      return t.base<float>()[i];
    case DT_HALF:
      return static_cast<double>(t.base<half>()[i]);
    case DT_BFLOAT16:
      return static_cast<double>(t.base<bfloat16>()[i]);
    case DT_DOUBLE:
      return t.base<double>()[i];
    case DT_INT32:
      return t.base<int32_t>()[i];
    case DT_INT64:
      return static_cast<double>(t.base<int64_t>()[i]);
    case DT_BOOL:
      return t.base<bool>()[i];
    default:
      ADD_FAILURE() << "unexpected dtype " << DataTypeString(t.dtype());
      return 0;
  }
}

// A float-like element's position on the number line, in ulps (+0 and -0 are one position).
int64_t OrderedKey(const Tensor& t, int64_t i) {
  int64_t bits = 0;
  int width = 0;
  const char* p = static_cast<const char*>(t.raw_data());
  switch (t.dtype()) {
    case DT_FLOAT: {
      uint32_t b;
      std::memcpy(&b, p + 4 * i, 4);
      bits = b;
      width = 32;
      break;
    }
    case DT_HALF:
    case DT_BFLOAT16: {
      uint16_t b;
      std::memcpy(&b, p + 2 * i, 2);
      bits = b;
      width = 16;
      break;
    }
    default:
      return 0;
  }
  const int64_t magnitude = bits & ((int64_t{1} << (width - 1)) - 1);
  return (bits >> (width - 1)) ? -magnitude : magnitude;
}

std::string Describe(const NodeDef& node, const std::vector<Tensor>& inputs) {
  std::vector<std::string> shapes;
  for (const Tensor& t : inputs) shapes.push_back(t.shape().DebugString());
  return absl::StrCat(node.op(), " ",
                      DataTypeString(inputs.empty() ? DT_INVALID : inputs[0].dtype()), " on ",
                      absl::StrJoin(shapes, ", "));
}

class CwiseOpsGpuTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(runner().status().ok()) << runner().status();
    if (runner().gpu() == nullptr) GTEST_SKIP() << "no CUDA device";
  }

  static DeviceKernelRunner& runner() { return SharedDeviceKernelRunner(); }

  // `values` (as float) as a tensor of `dtype`, converted by the CPU Cast.
  static Tensor Make(DataType dtype, const TensorShape& shape, const std::vector<float>& values) {
    const Tensor f = MakeTensor<float>(shape, values);
    if (dtype == DT_FLOAT) return f;
    return CastOnCpu(f, dtype);
  }

  static Tensor CastOnCpu(const Tensor& x, DataType dtype) {
    const NodeDef cast = NodeDefBuilder("cast", "Cast")
                             .Input("x")
                             .Attr("SrcT", x.dtype())
                             .Attr("DstT", dtype)
                             .Attr("Truncate", false)
                             .Build();
    std::vector<Tensor> out;
    const absl::Status s = runner().Run(runner().cpu(), cast, {x}, &out);
    EXPECT_TRUE(s.ok()) << s;
    return s.ok() ? out[0] : Tensor(dtype);
  }

  // Random values in [lo, hi), every `special_every`-th replaced by a special value.
  static std::vector<float> Random(int64_t n, uint32_t seed, float lo = -3.0f, float hi = 3.0f,
                                   int special_every = 0) {
    static const float kSpecials[] = {std::numeric_limits<float>::quiet_NaN(),
                                      std::numeric_limits<float>::infinity(),
                                      -std::numeric_limits<float>::infinity(),
                                      0.0f,
                                      -0.0f,
                                      1e30f,
                                      -1e30f,
                                      1e-40f,
                                      -20.0f,
                                      20.0f,
                                      6.0f};
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> dist(lo, hi);
    std::vector<float> v(n);
    for (int64_t i = 0; i < n; ++i) {
      v[i] = (special_every > 0 && i % special_every == 0)
                 ? kSpecials[(i / special_every) % (sizeof(kSpecials) / sizeof(float))]
                 : dist(rng);
    }
    return v;
  }

  // Runs `node` on both devices and compares statuses and outputs.
  void Compare(const NodeDef& node, const std::vector<Tensor>& inputs, const ToleranceFn& tol) {
    const std::string what = Describe(node, inputs);
    std::vector<Tensor> gpu_out, cpu_out;
    const absl::Status gpu = runner().Run(runner().gpu(), node, inputs, &gpu_out);
    const absl::Status cpu = runner().Run(runner().cpu(), node, inputs, &cpu_out);
    ASSERT_EQ(gpu.code(), cpu.code()) << what << ": GPU " << gpu << ", CPU " << cpu;
    ASSERT_EQ(gpu.message(), cpu.message()) << what;
    if (!cpu.ok()) return;
    ASSERT_EQ(gpu_out.size(), cpu_out.size()) << what;
    for (size_t k = 0; k < cpu_out.size(); ++k) {
      const Tensor& g = gpu_out[k];
      const Tensor& c = cpu_out[k];
      ASSERT_EQ(g.dtype(), c.dtype()) << what;
      ASSERT_EQ(g.shape(), c.shape()) << what;
      int failures = 0;
      for (int64_t i = 0; i < c.NumElements() && failures < 5; ++i) {
        if (!Close(g, c, i, tol(i))) {
          ++failures;
          ADD_FAILURE() << what << ", output " << k << " element " << i << ": GPU " << ValueAt(g, i)
                        << ", CPU " << ValueAt(c, i);
        }
      }
    }
  }

  static bool Close(const Tensor& g, const Tensor& c, int64_t i, const Tolerance& t) {
    if (t.unchecked) return true;
    const double gv = ValueAt(g, i);
    const double cv = ValueAt(c, i);
    if (!IsFloating(c.dtype())) return gv == cv;
    if (std::isnan(gv) || std::isnan(cv)) return std::isnan(gv) && std::isnan(cv);
    if (t.bitwise) {
      const int64_t size = DataTypeSize(c.dtype());
      return std::memcmp(static_cast<const char*>(g.raw_data()) + i * size,
                         static_cast<const char*>(c.raw_data()) + i * size, size) == 0;
    }
    if (gv == cv) return true;
    if (std::isinf(gv) || std::isinf(cv)) return false;
    const double d = std::fabs(gv - cv);
    if (d <= t.absolute || d <= t.relative * std::fabs(cv)) return true;
    return t.ulps > 0 && c.dtype() != DT_DOUBLE &&
           std::abs(OrderedKey(g, i) - OrderedKey(c, i)) <= t.ulps;
  }
};

// ---- Unary ops -----------------------------------------------------------------------------

Tolerance UnaryTolerance(const std::string& op, DataType dtype, double x) {
  if (op == "Relu" || op == "Relu6" || op == "LeakyRelu" || op == "Neg" || op == "Abs" ||
      op == "Square" || op == "Floor" || op == "Ceil" || op == "Softsign" ||
      (op == "Reciprocal" && dtype != DT_FLOAT)) {
    return {};  // one correctly rounded operation at most (CUDA divides as IEEE by default)
  }
  if (op == "Reciprocal") {
    // The GPU divides, as TensorFlow's GPU kernel does; the CPU's float reciprocal is
    // TensorFlow's estimate and Newton step (numerics/reciprocal.h): 3 ulp below 2^104, the
    // 12-bit estimate from 2^115, zero where the quotient is subnormal.
    return std::fabs(x) < 0x1p104 ? Tolerance{3, 0, 0} : Tolerance{3, 1.2e-38, 0x1p-11};
  }
  if (op == "Sigmoid" && dtype == DT_HALF) {
    // The CPU's is TensorFlow's half arithmetic: up to 2 ulps off near 1, and half subnormals
    // (below 6.1e-5) kept (cwise_functors_test.cc).
    return {3, 6.2e-5, 0};
  }
  if (dtype != DT_FLOAT) return {2, 0, 0};
  if (op == "Sqrt") return {};  // correctly rounded on both
  if (op == "Rsqrt") {
    // Eigen's approximation (2 ulp) is inf for subnormals, which the GPU computes exactly.
    if (x != 0 && std::fabs(x) < std::numeric_limits<float>::min()) return {0, 0, 0, false, true};
    return {3, 0, 0};
  }
  if (op == "Elu") return {4, 1.2e-7, 0};
  if (op == "Selu") return {4, 2.1e-7, 0};
  if (op == "Softplus") return {4, 1.2e-7, 0};
  if (op == "Tanh") return {8, 0, 0};
  if (op == "Sigmoid") return x < -9 ? Tolerance{6, 1.2e-38, 1.3e-4} : Tolerance{6, 1.2e-7, 0};
  if (op == "Exp") return {6, 3e-39, 0};
  if (op == "Erf") return {8, 1e-37, 0};
  if (op == "Expm1" || op == "Log" || op == "Log1p" || op == "Erfc" || op == "Sin" || op == "Cos") {
    return {6, 0, 0};
  }
  ADD_FAILURE() << "no tolerance for " << op;
  return {};
}

TEST_F(CwiseOpsGpuTest, UnaryOps) {
  const TensorShape shapes[] = {TensorShape({}), TensorShape({1}), TensorShape({0, 3}),
                                TensorShape({3, 517}), TensorShape({2, 1, 3, 1, 4})};
  for (const char* op :
       {"Relu", "Relu6", "Elu",    "Selu",  "Sigmoid", "Tanh", "Softplus", "Softsign",
        "Neg",  "Abs",   "Square", "Floor", "Ceil",    "Sqrt", "Rsqrt",    "Reciprocal",
        "Exp",  "Expm1", "Log",    "Log1p", "Erf",     "Erfc", "Sin",      "Cos"}) {
    for (DataType dtype : kFloatTypes) {
      const NodeDef node = NodeDefBuilder("n", op).Input("x").Attr("T", dtype).Build();
      uint32_t seed = 1;
      for (const TensorShape& shape : shapes) {
        const Tensor x = Make(dtype, shape, Random(shape.num_elements(), seed++, -12, 12, 7));
        Compare(node, {x}, [&](int64_t i) { return UnaryTolerance(op, dtype, ValueAt(x, i)); });
      }
      // Logarithms and roots of positive numbers, across magnitudes.
      const Tensor positive = Make(dtype, TensorShape({2, 300}), Random(600, seed++, 1e-3, 50));
      Compare(node, {positive},
              [&](int64_t i) { return UnaryTolerance(op, dtype, ValueAt(positive, i)); });
    }
  }
}

TEST_F(CwiseOpsGpuTest, LeakyReluTakesItsAlpha) {
  for (float alpha : {0.2f, 0.01f, -0.5f, 3.0f}) {
    for (DataType dtype : kFloatTypes) {
      const NodeDef node =
          NodeDefBuilder("n", "LeakyRelu").Input("x").Attr("T", dtype).Attr("alpha", alpha).Build();
      const Tensor x = Make(dtype, TensorShape({7, 33}), Random(231, 5, -12, 12, 7));
      Compare(node, {x}, [](int64_t) { return Tolerance{}; });
    }
  }
}

// ---- Binary ops ----------------------------------------------------------------------------

struct ShapePair {
  TensorShape x;
  TensorShape y;
};

std::vector<ShapePair> BinaryShapes() {
  return {
      {TensorShape({4, 5, 6}), TensorShape({4, 5, 6})},           // same shape
      {TensorShape({4, 5, 6}), TensorShape({})},                  // scalar y
      {TensorShape({}), TensorShape({4, 5, 6})},                  // scalar x
      {TensorShape({1, 1}), TensorShape({3, 4})},                 // single-element x
      {TensorShape({3, 4}), TensorShape({1, 1, 1})},              // single element with more dims
      {TensorShape({2, 1, 3}), TensorShape({4, 1})},              // both broadcast
      {TensorShape({8, 4, 5}), TensorShape({4, 5})},              // merged dims
      {TensorShape({5, 1}), TensorShape({1, 7})},                 // outer product
      {TensorShape({2, 3, 1, 4, 5}), TensorShape({3, 1, 1, 5})},  // rank 5
      {TensorShape({1}), TensorShape({1})},                       // one element
      {TensorShape({}), TensorShape({})},                         // scalars
      {TensorShape({0, 3}), TensorShape({1, 3})},                 // empty
      {TensorShape({2, 0}), TensorShape({2, 1})},                 // empty
      {TensorShape({2, 3}), TensorShape({4})},                    // incompatible: same error
  };
}

Tolerance BinaryTolerance(const std::string& op, DataType dtype) {
  if (op != "Pow") return {};
  return dtype == DT_FLOAT ? Tolerance{4, 0, 0} : Tolerance{2, 0, 0};
}

TEST_F(CwiseOpsGpuTest, BinaryOps) {
  for (const char* op : {"Add", "AddV2", "Sub", "Mul", "Div", "RealDiv", "Maximum", "Minimum",
                         "SquaredDifference", "Pow"}) {
    for (DataType dtype : kFloatTypes) {
      const NodeDef node = NodeDefBuilder("n", op).Input("x").Input("y").Attr("T", dtype).Build();
      uint32_t seed = 100;
      for (const ShapePair& shapes : BinaryShapes()) {
        const Tensor x = Make(dtype, shapes.x, Random(shapes.x.num_elements(), seed++, -3, 3, 5));
        const Tensor y = Make(dtype, shapes.y, Random(shapes.y.num_elements(), seed++, -3, 3, 6));
        Compare(node, {x, y}, Fixed(BinaryTolerance(op, dtype)));
      }
    }
  }
}

// Shapes whose broadcast needs more than 8 merged dims: the GPU refuses them, as TensorFlow's
// GPU kernels refuse more than 5.
TEST_F(CwiseOpsGpuTest, BroadcastOfTooManyDimsIsUnimplemented) {
  std::vector<int64_t> x_dims, y_dims;
  for (int d = 0; d < 9; ++d) {
    x_dims.push_back(d % 2 == 0 ? 2 : 1);
    y_dims.push_back(d % 2 == 0 ? 1 : 2);
  }
  const TensorShape xs(x_dims), ys(y_dims);
  const NodeDef node =
      NodeDefBuilder("n", "AddV2").Input("x").Input("y").Attr("T", DT_FLOAT).Build();
  std::vector<Tensor> out;
  const absl::Status s = runner().Run(runner().gpu(), node,
                                      {Make(DT_FLOAT, xs, Random(xs.num_elements(), 1)),
                                       Make(DT_FLOAT, ys, Random(ys.num_elements(), 2))},
                                      &out);
  EXPECT_EQ(s.code(), absl::StatusCode::kUnimplemented) << s;
}

// ---- BiasAdd -------------------------------------------------------------------------------

TEST_F(CwiseOpsGpuTest, BiasAdd) {
  struct Case {
    const char* format;
    TensorShape value;
    TensorShape bias;
  };
  const Case cases[] = {
      {"NHWC", TensorShape({2, 3, 4, 5}), TensorShape({5})},
      {"NHWC", TensorShape({7, 3}), TensorShape({3})},
      {"NHWC", TensorShape({2, 2, 2, 2, 6}), TensorShape({6})},
      {"NCHW", TensorShape({2, 5, 3, 4}), TensorShape({5})},
      {"NCHW", TensorShape({2, 3, 2, 2, 2}), TensorShape({3})},
      {"NCHW", TensorShape({4, 3}), TensorShape({3})},
      {"NHWC", TensorShape({0, 5}), TensorShape({5})},
      {"NHWC", TensorShape({5}), TensorShape({5})},        // error: rank 1
      {"NHWC", TensorShape({2, 5}), TensorShape({2, 5})},  // error: bias not 1-D
      {"NCHW", TensorShape({2, 5, 3}), TensorShape({3})},  // error: channels differ
  };
  for (DataType dtype : kFloatTypes) {
    uint32_t seed = 200;
    for (const Case& c : cases) {
      const NodeDef node = NodeDefBuilder("n", "BiasAdd")
                               .Input("value")
                               .Input("bias")
                               .Attr("T", dtype)
                               .Attr("data_format", c.format)
                               .Build();
      Compare(node,
              {Make(dtype, c.value, Random(c.value.num_elements(), seed++, -3, 3, 9)),
               Make(dtype, c.bias, Random(c.bias.num_elements(), seed++))},
              Fixed({}));
    }
  }
}

// ---- Cast ----------------------------------------------------------------------------------

TEST_F(CwiseOpsGpuTest, CastBetweenEveryPair) {
  const DataType types[] = {DT_BOOL, DT_INT32, DT_INT64, DT_HALF, DT_BFLOAT16, DT_FLOAT, DT_DOUBLE};
  // Doubles across every type's range, rounded to each source type by the CPU Cast.
  std::vector<double> values = {0.0,
                                -0.0,
                                0.5,
                                -0.5,
                                1.5,
                                2.5,
                                -2.5,
                                65504.0,
                                65520.0,
                                1e5,
                                2147483647.0,
                                2147483648.0,
                                -2147483649.0,
                                9.3e18,
                                -9.3e18,
                                1e30,
                                3.5e38,
                                1e300,
                                1e-40,
                                6e-8,
                                std::nan(""),
                                -std::numeric_limits<double>::infinity(),
                                std::numeric_limits<double>::infinity(),
                                1.00048828125,
                                1.0000001192092896};
  std::mt19937_64 rng(300);
  std::uniform_real_distribution<double> exponent(-30, 30);
  for (int i = 0; i < 2000; ++i) {
    values.push_back((rng() & 1 ? -1 : 1) * std::pow(10.0, exponent(rng)));
  }
  const Tensor doubles =
      MakeTensor<double>(TensorShape({static_cast<int64_t>(values.size())}), values);
  for (DataType src : types) {
    const Tensor x = CastOnCpu(doubles, src);
    for (DataType dst : types) {
      for (bool truncate : {false, true}) {
        const NodeDef node = NodeDefBuilder("n", "Cast")
                                 .Input("x")
                                 .Attr("SrcT", src)
                                 .Attr("DstT", dst)
                                 .Attr("Truncate", truncate)
                                 .Build();
        Compare(node, {x}, Fixed({0, 0, 0, /*bitwise=*/true}));
      }
    }
  }
  // Empty tensors and scalars.
  const NodeDef to_half = NodeDefBuilder("n", "Cast")
                              .Input("x")
                              .Attr("SrcT", DT_FLOAT)
                              .Attr("DstT", DT_HALF)
                              .Attr("Truncate", false)
                              .Build();
  Compare(to_half, {Make(DT_FLOAT, TensorShape({0, 2}), {})}, Fixed({}));
  Compare(to_half, {Make(DT_FLOAT, TensorShape({}), {3.14159f})}, Fixed({}));
}

// ---- Softmax -------------------------------------------------------------------------------

Tolerance SoftmaxTolerance(bool log, DataType dtype) {
  if (dtype != DT_FLOAT) return {2, 0, 0};
  return log ? Tolerance{8, 4e-6, 0} : Tolerance{8, 0, 4e-6};
}

TEST_F(CwiseOpsGpuTest, SoftmaxAndLogSoftmax) {
  const TensorShape shapes[] = {TensorShape({7, 10}), TensorShape({3, 2000}),  TensorShape({5}),
                                TensorShape({4, 1}),  TensorShape({2, 3, 33}), TensorShape({0, 5}),
                                TensorShape({5, 0})};
  for (bool log : {false, true}) {
    const char* op = log ? "LogSoftmax" : "Softmax";
    for (DataType dtype : kFloatTypes) {
      const NodeDef node = NodeDefBuilder("n", op).Input("logits").Attr("T", dtype).Build();
      uint32_t seed = 400;
      for (const TensorShape& shape : shapes) {
        Compare(node, {Make(dtype, shape, Random(shape.num_elements(), seed++, -10, 10))},
                Fixed(SoftmaxTolerance(log, dtype)));
      }
      // Rows with NaN, +inf, only -inf, one -inf, large logits: TensorFlow's all-NaN rows.
      const float inf = std::numeric_limits<float>::infinity();
      const float nan = std::numeric_limits<float>::quiet_NaN();
      Compare(node,
              {Make(dtype, TensorShape({5, 3}),
                    {1, nan, 2, 1, inf, 2, -inf, -inf, -inf, -inf, 1, 2, 80, 85, 60})},
              Fixed(SoftmaxTolerance(log, dtype)));
      // A scalar: rank 0 is an error on both.
      Compare(node, {Make(dtype, TensorShape({}), {1})}, Fixed({}));
    }
  }
}

// ---- Reductions ----------------------------------------------------------------------------

struct ReductionCase {
  TensorShape shape;
  std::vector<int64_t> axes;
};

std::vector<ReductionCase> ReductionCases() {
  return {
      {TensorShape({4, 5, 6}), {0}},
      {TensorShape({4, 5, 6}), {1}},
      {TensorShape({4, 5, 6}), {2}},
      {TensorShape({4, 5, 6}), {0, 2}},
      {TensorShape({4, 5, 6}), {-1, 0}},
      {TensorShape({4, 5, 6}), {0, 1, 2}},
      {TensorShape({4, 5, 6}), {}},            // folds nothing: the input, reshaped
      {TensorShape({2, 3, 4, 5, 6}), {1, 3}},  // two passes
      {TensorShape({2, 3, 4, 5, 6}), {0, 2, 4}},
      {TensorShape({2, 1, 3}), {1}},     // a dim of 1 only
      {TensorShape({64, 3000}), {1}},    // a block per row
      {TensorShape({1000, 40}), {1}},    // a warp per row
      {TensorShape({3, 100000}), {1}},   // few long rows: chunked
      {TensorShape({100000, 3}), {0}},   // few long columns: chunked
      {TensorShape({0, 4}), {0}},        // empty reductions: the identity
      {TensorShape({0, 4}), {1}},        // empty output
      {TensorShape({0, 3, 5}), {0, 2}},  // a first pass with no outputs
      {TensorShape({3, 0, 5}), {1}},     // folds an empty dim between kept ones
      {TensorShape({}), {}},             // a scalar
      {TensorShape({4, 5}), {2}},        // error: out of range
      {TensorShape({4, 5}), {1, -1}},    // error: duplicate
  };
}

TEST_F(CwiseOpsGpuTest, Reductions) {
  for (const char* op : {"Sum", "Mean", "Max", "Min", "Prod"}) {
    const std::string name = op;
    const bool prod = name == "Prod";
    for (DataType dtype : kFloatTypes) {
      uint32_t seed = 500;
      for (const ReductionCase& c : ReductionCases()) {
        // Prod only over few elements, near 1, so that it neither overflows nor vanishes.
        if (prod && c.shape.num_elements() > 10000) continue;
        int64_t folded = 1;
        for (int64_t axis : c.axes) {
          if (axis >= -c.shape.dims() && axis < c.shape.dims()) {
            folded *= c.shape.dim_size(axis < 0 ? axis + c.shape.dims() : axis);
          }
        }
        Tolerance tol;
        if (name == "Sum" || name == "Mean") {
          tol.absolute = std::ldexp(1.0, -22) * static_cast<double>(folded) *
                         (name == "Mean" ? 1.0 / std::max<int64_t>(folded, 1) : 1.0);
          tol.ulps = dtype == DT_FLOAT ? 0 : 1;
        } else if (prod) {
          tol.relative = 1e-7 * static_cast<double>(folded);
          tol.ulps = dtype == DT_FLOAT ? 0 : 1;
        }
        const Tensor x =
            Make(dtype, c.shape,
                 Random(c.shape.num_elements(), seed++, prod ? 0.9f : -1.0f, prod ? 1.1f : 1.0f));
        for (bool keep_dims : {false, true}) {
          for (DataType index_type : {DT_INT32, DT_INT64}) {
            const NodeDef node = NodeDefBuilder("n", op)
                                     .Input("input")
                                     .Input("reduction_indices")
                                     .Attr("T", dtype)
                                     .Attr("Tidx", index_type)
                                     .Attr("keep_dims", keep_dims)
                                     .Build();
            const TensorShape axes_shape({static_cast<int64_t>(c.axes.size())});
            const Tensor axes =
                index_type == DT_INT32
                    ? MakeTensor<int32_t>(axes_shape,
                                          std::vector<int32_t>(c.axes.begin(), c.axes.end()))
                    : MakeTensor<int64_t>(axes_shape, c.axes);
            Compare(node, {x, axes}, Fixed(tol));
          }
        }
      }
    }
  }
}

// Max and Min propagate NaN wherever it is in the row or column; +-inf are ordinary values.
TEST_F(CwiseOpsGpuTest, MaxAndMinPropagateNaN) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  std::vector<float> v = Random(6 * 2000, 600);
  v[5] = nan;
  v[2000 + 1999] = nan;
  v[4000 + 7] = inf;
  v[6000 + 8] = -inf;
  for (const char* op : {"Max", "Min"}) {
    for (DataType dtype : kFloatTypes) {
      const NodeDef node = NodeDefBuilder("n", op)
                               .Input("input")
                               .Input("reduction_indices")
                               .Attr("T", dtype)
                               .Attr("Tidx", DT_INT32)
                               .Attr("keep_dims", false)
                               .Build();
      const Tensor x = Make(dtype, TensorShape({6, 2000}), v);
      Compare(node, {x, MakeTensor<int32_t>(TensorShape({}), {1})}, Fixed({}));
      const Tensor xt = Make(dtype, TensorShape({2000, 6}), v);
      Compare(node, {xt, MakeTensor<int32_t>(TensorShape({}), {0})}, Fixed({}));
    }
  }
}

// ---- FusedBatchNorm -------------------------------------------------------------------------

// Inference is one correctly rounded operation after another on both devices: bit for bit.
// Training sums in double in another order, so the statistics may differ in the last bit of
// float, and y through them.
TEST_F(CwiseOpsGpuTest, FusedBatchNormTrainingAndInference) {
  struct Case {
    TensorShape x;
    const char* format;
  };
  const Case cases[] = {
      {TensorShape({2, 5, 7, 3}), "NHWC"}, {TensorShape({2, 3, 5, 7}), "NCHW"},
      {TensorShape({1, 1, 1, 8}), "NHWC"}, {TensorShape({3, 2, 2, 4, 5}), "NHWC"},
      {TensorShape({0, 4, 4, 3}), "NHWC"},  // empty: NaN statistics
  };
  for (DataType dtype : kFloatTypes) {
    for (bool training : {false, true}) {
      for (float factor : {1.0f, 0.25f}) {
        for (const Case& c : cases) {
          const bool nhwc = std::string(c.format) == "NHWC";
          const NodeDef node = NodeDefBuilder("bn", "FusedBatchNormV3")
                                   .Input("x")
                                   .Input("scale")
                                   .Input("offset")
                                   .Input("mean")
                                   .Input("variance")
                                   .Attr("T", dtype)
                                   .Attr("U", DT_FLOAT)
                                   .Attr("epsilon", 0.001f)
                                   .Attr("exponential_avg_factor", factor)
                                   .Attr("data_format", std::string(c.format))
                                   .Attr("is_training", training)
                                   .Build();
          const int64_t channels = c.x.dim_size(nhwc ? c.x.dims() - 1 : 1);
          const TensorShape vec({channels});
          const Tensor x = Make(dtype, c.x, Random(c.x.num_elements(), 11, -4, 4));
          const Tensor scale = Make(DT_FLOAT, vec, Random(channels, 12, 0.5f, 2));
          const Tensor offset = Make(DT_FLOAT, vec, Random(channels, 13, -1, 1));
          const Tensor mean = Make(DT_FLOAT, vec, Random(channels, 14, -1, 1));
          const Tensor variance = Make(DT_FLOAT, vec, Random(channels, 15, 0.1f, 3));
          const Tolerance tolerance = training ? Tolerance{2, 0, 0} : Tolerance{};
          Compare(node, {x, scale, offset, mean, variance}, [&](int64_t) { return tolerance; });
        }
      }
    }
  }
}

TEST_F(CwiseOpsGpuTest, FusedBatchNormRejectsWhatTheCpuRejects) {
  const NodeDef node = NodeDefBuilder("bn", "FusedBatchNormV3")
                           .Input("x")
                           .Input("scale")
                           .Input("offset")
                           .Input("mean")
                           .Input("variance")
                           .Attr("T", DT_FLOAT)
                           .Attr("U", DT_FLOAT)
                           .Attr("is_training", false)
                           .Build();
  const Tensor x = Make(DT_FLOAT, TensorShape({1, 2, 2, 3}), Random(12, 1));
  const Tensor three = Make(DT_FLOAT, TensorShape({3}), {1, 1, 1});
  const Tensor two = Make(DT_FLOAT, TensorShape({2}), {1, 1});
  const Tensor matrix = Make(DT_FLOAT, TensorShape({1, 3}), {1, 1, 1});
  const auto exact = [](int64_t) { return Tolerance{}; };
  Compare(node, {Make(DT_FLOAT, TensorShape({2, 3}), Random(6, 1)), three, three, three, three},
          exact);
  Compare(node, {x, two, three, three, three}, exact);
  Compare(node, {x, three, matrix, three, three}, exact);
  Compare(node, {x, three, three, two, three}, exact);
  Compare(node, {x, three, three, three, two}, exact);
}

// ---- ArgMax and ArgMin --------------------------------------------------------------------

TEST_F(CwiseOpsGpuTest, ArgMaxAndArgMin) {
  const auto exact = [](int64_t) { return Tolerance{}; };
  for (const char* op : {"ArgMax", "ArgMin"}) {
    for (DataType dtype : kFloatTypes) {
      const NodeDef node = NodeDefBuilder("a", op)
                               .Input("x")
                               .Input("dimension")
                               .Attr("T", dtype)
                               .Attr("Tidx", DT_INT32)
                               .Attr("output_type", DT_INT64)
                               .Build();
      // Specials (NaN, +-inf) and repeated values (ties keep the first index).
      const TensorShape shape({4, 37, 5});
      std::vector<float> values = Random(shape.num_elements(), 21, -3, 3, 5);
      for (size_t i = 0; i < values.size(); i += 9) values[i] = 1.0f;
      const Tensor x = Make(dtype, shape, values);
      for (int32_t dim : {0, 1, 2, -1}) {
        Compare(node, {x, MakeTensor<int32_t>(TensorShape({}), {dim})}, exact);
      }
      const Tensor nan_row =
          Make(dtype, TensorShape({2, 3}), {NAN, NAN, NAN, -INFINITY, -INFINITY, -INFINITY});
      Compare(node, {nan_row, MakeTensor<int32_t>(TensorShape({}), {1})}, exact);
      // Empty output; errors: an empty reduced dim, a dim out of range, a non-scalar dim.
      const Tensor empty = Make(dtype, TensorShape({0, 3}), {});
      Compare(node, {empty, MakeTensor<int32_t>(TensorShape({}), {1})}, exact);
      Compare(node, {empty, MakeTensor<int32_t>(TensorShape({}), {0})}, exact);
      Compare(node, {x, MakeTensor<int32_t>(TensorShape({}), {3})}, exact);
      Compare(node, {x, MakeTensor<int32_t>(TensorShape({1}), {0})}, exact);
    }
  }
}

// ---- _FusedElementwise ---------------------------------------------------------------------

NodeDef FusedElementwiseNode(DataType dtype, int num_inputs, const std::vector<std::string>& ops,
                             const std::vector<int64_t>& operands) {
  NodeDefBuilder b("fused", "_FusedElementwise");
  for (int i = 0; i < num_inputs; ++i) b.Input(absl::StrCat("x", i));
  return b.Attr("T", dtype)
      .Attr("N", static_cast<int64_t>(num_inputs))
      .Attr("ops", ops)
      .Attr("operands", operands)
      .Build();
}

// The fused kernel applies each op's own GPU functor: bit for bit the unfused ops run one
// GPU kernel at a time. Also float against the CPU's fused kernel: 8 ulp, or 1e-6 absolute
// or 1e-5 relative (chains of CUDA's and Eigen's transcendental functions).
TEST_F(CwiseOpsGpuTest, FusedElementwiseIsTheUnfusedGpuOps) {
  struct Program {
    std::vector<std::string> ops;
    std::vector<int64_t> operands;
    std::vector<TensorShape> inputs;
  };
  const std::vector<Program> programs = {
      // Gelu after a bias, then Neg: a row and three scalars.
      {{"AddV2", "RealDiv", "Erf", "AddV2", "Mul", "Mul", "Neg"},
       {0, 1, 5, 2, 6, 3, 7, 4, 5, 9, 8, 10},
       {TensorShape({3, 517}), TensorShape({517}), TensorShape({}), TensorShape({}),
        TensorShape({1})}},
      // Layer normalisation's tail: runs ([8, 1]) and rows ([64]).
      {{"Sub", "Mul", "Mul", "AddV2"},
       {0, 1, 5, 2, 6, 3, 7, 4},
       {TensorShape({8, 64}), TensorShape({8, 1}), TensorShape({8, 1}), TensorShape({64}),
        TensorShape({64})}},
      // Every unary and binary op the program takes, on one value; results live across steps.
      {{"Square", "Sqrt", "Rsqrt", "Reciprocal", "Exp", "Log", "Tanh", "Sigmoid", "Erfc", "Relu",
        "Relu6", "Abs", "Neg", "Maximum", "Minimum", "SquaredDifference", "Sub", "Div"},
       {0, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 1, 15, 0, 16, 2, 17, 1, 18, 0},
       {TensorShape({2, 3, 100}), TensorShape({2, 3, 100})}},
  };
  uint32_t seed = 900;
  for (const Program& p : programs) {
    const int n = static_cast<int>(p.inputs.size());
    for (const DataType dtype : kFloatTypes) {
      std::vector<Tensor> inputs;
      for (const TensorShape& shape : p.inputs) {
        inputs.push_back(
            Make(dtype, shape,
                 Random(shape.num_elements(), seed++, 0.1f, 3.0f, inputs.empty() ? 37 : 0)));
      }
      const NodeDef fused = FusedElementwiseNode(dtype, n, p.ops, p.operands);
      std::vector<Tensor> fused_out;
      const absl::Status s = runner().Run(runner().gpu(), fused, inputs, &fused_out);
      ASSERT_TRUE(s.ok()) << Describe(fused, inputs) << ": " << s;
      // The ops one at a time on the GPU.
      std::vector<Tensor> values = inputs;
      size_t next = 0;
      for (const std::string& op : p.ops) {
        NodeDefBuilder b("op", op);
        std::vector<Tensor> args;
        for (int j = 0; j < FusedElementwiseArity(op); ++j) {
          b.Input(absl::StrCat("x", j));
          args.push_back(values[p.operands[next++]]);
        }
        std::vector<Tensor> out;
        const absl::Status step =
            runner().Run(runner().gpu(), b.Attr("T", dtype).Build(), args, &out);
        ASSERT_TRUE(step.ok()) << op << ": " << step;
        values.push_back(out[0]);
      }
      const Tensor& want = values.back();
      ASSERT_EQ(fused_out[0].shape(), want.shape());
      int failures = 0;
      for (int64_t i = 0; i < want.NumElements() && failures < 5; ++i) {
        if (!Close(fused_out[0], want, i, Tolerance{0, 0, 0, /*bitwise=*/true})) {
          ++failures;
          ADD_FAILURE() << Describe(fused, inputs) << " element " << i << ": fused "
                        << ValueAt(fused_out[0], i) << ", unfused " << ValueAt(want, i);
        }
      }
      if (dtype == DT_FLOAT) Compare(fused, inputs, Fixed({8, 1e-6, 1e-5}));
    }
  }
}

// The CPU kernel's checks, with its messages: an input that does not broadcast, a unary op
// on a value broadcast afterwards.
TEST_F(CwiseOpsGpuTest, FusedElementwiseRejectsWhatTheCpuRejects) {
  const Tensor x = Make(DT_FLOAT, TensorShape({4, 6}), Random(24, 1));
  const Tensor column = Make(DT_FLOAT, TensorShape({6, 1}), Random(6, 2));
  Compare(FusedElementwiseNode(DT_FLOAT, 2, {"AddV2"}, {0, 1}), {x, column}, Fixed({}));
  const Tensor row = Make(DT_FLOAT, TensorShape({6}), Random(6, 3));
  Compare(FusedElementwiseNode(DT_FLOAT, 2, {"Exp", "AddV2"}, {1, 0, 2}), {x, row}, Fixed({}));
}

}  // namespace
}  // namespace test
}  // namespace sluice
