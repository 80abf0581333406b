#include "passes/division_by_constant.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/base/casts.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_proto.h"
#include "graph/core/tensor_types.h"
#include "graph/graph.h"
#include "graph/import/graph_testutil.h"
#include "graph/op/op_registry.h"
#include "gtest/gtest.h"
#include "numerics/float_environment.h"
#include "numerics/reciprocal.h"

namespace sluice {
namespace {

std::string Placeholder(const std::string& name, const std::string& dtype = "DT_FLOAT") {
  return absl::StrCat("node { name: '", name,
                      "' op: 'Placeholder' attr { key: 'dtype' value { type: ", dtype, " } } }");
}

std::string Const(const std::string& name, const std::string& dtype = "DT_FLOAT") {
  const std::string value = dtype == "DT_INT32"  ? "int_val: 2"
                            : dtype == "DT_HALF" ? "half_val: 15872"  // 1.5
                                                 : "float_val: 1.5";
  return absl::StrCat("node { name: '", name,
                      "' op: 'Const' attr { key: 'dtype' value { type: ", dtype,
                      " } } attr { key: 'value' value { tensor { dtype: ", dtype,
                      " tensor_shape {} ", value, " } } } }");
}

std::string Binary(const std::string& name, const std::string& op, const std::string& x,
                   const std::string& y, const std::string& dtype = "DT_FLOAT",
                   const std::string& extra_input = "") {
  return absl::StrCat("node { name: '", name, "' op: '", op, "' input: '", x, "' input: '", y, "'",
                      extra_input, " attr { key: 'T' value { type: ", dtype, " } } }");
}

class DivisionByConstantTest : public ::testing::Test {
 protected:
  bool Run(const std::string& text) {
    g_ = std::make_unique<Graph>(OpRegistry::Global());
    const absl::Status s = GraphFromTextForTest(text, g_.get());
    EXPECT_TRUE(s.ok()) << s;
    bool changed = false;
    EXPECT_TRUE(ReduceDivisionByConstant(opts_, g_.get(), &changed).ok());
    return changed;
  }

