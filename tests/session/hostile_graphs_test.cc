// Graphs from issue 25 that aborted the process (CHECK failures in shape code reached through
// constant folding, wrapped size arithmetic) or that Sluice accepted where TensorFlow does
// not. Each runs through a real session: import with shape inference, the optimizer's
// constant folding, placement and the CPU kernels, with Const inputs (the folding path) and
// with fed Placeholders (the run-time path). Each must fail with TensorFlow's error code,
// checked against TensorFlow 2.21, and its valid neighbours must give the right values.
#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "graph/core/partial_tensor_shape.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_proto.h"
#include "graph/core/tensor_shape.h"
#include "graph/core/tensor_types.h"
#include "graph/core/types.h"
#include "graph/op/node_def_util.h"
#include "gtest/gtest.h"
#include "proto/graph.pb.h"
#include "runtime/device/session_options.h"
#include "runtime/session/session.h"

namespace sluice {
namespace {

using ::testing::HasSubstr;

constexpr int64_t kInt64Min = std::numeric_limits<int64_t>::min();
constexpr int64_t kInt64Max = std::numeric_limits<int64_t>::max();
const char kRangeTooLong[] = "Requires ((limit - start) / delta) <= 9223372036854775807";

template <typename T>
Tensor Scalar(T value) {
  Tensor t(DataTypeToEnum<T>::value, TensorShape({}));
  t.flat<T>()(0) = value;
  return t;
}

template <typename T>
Tensor Vector(const std::vector<T>& values) {
  Tensor t(DataTypeToEnum<T>::value, TensorShape({static_cast<int64_t>(values.size())}));
  for (size_t i = 0; i < values.size(); ++i) t.flat<T>()(i) = values[i];
  return t;
}

template <typename T>
std::vector<T> Values(const Tensor& t) {
  std::vector<T> v;
  for (int64_t i = 0; i < t.NumElements(); ++i) v.push_back(t.flat<T>()(i));
  return v;
}

// Builds a GraphDef node by node.
class GraphBuilder {
 public:
  NodeDef* Op(const std::string& name, const std::string& op,
              const std::vector<std::string>& inputs = {}) {
    NodeDef* node = graph_.add_node();
    node->set_name(name);
    node->set_op(op);
    for (const std::string& input : inputs) node->add_input(input);
    return node;
  }
  NodeDef* Const(const std::string& name, const Tensor& value) {
    NodeDef* node = Op(name, "Const");
    TensorProto proto;
    TensorToProtoContent(value, &proto);
    AddNodeAttr("dtype", value.dtype(), node);
    AddNodeAttr("value", proto, node);
    return node;
  }
  NodeDef* Placeholder(const std::string& name, DataType dtype,
                       const PartialTensorShape& shape = PartialTensorShape()) {
    NodeDef* node = Op(name, "Placeholder");
    AddNodeAttr("dtype", dtype, node);
    AddNodeAttr("shape", shape, node);
    return node;
  }
  // Reshape of the float scalar `name`_one to `rank` dims of 1.
  std::string OnesOfRank(const std::string& name, int rank) {
    Const(name + "_one", Scalar<float>(1.0f));
    Const(name + "_shape", Vector<int32_t>(std::vector<int32_t>(rank, 1)));
    NodeDef* r = Op(name, "Reshape", {name + "_one", name + "_shape"});
    AddNodeAttr("T", DT_FLOAT, r);
    AddNodeAttr("Tshape", DT_INT32, r);
    return name;
  }
  const GraphDef& graph() const { return graph_; }

