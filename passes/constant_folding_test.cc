#include "passes/constant_folding.h"

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "graph/core/errors.h"
#include "graph/core/tensor_proto.h"
#include "graph/core/tensor_types.h"
#include "graph/graph.h"
#include "graph/import/graph_testutil.h"
#include "graph/op/node_def_util.h"
#include "graph/op/op_registry.h"
#include "graph/shape/common_shape_fns.h"
#include "graph/shape/shape_inference.h"
#include "gtest/gtest.h"
#include "passes/constant_evaluator.h"

namespace sluice {
namespace {

absl::Status RepeatShape(shape_inference::InferenceContext* c) {
  int64_t n;
  RETURN_IF_ERROR(c->GetAttr("n", &n));
  c->set_output(0, c->Vector(n));
  return absl::OkStatus();
}

// n dims of 1: shape functions may build shapes of any rank.
absl::Status RankNShape(shape_inference::InferenceContext* c) {
  int64_t n;
  RETURN_IF_ERROR(c->GetAttr("n", &n));
  c->set_output(0, c->MakeShape(std::vector<shape_inference::DimensionHandle>(n, c->MakeDim(1))));
  return absl::OkStatus();
}

// Test-only ops. FakeEvaluator computes them in plain C++, standing in for CPU kernels
// (passes/ does not link the runtime); CfTestNoKernel is the op it cannot evaluate.
REGISTER_OP("CfTestAdd")
    .Input("x: float")
    .Input("y: float")
    .Output("z: float")
    .SetShapeFn(shape_inference::UnchangedShape);
REGISTER_OP("CfTestSplit")
    .Input("x: float")
    .Output("first: float")
    .Output("rest: float")
    .SetShapeFn(shape_inference::UnknownShape);
REGISTER_OP("CfTestRandom")
    .Input("x: float")
    .Output("y: float")
    .SetIsStateful()
    .SetShapeFn(shape_inference::UnchangedShape);
REGISTER_OP("CfTestFail")
    .Input("x: float")
    .Output("y: float")
    .SetShapeFn(shape_inference::UnchangedShape);
// A scalar repeated n times; CfTestRepeatKnown's shape function knows the result's shape.
REGISTER_OP("CfTestRepeat")
    .Input("x: float")
    .Output("y: float")
    .Attr("n: int")
    .SetShapeFn(shape_inference::UnknownShape);
REGISTER_OP("CfTestRepeatKnown")
    .Input("x: float")
    .Output("y: float")
    .Attr("n: int")
    .SetShapeFn(RepeatShape);
REGISTER_OP("CfTestRankN")
    .Input("x: float")
    .Output("y: float")
    .Attr("n: int")
    .SetShapeFn(RankNShape);
REGISTER_OP("CfTestHandle")
    .Input("x: float")
    .Output("h: resource")
    .SetShapeFn(shape_inference::ScalarShape);
REGISTER_OP("CfTestNoKernel")
    .Input("x: T")
    .Output("y: T")
    .Attr("T: type")
    .SetShapeFn(shape_inference::UnchangedShape);

std::vector<float> Floats(const Tensor& t) {
  auto flat = t.unaligned_flat<float>();
  return std::vector<float>(flat.data(), flat.data() + flat.size());
}

Tensor FloatVector(const std::vector<float>& values) {
  Tensor t(DT_FLOAT, TensorShape({static_cast<int64_t>(values.size())}));
  for (size_t i = 0; i < values.size(); ++i) t.flat<float>()(i) = values[i];
  return t;
}

class FakeEvaluator : public ConstantSubgraphEvaluator {
 public:
  bool CanEvaluate(const Node& node) const override {
    const std::string& op = node.type_string();
    return node.IsConstant() || op == "Identity" || op == "CfTestAdd" || op == "CfTestSplit" ||
           op == "CfTestRandom" || op == "CfTestFail" || op == "CfTestRepeat" ||
           op == "CfTestRepeatKnown" || op == "CfTestHandle" || op == "CfTestRankN";
  }

