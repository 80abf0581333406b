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

class ResourceVariableOpsTest : public KernelTest {
 protected:
  // Runs VarHandleOp for shared_name `name` and returns the handle tensor.
  Tensor Handle(const std::string& name, DataType dtype = DT_FLOAT,
                const PartialTensorShape& shape = PartialTensorShape({2}),
                const std::string& container = "") {
    EXPECT_TRUE(InitOp(NodeDefBuilder(name, "VarHandleOp")
                           .Attr("dtype", dtype)
                           .Attr("shape", shape)
                           .Attr("shared_name", name)
                           .Attr("container", container)
                           .Build())
                    .ok());
    EXPECT_TRUE(RunOpKernel().ok());
    return *GetOutput(0);
  }

  // Runs `op` (AssignVariableOp, AssignAdd/SubVariableOp) on `handle` and `value`.
  absl::Status Update(const std::string& op, const Tensor& handle, const Tensor& value,
                      bool validate_shape = false) {
    NodeDefBuilder b("update", op);
    b.Input("h").Input("value").Attr("dtype", value.dtype());
    if (op == "AssignVariableOp") b.Attr("validate_shape", validate_shape);
    RETURN_IF_ERROR(InitOp(b.Build()));
    AddInput(handle);
    AddInput(value);
    return RunOpKernel();
  }

  absl::Status Read(const Tensor& handle, DataType dtype, Tensor* value) {
    RETURN_IF_ERROR(
        InitOp(NodeDefBuilder("read", "ReadVariableOp").Input("h").Attr("dtype", dtype).Build()));
    AddInput(handle);
    RETURN_IF_ERROR(RunOpKernel());
    *value = *GetOutput(0);
    return absl::OkStatus();
  }

  bool IsInitialized(const Tensor& handle) {
    EXPECT_TRUE(InitOp(NodeDefBuilder("init?", "VarIsInitializedOp").Input("h").Build()).ok());
    AddInput(handle);
    EXPECT_TRUE(RunOpKernel().ok());
    return GetOutput(0)->scalar<bool>()();
  }

  absl::Status Destroy(const Tensor& handle, bool ignore_lookup_error) {
    RETURN_IF_ERROR(InitOp(NodeDefBuilder("destroy", "DestroyResourceOp")
                               .Input("h")
                               .Attr("ignore_lookup_error", ignore_lookup_error)
                               .Build()));
    AddInput(handle);
    return RunOpKernel();
  }
};

TEST_F(ResourceVariableOpsTest, HandleNamesTheVariable) {
  Tensor h = Handle("w", DT_INT32, PartialTensorShape({-1, 3}));
  ASSERT_EQ(h.dtype(), DT_RESOURCE);
  const ResourceHandleProto& handle = h.scalar<ResourceHandleProto>()();
  EXPECT_EQ(handle.device(), device()->name());
  EXPECT_EQ(handle.container(), "localhost");
  EXPECT_EQ(handle.name(), "w");
  EXPECT_EQ(handle.hash_code(), ResourceTypeIndex::Make<Var>().hash_code);
  ASSERT_EQ(handle.dtypes_and_shapes_size(), 1);
  EXPECT_EQ(handle.dtypes_and_shapes(0).dtype(), DT_INT32);
  EXPECT_EQ(handle.dtypes_and_shapes(0).shape().dim_size(), 2);
  // Every step shares the handle built once.
  ASSERT_TRUE(RunOpKernel().ok());
  EXPECT_TRUE(GetOutput(0)->SharesBufferWith(h));

  Tensor other = Handle("w", DT_INT32, PartialTensorShape({}), "box");
  EXPECT_EQ(other.scalar<ResourceHandleProto>()().container(), "box");
}

TEST_F(ResourceVariableOpsTest, AnonymousHandlesAreDistinct) {
  const std::string anonymous = "cd2c89b7-88b7-44c8-ad83-06c2a9158347";
  ASSERT_TRUE(InitOp(NodeDefBuilder("a", "VarHandleOp")
                         .Attr("dtype", DT_FLOAT)
                         .Attr("shape", PartialTensorShape({}))
                         .Attr("shared_name", anonymous)
                         .Build())
                  .ok());
  ASSERT_TRUE(RunOpKernel().ok());
  const std::string first = GetOutput(0)->scalar<ResourceHandleProto>()().name();
  ASSERT_TRUE(RunOpKernel().ok());
  const std::string second = GetOutput(0)->scalar<ResourceHandleProto>()().name();
  EXPECT_NE(first, second);
  EXPECT_THAT(first, HasSubstr("_AnonymousVar"));
}