  std::unique_ptr<Graph> g_;
  DivisionByConstantOptions opts_;
};

TEST_F(DivisionByConstantTest, RealDivAndDivOfFloatsBecomeMulByReciprocal) {
  ASSERT_TRUE(Run(Placeholder("x") + Const("c") + Placeholder("gate") +
                  Binary("q", "RealDiv", "x", "c", "DT_FLOAT", " input: '^gate'") +
                  Binary("r", "Div", "q", "c") +
                  "node { name: 'out' op: 'Neg' input: 'r' attr { key: 'T' value { type: "
                  "DT_FLOAT } } }"));
  // float: the reciprocal is computed here, one Const for both divisions by c; c is left
  // for whatever else reads it.
  EXPECT_EQ(CanonicalGraphString(*g_),
            "c(Const);gate(Placeholder);out(Neg);q(Mul);q/reciprocal(Const);r(Mul);"
            "x(Placeholder)|"
            "^gate->q;q->r;q/reciprocal->q:1;q/reciprocal->r:1;r->out;x->q");
  Tensor r;
  ASSERT_TRUE(
      TensorFromProto(g_->FindNodeByName("q/reciprocal")->def().attr().at("value").tensor(), &r)
          .ok());
  ASSERT_EQ(r.dtype(), DT_FLOAT);
  EXPECT_EQ(r.flat<float>()(0), 1.0f / 1.5f);
}

// A float divisor of 17 elements gets the reciprocals the Reciprocal kernel computes, which
// TensorFlow's folding of its Reciprocal node gives: the processor's estimate and a Newton step
// for the first 16, 1 / c for the last (numerics/reciprocal.h), in the kernels' mode.
TEST_F(DivisionByConstantTest, FloatReciprocalsAreTheKernels) {
  std::string values;
  std::vector<float> c;
  for (int i = 0; i < 17; ++i) {
    c.push_back(i == 3 ? 3e38f : 0.37f + 1.91f * static_cast<float>(i));
    absl::StrAppend(&values, " float_val: ", absl::StrFormat("%.9g", c.back()));
  }
  ASSERT_TRUE(Run(Placeholder("x") +
                  "node { name: 'c' op: 'Const' attr { key: 'dtype' value { type: DT_FLOAT } } "
                  "attr { key: 'value' value { tensor { dtype: DT_FLOAT tensor_shape { dim { "
                  "size: 17 } }" +
                  values + " } } } }" + Binary("q", "RealDiv", "x", "c") +
                  "node { name: 'out' op: 'Neg' input: 'q' attr { key: 'T' value { type: "
                  "DT_FLOAT } } }"));
  Tensor r;
  ASSERT_TRUE(
      TensorFromProto(g_->FindNodeByName("q/reciprocal")->def().attr().at("value").tensor(), &r)
          .ok());
  ASSERT_EQ(r.NumElements(), 17);
  std::vector<float> want(17);
  {
    numerics::ScopedFlushDenormals kernel_mode;
    numerics::ReciprocalFloat(c.data(), want.data(), 17);
  }
  for (int i = 0; i < 17; ++i) {
    EXPECT_EQ(absl::bit_cast<uint32_t>(r.flat<float>()(i)), absl::bit_cast<uint32_t>(want[i]))
        << "1/" << c[i];
  }
  // 1/3e38 is subnormal: flushed to zero, as the kernels' mode makes it.
  EXPECT_EQ(r.flat<float>()(3), 0.0f);
}

// Other floating types get a Reciprocal node, which constant folding evaluates with the
// Reciprocal kernel.
TEST_F(DivisionByConstantTest, HalfGetsAReciprocalNodeToFold) {
  ASSERT_TRUE(Run(Placeholder("x", "DT_HALF") + Const("c", "DT_HALF") +
                  Binary("q", "RealDiv", "x", "c", "DT_HALF")));
  EXPECT_EQ(CanonicalGraphString(*g_),
            "c(Const);q(Mul);q/reciprocal(Reciprocal);x(Placeholder)|"
            "c->q/reciprocal;q/reciprocal->q:1;x->q");
}

TEST_F(DivisionByConstantTest, LeavesIntegersVariablesAndProtectedNodes) {
  // Integer Div truncates: no reciprocal. A divisor that is not a Const is left too.
  EXPECT_FALSE(Run(Placeholder("x", "DT_INT32") + Const("c", "DT_INT32") +
                   Binary("d", "Div", "x", "c", "DT_INT32")));
  EXPECT_FALSE(Run(Placeholder("x") + Placeholder("y") + Binary("d", "RealDiv", "x", "y")));
  opts_.protected_names = {"d"};
  EXPECT_FALSE(Run(Placeholder("x") + Const("c") + Binary("d", "RealDiv", "x", "c")));
}

TEST_F(DivisionByConstantTest, DevicesDoNotShareAReciprocal) {
  g_ = std::make_unique<Graph>(OpRegistry::Global());
  ASSERT_TRUE(GraphFromTextForTest(Placeholder("x") + Const("c") +
                                       Binary("a", "RealDiv", "x", "c") +
                                       Binary("b", "RealDiv", "x", "c"),
                                   g_.get())
                  .ok());
  g_->FindNodeByName("b")->set_assigned_device_name("/job:a/replica:0/task:0/device:CPU:1");
  bool changed = false;
  ASSERT_TRUE(ReduceDivisionByConstant(opts_, g_.get(), &changed).ok());
  EXPECT_TRUE(changed);
  EXPECT_EQ(CanonicalGraphString(*g_),
            "a(Mul);a/reciprocal(Const);b(Mul)@/job:a/replica:0/task:0/device:CPU:1;"
            "b/reciprocal(Const)@/job:a/replica:0/task:0/device:CPU:1;c(Const);x(Placeholder)|"
            "a/reciprocal->a:1;b/reciprocal->b:1;x->a;x->b");
}

TEST_F(DivisionByConstantTest, ReciprocalNameIsMadeUnique) {
  ASSERT_TRUE(Run(Placeholder("x") + Const("c") + Placeholder("d/reciprocal") +
                  Binary("d", "RealDiv", "x", "c")));
  EXPECT_NE(g_->FindNodeByName("d/reciprocal_1"), nullptr);
  EXPECT_EQ(g_->FindNodeByName("d")->type_string(), "Mul");
}

}  // namespace
}  // namespace sluice
