// What the TensorFlow fixture (training_conformance_test) cannot show: how the kernels share
// variables with their readers (copy-on-write of resource variables, in-place updates of
// refs), the parallel path of large updates, the same variable given twice, and Sluice's
// answers where TensorFlow's kernels crash or read out of bounds.
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "absl/synchronization/mutex.h"
#include "gmock/gmock.h"
#include "graph/core/tensor.h"
#include "graph/core/types.h"
#include "gtest/gtest.h"
#include "kernels/kernel_test_util.h"
#include "runtime/framework/resource_var.h"

namespace sluice {
namespace test {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

constexpr char kContainer[] = "c";

class TrainingOpsTest : public KernelTest {
 protected:
  ~TrainingOpsTest() override {
    for (Var* var : ref_vars_) var->Unref();
  }

  // A resource variable `name` holding `value`.
  void ResourceVariable(const std::string& name, const Tensor& value) {
    Var* var = new Var(value.dtype());
    {
      absl::MutexLock lock(var->mu());
      var->SetValue(value);
    }
    ASSERT_TRUE(resource_manager()->Create(kContainer, name, var).ok());
  }

  // The value of resource variable `name` (sharing its buffer).
  Tensor ResourceValue(const std::string& name) {
    Var* var = nullptr;
    EXPECT_TRUE(resource_manager()->Lookup(kContainer, name, &var).ok());
    Tensor value;
    {
      absl::MutexLock lock(var->mu());
      value = *var->tensor();
    }
    var->Unref();
    return value;
  }

  // A ref variable holding `value` (uninitialized without one), owned by the test.
  Var* RefVariable(const Tensor& value, bool initialized = true) {
    Var* var = new Var(value.dtype());
    if (initialized) {
      absl::MutexLock lock(var->mu());
      var->SetValue(value);
    }
    ref_vars_.push_back(var);
    return var;
  }

  // Runs `op` (attrs T=float unless `attrs` says otherwise) on resource variables `vars` and
  // then `inputs`.
  absl::Status RunOnResources(const std::string& op, const std::vector<std::string>& vars,
                              const std::vector<Tensor>& inputs, DataType dtype = DT_FLOAT,
                              const std::string& dtype_attr = "T") {
    NodeDefBuilder b("n", op);
    for (const std::string& v : vars) b.Input(v);
    for (size_t i = 0; i < inputs.size(); ++i) b.Input("in" + std::to_string(i));
    b.Attr(dtype_attr, dtype);
    if (op.find("Scatter") != std::string::npos || op.find("Sparse") != std::string::npos ||
        op.find("Gather") != std::string::npos) {
      b.Attr("Tindices", DT_INT32);
    }
    RETURN_IF_ERROR(InitOp(b.Build()));
    for (const std::string& v : vars) AddResourceInput<Var>(kContainer, v);
    for (const Tensor& t : inputs) AddInput(t);
    return RunOpKernel();
  }

  // Runs the ref form `op` on ref variables `vars` (inputs named v0, v1...) and `inputs`.
  absl::Status RunOnRefs(const std::string& op, const std::vector<Var*>& vars,
                         const std::vector<Tensor>& inputs, DataType dtype = DT_FLOAT,
                         bool with_indices = false) {
    NodeDefBuilder b("n", op);
    for (size_t i = 0; i < vars.size(); ++i) b.Input("v" + std::to_string(i));
    for (size_t i = 0; i < inputs.size(); ++i) b.Input("in" + std::to_string(i));
    b.Attr("T", dtype);
    if (with_indices) b.Attr("Tindices", DT_INT32);
    RETURN_IF_ERROR(InitOp(b.Build()));
    for (Var* var : vars) AddRefInput(var->mu(), var->tensor());
    for (const Tensor& t : inputs) AddInput(t);
    return RunOpKernel();
  }

  static Tensor Floats(std::vector<float> v, TensorShape shape = {}) {
    if (shape.dims() == 0 && v.size() != 1) shape = TensorShape({static_cast<int64_t>(v.size())});
    return MakeTensor<float>(shape, v);
  }
  static Tensor Ints(std::vector<int32_t> v) {
    return MakeTensor<int32_t>(TensorShape({static_cast<int64_t>(v.size())}), v);
  }