 private:
  GraphDef graph_;
};

// Creates a session on `graph` and fetches `fetches` with `feeds`: the first error, from
// Create or Run.
absl::Status CreateAndRun(const GraphDef& graph,
                          const std::vector<std::pair<std::string, Tensor>>& feeds,
                          const std::vector<std::string>& fetches,
                          std::vector<Tensor>* outputs = nullptr) {
  std::unique_ptr<Session> session;
  absl::Status s = NewSession(SessionOptions(), &session);
  if (!s.ok()) return s;
  s = session->Create(graph);
  if (!s.ok()) return s;
  std::vector<Tensor> local;
  return session->Run(feeds, fetches, {}, outputs != nullptr ? outputs : &local);
}

// ---- Range ---------------------------------------------------------------------------

template <typename T>
GraphDef ConstRange(T start, T limit, T delta) {
  GraphBuilder b;
  b.Const("start", Scalar<T>(start));
  b.Const("limit", Scalar<T>(limit));
  b.Const("delta", Scalar<T>(delta));
  AddNodeAttr("Tidx", DataTypeToEnum<T>::value,
              b.Op("range", "Range", {"start", "limit", "delta"}));
  return b.graph();
}

template <typename T>
absl::Status FedRange(T start, T limit, T delta, std::vector<Tensor>* outputs = nullptr) {
  GraphBuilder b;
  const DataType dtype = DataTypeToEnum<T>::value;
  for (const char* name : {"start", "limit", "delta"}) b.Placeholder(name, dtype, TensorShape());
  AddNodeAttr("Tidx", dtype, b.Op("range", "Range", {"start", "limit", "delta"}));
  return CreateAndRun(
      b.graph(),
      {{"start", Scalar<T>(start)}, {"limit", Scalar<T>(limit)}, {"delta", Scalar<T>(delta)}},
      {"range"}, outputs);
}

TEST(HostileGraphsTest, RangeCountBeyondInt64) {
  // TensorFlow: INVALID_ARGUMENT "Requires ((limit - start) / delta) <= 9223372036854775807"
  // for int64 (its shape function for Consts, its kernel for feeds); for float and double,
  // INVALID_ARGUMENT from its kernel ("Expected a non-negative size").
  const double two63 = 9223372036854775808.0;
  for (const absl::Status& s :
       {CreateAndRun(ConstRange<int64_t>(kInt64Min, kInt64Max, 1), {}, {"range"}),
        CreateAndRun(ConstRange<int64_t>(kInt64Max, kInt64Min, -1), {}, {"range"}),
        CreateAndRun(ConstRange<float>(0, static_cast<float>(two63), 1), {}, {"range"}),
        CreateAndRun(ConstRange<double>(0, two63, 1), {}, {"range"}),
        FedRange<int64_t>(kInt64Min, kInt64Max, 1), FedRange<int64_t>(kInt64Max, kInt64Min, -1),
        FedRange<float>(0, static_cast<float>(two63), 1), FedRange<double>(0, two63, 1),
        FedRange<double>(0, 0, std::numeric_limits<double>::quiet_NaN())}) {
    EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << s;
    EXPECT_THAT(std::string(s.message()), HasSubstr(kRangeTooLong));
  }
  std::vector<Tensor> out;
  ASSERT_TRUE(FedRange<int64_t>(-3, 3, 2, &out).ok());
  EXPECT_EQ(Values<int64_t>(out[0]), (std::vector<int64_t>{-3, -1, 1}));
  ASSERT_TRUE(FedRange<int64_t>(kInt64Min, kInt64Max, kInt64Max, &out).ok());
  EXPECT_EQ(Values<int64_t>(out[0]), (std::vector<int64_t>{kInt64Min, -1, kInt64Max - 1}));
  ASSERT_TRUE(CreateAndRun(ConstRange<double>(0, 4, 1.5), {}, {"range"}, &out).ok());
  EXPECT_EQ(Values<double>(out[0]), (std::vector<double>{0, 1.5, 3}));
}

TEST(HostileGraphsTest, RangeWithoutKernelNamesTheDtype) {
  // TensorFlow: INVALID_ARGUMENT "No OpKernel was registered to support Op 'Range' used by
  // {{node range}} with these attrs: [Tidx=DT_INT8]".
  const absl::Status s = CreateAndRun(ConstRange<int8_t>(0, 5, 1), {}, {"range"});
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << s;
  EXPECT_THAT(std::string(s.message()), HasSubstr("Tidx=DT_INT8"));
  EXPECT_THAT(std::string(s.message()), HasSubstr("Range"));
}

// ---- SplitV ----------------------------------------------------------------------------

TEST(HostileGraphsTest, SplitVSizesWhoseSumOverflows) {
  // TensorFlow: INVALID_ARGUMENT (it reports the wrapped remainder as a negative size).
  const std::vector<std::vector<int64_t>> bad = {{int64_t{1} << 62, int64_t{1} << 62, -1},
                                                 {kInt64Max, 2, -1},
                                                 {2, kInt64Max, -1},
                                                 {kInt64Max, 2, 0}};
  const std::vector<int64_t> good = {1, 2, -1};
  Tensor x(DT_FLOAT, TensorShape({4, 2}));
  for (int i = 0; i < 8; ++i) x.flat<float>()(i) = static_cast<float>(i);
  for (bool fed : {false, true}) {
    for (const std::vector<int64_t>& sizes : {bad[0], bad[1], bad[2], bad[3], good}) {
      GraphBuilder b;
      b.Placeholder("x", DT_FLOAT, PartialTensorShape({4, 2}));
      if (fed) {
        b.Placeholder("sizes", DT_INT64, PartialTensorShape({3}));
      } else {
        b.Const("sizes", Vector<int64_t>(sizes));
      }
      b.Const("axis", Scalar<int32_t>(0));
      NodeDef* split = b.Op("split", "SplitV", {"x", "sizes", "axis"});
      AddNodeAttr("T", DT_FLOAT, split);
      AddNodeAttr("Tlen", DT_INT64, split);
      AddNodeAttr("num_split", 3, split);
      std::vector<std::pair<std::string, Tensor>> feeds = {{"x", x}};
      if (fed) feeds.emplace_back("sizes", Vector<int64_t>(sizes));
      std::vector<Tensor> out;
      const absl::Status s =
          CreateAndRun(b.graph(), feeds, {"split:0", "split:1", "split:2"}, &out);
      if (sizes == good) {
        ASSERT_TRUE(s.ok()) << s;
        EXPECT_EQ(Values<float>(out[0]), (std::vector<float>{0, 1}));
        EXPECT_EQ(Values<float>(out[1]), (std::vector<float>{2, 3, 4, 5}));
        EXPECT_EQ(Values<float>(out[2]), (std::vector<float>{6, 7}));
      } else {
        EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << fed << " " << s;
        EXPECT_THAT(std::string(s.message()), HasSubstr("Split sizes overflow int64"));
      }
    }
  }
}

// ---- Shapes of rank above 254 ----------------------------------------------------------

// `op`(value, shape) with a 300-entry shape of ones, Const or fed.
absl::Status RunShapeOp(const std::string& op, int entries, bool fed,
                        std::vector<Tensor>* out = nullptr) {
  GraphBuilder b;
  b.Const("value", Scalar<float>(7.0f));
  const std::vector<int32_t> dims(entries, 1);
  if (fed) {
    b.Placeholder("shape", DT_INT32, PartialTensorShape({entries}));
  } else {
    b.Const("shape", Vector<int32_t>(dims));
  }
  NodeDef* node =
      op == "Fill" ? b.Op("y", op, {"shape", "value"}) : b.Op("y", op, {"value", "shape"});
  AddNodeAttr("T", DT_FLOAT, node);
  if (op == "Fill") AddNodeAttr("index_type", DT_INT32, node);
  if (op == "Reshape") AddNodeAttr("Tshape", DT_INT32, node);
  if (op == "BroadcastTo") AddNodeAttr("Tidx", DT_INT32, node);
  std::vector<std::pair<std::string, Tensor>> feeds;
  if (fed) feeds.emplace_back("shape", Vector<int32_t>(dims));
  return CreateAndRun(b.graph(), feeds, {"y"}, out);
}

TEST(HostileGraphsTest, FillReshapeBroadcastToOfRank300) {
  // TensorFlow: INVALID_ARGUMENT ("Too many dimensions", "too many dimensions: must be <
  // 254, but received 300"), for Consts and feeds alike.
  for (const char* op : {"Fill", "Reshape", "BroadcastTo"}) {
    for (bool fed : {false, true}) {
      const absl::Status s = RunShapeOp(op, 300, fed);
      EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << op << " " << fed << " " << s;
    }
    for (bool fed : {false, true}) {
      std::vector<Tensor> out;
      const absl::Status s = RunShapeOp(op, 3, fed, &out);
      ASSERT_TRUE(s.ok()) << op << " " << s;
      EXPECT_EQ(out[0].shape(), TensorShape({1, 1, 1}));
      EXPECT_EQ(Values<float>(out[0]), std::vector<float>{7.0f});
    }
  }
}

TEST(HostileGraphsTest, ExpandDimsAndPackOfRank254) {
  for (int rank : {254, 253}) {
    for (bool fed : {false, true}) {
      for (const char* op : {"ExpandDims", "Pack"}) {
        GraphBuilder b;
        std::string input;
        if (fed) {
          b.Placeholder("x", DT_FLOAT);
          input = "x";
        } else {
          input = b.OnesOfRank("x", rank);
        }
        NodeDef* node;
        if (std::string(op) == "ExpandDims") {
          b.Const("dim", Scalar<int32_t>(0));
          node = b.Op("y", op, {input, "dim"});
          AddNodeAttr("Tdim", DT_INT32, node);
        } else {
          node = b.Op("y", op, {input});
          AddNodeAttr("N", 1, node);
          AddNodeAttr("axis", 0, node);
        }
        AddNodeAttr("T", DT_FLOAT, node);
        std::vector<std::pair<std::string, Tensor>> feeds;
        if (fed) {
          feeds.emplace_back("x", Tensor(DT_FLOAT, TensorShape(std::vector<int64_t>(rank, 1))));
        }
        std::vector<Tensor> out;
        const absl::Status s = CreateAndRun(b.graph(), feeds, {"y"}, &out);
        if (rank == 254) {
          EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << op << " " << fed << " " << s;
        } else {
          ASSERT_TRUE(s.ok()) << op << " " << fed << " " << s;
          EXPECT_EQ(out[0].dims(), 254);
        }
      }
    }
  }
}

TEST(HostileGraphsTest, StridedSliceNewAxesPastRank254) {
  // An ellipsis and 10 new axes on a rank-250 input: rank 260.
  for (int rank : {250, 240}) {
    for (bool fed : {false, true}) {
      GraphBuilder b;
      std::string input;
      if (fed) {
        b.Placeholder("x", DT_FLOAT);
        input = "x";
      } else {
        input = b.OnesOfRank("x", rank);
      }
      b.Const("begin", Vector<int32_t>(std::vector<int32_t>(11, 0)));
      b.Const("end", Vector<int32_t>(std::vector<int32_t>(11, 0)));
      b.Const("strides", Vector<int32_t>(std::vector<int32_t>(11, 1)));
      NodeDef* node = b.Op("y", "StridedSlice", {input, "begin", "end", "strides"});
      AddNodeAttr("T", DT_FLOAT, node);
      AddNodeAttr("Index", DT_INT32, node);
      AddNodeAttr("begin_mask", 0, node);
      AddNodeAttr("end_mask", 0, node);
      AddNodeAttr("ellipsis_mask", 1, node);
      AddNodeAttr("new_axis_mask", 0x7fe, node);
      AddNodeAttr("shrink_axis_mask", 0, node);
      std::vector<std::pair<std::string, Tensor>> feeds;
      if (fed) {
        feeds.emplace_back("x", Tensor(DT_FLOAT, TensorShape(std::vector<int64_t>(rank, 1))));
      }
      std::vector<Tensor> out;
      const absl::Status s = CreateAndRun(b.graph(), feeds, {"y"}, &out);
      if (rank == 250) {
        EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << fed << " " << s;
      } else {
        ASSERT_TRUE(s.ok()) << fed << " " << s;
        EXPECT_EQ(out[0].dims(), 250);
      }
    }
  }
}

// ---- PlaceholderWithDefault ------------------------------------------------------------

TEST(HostileGraphsTest, PlaceholderWithDefaultContradictingItsShape) {
  // TensorFlow: INVALID_ARGUMENT "Dimension 1 in both shapes must be equal, but are 4 and 3"
  // (its shape function, when the graph is built).
  for (const auto& [default_shape, ok] :
       std::vector<std::pair<TensorShape, bool>>{{TensorShape({2, 4}), false},
                                                 {TensorShape({3}), false},
                                                 {TensorShape({}), false},
                                                 {TensorShape({2, 3}), true}}) {
    GraphBuilder b;
    Tensor value(DT_FLOAT, default_shape);
    for (int64_t i = 0; i < value.NumElements(); ++i) value.flat<float>()(i) = 1.0f;
    b.Const("default", value);
    NodeDef* node = b.Op("p", "PlaceholderWithDefault", {"default"});
    AddNodeAttr("dtype", DT_FLOAT, node);
    AddNodeAttr("shape", PartialTensorShape({-1, 3}), node);
    std::vector<Tensor> out;
    const absl::Status s = CreateAndRun(b.graph(), {}, {"p"}, &out);
    if (ok) {
      ASSERT_TRUE(s.ok()) << s;
      EXPECT_EQ(out[0].shape(), default_shape);
    } else {
      EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << default_shape << " " << s;
    }
  }
}

// ---- Reductions ------------------------------------------------------------------------

TEST(HostileGraphsTest, ReductionAxisOfRank2) {
  // TensorFlow: INVALID_ARGUMENT "Shape must be at most rank 1 but is rank 2" (its shape
  // function, when the graph is built) for every reduction sharing it. A fed axis of
  // unknown static shape TensorFlow's kernel reads flattened; so does Sluice's (the
  // reduction fixture records it).
  Tensor x(DT_FLOAT, TensorShape({2, 3}));
  for (int i = 0; i < 6; ++i) x.flat<float>()(i) = static_cast<float>(i);
  Tensor axis(DT_INT32, TensorShape({1, 1}));
  axis.flat<int32_t>()(0) = 1;
  for (const char* op : {"Max", "Min", "Sum", "Prod", "Mean", "All", "Any"}) {
    const bool logical = std::string(op) == "All" || std::string(op) == "Any";
    const DataType dtype = logical ? DT_BOOL : DT_FLOAT;
    Tensor input = logical ? Tensor(DT_BOOL, TensorShape({2, 3})) : x;
    if (logical) {
      for (int i = 0; i < 6; ++i) input.flat<bool>()(i) = true;
    }
    for (int how = 0; how < 3; ++how) {  // Const axis, fed axis of static shape [1,1], unknown
      GraphBuilder b;
      b.Placeholder("x", dtype, PartialTensorShape({2, 3}));
      std::vector<std::pair<std::string, Tensor>> feeds = {{"x", input}};
      if (how == 0) {
        b.Const("axis", axis);
      } else {
        b.Placeholder("axis", DT_INT32,
                      how == 1 ? PartialTensorShape({1, 1}) : PartialTensorShape());
        feeds.emplace_back("axis", axis);
      }
      NodeDef* node = b.Op("y", op, {"x", "axis"});
      if (!logical) AddNodeAttr("T", DT_FLOAT, node);
      AddNodeAttr("Tidx", DT_INT32, node);
      AddNodeAttr("keep_dims", false, node);
      std::vector<Tensor> out;
      const absl::Status s = CreateAndRun(b.graph(), feeds, {"y"}, &out);
      if (how < 2) {
        EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << op << " " << how << " " << s;
        EXPECT_THAT(std::string(s.message()), HasSubstr("must be at most rank 1"));
      } else {
        ASSERT_TRUE(s.ok()) << op << " " << s;
        EXPECT_EQ(out[0].shape(), TensorShape({2}));
      }
    }
  }
}

// ---- Slice ---------------------------------------------------------------------------

// A begin of INT64_MIN with a size of -1 ("to the end"): "to the end" was computed as
// dim - begin before begin was checked, a signed overflow (UBSan, the ASan stage).
TEST(HostileGraphsTest, SliceToTheEndFromAnExtremeBegin) {
  GraphBuilder b;
  b.Placeholder("x", DT_FLOAT, TensorShape({4}));
  b.Placeholder("begin", DT_INT64, TensorShape({1}));
  b.Placeholder("size", DT_INT64, TensorShape({1}));
  NodeDef* slice = b.Op("slice", "Slice", {"x", "begin", "size"});
  AddNodeAttr("T", DT_FLOAT, slice);
  AddNodeAttr("Index", DT_INT64, slice);
  const Tensor x = Vector<float>({1, 2, 3, 4});
  for (int64_t begin : {kInt64Min, kInt64Max, int64_t{-1}, int64_t{5}}) {
    const absl::Status status = CreateAndRun(
        b.graph(), {{"x", x}, {"begin", Vector<int64_t>({begin})}, {"size", Vector<int64_t>({-1})}},
        {"slice"});
    EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument) << begin << ": " << status;
  }
  std::vector<Tensor> out;
  ASSERT_TRUE(
      CreateAndRun(b.graph(),
                   {{"x", x}, {"begin", Vector<int64_t>({1})}, {"size", Vector<int64_t>({-1})}},
                   {"slice"}, &out)
          .ok());
  EXPECT_EQ(Values<float>(out[0]), std::vector<float>({2, 3, 4}));
}

// ---- The session's memory limit ------------------------------------------------------

// A Fill of fed dims under SessionOptions::memory_limit_bytes: within the limit it runs; past
// it the step fails with RESOURCE_EXHAUSTED naming the node and the limit, and the session
// serves the next step.
TEST(HostileGraphsTest, MemoryLimitRefusesATensorAndTheSessionGoesOn) {
  GraphBuilder b;
  b.Placeholder("dims", DT_INT32, TensorShape({2}));
  b.Const("one", Scalar<float>(1.0f));
  NodeDef* fill = b.Op("big", "Fill", {"dims", "one"});
  AddNodeAttr("T", DT_FLOAT, fill);
  AddNodeAttr("index_type", DT_INT32, fill);
  SessionOptions options;
  options.memory_limit_bytes = int64_t{64} << 20;
  std::unique_ptr<Session> session;
  ASSERT_TRUE(NewSession(options, &session).ok());
  ASSERT_TRUE(session->Create(b.graph()).ok());

  std::vector<Tensor> out;
  ASSERT_TRUE(session->Run({{"dims", Vector<int32_t>({1024, 1024})}}, {"big"}, {}, &out).ok());
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].NumElements(), 1024 * 1024);
  EXPECT_EQ(out[0].flat<float>()(1024 * 1024 - 1), 1.0f);
  out.clear();

  const absl::Status refused =
      session->Run({{"dims", Vector<int32_t>({8192, 4096})}}, {"big"}, {}, &out);
  EXPECT_EQ(refused.code(), absl::StatusCode::kResourceExhausted) << refused;
  EXPECT_THAT(refused.message(), HasSubstr("shape[8192,4096]"));
  EXPECT_THAT(refused.message(), HasSubstr("of its limit of 67108864 are in use"));
  EXPECT_THAT(refused.message(), HasSubstr("{{node big}}"));

  ASSERT_TRUE(session->Run({{"dims", Vector<int32_t>({2, 3})}}, {"big"}, {}, &out).ok());
  EXPECT_EQ(Values<float>(out[0]), std::vector<float>(6, 1.0f));
}

TEST(HostileGraphsTest, NegativeMemoryLimitIsInvalid) {
  SessionOptions options;
  options.memory_limit_bytes = -1;
  std::unique_ptr<Session> session;
  EXPECT_EQ(NewSession(options, &session).code(), absl::StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace sluice
