// Sessions compute in TensorFlow's floating-point mode (subnormals flushed to zero, rounding to
// nearest) on every thread that runs a kernel, and give the caller's thread its own mode back.
#include <cfenv>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "google/protobuf/text_format.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_types.h"
#include "gtest/gtest.h"
#include "numerics/float_environment.h"
#include "runtime/device/session_options.h"
#include "runtime/session/session.h"

namespace sluice {
namespace {

GraphDef ParseGraph(const std::string& text) {
  GraphDef graph;
  CHECK(google::protobuf::TextFormat::ParseFromString(text, &graph)) << text;
  return graph;
}

std::string FloatAttr() { return R"(attr { key: "T" value { type: DT_FLOAT } })"; }

std::string Binary(const std::string& name, const std::string& op, const std::string& a,
                   const std::string& b) {
  return absl::StrCat("node { name: '", name, "' op: '", op, "' input: '", a, "' input: '", b, "' ",
                      FloatAttr(), " }");
}

std::string Placeholder(const std::string& name) {
  return absl::StrCat("node { name: '", name,
                      R"(' op: 'Placeholder' attr { key: 'dtype' value { type: DT_FLOAT } } })");
}

// x * x, x + x and x * 1 (a constant), for x fed.
GraphDef ArithmeticGraph() {
  return ParseGraph(
      absl::StrCat(Placeholder("x"),
                   R"(node { name: 'one' op: 'Const' attr { key: 'dtype' value { type: DT_FLOAT } }
                attr { key: 'value' value { tensor { dtype: DT_FLOAT tensor_shape {}
                                                     float_val: 1 } } } })",
                   Binary("square", "Mul", "x", "x"), Binary("twice", "AddV2", "x", "x"),
                   Binary("times_one", "Mul", "x", "one")));
}

Tensor Vector(const std::vector<float>& values) {
  Tensor t(DT_FLOAT, TensorShape({static_cast<int64_t>(values.size())}));
  for (size_t i = 0; i < values.size(); ++i) t.flat<float>()(i) = values[i];
  return t;
}

std::unique_ptr<Session> MakeSession(const GraphDef& graph, int inter_op, int intra_op) {
  SessionOptions options;
  options.config.set_inter_op_parallelism_threads(inter_op);
  options.config.set_intra_op_parallelism_threads(intra_op);
  std::unique_ptr<Session> session;
  CHECK(NewSession(options, &session).ok());
  CHECK(session->Create(graph).ok());
  return session;
}

float AddOnThisThread(volatile float a, volatile float b) { return a + b; }

TEST(FloatModeTest, KernelsFlushSubnormalsAndTheCallerKeepsItsMode) {
  // 1e-40 is subnormal; 1e-20 is normal, but its square is not.
  const Tensor x = Vector({1e-40f, 1e-20f, -1e-40f, 2.0f, 1.5e-38f});
  for (int inter_op : {1, 4}) {
    SCOPED_TRACE(absl::StrCat("inter_op_parallelism_threads ", inter_op));
    auto session = MakeSession(ArithmeticGraph(), inter_op, 1);
    std::vector<Tensor> out;
    ASSERT_TRUE(session->Run({{"x", x}}, {"square", "twice", "times_one"}, {}, &out).ok());
    ASSERT_EQ(out.size(), 3u);
    const std::vector<float> square = {0.0f, 0.0f, 0.0f, 4.0f, 0.0f};
    const std::vector<float> twice = {0.0f, 2e-20f, 0.0f, 4.0f, 3e-38f};
    const std::vector<float> times_one = {0.0f, 1e-20f, 0.0f, 2.0f, 1.5e-38f};
    for (int i = 0; i < 5; ++i) {
      EXPECT_EQ(out[0].flat<float>()(i), square[i]) << i;
      EXPECT_EQ(out[1].flat<float>()(i), twice[i]) << i;
      EXPECT_EQ(out[2].flat<float>()(i), times_one[i]) << i;
    }
    // The caller's thread computes as before the step.
    EXPECT_FALSE(numerics::FlushingDenormals());
    EXPECT_EQ(AddOnThisThread(1e-40f, 0.0f), 1e-40f);
  }
}

TEST(FloatModeTest, KernelsRoundToNearestWhateverTheCallersRounding) {
  auto session = MakeSession(ArithmeticGraph(), 1, 1);
  ASSERT_EQ(std::fesetround(FE_UPWARD), 0);
  std::vector<Tensor> out;
  const absl::Status s = session->Run({{"x", Vector({1.0f + 0x1p-23f})}}, {"square"}, {}, &out);
  const int caller_rounding = std::fegetround();
  std::fesetround(FE_TONEAREST);
  ASSERT_TRUE(s.ok()) << s;
  // (1 + 2^-23)^2 = 1 + 2^-22 + 2^-46: to nearest 1 + 2^-22, upward one more unit.
  EXPECT_EQ(out[0].flat<float>()(0), 1.0f + 0x1p-22f);
  EXPECT_EQ(caller_rounding, FE_UPWARD);
}

// A MatMul whose products are all subnormal: 1e-20 * 1e-20 summed 256 times is 2.56e-38
// without flushing and 0 with it, whichever threads (the intra-op pool's, OpenMP's team of
// the thread running the kernel) compute it.
TEST(FloatModeTest, TeamsOfAnExpensiveKernelFlushToo) {
  const int m = 64, k = 256, n = 64;
  auto make = [](int rows, int cols) {
    Tensor t(DT_FLOAT, TensorShape({rows, cols}));
    for (int64_t i = 0; i < t.NumElements(); ++i) t.flat<float>()(i) = 1e-20f;
    return t;
  };
  GraphDef graph =
      ParseGraph(absl::StrCat(Placeholder("a"), Placeholder("b"),
                              R"(node { name: 'product' op: 'MatMul' input: 'a' input: 'b'
                attr { key: 'T' value { type: DT_FLOAT } } })"));
  for (int intra_op : {1, 2}) {
    SCOPED_TRACE(absl::StrCat("intra_op_parallelism_threads ", intra_op));
    auto session = MakeSession(graph, 1, intra_op);
    std::vector<Tensor> out;
    for (int step = 0; step < 3; ++step) {
      ASSERT_TRUE(session->Run({{"a", make(m, k)}, {"b", make(k, n)}}, {"product"}, {}, &out).ok());
      int nonzero = 0;
      for (int64_t i = 0; i < out[0].NumElements(); ++i) nonzero += out[0].flat<float>()(i) != 0;
      EXPECT_EQ(nonzero, 0);
    }
  }
}

}  // namespace
}  // namespace sluice
