// The TensorArray kernels one at a time, on an array made by TensorArrayV3 in the harness's
// step container: values and TensorFlow's errors. TF1 graphs that use them in loops
// (dynamic_rnn, tf.map_fn), compared with TensorFlow's outputs, are in tests/control_flow/.
#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "graph/core/errors.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_types.h"
#include "graph/core/types.h"
#include "gtest/gtest.h"
#include "kernels/kernel_test_util.h"

namespace sluice {
namespace test {
namespace {

class TensorArrayOpsTest : public KernelTest {
 protected:
  // Makes an array; returns its handle.
  Tensor Create(int32_t size, PartialTensorShape element_shape, bool dynamic_size = false,
                bool clear_after_read = true, bool identical_element_shapes = false) {
    EXPECT_TRUE(InitOp(NodeDefBuilder("ta", "TensorArrayV3")
                           .Input("size")
                           .Attr("dtype", DT_FLOAT)
                           .Attr("element_shape", element_shape)
                           .Attr("dynamic_size", dynamic_size)
                           .Attr("clear_after_read", clear_after_read)
                           .Attr("identical_element_shapes", identical_element_shapes)
                           .Build())
                    .ok());
    AddInput(Tensor(size));
    EXPECT_TRUE(RunOpKernel().ok());
    EXPECT_EQ(GetOutput(1)->scalar<float>()(), 0.0f);
    return *GetOutput(0);
  }

  absl::Status Write(const Tensor& handle, int32_t index, const Tensor& value) {
    RETURN_IF_ERROR(InitOp(NodeDefBuilder("write", "TensorArrayWriteV3")
                               .Input("h")
                               .Input("i")
                               .Input("v")
                               .Input("flow")
                               .Attr("T", value.dtype())
                               .Build()));
    AddInput(handle);
    AddInput(Tensor(index));
    AddInput(value);
    AddInput(Tensor(0.5f));
    RETURN_IF_ERROR(RunOpKernel());
    EXPECT_EQ(GetOutput(0)->scalar<float>()(), 0.5f);  // the flow passes through
    return absl::OkStatus();
  }

  absl::Status Read(const Tensor& handle, int32_t index, Tensor* value, DataType dtype = DT_FLOAT) {
    RETURN_IF_ERROR(InitOp(NodeDefBuilder("read", "TensorArrayReadV3")
                               .Input("h")
                               .Input("i")
                               .Input("flow")
                               .Attr("dtype", dtype)
                               .Build()));
    AddInput(handle);
    AddInput(Tensor(index));
    AddInput(Tensor(0.0f));
    RETURN_IF_ERROR(RunOpKernel());
    *value = *GetOutput(0);
    return absl::OkStatus();
  }

  absl::Status Gather(const Tensor& handle, std::vector<int32_t> indices, Tensor* value) {
    RETURN_IF_ERROR(InitOp(NodeDefBuilder("gather", "TensorArrayGatherV3")
                               .Input("h")
                               .Input("i")
                               .Input("flow")
                               .Attr("dtype", DT_FLOAT)
                               .Build()));
    AddInput(handle);
    AddInputFromArray<int32_t>(TensorShape({static_cast<int64_t>(indices.size())}), indices);
    AddInput(Tensor(0.0f));
    RETURN_IF_ERROR(RunOpKernel());
    *value = *GetOutput(0);
    return absl::OkStatus();
  }

  int32_t Size(const Tensor& handle) {
    EXPECT_TRUE(
        InitOp(NodeDefBuilder("size", "TensorArraySizeV3").Input("h").Input("flow").Build()).ok());
    AddInput(handle);
    AddInput(Tensor(0.0f));
    EXPECT_TRUE(RunOpKernel().ok());
    return GetOutput(0)->scalar<int32_t>()();
  }

  static Tensor Vec(std::vector<float> values) {
    return MakeTensor<float>(TensorShape({static_cast<int64_t>(values.size())}), values);
  }
};

TEST_F(TensorArrayOpsTest, WriteReadGatherAndTheirErrors) {
  const Tensor ta = Create(3, PartialTensorShape({2}));
  ASSERT_TRUE(Write(ta, 0, Vec({1, 2})).ok());
  ASSERT_TRUE(Write(ta, 2, Vec({5, 6})).ok());
  EXPECT_EQ(Size(ta), 3);

  absl::Status s = Write(ta, 0, Vec({3, 4}));
  EXPECT_NE(s.message().find("Could not write to TensorArray index 0 because it has already "
                             "been written to."),
            std::string::npos)
      << s;
  s = Write(ta, 3, Vec({3, 4}));
  EXPECT_NE(s.message().find("Tried to write to index 3 but array is not resizeable and size "
                             "is: 3"),
            std::string::npos)
      << s;
  s = Write(ta, 1, Vec({1, 2, 3}));
  EXPECT_NE(s.message().find("incompatible with the TensorArray's inferred element shape: [2]"),
            std::string::npos)
      << s;
  s = Write(ta, 1, MakeTensor<int32_t>(TensorShape({2}), {1, 2}));
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);