  absl::Status Evaluate(absl::Span<const Node* const> nodes,
                        absl::Span<const std::pair<const Node*, int>> outputs,
                        std::vector<Tensor>* values) override {
    ++calls;
    absl::flat_hash_map<const Node*, std::vector<Tensor>> results;
    for (const Node* n : nodes) {
      evaluated.push_back(n->name());
      std::vector<Tensor> inputs;
      for (int i = 0; i < n->num_inputs(); ++i) {
        const Edge* e = nullptr;
        RETURN_IF_ERROR(n->input_edge(i, &e));
        auto it = results.find(e->src());
        if (it == results.end()) return errors::Internal("not closed at ", n->name());
        inputs.push_back(it->second[e->src_output()]);
      }
      RETURN_IF_ERROR(Compute(*n, inputs, &results[n]));
    }
    values->clear();
    for (const auto& [node, port] : outputs) values->push_back(results.at(node)[port]);
    return absl::OkStatus();
  }

  int calls = 0;
  std::vector<std::string> evaluated;

 private:
  static absl::Status Compute(const Node& n, const std::vector<Tensor>& in,
                              std::vector<Tensor>* out) {
    const std::string& op = n.type_string();
    if (n.IsConstant()) {
      const TensorProto* proto = nullptr;
      RETURN_IF_ERROR(GetNodeAttr(n.attrs(), "value", &proto));
      out->emplace_back();
      return TensorFromProto(*proto, &out->back());
    }
    if (op == "CfTestFail") {
      return AttachDef(errors::InvalidArgument("CfTestFail failed"), n.def());
    }
    if (op == "Identity" || op == "CfTestRandom" || op == "CfTestHandle" || op == "CfTestRankN") {
      out->push_back(in[0]);
      return absl::OkStatus();
    }
    std::vector<float> x = Floats(in[0]);
    if (op == "CfTestAdd") {
      std::vector<float> y = Floats(in[1]);
      for (size_t i = 0; i < x.size(); ++i) x[i] += y[i];
      out->push_back(FloatVector(x));
    } else if (op == "CfTestSplit") {
      out->push_back(FloatVector({x[0]}));
      out->push_back(FloatVector(std::vector<float>(x.begin() + 1, x.end())));
    } else if (op == "CfTestRepeat" || op == "CfTestRepeatKnown") {
      int64_t count;
      RETURN_IF_ERROR(GetNodeAttr(n.attrs(), "n", &count));
      out->push_back(FloatVector(std::vector<float>(count, x[0])));
    }
    return absl::OkStatus();
  }
};

std::string FloatConst(const std::string& name, const std::vector<float>& values,
                       const std::string& control_input = "") {
  std::string vals;
  for (float v : values) absl::StrAppend(&vals, " float_val: ", v);
  return absl::StrCat(
      "node { name: '", name, "' op: 'Const'",
      control_input.empty() ? "" : absl::StrCat(" input: '^", control_input, "'"),
      " attr { key: 'dtype' value { type: DT_FLOAT } }"
      " attr { key: 'value' value { tensor { dtype: DT_FLOAT tensor_shape { dim { size: ",
      values.size(), " } }", vals, " } } } }\n");
}

std::string Op(const std::string& name, const std::string& op,
               const std::vector<std::string>& inputs, const std::string& attrs = "") {
  std::string s = absl::StrCat("node { name: '", name, "' op: '", op, "'");
  for (const std::string& in : inputs) absl::StrAppend(&s, " input: '", in, "'");
  return absl::StrCat(s, " ", attrs, " }\n");
}

// A consumer that never folds.
std::string Sink(const std::string& name, const std::string& input,
                 const std::string& dtype = "DT_FLOAT") {
  return Op(name, "CfTestNoKernel", {input},
            absl::StrCat("attr { key: 'T' value { type: ", dtype, " } }"));
}

std::string FloatPlaceholder(const std::string& name, const std::string& shape = "") {
  return absl::StrCat(
      "node { name: '", name, "' op: 'Placeholder'",
      " attr { key: 'dtype' value { type: DT_FLOAT } }",
      shape.empty() ? "" : absl::StrCat(" attr { key: 'shape' value { shape { ", shape, " } } }"),
      " }\n");
}

std::string XY() { return FloatConst("x", {1, 2, 3}) + FloatConst("y", {10, 20, 30}); }

class ConstantFoldingTest : public ::testing::Test {
 protected:
  void Build(const std::string& text) {
    absl::Status s = GraphFromTextForTest(text, &graph_);
    ASSERT_TRUE(s.ok()) << s;
  }

