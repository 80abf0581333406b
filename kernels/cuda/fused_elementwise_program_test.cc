// A GPU `_FusedElementwise` program (elementwise_program_builder.h, fused_elementwise_program.h),
// built and evaluated on the host, against Sluice's CPU kernels: the CPU `_FusedElementwise`
// in float, and the unfused ops one by one in half and bfloat16 (the CPU fused kernel has
// no 16-bit types). Programs cover every broadcast layout and results that stay live across
// steps (slots reused).
//
// Bit for bit (a NaN meeting a NaN) for programs of arithmetic only; with Erf (the C
// library's erff here, Eigen's in the CPU kernel), within 1e-6 (1 + |cpu|) in float and an
// ulp of the type in half and bfloat16.
#include "kernels/cuda/fused_elementwise_program.h"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "Eigen/Core"
#include "absl/strings/str_cat.h"
#include "graph/core/tensor.h"
#include "graph/core/types.h"
#include "graph/ops/fused_elementwise_spec.h"
#include "gtest/gtest.h"
#include "kernels/cpu/cwise/fused_elementwise_plan.h"
#include "kernels/cuda/elementwise_program_builder.h"
#include "kernels/cuda/half_bits.h"
#include "kernels/kernel_test_util.h"
#include "numerics/float_environment.h"
#include "runtime/framework/op_kernel_test_util.h"

namespace sluice {
namespace cuda {
namespace {

using test::NodeDefBuilder;

// Uniform values in [lo, hi], the first a NaN where `nan_first` (it travels through each op).
Tensor RandomTensor(DataType dtype, const TensorShape& shape, float lo, float hi, uint32_t seed,
                    bool nan_first) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> uniform(lo, hi);
  Tensor t(dtype, shape);
  for (int64_t i = 0; i < t.NumElements(); ++i) {
    const float v = i == 0 && nan_first ? std::nanf("") : uniform(rng);
    if (dtype == DT_FLOAT) t.flat<float>()(i) = v;
    if (dtype == DT_HALF) t.flat<Eigen::half>()(i) = static_cast<Eigen::half>(v);
    if (dtype == DT_BFLOAT16) t.flat<Eigen::bfloat16>()(i) = static_cast<Eigen::bfloat16>(v);
  }
  return t;
}

float ElementAsFloat(const Tensor& t, int64_t i) {
  switch (t.dtype()) {
    case DT_HALF:
      return static_cast<float>(t.flat<Eigen::half>()(i));
    case DT_BFLOAT16:
      return static_cast<float>(t.flat<Eigen::bfloat16>()(i));
    default:
      return t.flat<float>()(i);
  }
}

struct Program {
  std::string name;
  std::vector<std::string> ops;
  std::vector<int64_t> operands;
  std::vector<TensorShape> inputs;  // input 0 has the output's shape
  bool arithmetic_only;
};

std::vector<Program> Programs() {
  return {
      // Keras' exact Gelu after a bias, then Neg: x [4, 16], bias [16] (a row), sqrt(2), 1
      // and 0.5 (scalars). The biased value is read by two later steps.
      {"gelu",
       {"AddV2", "RealDiv", "Erf", "AddV2", "Mul", "Mul", "Neg"},
       {0, 1, 5, 2, 6, 3, 7, 4, 5, 9, 8, 10},
       {TensorShape({4, 16}), TensorShape({16}), TensorShape({}), TensorShape({}),
        TensorShape({1})},
       false},
      // Layer normalisation's tail: (x - mean) * inv * gamma + beta, with per-row mean and
      // inv ([4, 1]: runs) and per-column gamma and beta ([16]: rows).
      {"layer norm tail",
       {"Sub", "Mul", "Mul", "AddV2"},
       {0, 1, 5, 2, 6, 3, 7, 4},
       {TensorShape({4, 16}), TensorShape({4, 1}), TensorShape({4, 1}), TensorShape({16}),
        TensorShape({16})},
       true},
      // Several results live at once: p = x*y; q = (p - (x+y)) / max(x, y); then
      // square(min(q, (x-y)^2)) - p, the product read again by the last step; y [4, 16] is a
      // row of x [2, 4, 16].
      {"live values",
       {"Mul", "AddV2", "Sub", "Maximum", "RealDiv", "SquaredDifference", "Minimum", "Square",
        "Sub"},
       {0, 1, 0, 1, 2, 3, 0, 1, 4, 5, 0, 1, 6, 7, 8, 9, 2},
       {TensorShape({2, 4, 16}), TensorShape({4, 16})},
       true},
  };
}

class FusedElementwiseProgramTest : public test::KernelTest {
 protected:
  Tensor Run(const NodeDef& node, const std::vector<Tensor>& inputs) {
    const absl::Status init = InitOp(node);
    EXPECT_TRUE(init.ok()) << node.op() << ": " << init;
    for (const Tensor& t : inputs) AddInput(t);
    const absl::Status run = RunOpKernel();
    EXPECT_TRUE(run.ok()) << node.op() << ": " << run;
    return run.ok() ? *GetOutput(0) : Tensor();
  }

