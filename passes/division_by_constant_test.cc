#include "passes/division_by_constant.h"

#include <memory>
#include <string>

#include "absl/strings/str_cat.h"
#include "graph/graph.h"
#include "graph/graph_testutil.h"
#include "graph/op_registry.h"
#include "gtest/gtest.h"

namespace sluice {
namespace {

std::string Placeholder(const std::string& name, const std::string& dtype = "DT_FLOAT") {
  return absl::StrCat("node { name: '", name, "' op: 'Placeholder' attr { key: 'dtype' value { type: ",
                      dtype, " } } }");
}

std::string Const(const std::string& name, const std::string& dtype = "DT_FLOAT") {
  const std::string value = dtype == "DT_INT32" ? "int_val: 2" : "float_val: 1.5";
  return absl::StrCat("node { name: '", name, "' op: 'Const' attr { key: 'dtype' value { type: ",
                      dtype, " } } attr { key: 'value' value { tensor { dtype: ", dtype,
                      " tensor_shape {} ", value, " } } } }");
}

std::string Binary(const std::string& name, const std::string& op, const std::string& x,
                   const std::string& y, const std::string& dtype = "DT_FLOAT",
                   const std::string& extra_input = "") {
  return absl::StrCat("node { name: '", name, "' op: '", op, "' input: '", x, "' input: '", y,
                      "'", extra_input, " attr { key: 'T' value { type: ", dtype, " } } }");
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
  EXPECT_EQ(CanonicalGraphString(*g_),
            "c(Const);gate(Placeholder);out(Neg);q(Mul);q/reciprocal(Reciprocal);r(Mul);"
            "r/reciprocal(Reciprocal);x(Placeholder)|"
            "^gate->q;c->q/reciprocal;c->r/reciprocal;q->r;q/reciprocal->q:1;r->out;"
            "r/reciprocal->r:1;x->q");
}

TEST_F(DivisionByConstantTest, LeavesIntegersVariablesAndProtectedNodes) {
  // Integer Div truncates: no reciprocal. A divisor that is not a Const is left too.
  EXPECT_FALSE(Run(Placeholder("x", "DT_INT32") + Const("c", "DT_INT32") +
                   Binary("d", "Div", "x", "c", "DT_INT32")));
  EXPECT_FALSE(Run(Placeholder("x") + Placeholder("y") + Binary("d", "RealDiv", "x", "y")));
  opts_.protected_names = {"d"};
  EXPECT_FALSE(Run(Placeholder("x") + Const("c") + Binary("d", "RealDiv", "x", "c")));
}

TEST_F(DivisionByConstantTest, ReciprocalNameIsMadeUnique) {
  ASSERT_TRUE(Run(Placeholder("x") + Const("c") + Placeholder("d/reciprocal") +
                  Binary("d", "RealDiv", "x", "c")));
  EXPECT_NE(g_->FindNodeByName("d/reciprocal_1"), nullptr);
  EXPECT_EQ(g_->FindNodeByName("d")->type_string(), "Mul");
}

}  // namespace
}  // namespace sluice