  // opts_ with the fixture's evaluator.
  ConstantFoldingOptions FoldingOptions() {
    ConstantFoldingOptions opts = opts_;
    opts.evaluator = &evaluator_;
    return opts;
  }

  // Folds, expecting success; returns whether the graph changed.
  bool Fold() {
    bool mutated = false;
    absl::Status s = ConstantFold(FoldingOptions(), &graph_, &mutated);
    EXPECT_TRUE(s.ok()) << s;
    return mutated;
  }

  std::string Canonical() const { return CanonicalGraphString(graph_); }

  // The names of the nodes the evaluator ran, sorted.
  std::string Evaluated() const {
    std::vector<std::string> names = evaluator_.evaluated;
    std::sort(names.begin(), names.end());
    return absl::StrJoin(names, ",");
  }

  // The value of Const `name`, which must be stored as tensor_content (or string_val).
  Tensor ConstValue(const std::string& name) {
    const Node* n = graph_.FindNodeByName(name);
    EXPECT_NE(n, nullptr) << name;
    if (n == nullptr) return Tensor();
    EXPECT_EQ(n->type_string(), "Const");
    const TensorProto* proto = nullptr;
    EXPECT_TRUE(GetNodeAttr(n->attrs(), "value", &proto).ok());
    Tensor t;
    EXPECT_TRUE(TensorFromProto(*proto, &t).ok());
    return t;
  }

  template <typename T>
  std::vector<T> ConstValues(const std::string& name) {
    Tensor t = ConstValue(name);
    EXPECT_EQ(t.dtype(), DataTypeToEnum<T>::value) << name;
    if (t.dtype() != DataTypeToEnum<T>::value) return {};
    auto flat = t.unaligned_flat<T>();
    return std::vector<T>(flat.data(), flat.data() + flat.size());
  }