  Tensor value;
  ASSERT_TRUE(Gather(ta, {2, 1, 0}, &value).ok());
  EXPECT_EQ(value.shape(), TensorShape({3, 2}));
  // Index 1 was never written: zeros of the known element shape.
  EXPECT_EQ(Values<float>(value), (std::vector<float>{5, 6, 0, 0, 1, 2}));
  // The gather read (and so cleared) index 0.
  s = Read(ta, 0, &value);
  EXPECT_NE(s.message().find("Could not read index 0 twice because it was cleared after a "
                             "previous read"),
            std::string::npos)
      << s;
  s = Read(ta, 7, &value);
  EXPECT_NE(s.message().find("Tried to read from index 7 but array size is: 3"), std::string::npos)
      << s;
  s = Read(ta, 1, &value, DT_INT32);
  EXPECT_NE(s.message().find("TensorArray dtype is float but Op requested dtype int32."),
            std::string::npos)
      << s;

  ASSERT_TRUE(InitOp(NodeDefBuilder("close", "TensorArrayCloseV3").Input("h").Build()).ok());
  AddInput(ta);
  ASSERT_TRUE(RunOpKernel().ok());
  s = Write(ta, 1, Vec({1, 2}));
  EXPECT_NE(s.message().find("has already been closed."), std::string::npos) << s;
}

TEST_F(TensorArrayOpsTest, ReadsKeptWhenNotClearedAndDynamicArraysGrow) {
  const Tensor ta = Create(0, PartialTensorShape(), /*dynamic_size=*/true,
                           /*clear_after_read=*/false, /*identical_element_shapes=*/true);
  ASSERT_TRUE(Write(ta, 1, Vec({7, 8, 9})).ok());
  EXPECT_EQ(Size(ta), 2);
  Tensor value;
  ASSERT_TRUE(Read(ta, 1, &value).ok());
  ASSERT_TRUE(Read(ta, 1, &value).ok());
  EXPECT_EQ(Values<float>(value), (std::vector<float>{7, 8, 9}));
  // The first write fixed the element shape, so the unwritten slot reads as zeros.
  ASSERT_TRUE(Read(ta, 0, &value).ok());
  EXPECT_EQ(Values<float>(value), (std::vector<float>{0, 0, 0}));
  absl::Status s = Write(ta, 2, Vec({1}));
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  // A dynamic array does not grow to any index a graph names.
  s = Write(ta, 2147483647, Vec({1, 2, 3}));
  EXPECT_EQ(s.code(), absl::StatusCode::kResourceExhausted) << s;

  // Unknown element shape and nothing written: reading fails.
  const Tensor unknown = Create(2, PartialTensorShape());
  s = Read(unknown, 0, &value);
  EXPECT_NE(s.message().find("Could not read from TensorArray index 0"), std::string::npos) << s;
  s = Gather(unknown, {}, &value);
  EXPECT_EQ(s.code(), absl::StatusCode::kUnimplemented) << s;
}

TEST_F(TensorArrayOpsTest, SplitConcatScatter) {
  const Tensor ta = Create(2, PartialTensorShape());
  ASSERT_TRUE(InitOp(NodeDefBuilder("split", "TensorArraySplitV3")
                         .Input("h")
                         .Input("v")
                         .Input("l")
                         .Input("flow")
                         .Attr("T", DT_FLOAT)
                         .Build())
                  .ok());
  AddInput(ta);
  AddInputFromArray<float>(TensorShape({3, 2}), {1, 2, 3, 4, 5, 6});
  AddInputFromArray<int64_t>(TensorShape({2}), {2, 1});
  AddInput(Tensor(0.0f));
  ASSERT_TRUE(RunOpKernel().ok());
  Tensor value;
  ASSERT_TRUE(Read(ta, 1, &value).ok());
  EXPECT_EQ(value.shape(), TensorShape({1, 2}));
  EXPECT_EQ(Values<float>(value), (std::vector<float>{5, 6}));

  // Split whose lengths do not add up to the rows.
  const Tensor other = Create(2, PartialTensorShape());
  ASSERT_TRUE(InitOp(NodeDefBuilder("split", "TensorArraySplitV3")
                         .Input("h")
                         .Input("v")
                         .Input("l")
                         .Input("flow")
                         .Attr("T", DT_FLOAT)
                         .Build())
                  .ok());
  AddInput(other);
  AddInputFromArray<float>(TensorShape({3, 2}), {1, 2, 3, 4, 5, 6});
  AddInputFromArray<int64_t>(TensorShape({2}), {1, 1});
  AddInput(Tensor(0.0f));
  absl::Status s = RunOpKernel();
  EXPECT_NE(s.message().find("Expected sum of lengths to be equal to values.shape[0], but sum "
                             "of lengths is 2"),
            std::string::npos)
      << s;

  const Tensor scattered = Create(3, PartialTensorShape({2}), false, false);
  ASSERT_TRUE(InitOp(NodeDefBuilder("scatter", "TensorArrayScatterV3")
                         .Input("h")
                         .Input("i")
                         .Input("v")
                         .Input("flow")
                         .Attr("T", DT_FLOAT)
                         .Build())
                  .ok());
  AddInput(scattered);
  AddInputFromArray<int32_t>(TensorShape({2}), {2, 0});
  AddInputFromArray<float>(TensorShape({2, 2}), {1, 2, 3, 4});
  AddInput(Tensor(0.0f));
  ASSERT_TRUE(RunOpKernel().ok());
  ASSERT_TRUE(InitOp(NodeDefBuilder("concat", "TensorArrayConcatV3")
                         .Input("h")
                         .Input("flow")
                         .Attr("dtype", DT_FLOAT)
                         .Build())
                  .ok());
  AddInput(scattered);
  AddInput(Tensor(0.0f));
  // Index 1 was never written: zeros of the element shape [2]. Concat joins the elements
  // along their first dim.
  s = RunOpKernel();
  ASSERT_TRUE(s.ok()) << s;
  EXPECT_EQ(GetOutput(0)->shape(), TensorShape({6}));
  EXPECT_EQ(Values<float>(*GetOutput(0)), (std::vector<float>{3, 4, 0, 0, 1, 2}));
  EXPECT_EQ(Values<int64_t>(*GetOutput(1)), (std::vector<int64_t>{2, 2, 2}));
}

// What the graph cases of tests/kernels/gen_stack_tensor_array.py (recorded from TensorFlow)
// cannot show: one gradient array per source across runs of the op, in place sums, and bad
// shapes to prepend.
class TensorArrayGradTest : public TensorArrayOpsTest {
 protected:
  absl::Status Grad(const Tensor& handle, const std::string& source, Tensor* grad,
                    const Tensor* shape_to_prepend = nullptr) {
    NodeDefBuilder builder("grad",
                           shape_to_prepend ? "TensorArrayGradWithShape" : "TensorArrayGradV3");
    builder.Input("h").Input("flow");
    if (shape_to_prepend) builder.Input("shape");
    RETURN_IF_ERROR(InitOp(builder.Attr("source", source).Build()));
    AddInput(handle);
    AddInput(Tensor(0.25f));
    if (shape_to_prepend) AddInput(*shape_to_prepend);
    RETURN_IF_ERROR(RunOpKernel());
    EXPECT_EQ(GetOutput(1)->scalar<float>()(), 0.0f);  // a new flow, as TensorFlow's
    *grad = *GetOutput(0);
    return absl::OkStatus();
  }
};

TEST_F(TensorArrayGradTest, OneGradientArrayPerSourceAddingUpItsWrites) {
  const Tensor ta = Create(2, PartialTensorShape({2}));
  ASSERT_TRUE(Write(ta, 1, Vec({1, 2})).ok());
  Tensor grad, again, other;
  ASSERT_TRUE(Grad(ta, "gradients", &grad).ok());
  ASSERT_TRUE(Grad(ta, "gradients", &again).ok());
  ASSERT_TRUE(Grad(ta, "gradients_1", &other).ok());
  const Tensor first = Vec({1, 1});
  ASSERT_TRUE(Write(grad, 1, first).ok());
  ASSERT_TRUE(Write(again, 1, Vec({2, 3})).ok());
  ASSERT_TRUE(Write(again, 1, Vec({4, 5})).ok());
  // The first written value is not touched by the sums.
  EXPECT_EQ(Values<float>(first), (std::vector<float>{1, 1}));
  Tensor value;
  ASSERT_TRUE(Read(grad, 1, &value).ok());
  EXPECT_EQ(Values<float>(value), (std::vector<float>{7, 9}));
  ASSERT_TRUE(Read(other, 1, &value).ok());
  EXPECT_EQ(Values<float>(value), (std::vector<float>{0, 0}));
  // Gradient arrays clear after a read.
  absl::Status s = Read(grad, 1, &value);
  EXPECT_NE(s.message().find("twice because it was cleared"), std::string::npos) << s;
}

TEST_F(TensorArrayGradTest, ShapeToPrependMustBeAVectorOfDims) {
  const Tensor ta = Create(1, PartialTensorShape({2}));
  Tensor grad;
  const Tensor matrix = MakeTensor<int32_t>(TensorShape({1, 1}), {3});
  absl::Status s = Grad(ta, "g", &grad, &matrix);
  EXPECT_NE(s.message().find("shape must be a vector of {int32,int64}, got shape [1,1]"),
            std::string::npos)
      << s;
  const Tensor negative = MakeTensor<int32_t>(TensorShape({1}), {-3});
  s = Grad(ta, "g", &grad, &negative);
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << s;
  const Tensor good = MakeTensor<int32_t>(TensorShape({2}), {3, 1});
  ASSERT_TRUE(Grad(ta, "g", &grad, &good).ok());
  Tensor value;
  ASSERT_TRUE(Read(grad, 0, &value).ok());
  EXPECT_EQ(value.shape(), TensorShape({3, 1, 2}));
}

}  // namespace
}  // namespace test
}  // namespace sluice
