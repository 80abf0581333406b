// The list kernels one at a time: each test builds a list with one kernel, hands the list
// tensor to the next, and checks values and TensorFlow's errors. Whole graphs of list ops,
// compared with TensorFlow's outputs, are in tests/control_flow/ (the tensor_list_* and
// keras_* fixtures).
#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_types.h"
#include "graph/core/types.h"
#include "gtest/gtest.h"
#include "kernels/cpu/lists/tensor_list.h"
#include "kernels/kernel_test_util.h"

namespace sluice {
namespace test {
namespace {

class ListOpsTest : public KernelTest {
 protected:
  // Runs `node` on `inputs` and returns output `index` (a copy sharing the buffer).
  absl::Status Run(const NodeDef& node, const std::vector<Tensor>& inputs, Tensor* out = nullptr,
                   int index = 0) {
    absl::Status s = InitOp(node);
    if (!s.ok()) return s;
    for (const Tensor& t : inputs) AddInput(t);
    s = RunOpKernel();
    if (s.ok() && out != nullptr) *out = *GetOutput(index);
    return s;
  }

  Tensor Reserve(std::vector<int32_t> shape, int32_t n, DataType dtype = DT_FLOAT) {
    Tensor list;
    EXPECT_TRUE(Run(NodeDefBuilder("reserve", "TensorListReserve")
                        .Input("s")
                        .Input("n")
                        .Attr("element_dtype", dtype)
                        .Attr("shape_type", DT_INT32)
                        .Build(),
                    {ShapeTensor(shape), Tensor(n)}, &list)
                    .ok());
    return list;
  }

  static Tensor ShapeTensor(const std::vector<int32_t>& dims) {
    if (dims.size() == 1 && dims[0] == -1) return Tensor(int32_t{-1});
    return MakeTensor<int32_t>(TensorShape({static_cast<int64_t>(dims.size())}), dims);
  }

  absl::Status SetItem(const Tensor& list, int32_t index, const Tensor& item, Tensor* out) {
    return Run(NodeDefBuilder("set", "TensorListSetItem")
                   .Input("l")
                   .Input("i")
                   .Input("item")
                   .Attr("element_dtype", item.dtype())
                   .Build(),
               {list, Tensor(index), item}, out);
  }

  absl::Status GetItem(const Tensor& list, int32_t index, std::vector<int32_t> shape, Tensor* out) {
    return Run(NodeDefBuilder("get", "TensorListGetItem")
                   .Input("l")
                   .Input("i")
                   .Input("s")
                   .Attr("element_dtype", DT_FLOAT)
                   .Build(),
               {list, Tensor(index), ShapeTensor(shape)}, out);
  }

  absl::Status Stack(const Tensor& list, std::vector<int32_t> shape, Tensor* out,
                     int64_t num_elements = -1) {
    return Run(NodeDefBuilder("stack", "TensorListStack")
                   .Input("l")
                   .Input("s")
                   .Attr("element_dtype", DT_FLOAT)
                   .Attr("num_elements", num_elements)
                   .Build(),
               {list, ShapeTensor(shape)}, out);
  }

