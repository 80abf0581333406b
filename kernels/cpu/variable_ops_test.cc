#include <complex>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "graph/core/tensor_types.h"
#include "gtest/gtest.h"
#include "kernels/kernel_test_util.h"
#include "runtime/framework/resource_var.h"

namespace sluice {
namespace test {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

class VariableOpsTest : public KernelTest {
 protected:
  // Runs VariableV2 `name` and returns its ref output.
  TensorValue Variable(const std::string& name, DataType dtype, const PartialTensorShape& shape,
                       const std::string& shared_name = "") {
    EXPECT_TRUE(InitOp(NodeDefBuilder(name, "VariableV2")
                           .Attr("dtype", dtype)
                           .Attr("shape", shape)
                           .Attr("shared_name", shared_name)
                           .Build())
                    .ok());
    EXPECT_TRUE(RunOpKernel().ok());
    TensorValue ref = GetOutputValue(0);
    EXPECT_TRUE(ref.is_ref());
    return ref;
  }

  // Runs `op` (Assign, AssignAdd, AssignSub) on ref `ref` (node "v") and `value`.
  absl::Status Update(const std::string& op, const TensorValue& ref, const Tensor& value,
                      bool validate_shape = true, bool use_locking = true) {
    NodeDefBuilder b("update", op);
    b.Input("v").Input("value").Attr("T", value.dtype()).Attr("use_locking", use_locking);
    if (op == "Assign") b.Attr("validate_shape", validate_shape);
    RETURN_IF_ERROR(InitOp(b.Build()));
    AddRefInput(ref.mutex_if_ref, ref.tensor);
    AddInput(value);
    return RunOpKernel();
  }

  // Reads ref `ref` (node "v") through Identity, as a graph does.
  absl::Status Read(const TensorValue& ref, DataType dtype, Tensor* value) {
    RETURN_IF_ERROR(InitOp(NodeDefBuilder("read", "Identity").Input("v").Attr("T", dtype).Build()));
    AddRefInput(ref.mutex_if_ref, ref.tensor);
    RETURN_IF_ERROR(RunOpKernel());
    *value = *GetOutput(0);
    return absl::OkStatus();
  }