  Graph graph_{OpRegistry::Global()};
  FakeEvaluator evaluator_;
  ConstantFoldingOptions opts_;
};

TEST_F(ConstantFoldingTest, ChainFoldsToOneConst) {
  Build(XY() + Op("a", "CfTestAdd", {"x", "y"}) + Op("b", "CfTestAdd", {"a", "x"}) +
        Sink("out", "b"));
  EXPECT_TRUE(Fold());
  EXPECT_EQ(Canonical(), "b/_0__cf__0(Const);out(CfTestNoKernel)|b/_0__cf__0->out");
  EXPECT_EQ(ConstValues<float>("b/_0__cf__0"), (std::vector<float>{12, 24, 36}));
  EXPECT_TRUE(ConstValue("b/_0__cf__0").NumElements() == 3);
  EXPECT_EQ(Evaluated(), "a,b,x,y");
  // The new Const is stored as tensor_content, like TensorFlow's folded constants.
  const TensorProto* proto = nullptr;
  ASSERT_TRUE(GetNodeAttr(graph_.FindNodeByName("b/_0__cf__0")->attrs(), "value", &proto).ok());
  EXPECT_FALSE(proto->tensor_content().empty());

  // A second run finds nothing left to fold.
  EXPECT_FALSE(Fold());
}

TEST_F(ConstantFoldingTest, PartialFoldingWithAPlaceholder) {
  Build(XY() + FloatPlaceholder("p") + Op("a", "CfTestAdd", {"x", "y"}) +
        Op("m", "CfTestAdd", {"a", "p"}) + Op("n", "CfTestAdd", {"m", "x"}) + Sink("out", "n"));
  EXPECT_TRUE(Fold());
  EXPECT_EQ(Canonical(),
            "a/_0__cf__0(Const);m(CfTestAdd);n(CfTestAdd);out(CfTestNoKernel);p(Placeholder);"
            "x(Const)|a/_0__cf__0->m;m->n;n->out;p->m:1;x->n:1");
  EXPECT_EQ(ConstValues<float>("a/_0__cf__0"), (std::vector<float>{11, 22, 33}));
}

TEST_F(ConstantFoldingTest, OnlyTheNeededNodesAreEvaluated) {
  Build(XY() + Op("a", "CfTestAdd", {"x", "y"}) + Op("unused", "CfTestAdd", {"y", "y"}) +
        Sink("out", "a"));
  EXPECT_TRUE(Fold());
  EXPECT_EQ(Evaluated(), "a,x,y");
  // `unused` had no consumer to lose, so it stays (and keeps y alive).
  EXPECT_EQ(Canonical(),
            "a/_0__cf__0(Const);out(CfTestNoKernel);unused(CfTestAdd);y(Const)|"
            "a/_0__cf__0->out;y->unused;y->unused:1");
}

TEST_F(ConstantFoldingTest, StatefulNodesAreNotFolded) {
  Build(XY() + Op("r", "CfTestRandom", {"x"}) + Op("s", "CfTestAdd", {"r", "y"}) +
        Sink("out", "s"));
  const std::string before = Canonical();
  EXPECT_FALSE(Fold());
  EXPECT_EQ(Canonical(), before);
  EXPECT_EQ(evaluator_.calls, 0);
}

TEST_F(ConstantFoldingTest, ExcludedNodesAreNotFolded) {
  Build(XY() + Op("a", "CfTestAdd", {"x", "y"}) + Op("b", "CfTestAdd", {"a", "x"}) +
        Sink("out", "b"));
  const std::string before = Canonical();
  opts_.excluded_nodes = {"a"};
  EXPECT_FALSE(Fold());
  EXPECT_EQ(Canonical(), before);

  // An excluded Const is not a seed either.
  opts_.excluded_nodes = {"y"};
  EXPECT_FALSE(Fold());
  EXPECT_EQ(Canonical(), before);
  EXPECT_EQ(evaluator_.calls, 0);
}

TEST_F(ConstantFoldingTest, ConsiderFnFilters) {
  Build(XY() + Op("a", "CfTestAdd", {"x", "y"}) + Sink("out", "a"));
  const std::string before = Canonical();
  opts_.consider_fn = [](const Node* n) { return n->name() != "a"; };
  EXPECT_FALSE(Fold());
  EXPECT_EQ(Canonical(), before);
}

TEST_F(ConstantFoldingTest, NodeWithoutKernelIsNotFolded) {
  Build(XY() + Op("a", "CfTestAdd", {"x", "y"}) + Sink("nk", "a") +
        Op("b", "CfTestAdd", {"nk", "x"}) + Sink("out", "b"));
  EXPECT_TRUE(Fold());
  EXPECT_EQ(Canonical(),
            "a/_0__cf__0(Const);b(CfTestAdd);nk(CfTestNoKernel);out(CfTestNoKernel);x(Const)|"
            "a/_0__cf__0->nk;b->out;nk->b;x->b:1");
}

TEST_F(ConstantFoldingTest, ShapeOpsOfKnownShapesFold) {
  Build(FloatPlaceholder("p", "dim { size: 2 } dim { size: 3 }") +
        FloatPlaceholder("q", "dim { size: -1 } dim { size: 3 }") +
        Op("shape", "Shape", {"p"}, "attr { key: 'T' value { type: DT_FLOAT } }") +
        Op("shape64", "Shape", {"p"},
           "attr { key: 'T' value { type: DT_FLOAT } }"
           " attr { key: 'out_type' value { type: DT_INT64 } }") +
        Op("size", "Size", {"p"}, "attr { key: 'T' value { type: DT_FLOAT } }") +
        Op("rank", "Rank", {"q"}, "attr { key: 'T' value { type: DT_FLOAT } }") +
        Op("qshape", "Shape", {"q"}, "attr { key: 'T' value { type: DT_FLOAT } }") +
        Sink("o1", "shape", "DT_INT32") + Sink("o2", "shape64", "DT_INT64") +
        Sink("o3", "size", "DT_INT32") + Sink("o4", "rank", "DT_INT32") +
        Sink("o5", "qshape", "DT_INT32"));
  EXPECT_TRUE(Fold());
  EXPECT_EQ(Canonical(),
            "o1(CfTestNoKernel);o2(CfTestNoKernel);o3(CfTestNoKernel);o4(CfTestNoKernel);"
            "o5(CfTestNoKernel);p(Placeholder);q(Placeholder);qshape(Shape);"
            "rank/_0__cf__0(Const);shape/_1__cf__1(Const);shape64/_2__cf__2(Const);"
            "size/_3__cf__3(Const)|"
            "^p->shape/_1__cf__1;^p->shape64/_2__cf__2;^p->size/_3__cf__3;"
            "^q->rank/_0__cf__0;q->qshape;qshape->o5;rank/_0__cf__0->o4;"
            "shape/_1__cf__1->o1;shape64/_2__cf__2->o2;size/_3__cf__3->o3");
  EXPECT_EQ(ConstValues<int32_t>("shape/_1__cf__1"), (std::vector<int32_t>{2, 3}));
  EXPECT_EQ(ConstValues<int64_t>("shape64/_2__cf__2"), (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(ConstValues<int32_t>("size/_3__cf__3"), (std::vector<int32_t>{6}));
  EXPECT_EQ(ConstValue("size/_3__cf__3").dims(), 0);
  EXPECT_EQ(ConstValues<int32_t>("rank/_0__cf__0"), (std::vector<int32_t>{2}));
}

TEST_F(ConstantFoldingTest, ShapeNFoldsEachOutput) {
  Build(FloatPlaceholder("p", "dim { size: 4 }") +
        FloatPlaceholder("q", "dim { size: 1 } dim { size: 5 }") +
        Op("sn", "ShapeN", {"p", "q"},
           "attr { key: 'T' value { type: DT_FLOAT } } attr { key: 'N' value { i: 2 } }") +
        Sink("o0", "sn", "DT_INT32") + Sink("o1", "sn:1", "DT_INT32"));
  EXPECT_TRUE(Fold());
  EXPECT_EQ(Canonical(),
            "o0(CfTestNoKernel);o1(CfTestNoKernel);p(Placeholder);q(Placeholder);"
            "sn/_0__cf__0(Const);sn/_1__cf__1(Const)|"
            "^p->sn/_0__cf__0;^p->sn/_1__cf__1;^q->sn/_0__cf__0;^q->sn/_1__cf__1;"
            "sn/_0__cf__0->o0;sn/_1__cf__1->o1");
  EXPECT_EQ(ConstValues<int32_t>("sn/_0__cf__0"), (std::vector<int32_t>{4}));
  EXPECT_EQ(ConstValues<int32_t>("sn/_1__cf__1"), (std::vector<int32_t>{1, 5}));
}

TEST_F(ConstantFoldingTest, ShapeFoldsFurtherThroughConsumers) {
  Build(FloatPlaceholder("p", "dim { size: 2 } dim { size: 3 }") +
        Op("shape", "Shape", {"p"}, "attr { key: 'T' value { type: DT_FLOAT } }") +
        Op("id", "Identity", {"shape"}, "attr { key: 'T' value { type: DT_INT32 } }") +
        Sink("out", "id", "DT_INT32"));
  EXPECT_TRUE(Fold());
  EXPECT_EQ(Canonical(),
            "id/_0__cf__0(Const);out(CfTestNoKernel);p(Placeholder)|"
            "^p->id/_0__cf__0;id/_0__cf__0->out");
  EXPECT_EQ(ConstValues<int32_t>("id/_0__cf__0"), (std::vector<int32_t>{2, 3}));
}

TEST_F(ConstantFoldingTest, ControlDependenciesAreCarriedOver) {
  Build(FloatPlaceholder("p") + FloatPlaceholder("q") + FloatConst("c", {1, 2}, "p") +
        FloatConst("d", {5, 5}) + Op("a", "CfTestAdd", {"c", "d", "^q"}) + Sink("out", "a"));
  EXPECT_TRUE(Fold());
  EXPECT_EQ(Canonical(),
            "a/_0__cf__0(Const);out(CfTestNoKernel);p(Placeholder);q(Placeholder)|"
            "^p->a/_0__cf__0;^q->a/_0__cf__0;a/_0__cf__0->out");
  EXPECT_EQ(ConstValues<float>("a/_0__cf__0"), (std::vector<float>{6, 7}));
}

TEST_F(ConstantFoldingTest, MultiOutputNodesFoldPerOutput) {
  Build(FloatConst("x", {1, 2, 3}) + Op("s", "CfTestSplit", {"x"}) + Sink("o0", "s") +
        Sink("o1", "s:1"));
  EXPECT_TRUE(Fold());
  EXPECT_EQ(Canonical(),
            "o0(CfTestNoKernel);o1(CfTestNoKernel);s/_0__cf__0(Const);s/_1__cf__1(Const)|"
            "s/_0__cf__0->o0;s/_1__cf__1->o1");
  EXPECT_EQ(ConstValues<float>("s/_0__cf__0"), (std::vector<float>{1}));
  EXPECT_EQ(ConstValues<float>("s/_1__cf__1"), (std::vector<float>{2, 3}));
}

TEST_F(ConstantFoldingTest, DevicesAreKept) {
  Build(XY() + Op("a", "CfTestAdd", {"x", "y"}, "device: '/device:CPU:0'") + Sink("out", "a"));
  graph_.FindNodeByName("a")->set_assigned_device_name(
      "/job:localhost/replica:0/task:0/device:CPU:0");
  EXPECT_TRUE(Fold());
  EXPECT_EQ(Canonical(),
            "a/_0__cf__0(Const)@/job:localhost/replica:0/task:0/device:CPU:0;"
            "out(CfTestNoKernel)|a/_0__cf__0->out");
  EXPECT_EQ(graph_.FindNodeByName("a/_0__cf__0")->requested_device(), "/device:CPU:0");
}

TEST_F(ConstantFoldingTest, SizeLimitIsRespected) {
  Build(FloatConst("x", {7}) +
        Op("big", "CfTestRepeat", {"x"}, "attr { key: 'n' value { i: 100 } }") +
        Sink("out", "big"));
  const std::string before = Canonical();
  opts_.max_constant_size_in_bytes = 399;
  EXPECT_FALSE(Fold());
  EXPECT_EQ(Canonical(), before);
  EXPECT_EQ(evaluator_.calls, 1);  // The size was only known after evaluation.

  opts_.max_constant_size_in_bytes = 400;
  EXPECT_TRUE(Fold());
  EXPECT_EQ(Canonical(), "big/_0__cf__0(Const);out(CfTestNoKernel)|big/_0__cf__0->out");
  EXPECT_EQ(ConstValues<float>("big/_0__cf__0"), std::vector<float>(100, 7));
}

TEST_F(ConstantFoldingTest, KnownOversizedNodesAreNotEvaluated) {
  Build(FloatConst("x", {7}) +
        Op("big", "CfTestRepeatKnown", {"x"}, "attr { key: 'n' value { i: 100 } }") +
        Sink("out", "big"));
  const std::string before = Canonical();
  opts_.max_constant_size_in_bytes = 399;
  EXPECT_FALSE(Fold());
  EXPECT_EQ(Canonical(), before);
  EXPECT_EQ(evaluator_.calls, 0);
}

// Issue 25: the size check and the folding of Shape ask the refiner for a
// PartialTensorShape, which cannot have rank 300: that is no known size and no known
// shape, not a CHECK failure.
TEST_F(ConstantFoldingTest, ShapesOfRankAbove254AreUnknown) {
  Build(FloatConst("x", {7}) +
        Op("high", "CfTestRankN", {"x"}, "attr { key: 'n' value { i: 300 } }") +
        Op("shape", "Shape", {"high"}, "attr { key: 'T' value { type: DT_FLOAT } }") +
        Op("rank", "Rank", {"high"}, "attr { key: 'T' value { type: DT_FLOAT } }") +
        Sink("o1", "high") + Sink("o2", "shape", "DT_INT32") + Sink("o3", "rank", "DT_INT32"));
  opts_.max_constant_size_in_bytes = 1;
  Fold();
  const Node* shape = graph_.FindNodeByName("shape");
  ASSERT_NE(shape, nullptr);
  EXPECT_EQ(shape->type_string(), "Shape");
  EXPECT_NE(graph_.FindNodeByName("rank"), nullptr);
}

TEST_F(ConstantFoldingTest, ResourceOutputsAreNotFolded) {
  Build(XY() + Op("h", "CfTestHandle", {"x"}) + Sink("out", "h", "DT_RESOURCE"));
  const std::string before = Canonical();
  EXPECT_FALSE(Fold());
  EXPECT_EQ(Canonical(), before);
  EXPECT_EQ(evaluator_.calls, 0);
}

TEST_F(ConstantFoldingTest, ProtectedNamesAreReplacedInPlace) {
  Build(XY() + Op("a", "CfTestAdd", {"x", "y"}) + Op("b", "CfTestAdd", {"a", "x"}) +
        Sink("out", "b") + Op("after", "NoOp", {"^b"}));
  opts_.protected_names = {"a", "b"};
  EXPECT_TRUE(Fold());
  EXPECT_EQ(Canonical(), "a(Const);after(NoOp);b(Const);out(CfTestNoKernel)|^b->after;b->out");
  EXPECT_EQ(ConstValues<float>("a"), (std::vector<float>{11, 22, 33}));
  EXPECT_EQ(ConstValues<float>("b"), (std::vector<float>{12, 24, 36}));
}

TEST_F(ConstantFoldingTest, ProtectedMultiOutputNodesStay) {
  Build(FloatConst("x", {1, 2, 3}) + Op("s", "CfTestSplit", {"x"}) + Sink("o1", "s:1"));
  opts_.protected_names = {"s"};
  EXPECT_TRUE(Fold());
  EXPECT_EQ(Canonical(),
            "o1(CfTestNoKernel);s(CfTestSplit);s/_0__cf__0(Const);x(Const)|"
            "s/_0__cf__0->o1;x->s");
}

TEST_F(ConstantFoldingTest, NeedsAnEvaluator) {
  Build(XY() + Op("a", "CfTestAdd", {"x", "y"}) + Sink("out", "a"));
  const std::string before = Canonical();
  bool changed = true;
  const absl::Status s = ConstantFold(opts_, &graph_, &changed);
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << s;
  EXPECT_FALSE(changed);
  EXPECT_EQ(Canonical(), before);
}

TEST_F(ConstantFoldingTest, EvaluatorErrorIsPropagatedAndGraphUnchanged) {
  Build(XY() + Op("a", "CfTestAdd", {"x", "y"}) + Op("f", "CfTestFail", {"a"}) + Sink("out", "f"));
  const std::string before = Canonical();
  bool mutated = true;
  absl::Status s = ConstantFold(FoldingOptions(), &graph_, &mutated);
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(s.message().find("CfTestFail failed"), std::string::npos) << s;
  EXPECT_NE(s.message().find("{{node f}}"), std::string::npos) << s;
  EXPECT_FALSE(mutated);
  EXPECT_EQ(Canonical(), before);
}

TEST_F(ConstantFoldingTest, GraphWithoutFoldableWorkIsUntouched) {
  Build(XY() + FloatPlaceholder("p") + Op("m", "CfTestAdd", {"x", "p"}) + Sink("out", "m"));
  const std::string before = Canonical();
  EXPECT_FALSE(Fold());
  EXPECT_EQ(Canonical(), before);
  EXPECT_EQ(evaluator_.calls, 0);
}

}  // namespace
}  // namespace sluice
