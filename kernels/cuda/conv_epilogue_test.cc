// A fused convolution's epilogue (conv_epilogue.h), compiled for the host, against the
// unfused ops it stands for run by Sluice's CPU kernels: BiasAdd or FusedBatchNormV3
// (inference), AddV2 of a residual, then Relu, Relu6, Elu, LeakyRelu or Sigmoid and Mul
// (swish), in float, half and bfloat16.
//
// Bit for bit (a NaN meeting a NaN) where no transcendental function is involved: the bias,
// batch norm, the residual add, Relu, Relu6 and LeakyRelu. Elu and swish call exp, which is
// the C library's here (CUDA's on the device) and Eigen's vectorised one in the CPU kernels:
// within 1e-6 + 1e-6 |cpu| in float, an ulp of the type in half and bfloat16.
#include "kernels/cuda/conv_epilogue.h"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "Eigen/Core"
#include "absl/strings/str_cat.h"
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

using test::NodeDefBuilder;

struct FloatCase {
  using Cpu = float;
  using S = float;
  static constexpr DataType kType = DT_FLOAT;
  static constexpr double kUlpOfOne = 0x1p-23;
};
struct HalfCase {
  using Cpu = Eigen::half;
  using S = Half;
  static constexpr DataType kType = DT_HALF;
  static constexpr double kUlpOfOne = 0x1p-10;
};
struct BFloat16Case {
  using Cpu = Eigen::bfloat16;
  using S = BFloat16;
  static constexpr DataType kType = DT_BFLOAT16;
  static constexpr double kUlpOfOne = 0x1p-7;
};

// [batch, rows, cols, channels]: 512 elements, a multiple of every packet size, so that each
// element takes the CPU kernels' vectorised path.
constexpr int64_t kChannels = 8;
const TensorShape& DataShape() {
  static const TensorShape* shape = new TensorShape({2, 4, 8, kChannels});
  return *shape;
}

// Values rounded to the case's type: uniform in [lo, hi], with the special values first.
template <typename Case>
Tensor RandomValues(const TensorShape& shape, float lo, float hi, uint32_t seed, bool special) {
  using Cpu = typename Case::Cpu;
  std::vector<float> values;
  if (special) {
    const float inf = std::numeric_limits<float>::infinity();
    values = {0.0f, -0.0f, inf, -inf, std::nanf(""), 6.0f, -6.0f, 5.99f, 6.01f, 1e-3f, -1e-3f};
  }
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> uniform(lo, hi);
  while (static_cast<int64_t>(values.size()) < shape.num_elements()) values.push_back(uniform(rng));
  values.resize(shape.num_elements());
  Tensor t(Case::kType, shape);
  for (int64_t i = 0; i < shape.num_elements(); ++i) t.flat<Cpu>()(i) = static_cast<Cpu>(values[i]);
  return t;
}

// A tensor of the case's type as floats (for FusedBatchNormV3's U).
template <typename Case>
Tensor Widened(const Tensor& t) {
  Tensor out(DT_FLOAT, t.shape());
  for (int64_t i = 0; i < t.NumElements(); ++i) {
    out.flat<float>()(i) = static_cast<float>(t.flat<typename Case::Cpu>()(i));
  }
  return out;
}

template <typename Case>
float Widen(const Tensor& t, int64_t i) {
  return static_cast<float>(t.flat<typename Case::Cpu>()(i));
}

struct EpilogueCase {
  ConvEpilogue epilogue;
  std::string name;
};

std::vector<EpilogueCase> Cases() {
  std::vector<EpilogueCase> cases;
  const std::pair<ConvActivation, const char*> activations[] = {
      {ConvActivation::kNone, "none"},           {ConvActivation::kRelu, "Relu"},
      {ConvActivation::kRelu6, "Relu6"},         {ConvActivation::kElu, "Elu"},
      {ConvActivation::kLeakyRelu, "LeakyRelu"}, {ConvActivation::kSwish, "swish"}};
  for (const char* post : {"BiasAdd", "FusedBatchNorm", "BiasAdd+Add"}) {
    for (const auto& [activation, name] : activations) {
      EpilogueCase c;
      c.epilogue.batch_norm = std::string(post) == "FusedBatchNorm";
      c.epilogue.add = std::string(post) == "BiasAdd+Add";
      c.epilogue.activation = activation;
      c.epilogue.leakyrelu_alpha = 0.3f;
      c.epilogue.epsilon = 1e-3f;
      c.name = absl::StrCat(post, " ", name);
      cases.push_back(c);
    }
  }
  return cases;
}

class ConvEpilogueTest : public test::KernelTest {
 protected:
  // Output 0 of `node` on `inputs`, run by the CPU kernel.
  Tensor Run(const NodeDef& node, const std::vector<Tensor>& inputs) {
    const absl::Status init = InitOp(node);
    EXPECT_TRUE(init.ok()) << node.op() << ": " << init;
    for (const Tensor& t : inputs) AddInput(t);
    const absl::Status run = RunOpKernel();
    EXPECT_TRUE(run.ok()) << node.op() << ": " << run;
    return run.ok() ? *GetOutput(0) : Tensor();
  }