  static int64_t Length(const Tensor& list) {
    return static_cast<int64_t>(list.scalar<Variant>()().get<TensorList>()->tensors.size());
  }
};

TEST_F(ListOpsTest, ReserveSetGetStack) {
  const Tensor list = Reserve({-1, 2}, 3);
  EXPECT_EQ(Length(list), 3);
  EXPECT_EQ(list.scalar<Variant>()().TypeName(), "tensorflow::TensorList");

  Tensor set;
  ASSERT_TRUE(SetItem(list, 1, MakeTensor<float>(TensorShape({1, 2}), {5, 6}), &set).ok());
  // A list is a value: the input still has an unset slot 1.
  EXPECT_EQ(list.scalar<Variant>()().get<TensorList>()->tensors[1].dtype(), DT_INVALID);

  Tensor item;
  ASSERT_TRUE(GetItem(set, 1, {-1}, &item).ok());
  EXPECT_EQ(item.shape(), TensorShape({1, 2}));
  EXPECT_EQ(Values<float>(item), (std::vector<float>{5, 6}));
  // An unset slot reads as zeros of the shape learned from the set element.
  ASSERT_TRUE(GetItem(set, 0, {-1}, &item).ok());
  EXPECT_EQ(item.shape(), TensorShape({1, 2}));
  EXPECT_EQ(Values<float>(item), (std::vector<float>{0, 0}));

  Tensor stacked;
  ASSERT_TRUE(Stack(set, {-1}, &stacked).ok());
  EXPECT_EQ(stacked.shape(), TensorShape({3, 1, 2}));
  EXPECT_EQ(Values<float>(stacked), (std::vector<float>{0, 0, 5, 6, 0, 0}));

  Tensor length;
  ASSERT_TRUE(
      Run(NodeDefBuilder("len", "TensorListLength").Input("l").Build(), {set}, &length).ok());
  EXPECT_EQ(length.scalar<int32_t>()(), 3);
  Tensor shape;
  ASSERT_TRUE(Run(NodeDefBuilder("es", "TensorListElementShape")
                      .Input("l")
                      .Attr("shape_type", DT_INT64)
                      .Build(),
                  {set}, &shape)
                  .ok());
  EXPECT_EQ(Values<int64_t>(shape), (std::vector<int64_t>{-1, 2}));
}

TEST_F(ListOpsTest, ReadErrorsAsTensorFlow) {
  const Tensor list = Reserve({-1}, 2);
  Tensor out;
  absl::Status s = GetItem(list, 2, {-1}, &out);
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(s.message().find("Trying to access element 2 in a list with 2 elements."),
            std::string::npos)
      << s;
  s = GetItem(list, 0, {-1}, &out);
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(s.message().find("element_shape is not fully defined"), std::string::npos) << s;
  // Given a full shape, the unset element reads as zeros.
  ASSERT_TRUE(GetItem(list, 0, {3}, &out).ok());
  EXPECT_EQ(Values<float>(out), (std::vector<float>{0, 0, 0}));

  s = Stack(list, {-1}, &out);
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  s = Stack(list, {2}, &out, /*num_elements=*/3);
  EXPECT_NE(s.message().find("expected a list with 3 elements but got a list with 2"),
            std::string::npos)
      << s;

  const Tensor ints = Reserve({-1}, 2, DT_INT32);
  s = GetItem(ints, 0, {1}, &out);
  EXPECT_NE(s.message().find("Invalid data types; op elements float but list elements int32"),
            std::string::npos)
      << s;

  // A tensor that is not a list.
  s = GetItem(Tensor(1.0f), 0, {1}, &out);
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  // The list's element shape (here of unknown rank) merges with the requested one.
  ASSERT_TRUE(GetItem(list, 0, {2, 2}, &out).ok());
  EXPECT_EQ(out.shape(), TensorShape({2, 2}));
  s = GetItem(Reserve({3}, 1), 0, {2}, &out);
  EXPECT_NE(s.message().find("Incompatible shapes"), std::string::npos) << s;
  s = Run(NodeDefBuilder("reserve", "TensorListReserve")
              .Input("s")
              .Input("n")
              .Attr("element_dtype", DT_FLOAT)
              .Attr("shape_type", DT_INT32)
              .Build(),
          {Tensor(int32_t{3}), Tensor(int32_t{1})});
  EXPECT_NE(s.message().find("The only valid scalar shape tensor is the fully unknown shape"),
            std::string::npos)
      << s;
  s = Run(NodeDefBuilder("reserve", "TensorListReserve")
              .Input("s")
              .Input("n")
              .Attr("element_dtype", DT_FLOAT)
              .Attr("shape_type", DT_INT32)
              .Build(),
          {Tensor(int32_t{-1}), Tensor(int32_t{-4})});
  EXPECT_NE(s.message().find("must be a non negative number, but got -4"), std::string::npos) << s;
}

TEST_F(ListOpsTest, SetItemChecksIndexAndShape) {
  const Tensor list = Reserve({2}, 2);
  Tensor out;
  absl::Status s = SetItem(list, 2, MakeTensor<float>(TensorShape({2}), {1, 2}), &out);
  EXPECT_NE(s.message().find("Trying to modify element 2 in a list with 2 elements."),
            std::string::npos)
      << s;
  s = SetItem(list, -1, MakeTensor<float>(TensorShape({2}), {1, 2}), &out);
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  s = SetItem(list, 0, MakeTensor<float>(TensorShape({3}), {1, 2, 3}), &out);
  EXPECT_NE(s.message().find("incompatible shape"), std::string::npos) << s;

  // resize_if_index_out_of_bounds grows the list.
  ASSERT_TRUE(Run(NodeDefBuilder("set", "TensorListSetItem")
                      .Input("l")
                      .Input("i")
                      .Input("item")
                      .Attr("element_dtype", DT_FLOAT)
                      .Attr("resize_if_index_out_of_bounds", true)
                      .Build(),
                  {list, Tensor(int32_t{4}), MakeTensor<float>(TensorShape({2}), {7, 8})}, &out)
                  .ok());
  EXPECT_EQ(Length(out), 5);
}

TEST_F(ListOpsTest, FromTensorPushPopResize) {
  Tensor list;
  ASSERT_TRUE(Run(NodeDefBuilder("from", "TensorListFromTensor")
                      .Input("t")
                      .Input("s")
                      .Attr("element_dtype", DT_FLOAT)
                      .Attr("shape_type", DT_INT32)
                      .Build(),
                  {MakeTensor<float>(TensorShape({3, 2}), {1, 2, 3, 4, 5, 6}), ShapeTensor({-1})},
                  &list)
                  .ok());
  EXPECT_EQ(Length(list), 3);
  // No elements, but a first dim no list may have.
  absl::Status huge =
      Run(NodeDefBuilder("from", "TensorListFromTensor")
              .Input("t")
              .Input("s")
              .Attr("element_dtype", DT_FLOAT)
              .Attr("shape_type", DT_INT32)
              .Build(),
          {Tensor(DT_FLOAT, TensorShape({int64_t{1} << 40, 0})), ShapeTensor({-1})});
  EXPECT_EQ(huge.code(), absl::StatusCode::kResourceExhausted) << huge;
  Tensor item;
  ASSERT_TRUE(GetItem(list, 2, {-1}, &item).ok());
  EXPECT_EQ(Values<float>(item), (std::vector<float>{5, 6}));

  Tensor pushed;
  ASSERT_TRUE(Run(NodeDefBuilder("push", "TensorListPushBack")
                      .Input("l")
                      .Input("t")
                      .Attr("element_dtype", DT_FLOAT)
                      .Build(),
                  {list, MakeTensor<float>(TensorShape({2}), {7, 8})}, &pushed)
                  .ok());
  EXPECT_EQ(Length(pushed), 4);
  EXPECT_EQ(Length(list), 3);

  const NodeDef pop = NodeDefBuilder("pop", "TensorListPopBack")
                          .Input("l")
                          .Input("s")
                          .Attr("element_dtype", DT_FLOAT)
                          .Build();
  ASSERT_TRUE(Run(pop, {pushed, ShapeTensor({-1})}).ok());
  EXPECT_EQ(Values<float>(*GetOutput(1)), (std::vector<float>{7, 8}));
  EXPECT_EQ(Length(*GetOutput(0)), 3);

  const Tensor empty = Reserve({-1}, 0);
  absl::Status s = Run(pop, {empty, ShapeTensor({-1})});
  EXPECT_NE(s.message().find("Trying to pop from an empty list."), std::string::npos) << s;

  Tensor resized;
  ASSERT_TRUE(Run(NodeDefBuilder("resize", "TensorListResize").Input("l").Input("n").Build(),
                  {list, Tensor(int32_t{5})}, &resized)
                  .ok());
  Tensor stacked;
  ASSERT_TRUE(Stack(resized, {-1}, &stacked).ok());
  EXPECT_EQ(Values<float>(stacked), (std::vector<float>{1, 2, 3, 4, 5, 6, 0, 0, 0, 0}));
  ASSERT_TRUE(Run(NodeDefBuilder("resize", "TensorListResize").Input("l").Input("n").Build(),
                  {list, Tensor(int32_t{1})}, &resized)
                  .ok());
  EXPECT_EQ(Length(resized), 1);
}

TEST_F(ListOpsTest, PushBackRespectsMaxNumElements) {
  Tensor list;
  ASSERT_TRUE(Run(NodeDefBuilder("empty", "EmptyTensorList")
                      .Input("s")
                      .Input("m")
                      .Attr("element_dtype", DT_FLOAT)
                      .Attr("shape_type", DT_INT32)
                      .Build(),
                  {ShapeTensor({-1}), Tensor(int32_t{1})}, &list)
                  .ok());
  const NodeDef push = NodeDefBuilder("push", "TensorListPushBack")
                           .Input("l")
                           .Input("t")
                           .Attr("element_dtype", DT_FLOAT)
                           .Build();
  Tensor one;
  ASSERT_TRUE(Run(push, {list, Tensor(1.0f)}, &one).ok());
  absl::Status s = Run(push, {one, Tensor(2.0f)});
  EXPECT_NE(s.message().find("Tried to push item into a full list"), std::string::npos) << s;
  s = Run(NodeDefBuilder("push", "TensorListPushBack")
              .Input("l")
              .Input("t")
              .Attr("element_dtype", DT_INT32)
              .Build(),
          {list, Tensor(int32_t{2})});
  EXPECT_NE(s.message().find("Invalid data types"), std::string::npos) << s;
}

TEST_F(ListOpsTest, GatherScatterSplitConcat) {
  Tensor list;
  ASSERT_TRUE(
      Run(NodeDefBuilder("scatter", "TensorListScatterV2")
              .Input("t")
              .Input("i")
              .Input("s")
              .Input("n")
              .Attr("element_dtype", DT_FLOAT)
              .Attr("shape_type", DT_INT32)
              .Build(),
          {MakeTensor<float>(TensorShape({2, 2}), {1, 2, 3, 4}),
           MakeTensor<int32_t>(TensorShape({2}), {3, 0}), ShapeTensor({-1}), Tensor(int32_t{2})},
          &list)
          .ok());
  EXPECT_EQ(Length(list), 4);
  Tensor gathered;
  ASSERT_TRUE(Run(NodeDefBuilder("gather", "TensorListGather")
                      .Input("l")
                      .Input("i")
                      .Input("s")
                      .Attr("element_dtype", DT_FLOAT)
                      .Build(),
                  {list, MakeTensor<int32_t>(TensorShape({3}), {3, 1, 0}), ShapeTensor({-1})},
                  &gathered)
                  .ok());
  EXPECT_EQ(gathered.shape(), TensorShape({3, 2}));
  EXPECT_EQ(Values<float>(gathered), (std::vector<float>{1, 2, 0, 0, 3, 4}));
  absl::Status s = Run(NodeDefBuilder("gather", "TensorListGather")
                           .Input("l")
                           .Input("i")
                           .Input("s")
                           .Attr("element_dtype", DT_FLOAT)
                           .Build(),
                       {list, MakeTensor<int32_t>(TensorShape({1}), {4}), ShapeTensor({-1})});
  EXPECT_NE(s.message().find("Trying to gather element 4 in a list with 4 elements."),
            std::string::npos)
      << s;

  Tensor split;
  const NodeDef split_node = NodeDefBuilder("split", "TensorListSplit")
                                 .Input("t")
                                 .Input("s")
                                 .Input("l")
                                 .Attr("element_dtype", DT_FLOAT)
                                 .Attr("shape_type", DT_INT32)
                                 .Build();
  ASSERT_TRUE(Run(split_node,
                  {MakeTensor<float>(TensorShape({3, 2}), {1, 2, 3, 4, 5, 6}), ShapeTensor({-1, 2}),
                   MakeTensor<int64_t>(TensorShape({2}), {1, 2})},
                  &split)
                  .ok());
  EXPECT_EQ(Length(split), 2);
  s = Run(split_node, {MakeTensor<float>(TensorShape({3, 2}), {1, 2, 3, 4, 5, 6}),
                       ShapeTensor({-1, 2}), MakeTensor<int64_t>(TensorShape({2}), {1, 1})});
  EXPECT_NE(s.message().find("Unused values in tensor. Length of tensor: 3 Values used: 2"),
            std::string::npos)
      << s;

  const NodeDef concat = NodeDefBuilder("concat", "TensorListConcatV2")
                             .Input("l")
                             .Input("s")
                             .Input("d")
                             .Attr("element_dtype", DT_FLOAT)
                             .Attr("shape_type", DT_INT32)
                             .Build();
  ASSERT_TRUE(
      Run(concat, {split, ShapeTensor({-1, 2}), MakeTensor<int64_t>(TensorShape({0}), {})}).ok());
  EXPECT_EQ(GetOutput(0)->shape(), TensorShape({3, 2}));
  EXPECT_EQ(Values<float>(*GetOutput(0)), (std::vector<float>{1, 2, 3, 4, 5, 6}));
  EXPECT_EQ(Values<int64_t>(*GetOutput(1)), (std::vector<int64_t>{1, 2}));
}

}  // namespace
}  // namespace test
}  // namespace sluice