// The TF2 pattern over steps sharing one ResourceMgr: assign, add twice, read.
TEST_F(ResourceVariableOpsTest, AssignAddTwiceRead) {
  Tensor h = Handle("w");
  EXPECT_FALSE(IsInitialized(h));
  ASSERT_TRUE(Update("AssignVariableOp", h, MakeTensor<float>(TensorShape({2}), {1, 2})).ok());
  EXPECT_TRUE(IsInitialized(h));
  Tensor delta = MakeTensor<float>(TensorShape({2}), {10, 20});
  ASSERT_TRUE(Update("AssignAddVariableOp", h, delta).ok());
  ASSERT_TRUE(Update("AssignAddVariableOp", h, delta).ok());
  Tensor value;
  ASSERT_TRUE(Read(h, DT_FLOAT, &value).ok());
  EXPECT_THAT(Values<float>(value), ElementsAre(21, 42));

  // Copy-on-write: an update after a read leaves the read value alone.
  ASSERT_TRUE(Update("AssignSubVariableOp", h, MakeTensor<float>(TensorShape({2}), {1, 2})).ok());
  EXPECT_THAT(Values<float>(value), ElementsAre(21, 42));
  Tensor later;
  ASSERT_TRUE(Read(h, DT_FLOAT, &later).ok());
  EXPECT_THAT(Values<float>(later), ElementsAre(20, 40));
}

TEST_F(ResourceVariableOpsTest, AssignDoesNotAliasASharedValue) {
  Tensor h = Handle("w");
  Tensor init = MakeTensor<float>(TensorShape({2}), {1, 2});
  ASSERT_TRUE(Update("AssignVariableOp", h, init).ok());
  init.flat<float>()(0) = 7;
  Tensor value;
  ASSERT_TRUE(Read(h, DT_FLOAT, &value).ok());
  EXPECT_THAT(Values<float>(value), ElementsAre(1, 2));
  // A second assignment of the same shape writes the Var's unshared buffer in place.
  value = Tensor();
  ASSERT_TRUE(Update("AssignVariableOp", h, init).ok());
  ASSERT_TRUE(Read(h, DT_FLOAT, &value).ok());
  EXPECT_THAT(Values<float>(value), ElementsAre(7, 2));
}

TEST_F(ResourceVariableOpsTest, ReadingAMissingVariableIsFailedPrecondition) {
  Tensor h = Handle("w");
  Tensor value;
  absl::Status s = Read(h, DT_FLOAT, &value);
  EXPECT_EQ(s.code(), absl::StatusCode::kFailedPrecondition);
  // TensorFlow 2.21's text.
  EXPECT_EQ(s.message(),
            "Could not find variable w. This could mean that the variable has been deleted. "
            "In TF1, it can also mean the variable is uninitialized. Debug info: "
            "container=localhost, status error message=Container localhost does not exist. "
            "(Could not find resource: localhost/w)");
}