  NodeDef Node(const std::string& op, int inputs, DataType type) {
    NodeDefBuilder b("n", op);
    for (int i = 0; i < inputs; ++i) b.Input(absl::StrCat("x", i));
    return b.Attr("T", type).Build();
  }

  // The unfused ops on the CPU.
  template <typename Case>
  Tensor RunUnfused(const ConvEpilogue& e, const Tensor& x, const std::vector<Tensor>& args,
                    const Tensor& addend) {
    const DataType type = Case::kType;
    Tensor v;
    if (e.batch_norm) {
      v = Run(NodeDefBuilder("n", "FusedBatchNormV3")
                  .Input("x")
                  .Input("scale")
                  .Input("offset")
                  .Input("mean")
                  .Input("variance")
                  .Attr("T", type)
                  .Attr("U", DT_FLOAT)
                  .Attr("epsilon", e.epsilon)
                  .Attr("is_training", false)
                  .Build(),
              {x, Widened<Case>(args[0]), Widened<Case>(args[1]), Widened<Case>(args[2]),
               Widened<Case>(args[3])});
    } else {
      v = Run(Node("BiasAdd", 2, type), {x, args[0]});
    }
    if (e.add) v = Run(Node("AddV2", 2, type), {v, addend});
    switch (e.activation) {
      case ConvActivation::kNone:
        return v;
      case ConvActivation::kRelu:
        return Run(Node("Relu", 1, type), {v});
      case ConvActivation::kRelu6:
        return Run(Node("Relu6", 1, type), {v});
      case ConvActivation::kElu:
        return Run(Node("Elu", 1, type), {v});
      case ConvActivation::kLeakyRelu:
        return Run(NodeDefBuilder("n", "LeakyRelu")
                       .Input("x")
                       .Attr("T", type)
                       .Attr("alpha", e.leakyrelu_alpha)
                       .Build(),
                   {v});
      case ConvActivation::kSwish: {
        const Tensor sigmoid = Run(Node("Sigmoid", 1, type), {v});
        return Run(Node("Mul", 2, type), {v, sigmoid});
      }
    }
    return v;
  }

  template <typename Case>
  void Check() {
    using S = typename Case::S;
    using Cpu = typename Case::Cpu;
    const TensorShape channels({kChannels});
    const Tensor x = RandomValues<Case>(DataShape(), -8, 8, 1, /*special=*/true);
    const Tensor addend = RandomValues<Case>(DataShape(), -2, 2, 2, /*special=*/false);
    const std::vector<Tensor> bias = {RandomValues<Case>(channels, -1, 1, 3, false)};
    const std::vector<Tensor> batch_norm = {RandomValues<Case>(channels, 0.5f, 2, 4, false),
                                            RandomValues<Case>(channels, -1, 1, 5, false),
                                            RandomValues<Case>(channels, -1, 1, 6, false),
                                            RandomValues<Case>(channels, 0.1f, 3, 7, false)};
    for (const EpilogueCase& c : Cases()) {
      const std::vector<Tensor>& args = c.epilogue.batch_norm ? batch_norm : bias;
      const Tensor expected = RunUnfused<Case>(c.epilogue, x, args, addend);
      ASSERT_EQ(expected.NumElements(), x.NumElements()) << c.name;
      const bool exact = c.epilogue.activation != ConvActivation::kElu &&
                         c.epilogue.activation != ConvActivation::kSwish;
      const double tolerance = std::is_same_v<S, float> ? 1e-6 : Case::kUlpOfOne;
      int failures = 0;
      const numerics::ScopedFlushDenormals flush;  // as the device code and the CPU kernels
      for (int64_t i = 0; i < x.NumElements() && failures < 5; ++i) {
        float arg[4];
        for (size_t k = 0; k < args.size(); ++k) arg[k] = Widen<Case>(args[k], i % kChannels);
        const S got_bits =
            ConvEpilogueValue<S>(c.epilogue, Widen<Case>(x, i), arg, Widen<Case>(addend, i));
        Cpu got_cpu;
        std::memcpy(static_cast<void*>(&got_cpu), &got_bits, sizeof(got_cpu));
        const float got = static_cast<float>(got_cpu);
        const float want = Widen<Case>(expected, i);
        bool ok;
        if (std::isnan(got) || std::isnan(want)) {
          ok = std::isnan(got) && std::isnan(want);
        } else if (exact) {
          ok = std::memcmp(&got, &want, sizeof(got)) == 0;
        } else {
          ok = got == want || std::fabs(got - want) <= tolerance * (1 + std::fabs(want));
        }
        if (!ok) {
          ++failures;
          ADD_FAILURE() << DataTypeString(Case::kType) << " " << c.name << ": element " << i
                        << " (x = " << Widen<Case>(x, i) << ") is " << got << ", the CPU gives "
                        << want;
        }
      }
    }
  }
};

TEST_F(ConvEpilogueTest, FloatMatchesTheUnfusedCpuKernels) { Check<FloatCase>(); }
TEST_F(ConvEpilogueTest, HalfMatchesTheUnfusedCpuKernels) { Check<HalfCase>(); }
TEST_F(ConvEpilogueTest, BFloat16MatchesTheUnfusedCpuKernels) { Check<BFloat16Case>(); }

}  // namespace
}  // namespace cuda
}  // namespace sluice