  // The CPU `_FusedElementwise` (float), or its ops one kernel at a time.
  Tensor RunCpu(const Program& p, const std::vector<Tensor>& inputs, bool fused) {
    const DataType dtype = inputs[0].dtype();
    if (fused) {
      NodeDefBuilder b("n", "_FusedElementwise");
      for (size_t i = 0; i < inputs.size(); ++i) b.Input(absl::StrCat("x", i));
      return Run(b.Attr("T", dtype)
                     .Attr("N", static_cast<int64_t>(inputs.size()))
                     .Attr("ops", p.ops)
                     .Attr("operands", p.operands)
                     .Build(),
                 inputs);
    }
    std::vector<Tensor> values = inputs;
    size_t next = 0;
    for (const std::string& op : p.ops) {
      const int arity = FusedElementwiseArity(op);
      NodeDefBuilder b("n", op);
      std::vector<Tensor> args;
      for (int j = 0; j < arity; ++j) {
        b.Input(absl::StrCat("x", j));
        args.push_back(values[p.operands[next++]]);
      }
      values.push_back(Run(b.Attr("T", dtype).Build(), args));
    }
    return values.back();
  }

  // `tolerance`: relative to 1 + |cpu|, for programs with a transcendental function.
  template <typename S>
  void Check(DataType dtype, double tolerance) {
    for (const Program& p : Programs()) {
      std::vector<Tensor> inputs;
      uint32_t seed = 11;
      for (const TensorShape& shape : p.inputs) {
        inputs.push_back(RandomTensor(dtype, shape, 0.25f, 3.0f, seed++, inputs.empty()));
      }
      const Tensor expected = RunCpu(p, inputs, dtype == DT_FLOAT);
      ASSERT_EQ(expected.shape(), inputs[0].shape()) << p.name;

      auto steps = ParseFusedElementwiseProgram(static_cast<int>(inputs.size()), p.ops, p.operands);
      ASSERT_TRUE(steps.ok()) << steps.status();
      ElementwiseProgram program;
      ASSERT_TRUE(BuildElementwiseProgram(*steps, static_cast<int>(inputs.size()), &program).ok());
      std::vector<const TensorShape*> shapes;
      for (const Tensor& t : inputs) shapes.push_back(&t.shape());
      std::vector<ElementwiseInputLayout> layouts;
      ASSERT_TRUE(ElementwiseLayouts("n", shapes, &layouts).ok());
      for (size_t i = 0; i < inputs.size(); ++i) {
        SetElementwiseInput(static_cast<int>(i), layouts[i], inputs[i].raw_data(), &program);
      }
      const numerics::ScopedFlushDenormals flush;  // as the device code and the CPU kernels
      int failures = 0;
      for (int64_t e = 0; e < expected.NumElements() && failures < 5; ++e) {
        const S bits = EvaluateElementwise<S>(program, e);
        const float got = Load<S>(bits);
        const float want = ElementAsFloat(expected, e);
        bool ok;
        if (std::isnan(got) || std::isnan(want)) {
          ok = std::isnan(got) && std::isnan(want);
        } else if (p.arithmetic_only) {
          ok = std::memcmp(&got, &want, sizeof(got)) == 0;
        } else {
          ok = std::fabs(got - want) <= tolerance * (1 + std::fabs(want));
        }
        if (!ok) {
          ++failures;
          ADD_FAILURE() << DataTypeString(dtype) << " " << p.name << ": element " << e << " is "
                        << got << ", the CPU gives " << want;
        }
      }
    }
  }
};

TEST_F(FusedElementwiseProgramTest, FloatMatchesTheCpuFusedKernel) { Check<float>(DT_FLOAT, 1e-6); }

TEST_F(FusedElementwiseProgramTest, HalfMatchesTheUnfusedCpuKernels) {
  Check<Half>(DT_HALF, 0x1p-10);
}

TEST_F(FusedElementwiseProgramTest, BFloat16MatchesTheUnfusedCpuKernels) {
  Check<BFloat16>(DT_BFLOAT16, 0x1p-7);
}

// The launch argument's size limits, and the slots of a chain: each result is read by the
// next step only, so one slot serves them all.
TEST_F(FusedElementwiseProgramTest, ProgramLimitsAndSlots) {
  std::vector<std::string> ops(kMaxElementwiseSteps + 1, "Neg");
  std::vector<int64_t> operands;
  for (int k = 0; k < kMaxElementwiseSteps + 1; ++k) operands.push_back(k);
  auto steps = ParseFusedElementwiseProgram(1, ops, operands);
  ASSERT_TRUE(steps.ok()) << steps.status();
  ElementwiseProgram program;
  EXPECT_EQ(BuildElementwiseProgram(*steps, 1, &program).code(), absl::StatusCode::kUnimplemented);
  steps->pop_back();
  ASSERT_TRUE(BuildElementwiseProgram(*steps, 1, &program).ok());
  EXPECT_EQ(program.num_steps, kMaxElementwiseSteps);
  EXPECT_EQ(program.steps[0].operands[0], 0);  // the input
  for (int k = 0; k + 1 < kMaxElementwiseSteps; ++k) {
    EXPECT_LE(program.steps[k].result_slot, 1) << k;
    EXPECT_GE(program.steps[k].result_slot, 0) << k;
    EXPECT_EQ(program.steps[k + 1].operands[0], -(program.steps[k].result_slot + 1)) << k;
  }
  EXPECT_EQ(program.steps[kMaxElementwiseSteps - 1].result_slot, -1);  // the output
}

}  // namespace
}  // namespace cuda
}  // namespace sluice
