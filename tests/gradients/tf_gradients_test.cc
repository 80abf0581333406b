// Sluice's symbolic gradients against TensorFlow's, on graphs TensorFlow built: each case of
// gradient_cases.pb (gen_gradient_cases.py) is a forward graph, a seed and the values
// tf.gradients gave. The test differentiates the imported graph with AddSymbolicGradients,
// runs the gradients and compares them with TensorFlow's.
#include <cmath>
#include <string>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "cc_api/client_session.h"
#include "cc_api/gradients.h"
#include "cc_api/scope.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_types.h"
#include "graph/import/graph_constructor.h"
#include "graph/import/graph_def_io.h"
#include "gtest/gtest.h"

namespace sluice {
namespace {

constexpr char kDir[] = "tests/gradients/";

struct Case {
  std::string name;
  std::vector<int> inputs;
  std::vector<bool> tf_has_gradient;
};

std::vector<Case> ReadCases() {
  std::string text;
  EXPECT_TRUE(ReadFileToString(absl::StrCat(kDir, "gradient_cases.txt"), &text).ok());
  std::vector<Case> cases;
  for (absl::string_view line : absl::StrSplit(text, '\n', absl::SkipEmpty())) {
    if (absl::StartsWith(line, "#")) continue;
    std::vector<std::string> fields = absl::StrSplit(line, ' ');
    Case c{fields[0], {}, {}};
    for (size_t i = 1; i < fields.size(); ++i) {
      absl::string_view field = fields[i];
      const bool none = absl::ConsumeSuffix(&field, "-");
      int index = 0;
      EXPECT_TRUE(absl::SimpleAtoi(field, &index)) << line;
      c.inputs.push_back(index);
      c.tf_has_gradient.push_back(!none);
    }
    cases.push_back(c);
  }
  return cases;
}

// Elements as doubles, for any of the floating types the cases use (complex ones as real and
// imaginary parts).
std::vector<double> Values(const Tensor& t) {
  std::vector<double> v;
  if (t.dtype() == DT_FLOAT) {
    auto flat = t.flat<float>();
    for (int64_t i = 0; i < flat.size(); ++i) v.push_back(flat(i));
  } else if (t.dtype() == DT_DOUBLE) {
    auto flat = t.flat<double>();
    for (int64_t i = 0; i < flat.size(); ++i) v.push_back(flat(i));
  } else if (t.dtype() == DT_COMPLEX64) {
    auto flat = t.flat<complex64>();
    for (int64_t i = 0; i < flat.size(); ++i) v.insert(v.end(), {flat(i).real(), flat(i).imag()});
  } else if (t.dtype() == DT_COMPLEX128) {
    auto flat = t.flat<complex128>();
    for (int64_t i = 0; i < flat.size(); ++i) v.insert(v.end(), {flat(i).real(), flat(i).imag()});
  } else {
    ADD_FAILURE() << "unexpected dtype " << DataTypeString(t.dtype());
  }
  return v;
}

// Float gradients built from other ops than TensorFlow's (a Sum where TensorFlow tiles, a
// fused kernel against a composed one) round differently: within a few float ulps of the
// largest magnitude of the expected tensor.
void ExpectClose(const std::string& what, const Tensor& got, const Tensor& want) {
  ASSERT_EQ(got.dtype(), want.dtype()) << what;
  ASSERT_EQ(got.shape().DebugString(), want.shape().DebugString()) << what;
  const std::vector<double> g = Values(got), w = Values(want);
  double scale = 0;
  for (double x : w) scale = std::max(scale, std::fabs(x));
  const bool wide = got.dtype() == DT_DOUBLE || got.dtype() == DT_COMPLEX128;
  const double eps = wide ? 1e-13 : 2e-6;
  for (size_t i = 0; i < g.size(); ++i) {
    EXPECT_NEAR(g[i], w[i], eps * (1 + scale) + eps * std::fabs(w[i])) << what << " element " << i;
  }
}

TEST(TfGradientsTest, MatchesTensorFlowOnEveryCase) {
  GraphDef graph_def;
  ASSERT_TRUE(ReadBinaryProtoFile(absl::StrCat(kDir, "gradient_cases.pb"), &graph_def).ok());
  Scope root = Scope::NewRootScope();
  ASSERT_TRUE(
      ImportGraphDef(ImportGraphDefOptions(), graph_def, root.graph(), root.refiner()).ok());
  const std::vector<Case> cases = ReadCases();
  ASSERT_GT(cases.size(), 100u);

  struct Built {
    const Case* c;
    std::vector<Output> grads;
  };
  std::vector<Built> built;
  for (const Case& c : cases) {
    auto node = [&](const std::string& suffix) {
      Node* n = root.graph()->FindNodeByName(absl::StrCat(c.name, "/", suffix));
      EXPECT_NE(n, nullptr) << c.name << "/" << suffix;
      return Output(n, 0);
    };
    std::vector<Output> xs;
    for (int i : c.inputs) xs.push_back(node(absl::StrCat("x", i)));
    std::vector<Output> grads;
    const absl::Status s = AddSymbolicGradients(root.NewSubScope(c.name + "_sluice_grad"),
                                                {node("y")}, xs, {node("dy")}, &grads);
    ASSERT_TRUE(s.ok()) << c.name << ": " << s;
    ASSERT_EQ(grads.size(), xs.size());
    built.push_back({&c, grads});
  }
  ASSERT_TRUE(root.ok()) << root.status();

  ClientSession session(root);
  for (const Built& b : built) {
    const Case& c = *b.c;
    std::vector<Output> fetches;
    for (size_t k = 0; k < c.inputs.size(); ++k) {
      if (!c.tf_has_gradient[k]) {
        EXPECT_EQ(b.grads[k].node(), nullptr) << c.name << ": TensorFlow has no gradient";
        continue;
      }
      ASSERT_NE(b.grads[k].node(), nullptr) << c.name << " x" << c.inputs[k];
      fetches.push_back(b.grads[k]);
      fetches.push_back(
          Output(root.graph()->FindNodeByName(absl::StrCat(c.name, "/expected", c.inputs[k])), 0));
    }
    if (fetches.empty()) continue;
    std::vector<Tensor> values;
    const absl::Status s = session.Run(fetches, &values);
    ASSERT_TRUE(s.ok()) << c.name << ": " << s;
    for (size_t k = 0; k + 1 < values.size(); k += 2) {
      ExpectClose(absl::StrCat(c.name, " gradient ", k / 2), values[k], values[k + 1]);
    }
  }
}

}  // namespace
}  // namespace sluice