// TensorFlow 2.21: DisableCopyOnRead succeeds on an existing variable and fails as a read
// does on a missing one.
TEST_F(ResourceVariableOpsTest, DisableCopyOnRead) {
  Tensor h = Handle("w");
  auto disable = [&]() {
    EXPECT_TRUE(InitOp(NodeDefBuilder("disable", "DisableCopyOnRead").Input("h").Build()).ok());
    AddInput(h);
    return RunOpKernel();
  };
  absl::Status missing = disable();
  EXPECT_EQ(missing.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(std::string(missing.message()), HasSubstr("Could not find variable w."));
  ASSERT_TRUE(Update("AssignVariableOp", h, Tensor(DT_FLOAT, TensorShape({2}))).ok());
  EXPECT_TRUE(disable().ok());
  ASSERT_TRUE(Destroy(h, false).ok());
  EXPECT_EQ(disable().code(), absl::StatusCode::kFailedPrecondition);
}

TEST_F(ResourceVariableOpsTest, ReadingAnUninitializedVariableIsFailedPrecondition) {
  Var* var = new Var(DT_FLOAT);
  ASSERT_TRUE(resource_manager()->Create("localhost", "w", var).ok());
  Tensor value;
  absl::Status s = Read(Handle("w"), DT_FLOAT, &value);
  EXPECT_EQ(s.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(std::string(s.message()), HasSubstr("Could not find variable w."));
  EXPECT_THAT(std::string(s.message()), HasSubstr("localhost/w is uninitialized"));
}

TEST_F(ResourceVariableOpsTest, DtypeErrors) {
  Tensor h = Handle("w");
  ASSERT_TRUE(Update("AssignVariableOp", h, MakeTensor<float>(TensorShape({2}), {1, 2})).ok());
  Tensor value;
  absl::Status s = Read(h, DT_INT32, &value);
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(s.message(), "Trying to read variable with wrong dtype. Expected int32 got float");

  for (const char* op : {"AssignVariableOp", "AssignAddVariableOp", "AssignSubVariableOp"}) {
    s = Update(op, h, MakeTensor<int32_t>(TensorShape({2}), {1, 2}));
    EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << op;
    EXPECT_EQ(s.message(), "Trying to assign variable with wrong dtype. Expected float got int32")
        << op;
  }
}

TEST_F(ResourceVariableOpsTest, ShapeErrors) {
  Tensor h = Handle("w", DT_FLOAT, PartialTensorShape());
  ASSERT_TRUE(Update("AssignVariableOp", h, MakeTensor<float>(TensorShape({2}), {1, 2})).ok());
  absl::Status s = Update("AssignAddVariableOp", h, MakeTensor<float>(TensorShape({3}), {1, 2, 3}));
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(s.message(),
            "Cannot update variable with shape [2] using a Tensor with shape [3], shapes must be "
            "equal.");
  s = Update("AssignVariableOp", h, MakeTensor<float>(TensorShape({3}), {1, 2, 3}),
             /*validate_shape=*/true);
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(s.message(),
            "Trying to assign to variable with tensor with wrong shape. Expected [2] got [3]");
  // Without validation the shape may change.
  ASSERT_TRUE(Update("AssignVariableOp", h, MakeTensor<float>(TensorShape({3}), {1, 2, 3})).ok());
  Tensor value;
  ASSERT_TRUE(Read(h, DT_FLOAT, &value).ok());
  EXPECT_EQ(value.shape(), TensorShape({3}));
}

TEST_F(ResourceVariableOpsTest, UpdatingAMissingOrUninitializedVariable) {
  Tensor h = Handle("w");
  absl::Status s = Update("AssignAddVariableOp", h, MakeTensor<float>(TensorShape({2}), {1, 2}));
  EXPECT_EQ(s.code(), absl::StatusCode::kNotFound);
  EXPECT_EQ(s.message(),
            "Container localhost does not exist. (Could not find resource: localhost/w)");

  ASSERT_TRUE(resource_manager()->Create("localhost", "w", new Var(DT_FLOAT)).ok());
  s = Update("AssignSubVariableOp", h, MakeTensor<float>(TensorShape({2}), {1, 2}));
  EXPECT_EQ(s.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(s.message(), "Attempting to use uninitialized value w");
}

TEST_F(ResourceVariableOpsTest, UpdatesOverNumberTypes) {
  Tensor h = Handle("i", DT_INT64);
  ASSERT_TRUE(Update("AssignVariableOp", h, MakeTensor<int64_t>(TensorShape({2}), {5, 6})).ok());
  ASSERT_TRUE(
      Update("AssignSubVariableOp", h, MakeTensor<int64_t>(TensorShape({2}), {10, 1})).ok());
  Tensor value;
  ASSERT_TRUE(Read(h, DT_INT64, &value).ok());
  EXPECT_THAT(Values<int64_t>(value), ElementsAre(-5, 5));

  Tensor d = Handle("d", DT_HALF);
  ASSERT_TRUE(Update("AssignVariableOp", d, MakeTensor<half>(TensorShape({1}), {half(1.5f)})).ok());
  ASSERT_TRUE(Update("AssignAddVariableOp", d, MakeTensor<half>(TensorShape({1}), {half(2)})).ok());
  ASSERT_TRUE(Read(d, DT_HALF, &value).ok());
  EXPECT_EQ(static_cast<float>(Values<half>(value)[0]), 3.5f);

  EXPECT_EQ(InitOp(NodeDefBuilder("s", "AssignAddVariableOp")
                       .Input("h")
                       .Input("v")
                       .Attr("dtype", DT_STRING)
                       .Build())
                .code(),
            absl::StatusCode::kNotFound);
}

TEST_F(ResourceVariableOpsTest, StringVariable) {
  Tensor h = Handle("s", DT_STRING, PartialTensorShape({}));
  ASSERT_TRUE(Update("AssignVariableOp", h, Tensor(std::string("hi"))).ok());
  Tensor value;
  ASSERT_TRUE(Read(h, DT_STRING, &value).ok());
  EXPECT_EQ(value.scalar<std::string>()(), "hi");
}

TEST_F(ResourceVariableOpsTest, Destroy) {
  Tensor h = Handle("w");
  ASSERT_TRUE(Update("AssignVariableOp", h, MakeTensor<float>(TensorShape({2}), {1, 2})).ok());
  ASSERT_TRUE(Destroy(h, /*ignore_lookup_error=*/false).ok());
  EXPECT_FALSE(IsInitialized(h));
  EXPECT_TRUE(Destroy(h, /*ignore_lookup_error=*/true).ok());
  absl::Status s = Destroy(h, /*ignore_lookup_error=*/false);
  EXPECT_EQ(s.code(), absl::StatusCode::kNotFound);
  EXPECT_THAT(std::string(s.message()), HasSubstr("localhost/w"));
  EXPECT_THAT(std::string(s.message()), HasSubstr("does not exist."));
}

TEST_F(ResourceVariableOpsTest, HandleErrors) {
  ResourceHandleProto foreign = Handle("w").scalar<ResourceHandleProto>()();
  foreign.set_device("/job:localhost/replica:0/task:0/device:CPU:1");
  Tensor value;
  absl::Status s = Read(Tensor(foreign), DT_FLOAT, &value);
  EXPECT_EQ(s.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(std::string(s.message()), HasSubstr("located in device"));
  s = Update("AssignVariableOp", Tensor(foreign), MakeTensor<float>(TensorShape({2}), {1, 2}));
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(s.message()), HasSubstr("Trying to access resource w located in device"));
  EXPECT_EQ(Destroy(Tensor(foreign), true).code(), absl::StatusCode::kInvalidArgument);

  s = Read(Tensor(DT_RESOURCE, TensorShape({0})), DT_FLOAT, &value);
  EXPECT_EQ(s.message(), "Empty resource handle");
}

}  // namespace
}  // namespace test
}  // namespace sluice