  bool IsInitialized(const TensorValue& ref, DataType dtype) {
    EXPECT_TRUE(InitOp(NodeDefBuilder("init?", "IsVariableInitialized")
                           .Input("v")
                           .Attr("dtype", dtype)
                           .Build())
                    .ok());
    AddRefInput(ref.mutex_if_ref, ref.tensor);
    EXPECT_TRUE(RunOpKernel().ok());
    return GetOutput(0)->scalar<bool>()();
  }
};

// The TF1 pattern: v = VariableV2; Assign(v, init); AssignAdd(v, d) twice; read v. Each call
// is a step; the steps share the ResourceMgr, as steps of one session do.
TEST_F(VariableOpsTest, InitAddTwiceRead) {
  TensorValue v = Variable("v", DT_FLOAT, PartialTensorShape({2}));
  EXPECT_FALSE(IsInitialized(v, DT_FLOAT));
  ASSERT_TRUE(Update("Assign", v, MakeTensor<float>(TensorShape({2}), {1, 2})).ok());
  EXPECT_TRUE(GetOutputValue(0).is_ref());
  EXPECT_EQ(GetOutputValue(0).tensor, v.tensor);  // Assign forwards the ref
  EXPECT_TRUE(IsInitialized(v, DT_FLOAT));

  // Later steps find the same variable.
  TensorValue again = Variable("v", DT_FLOAT, PartialTensorShape({2}));
  EXPECT_EQ(again.tensor, v.tensor);
  EXPECT_EQ(again.mutex_if_ref, v.mutex_if_ref);

  Tensor delta = MakeTensor<float>(TensorShape({2}), {0.5, 10});
  ASSERT_TRUE(Update("AssignAdd", again, delta).ok());
  ASSERT_TRUE(Update("AssignAdd", again, delta, true, /*use_locking=*/false).ok());
  Tensor value;
  ASSERT_TRUE(Read(v, DT_FLOAT, &value).ok());
  EXPECT_THAT(Values<float>(value), ElementsAre(2, 22));

  ASSERT_TRUE(Update("AssignSub", v, MakeTensor<float>(TensorShape({2}), {2, 2})).ok());
  EXPECT_THAT(Values<float>(value), ElementsAre(0, 20));  // in place: readers share it
}

TEST_F(VariableOpsTest, ReadingBeforeAssignIsFailedPrecondition) {
  TensorValue v = Variable("v", DT_FLOAT, PartialTensorShape({2}));
  Tensor value;
  absl::Status s = Read(v, DT_FLOAT, &value);
  EXPECT_EQ(s.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(std::string(s.message()), HasSubstr("Attempting to use uninitialized value v"));
  EXPECT_THAT(std::string(s.message()), HasSubstr("{{node read}}"));
}

TEST_F(VariableOpsTest, UpdatingBeforeAssignIsFailedPrecondition) {
  TensorValue v = Variable("v", DT_INT32, PartialTensorShape({2}));
  for (const char* op : {"AssignAdd", "AssignSub"}) {
    absl::Status s = Update(op, v, MakeTensor<int32_t>(TensorShape({2}), {1, 1}));
    EXPECT_EQ(s.code(), absl::StatusCode::kFailedPrecondition) << op;
    EXPECT_EQ(s.message(), "Attempting to use uninitialized value v") << op;
  }
}

TEST_F(VariableOpsTest, AssignChecksTheDeclaredShapeFirst) {
  TensorValue v = Variable("v", DT_FLOAT, PartialTensorShape({2}));
  absl::Status s = Update("Assign", v, MakeTensor<float>(TensorShape({3}), {1, 2, 3}));
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(s.message(),
            "Assign requires shapes of both tensors to match. lhs shape= [2] rhs shape= [3]");
  EXPECT_FALSE(IsInitialized(v, DT_FLOAT));
  // A partially known declared shape accepts any compatible value.
  TensorValue w = Variable("w", DT_FLOAT, PartialTensorShape({-1}));
  EXPECT_TRUE(Update("Assign", w, MakeTensor<float>(TensorShape({3}), {1, 2, 3})).ok());
}

TEST_F(VariableOpsTest, AssignShapeRules) {
  TensorValue v = Variable("v", DT_FLOAT, PartialTensorShape());
  ASSERT_TRUE(Update("Assign", v, MakeTensor<float>(TensorShape({2}), {1, 2})).ok());
  absl::Status s = Update("Assign", v, MakeTensor<float>(TensorShape({1, 2}), {3, 4}));
  EXPECT_EQ(s.message(),
            "Assign requires shapes of both tensors to match. lhs shape= [2] rhs shape= [1,2]");

  // Without validation the variable takes the new shape; the same element count reuses
  // the variable's buffer.
  Tensor before;
  ASSERT_TRUE(Read(v, DT_FLOAT, &before).ok());
  ASSERT_TRUE(Update("Assign", v, MakeTensor<float>(TensorShape({1, 2}), {3, 4}), false).ok());
  Tensor after;
  ASSERT_TRUE(Read(v, DT_FLOAT, &after).ok());
  EXPECT_EQ(after.shape(), TensorShape({1, 2}));
  EXPECT_TRUE(after.SharesBufferWith(before));
  EXPECT_THAT(Values<float>(after), ElementsAre(3, 4));

  ASSERT_TRUE(Update("Assign", v, MakeTensor<float>(TensorShape({3}), {5, 6, 7}), false).ok());
  ASSERT_TRUE(Read(v, DT_FLOAT, &after).ok());
  EXPECT_EQ(after.shape(), TensorShape({3}));
  EXPECT_THAT(Values<float>(after), ElementsAre(5, 6, 7));
}

TEST_F(VariableOpsTest, AssignCopiesASharedValue) {
  TensorValue v = Variable("v", DT_INT64, PartialTensorShape({2}));
  Tensor init = MakeTensor<int64_t>(TensorShape({2}), {1, 2});
  ASSERT_TRUE(Update("Assign", v, init).ok());
  // The test still holds `init`, so the variable must not adopt its buffer.
  Tensor value;
  ASSERT_TRUE(Read(v, DT_INT64, &value).ok());
  EXPECT_FALSE(value.SharesBufferWith(init));
  init.flat<int64_t>()(0) = 100;
  EXPECT_THAT(Values<int64_t>(value), ElementsAre(1, 2));
}

TEST_F(VariableOpsTest, StringVariable) {
  TensorValue v = Variable("v", DT_STRING, PartialTensorShape({}));
  ASSERT_TRUE(Update("Assign", v, Tensor(std::string("a"))).ok());
  ASSERT_TRUE(Update("Assign", v, Tensor(std::string("bc"))).ok());
  Tensor value;
  ASSERT_TRUE(Read(v, DT_STRING, &value).ok());
  EXPECT_EQ(value.scalar<std::string>()(), "bc");
}

TEST_F(VariableOpsTest, UpdateShapeMismatch) {
  TensorValue v = Variable("v", DT_DOUBLE, PartialTensorShape({2}));
  ASSERT_TRUE(Update("Assign", v, MakeTensor<double>(TensorShape({2}), {1, 2})).ok());
  absl::Status s = Update("AssignAdd", v, MakeTensor<double>(TensorShape({3}), {1, 2, 3}));
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(s.message(), "Parameters and update must be the same size");
}

TEST_F(VariableOpsTest, UpdatesOverNumberTypes) {
  TensorValue i = Variable("i", DT_INT32, PartialTensorShape({3}));
  ASSERT_TRUE(Update("Assign", i, MakeTensor<int32_t>(TensorShape({3}), {1, 2, 3})).ok());
  ASSERT_TRUE(Update("AssignSub", i, MakeTensor<int32_t>(TensorShape({3}), {5, 5, 5})).ok());
  EXPECT_THAT(Values<int32_t>(*i.tensor), ElementsAre(-4, -3, -2));

  using C = std::complex<float>;
  TensorValue c = Variable("c", DT_COMPLEX64, PartialTensorShape({1}));
  ASSERT_TRUE(Update("Assign", c, MakeTensor<C>(TensorShape({1}), {C(1, 2)})).ok());
  ASSERT_TRUE(Update("AssignAdd", c, MakeTensor<C>(TensorShape({1}), {C(3, 4)})).ok());
  EXPECT_EQ(Values<C>(*c.tensor)[0], C(4, 6));

  TensorValue u = Variable("u", DT_UINT8, PartialTensorShape({1}));
  ASSERT_TRUE(Update("Assign", u, MakeTensor<uint8_t>(TensorShape({1}), {250})).ok());
  ASSERT_TRUE(Update("AssignAdd", u, MakeTensor<uint8_t>(TensorShape({1}), {10})).ok());
  EXPECT_EQ(Values<uint8_t>(*u.tensor)[0], 4);  // wraps, as in TensorFlow
}

TEST_F(VariableOpsTest, NoArithmeticOnStringsOrBools) {
  for (DataType dtype : {DT_STRING, DT_BOOL}) {
    absl::Status s =
        InitOp(NodeDefBuilder("a", "AssignAdd").Input("v").Input("x").Attr("T", dtype).Build());
    EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << DataTypeString(dtype);
  }
}

TEST_F(VariableOpsTest, SharedNameAndContainer) {
  TensorValue a = Variable("a", DT_FLOAT, PartialTensorShape({}), "shared");
  TensorValue b = Variable("b", DT_FLOAT, PartialTensorShape({}), "shared");
  EXPECT_EQ(a.tensor, b.tensor);
  Var* var = nullptr;
  ASSERT_TRUE(resource_manager()->Lookup("localhost", "shared", &var).ok());
  EXPECT_EQ(var->tensor(), a.tensor);
  var->Unref();

  // The same name with another dtype is an error, not a reinterpretation.
  ASSERT_TRUE(InitOp(NodeDefBuilder("c", "VariableV2")
                         .Attr("dtype", DT_INT32)
                         .Attr("shape", PartialTensorShape({}))
                         .Attr("shared_name", "shared")
                         .Build())
                  .ok());
  absl::Status s = RunOpKernel();
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(s.message()), HasSubstr("localhost/shared holds float"));

  ASSERT_TRUE(InitOp(NodeDefBuilder("d", "VariableV2")
                         .Attr("dtype", DT_INT32)
                         .Attr("shape", PartialTensorShape({}))
                         .Attr("container", "-bad")
                         .Build())
                  .ok());
  EXPECT_EQ(RunOpKernel().message(), "container contains invalid characters: -bad");

  // Cleaning the container up drops the variable; the next step makes a new one.
  ASSERT_TRUE(resource_manager()->Cleanup("localhost").ok());
  TensorValue fresh = Variable("a", DT_FLOAT, PartialTensorShape({}), "shared");
  EXPECT_FALSE(IsInitialized(fresh, DT_FLOAT));
}

TEST_F(VariableOpsTest, VariantVariablesAreUnimplemented) {
  absl::Status s = InitOp(NodeDefBuilder("v", "VariableV2")
                              .Attr("dtype", DT_VARIANT)
                              .Attr("shape", PartialTensorShape({}))
                              .Build());
  EXPECT_EQ(s.code(), absl::StatusCode::kUnimplemented);
}

TEST_F(VariableOpsTest, AssignToARefThatIsNoVar) {
  // A ref a test made itself (no Var behind it): Assign still replaces the value.
  absl::Mutex mu;
  Tensor slot = UninitializedRefTensor(DT_FLOAT);
  TensorValue ref(&mu, &slot);
  ASSERT_TRUE(Update("Assign", ref, MakeTensor<float>(TensorShape({2}), {1, 2})).ok());
  EXPECT_TRUE(IsInitializedRef(slot));
  EXPECT_THAT(Values<float>(slot), ElementsAre(1, 2));
}

}  // namespace
}  // namespace test
}  // namespace sluice