  std::vector<Var*> ref_vars_;
};

TEST_F(TrainingOpsTest, ResourceUpdateCopiesABufferAReaderHolds) {
  ResourceVariable("v", Floats({1, 2, 3}));
  const Tensor reader = ResourceValue("v");  // what ReadVariableOp hands out
  ASSERT_TRUE(
      RunOnResources("ResourceApplyGradientDescent", {"v"}, {Floats({1}), Floats({1, 1, 1})}).ok());
  EXPECT_THAT(Values<float>(reader), ElementsAre(1, 2, 3));
  const Tensor updated = ResourceValue("v");
  EXPECT_THAT(Values<float>(updated), ElementsAre(0, 1, 2));
  EXPECT_FALSE(updated.SharesBufferWith(reader));
}

TEST_F(TrainingOpsTest, ResourceUpdateWritesAnUnsharedBufferInPlace) {
  ResourceVariable("v", Floats({1, 2, 3}));
  const void* before = ResourceValue("v").raw_data();
  ASSERT_TRUE(
      RunOnResources("ResourceApplyGradientDescent", {"v"}, {Floats({0.5}), Floats({2, 2, 2})})
          .ok());
  const Tensor after = ResourceValue("v");
  EXPECT_EQ(after.raw_data(), before);
  EXPECT_THAT(Values<float>(after), ElementsAre(0, 1, 2));
}

TEST_F(TrainingOpsTest, RefUpdateIsSeenByReadersAndForwardsTheRef) {
  Var* v = RefVariable(Floats({1, 2}));
  Tensor reader;
  {
    absl::MutexLock lock(v->mu());
    reader = *v->tensor();  // what Identity of the ref hands out
  }
  ASSERT_TRUE(RunOnRefs("ApplyGradientDescent", {v}, {Floats({1}), Floats({1, 1})}).ok());
  EXPECT_THAT(Values<float>(reader), ElementsAre(0, 1));  // TF1: in place
  EXPECT_EQ(GetOutputValue(0).tensor, v->tensor());
  EXPECT_EQ(GetOutputValue(0).mutex_if_ref, v->mu());
}

// 200,000 elements take ParallelFor's split; each must be updated exactly once, as a
// one-element variable is.
TEST_F(TrainingOpsTest, LargeUpdateMatchesElementwiseUpdate) {
  constexpr int64_t kN = 200000;
  const std::vector<Tensor> adam = {Floats({0.9f}), Floats({0.999f}), Floats({0.01f}),
                                    Floats({0.9f}), Floats({0.999f}), Floats({1e-7f})};
  for (const auto& [name, n] : {std::pair<std::string, int64_t>{"small", 1}, {"large", kN}}) {
    ResourceVariable(name + "_var",
                     MakeTensor<float>(TensorShape({n}), std::vector<float>(n, 0.5f)));
    ResourceVariable(name + "_m", MakeTensor<float>(TensorShape({n}), std::vector<float>(n, 0.1f)));
    ResourceVariable(name + "_v", MakeTensor<float>(TensorShape({n}), std::vector<float>(n, 0.2f)));
    std::vector<Tensor> inputs = adam;
    inputs.push_back(MakeTensor<float>(TensorShape({n}), std::vector<float>(n, -0.3f)));
    ASSERT_TRUE(
        RunOnResources("ResourceApplyAdam", {name + "_var", name + "_m", name + "_v"}, inputs)
            .ok());
  }
  for (const char* slot : {"_var", "_m", "_v"}) {
    const float want = Values<float>(ResourceValue(std::string("small") + slot))[0];
    const std::vector<float> got = Values<float>(ResourceValue(std::string("large") + slot));
    int64_t differing = 0;
    for (float x : got) differing += x != want;
    EXPECT_EQ(differing, 0) << slot;
  }
}

TEST_F(TrainingOpsTest, SameVariableAsTwoSlotsLocksOnce) {
  ResourceVariable("v", Floats({4, 9}));
  ASSERT_TRUE(
      RunOnResources("ResourceApplyAdagrad", {"v", "v"}, {Floats({1}), Floats({0, 0})}).ok());
  // accum += 0; var -= 0 * lr * rsqrt(accum): unchanged, and no deadlock.
  EXPECT_THAT(Values<float>(ResourceValue("v")), ElementsAre(4, 9));
}

TEST_F(TrainingOpsTest, VariableOfAnotherDtypeIsInvalidArgument) {
  ResourceVariable("v", MakeTensor<double>(TensorShape({2}), {1, 2}));
  const absl::Status s =
      RunOnResources("ResourceApplyGradientDescent", {"v"}, {Floats({1}), Floats({1, 1})});
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(s.message()), HasSubstr("holds double"));
}

TEST_F(TrainingOpsTest, ExistingUninitializedResourceVariableIsFailedPrecondition) {
  ASSERT_TRUE(resource_manager()->Create(kContainer, "v", new Var(DT_FLOAT)).ok());
  const absl::Status s =
      RunOnResources("ResourceApplyGradientDescent", {"v"}, {Floats({1}), Floats({1, 1})});
  EXPECT_EQ(s.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(s.message(), "Attempting to use uninitialized value v");
}

// Where TensorFlow reads a non-scalar as a scalar or slots of another shape out of bounds.
TEST_F(TrainingOpsTest, ChecksTensorFlowLeavesOut) {
  ResourceVariable("var", Floats({1, 2}));
  ResourceVariable("m", Floats({0, 0}));
  ResourceVariable("short", Floats({0}, TensorShape({1})));
  absl::Status s = RunOnResources(
      "ResourceApplyAddSign", {"var", "m"},
      {Floats({0.1f}), Floats({1}), Floats({0.5f, 0.5f}), Floats({0.9f}), Floats({1, 1})});
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(s.message(), "sign_decay is not a scalar: [2]");
  s = RunOnResources("ResourceApplyAdadelta", {"var", "m", "short"},
                     {Floats({1}), Floats({0.9f}), Floats({1e-3f}), Floats({1, 1})});
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(s.message(), "var and accum_update do not have the same shape[2] [1]");
  s = RunOnResources("ResourceApplyAdamWithAmsgrad", {"var", "m", "m", "short"},
                     {Floats({0.9f}), Floats({0.99f}), Floats({0.1f}), Floats({0.9f}),
                      Floats({0.99f}), Floats({1e-7f}), Floats({1, 1})});
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(s.message(), "var and vhat do not have the same shape[2] [1]");
  EXPECT_THAT(Values<float>(ResourceValue("var")), ElementsAre(1, 2));
}

TEST_F(TrainingOpsTest, SparseUpdateWithABadIndexWritesNothing) {
  Var* var = RefVariable(Floats({1, 2, 3, 4}, TensorShape({2, 2})));
  Var* accum = RefVariable(Floats({0, 0, 0, 0}, TensorShape({2, 2})));
  const absl::Status s = RunOnRefs(
      "SparseApplyMomentum", {var, accum},
      {Floats({1}), Floats({1, 1, 1, 1}, TensorShape({2, 2})), Ints({0, 2}), Floats({0.9f})},
      DT_FLOAT, /*with_indices=*/true);
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(s.message(), "Index 2 at offset 1 in indices is out of range");
  // TensorFlow would have updated row 0 before finding index 2.
  EXPECT_THAT(Values<float>(*var->tensor()), ElementsAre(1, 2, 3, 4));
  EXPECT_THAT(Values<float>(*accum->tensor()), ElementsAre(0, 0, 0, 0));
}

TEST_F(TrainingOpsTest, ScatterWithABadIndexWritesNothing) {
  Var* var = RefVariable(Floats({1, 2, 3}));
  const absl::Status s = RunOnRefs("ScatterAdd", {var}, {Ints({0, 3}), Floats({5, 5})}, DT_FLOAT,
                                   /*with_indices=*/true);
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(s.message(), "indices[1] = 3 is not in [0, 3)");
  EXPECT_THAT(Values<float>(*var->tensor()), ElementsAre(1, 2, 3));
}

TEST_F(TrainingOpsTest, ResourceScatterRowsOfAnotherSizeAreInvalid) {
  ResourceVariable("v", MakeTensor<float>(TensorShape({4, 3}), std::vector<float>(12, 1)));
  // The rank and the prefix are right; TensorFlow would read rows of 4 into rows of 3.
  const absl::Status s = RunOnResources(
      "ResourceScatterAdd", {"v"},
      {Ints({0, 1}), MakeTensor<float>(TensorShape({2, 4}), std::vector<float>(8, 1))}, DT_FLOAT,
      "dtype");
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(s.message()), HasSubstr("Must have updates.shape = indices.shape"));
}

TEST_F(TrainingOpsTest, IntegerScatterDivision) {
  // By zero: TensorFlow's ref form dies of SIGFPE.
  Var* var = RefVariable(MakeTensor<int32_t>(TensorShape({2}), {7, 8}));
  absl::Status s =
      RunOnRefs("ScatterDiv", {var}, {Ints({0, 1}), Ints({2, 0})}, DT_INT32, /*with_indices=*/true);
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(s.message(), "Integer division by zero");
  EXPECT_THAT(Values<int32_t>(*var->tensor()), ElementsAre(7, 8));
  // INT_MIN / -1 wraps to INT_MIN (a trap in TensorFlow too).
  Var* min =
      RefVariable(MakeTensor<int32_t>(TensorShape({1}), {std::numeric_limits<int32_t>::min()}));
  ASSERT_TRUE(
      RunOnRefs("ScatterDiv", {min}, {Ints({0}), Ints({-1})}, DT_INT32, /*with_indices=*/true)
          .ok());
  EXPECT_THAT(Values<int32_t>(*min->tensor()), ElementsAre(std::numeric_limits<int32_t>::min()));
}

TEST_F(TrainingOpsTest, ResourceGatherOfAMissingOrUninitializedVariable) {
  absl::Status s = RunOnResources("ResourceGather", {"nope"}, {Ints({0})}, DT_FLOAT, "dtype");
  EXPECT_EQ(s.code(), absl::StatusCode::kNotFound);
  ASSERT_TRUE(resource_manager()->Create(kContainer, "v", new Var(DT_FLOAT)).ok());
  s = RunOnResources("ResourceGather", {"v"}, {Ints({0})}, DT_FLOAT, "dtype");
  EXPECT_EQ(s.code(), absl::StatusCode::kFailedPrecondition);
  ResourceVariable("w", MakeTensor<int32_t>(TensorShape({2}), {1, 2}));
  s = RunOnResources("ResourceGather", {"w"}, {Ints({0})}, DT_FLOAT, "dtype");
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
}

TEST_F(TrainingOpsTest, ResourceGatherReadsWithoutCopyingOnTheNextUpdate) {
  ResourceVariable("v", Floats({1, 2, 3, 4, 5, 6}, TensorShape({3, 2})));
  const void* before = ResourceValue("v").raw_data();
  ASSERT_TRUE(RunOnResources("ResourceGather", {"v"}, {Ints({2, 0})}, DT_FLOAT, "dtype").ok());
  EXPECT_THAT(Values<float>(*GetOutput(0)), ElementsAre(5, 6, 1, 2));
  EXPECT_FALSE(GetOutput(0)->SharesBufferWith(ResourceValue("v")));
  ASSERT_TRUE(RunOnResources("ResourceScatterAdd", {"v"},
                             {Ints({1}), Floats({1, 1}, TensorShape({1, 2}))}, DT_FLOAT, "dtype")
                  .ok());
  EXPECT_EQ(ResourceValue("v").raw_data(), before);  // updated in place
  EXPECT_THAT(Values<float>(ResourceValue("v")), ElementsAre(1, 2, 4, 5, 5, 6));
}

}  // namespace
}  // namespace test
}  // namespace sluice
