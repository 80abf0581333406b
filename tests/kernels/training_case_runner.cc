// The main() of //kernels/cpu/training:training_conformance_test: replays
// tests/kernels/fixtures/training.pbtxt (written by tests/kernels/gen_training.py from
// TensorFlow) through Sluice's training, scatter and gather kernels, one GoogleTest test per
// case.
//
// A case is one op run for several steps on variables. Its leading ref (or resource) inputs
// are the variables: the harness makes a Var for each distinct input name, fills it with the
// recorded initial value (or leaves it uninitialized, for an empty TensorProto) and feeds it
// as a ref (or, for resource inputs, puts it in the resource manager and feeds a handle; an
// uninitialized resource variable is not created at all, as TensorFlow never creates one
// before its first assignment). Each step then feeds the recorded inputs and runs the kernel;
// afterwards the op's non-ref outputs and every variable must equal TensorFlow's values
// within the case's tolerance (NaN for NaN). A ref form must output the ref of its first
// input. When TensorFlow raised at some step, the earlier steps must match and that step
// must fail with TensorFlow's code, its message containing error_substr.
//
// Usage: a test binary linking this runner, the OpDefs and the kernels, run with the fixture
// file as its argument (the BUILD rule passes it).
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/synchronization/mutex.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_proto.h"
#include "graph/core/tensor_types.h"
#include "graph/core/types.h"
#include "graph/import/graph_def_io.h"
#include "gtest/gtest.h"
#include "kernels/kernel_test_util.h"
#include "runtime/framework/resource_var.h"
#include "tests/kernels/op_case.pb.h"

namespace sluice {
namespace test {
namespace {

constexpr char kContainer[] = "training";

double ElementAsDouble(const Tensor& t, int64_t i) {
  switch (t.dtype()) {
    case DT_FLOAT:
      return t.base<float>()[i];
    case DT_DOUBLE:
      return t.base<double>()[i];
    case DT_HALF:
      return static_cast<float>(t.base<half>()[i]);
    case DT_BFLOAT16:
      return static_cast<float>(t.base<bfloat16>()[i]);
    default:
      return 0;
  }
}

bool IsFloating(DataType dtype) {
  return dtype == DT_FLOAT || dtype == DT_DOUBLE || dtype == DT_HALF || dtype == DT_BFLOAT16;
}

// Mismatches between `got` and TensorFlow's `want`, at most 8 listed.
std::vector<std::string> Mismatches(const Tensor& got, const Tensor& want, double rtol,
                                    double atol) {
  std::vector<std::string> out;
  if (got.dtype() != want.dtype() || got.shape() != want.shape()) {
    out.push_back(absl::StrCat("got ", DataTypeString(got.dtype()), got.shape().DebugString(),
                               ", TensorFlow ", DataTypeString(want.dtype()),
                               want.shape().DebugString()));
    return out;
  }
  if (want.dtype() == DT_STRING) {
    for (int64_t i = 0; i < want.NumElements() && out.size() < 8; ++i) {
      const std::string& g = got.base<std::string>()[i];
      const std::string& w = want.base<std::string>()[i];
      if (g != w) out.push_back(absl::StrCat("[", i, "] got \"", g, "\", TensorFlow \"", w, "\""));
    }
    return out;
  }
  if (!IsFloating(want.dtype())) {
    if (got.tensor_data() != want.tensor_data()) out.push_back("elements differ");
    return out;
  }
  for (int64_t i = 0; i < want.NumElements() && out.size() < 8; ++i) {
    const double g = ElementAsDouble(got, i);
    const double w = ElementAsDouble(want, i);
    const bool match = std::isnan(w) ? std::isnan(g)
                       : std::isinf(w)
                           ? g == w
                           : std::isfinite(g) && std::fabs(g - w) <= atol + rtol * std::fabs(w);
    if (!match) out.push_back(absl::StrCat("[", i, "] got ", g, ", TensorFlow ", w));
  }
  return out;
}

class TrainingCaseTest : public KernelTest {
 public:
  explicit TrainingCaseTest(const OpCase* op_case) : case_(*op_case) {}
  ~TrainingCaseTest() override {
    for (auto& [name, var] : ref_vars_) var->Unref();
  }

  void TestBody() override {
    SCOPED_TRACE(absl::StrCat("case ", case_.name(), ": ", case_.node().op()));
    ASSERT_TRUE(InitOp(case_.node()).ok()) << InitOp(case_.node());
    const int num_inputs = kernel()->num_inputs();
    int num_vars = 0;
    while (num_vars < num_inputs && (IsRefType(kernel()->input_type(num_vars)) ||
                                     kernel()->input_type(num_vars) == DT_RESOURCE)) {
      ++num_vars;
    }
    ASSERT_GT(num_vars, 0);
    resource_ = kernel()->input_type(0) == DT_RESOURCE;
    const int per_step = num_inputs - num_vars;
    ASSERT_EQ((case_.inputs_size() - num_vars) % per_step, 0) << "inputs in the fixture";
    const int steps = (case_.inputs_size() - num_vars) / per_step;
    int outputs_per_step = num_vars;
    for (int i = 0; i < kernel()->num_outputs(); ++i) {
      if (!IsRefType(kernel()->output_type(i))) ++outputs_per_step;
    }

    for (int i = 0; i < num_vars; ++i) {
      const bool initialized = case_.inputs(i).dtype() != DT_INVALID;
      Tensor initial;
      if (initialized) ASSERT_TRUE(TensorFromProto(case_.inputs(i), &initial).ok());
      MakeVariable(case_.node().input(i), initialized, initial);
    }

    int next_output = 0;
    for (int step = 0; step < steps; ++step) {
      SCOPED_TRACE(absl::StrCat("step ", step + 1));
      ASSERT_TRUE(InitOp(case_.node()).ok());
      for (int i = 0; i < num_vars; ++i) AddVariableInput(case_.node().input(i));
      for (int i = 0; i < per_step; ++i) {
        Tensor input;
        ASSERT_TRUE(TensorFromProto(case_.inputs(num_vars + step * per_step + i), &input).ok());
        AddInput(input);
      }
      const absl::Status status = RunOpKernel();
      const bool last_step = step == steps - 1;
      if (last_step && case_.error_code() != 0) {
        ExpectError(status);
        return;
      }
      ASSERT_TRUE(status.ok()) << "TensorFlow ran this step; Sluice failed: " << status;
      if (!resource_) {
        EXPECT_EQ(GetOutputValue(0).tensor, ref_vars_[case_.node().input(0)]->tensor())
            << "the ref form outputs its variable's ref";
      }
      std::vector<Tensor> got;
      for (int i = 0; i < kernel()->num_outputs(); ++i) {
        if (!IsRefType(kernel()->output_type(i))) got.push_back(*GetOutput(i));
      }
      for (int i = 0; i < num_vars; ++i) got.push_back(VariableValue(case_.node().input(i)));
      ASSERT_LE(next_output + outputs_per_step, case_.outputs_size());
      for (int i = 0; i < outputs_per_step; ++i) {
        Tensor want;
        ASSERT_TRUE(TensorFromProto(case_.outputs(next_output++), &want).ok());
        const std::vector<std::string> bad = Mismatches(got[i], want, case_.rtol(), case_.atol());
        EXPECT_TRUE(bad.empty()) << (i < outputs_per_step - num_vars
                                         ? absl::StrCat("output ", i)
                                         : absl::StrCat("variable ",
                                                        case_.node().input(
                                                            i - (outputs_per_step - num_vars))))
                                 << " (rtol " << case_.rtol() << "): " << absl::StrJoin(bad, "; ");
      }
    }
    EXPECT_EQ(next_output, case_.outputs_size());
  }

 private:
  // Makes the variable `name` once (an input may name it again), holding `initial` when
  // `initialized`.
  void MakeVariable(const std::string& name, bool initialized, const Tensor& initial) {
    if (resource_) {
      if (!initialized) return;  // TensorFlow creates it on the first assignment
      Var* var = new Var(initial.dtype());
      {
        absl::MutexLock lock(var->mu());
        var->SetValue(initial);
      }
      // An existing one (the same variable named twice) is kept.
      resource_manager()->Create(kContainer, VarName(name), var).IgnoreError();
      return;
    }
    if (ref_vars_.count(name) > 0) return;
    // An uninitialized ref needs its dtype: the kernel's T, which every variable has.
    Var* var = new Var(initialized ? initial.dtype() : BaseType(kernel()->input_type(0)));
    if (initialized) {
      absl::MutexLock lock(var->mu());
      var->SetValue(initial);
    }
    ref_vars_[name] = var;
  }

  void AddVariableInput(const std::string& name) {
    if (resource_) {
      AddResourceInput<Var>(kContainer, VarName(name));
    } else {
      Var* var = ref_vars_[name];
      AddRefInput(var->mu(), var->tensor());
    }
  }

  Tensor VariableValue(const std::string& name) {
    Var* var = nullptr;
    if (resource_) {
      if (!resource_manager()->Lookup(kContainer, VarName(name), &var).ok()) return Tensor();
    } else {
      var = ref_vars_[name];
      var->Ref();
    }
    Tensor value;
    {
      absl::MutexLock lock(var->mu());
      value = *var->tensor();
    }
    var->Unref();
    return value;
  }

  std::string VarName(const std::string& input) const { return case_.name() + "/" + input; }

  void ExpectError(const absl::Status& status) {
    const auto want = static_cast<absl::StatusCode>(case_.error_code());
    ASSERT_FALSE(status.ok()) << "TensorFlow raised " << absl::StatusCodeToString(want) << ": "
                              << case_.error_message() << "; Sluice succeeded";
    EXPECT_EQ(status.code(), want)
        << "Sluice: " << status << "\nTensorFlow: " << case_.error_message();
    if (!case_.error_substr().empty()) {
      EXPECT_NE(std::string(status.message()).find(case_.error_substr()), std::string::npos)
          << "Sluice's message lacks \"" << case_.error_substr() << "\": " << status;
    }
  }

  const OpCase& case_;
  bool resource_ = false;
  std::map<std::string, Var*> ref_vars_;
};

}  // namespace
}  // namespace test
}  // namespace sluice

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  if (argc != 2) {
    fprintf(stderr, "usage: %s FIXTURE.pbtxt\n", argv[0]);
    return 2;
  }
  // Owned for the whole run: the registered tests point into it.
  static sluice::test::OpCases cases;
  const absl::Status status = sluice::ReadTextProtoFile(argv[1], &cases);
  if (!status.ok()) {
    fprintf(stderr, "cannot read fixture %s: %s\n", argv[1], status.ToString().c_str());
    return 2;
  }
  for (const sluice::test::OpCase& op_case : cases.cases()) {
    const sluice::test::OpCase* c = &op_case;
    ::testing::RegisterTest(
        "training", op_case.name().c_str(), nullptr, nullptr, __FILE__, __LINE__,
        [c]() -> ::testing::Test* { return new sluice::test::TrainingCaseTest(c); });
  }
  return RUN_ALL_TESTS();
}
