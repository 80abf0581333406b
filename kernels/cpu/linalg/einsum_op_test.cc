// Einsum kernel: every equation form against a brute-force evaluation (the sum over all
// assignments of the labels) in every registered type; shapes large enough for oneDNN's
// and the pool's parallel paths; buffer forwarding; a cached primitive reused; and every
// error, which must fail the op and never crash.
#include <algorithm>
#include <array>
#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>
#include <map>
#include <random>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "absl/strings/str_split.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "kernels/kernel_test_util.h"
#include "runtime/framework/op_kernel_test_util.h"

namespace sluice {
namespace test {
namespace {

using ::testing::HasSubstr;
using C = std::complex<double>;

// Evaluates `equation` on `inputs` by brute force: every assignment of values to all labels
// adds the product of the inputs' elements it selects to the output element it selects.
// The ellipsis dims become labels of their own, right-aligned and broadcast (an input's
// size-1 dim reads index 0).
std::vector<C> Naive(const std::string& equation, const std::vector<std::vector<int64_t>>& shapes,
                     const std::vector<std::vector<C>>& values, std::vector<int64_t>* out_shape) {
  const std::vector<std::string> sides = absl::StrSplit(equation, "->");
  std::vector<std::string> subs = absl::StrSplit(sides[0], ',');
  std::string out = sides[1];
  int max_bcast = 0;
  std::vector<int> nb(subs.size(), 0);
  for (size_t i = 0; i < subs.size(); ++i) {
    const size_t e = subs[i].find("...");
    if (e != std::string::npos) {
      nb[i] = static_cast<int>(shapes[i].size() + 3 - subs[i].size());
      max_bcast = std::max(max_bcast, nb[i]);
    }
  }
  // Ellipsis dim q (of max_bcast) is the label char(1 + q).
  const auto expand = [&](const std::string& s, int n) {
    const size_t e = s.find("...");
    if (e == std::string::npos) return s;
    std::string mid;
    for (int q = 0; q < n; ++q) mid.push_back(static_cast<char>(1 + max_bcast - n + q));
    return s.substr(0, e) + mid + s.substr(e + 3);
  };
  std::map<char, int64_t> size;
  for (size_t i = 0; i < subs.size(); ++i) {
    subs[i] = expand(subs[i], nb[i]);
    for (size_t a = 0; a < subs[i].size(); ++a) {
      size[subs[i][a]] = std::max(size[subs[i][a]], shapes[i][a]);
    }
  }
  out = expand(out, max_bcast);
  out_shape->clear();
  int64_t out_count = 1;
  for (char l : out) {
    out_shape->push_back(size[l]);
    out_count *= size[l];
  }
  std::vector<C> result(out_count);
  std::vector<char> labels;
  std::vector<int64_t> sizes;
  int64_t total = 1;
  for (const auto& [l, s] : size) {
    labels.push_back(l);
    sizes.push_back(s);
    total *= s;
  }
  std::array<int64_t, 256> value_of{};
  for (int64_t flat = 0; flat < total; ++flat) {
    int64_t rest = flat;
    for (size_t d = labels.size(); d-- > 0;) {
      value_of[static_cast<unsigned char>(labels[d])] = rest % sizes[d];
      rest /= sizes[d];
    }
    C prod = 1;
    for (size_t i = 0; i < subs.size(); ++i) {
      int64_t offset = 0;
      for (size_t a = 0; a < subs[i].size(); ++a) {
        const int64_t v = value_of[static_cast<unsigned char>(subs[i][a])];
        offset = offset * shapes[i][a] + (shapes[i][a] == 1 ? 0 : v);
      }
      prod *= values[i][offset];
    }
    // A repeated output label selects only diagonal elements, so the rest stay zero.
    int64_t o = 0;
    for (size_t a = 0; a < out.size(); ++a) {
      o = o * (*out_shape)[a] + value_of[static_cast<unsigned char>(out[a])];
    }
    result[o] += prod;
  }
  return result;
}

template <typename T>
T FromDouble(C v) {
  if constexpr (std::is_same_v<T, complex64> || std::is_same_v<T, complex128>) {
    return T(static_cast<typename T::value_type>(v.real()),
             static_cast<typename T::value_type>(v.imag()));
  } else {
    return static_cast<T>(v.real());
  }
}

template <typename T>
C ToDouble(T v) {
  if constexpr (std::is_same_v<T, complex64> || std::is_same_v<T, complex128>) {
    return C(v.real(), v.imag());
  } else {
    return C(static_cast<double>(static_cast<float>(v)), 0);
  }
}
template <>
C ToDouble<double>(double v) {
  return C(v, 0);
}
template <>
C ToDouble<int64_t>(int64_t v) {
  return C(static_cast<double>(v), 0);
}

class EinsumOpTest : public KernelTest {
 protected:
  absl::Status Init(const std::string& equation, int n, DataType dtype) {
    NodeDefBuilder b("einsum", "Einsum");
    for (int i = 0; i < n; ++i) b.Input("in" + std::to_string(i));
    return InitOp(b.Attr("equation", equation).Attr("N", int64_t{n}).Attr("T", dtype).Build());
  }

  // Small integers (and i for complex), so that float sums of a few terms are exact.
  template <typename T>
  std::vector<T> Random(int64_t n) {
    std::uniform_int_distribution<int> dist(-4, 4);
    std::vector<T> v(n);
    for (T& x : v) {
      if constexpr (std::is_same_v<T, complex64> || std::is_same_v<T, complex128>) {
        x = T(dist(rng_), dist(rng_));
      } else {
        x = static_cast<T>(dist(rng_));
      }
    }
    return v;
  }

  // Runs `equation` on random inputs of `shapes` and compares with Naive: exactly for
  // values a float represents exactly, else to `rtol` of the largest magnitude.
  template <typename T>
  void Check(const std::string& equation, const std::vector<std::vector<int64_t>>& shapes,
             double rtol = 0) {
    SCOPED_TRACE(equation);
    ASSERT_TRUE(Init(equation, static_cast<int>(shapes.size()), DataTypeToEnum<T>::value).ok());
    std::vector<std::vector<C>> values;
    for (const std::vector<int64_t>& shape : shapes) {
      int64_t count = 1;
      for (int64_t d : shape) count *= d;
      const std::vector<T> v = Random<T>(count);
      AddInputFromArray<T>(TensorShape(shape), v);
      std::vector<C> c;
      for (const T& x : v) c.push_back(ToDouble<T>(x));
      values.push_back(c);
    }
    const absl::Status s = RunOpKernel();
    ASSERT_TRUE(s.ok()) << s;
    std::vector<int64_t> want_shape;
    const std::vector<C> want = Naive(equation, shapes, values, &want_shape);
    const Tensor& got = *GetOutput(0);
    ASSERT_EQ(got.shape(), TensorShape(want_shape));
    const std::vector<T> g = Values<T>(got);
    double scale = 1;
    for (const C& w : want) scale = std::max(scale, std::abs(w));
    for (size_t i = 0; i < want.size(); ++i) {
      const C gi = ToDouble<T>(g[i]);
      if (rtol == 0) {
        ASSERT_EQ(gi, ToDouble<T>(FromDouble<T>(want[i]))) << "element " << i;
      } else {
        ASSERT_LE(std::abs(gi - want[i]), rtol * scale) << "element " << i;
      }
    }
  }

  std::mt19937 rng_{20261205};
};

// The forms the brief of this kernel names, and the ones Keras 3 builds.
const std::vector<std::pair<std::string, std::vector<std::vector<int64_t>>>> kForms = {
    {"bij,bjk->bik", {{3, 2, 4}, {3, 4, 5}}},
    {"abc,cd->abd", {{2, 3, 4}, {4, 5}}},
    {"bhqd,bhkd->bhqk", {{2, 3, 4, 5}, {2, 3, 6, 5}}},
    {"bhqk,bhkd->bhqd", {{2, 3, 4, 6}, {2, 3, 6, 5}}},
    {"ij->ji", {{3, 4}}},
    {"ii->i", {{4, 4}}},
    {"...ij,...jk->...ik", {{2, 1, 2, 3}, {5, 3, 4}}},
    {"aecd,abcd->acbe", {{2, 5, 3, 4}, {2, 6, 3, 4}}},
    {"acbe,aecd->abcd", {{2, 3, 6, 5}, {2, 5, 3, 4}}},
    {"abc,cde->abde", {{2, 3, 4}, {4, 5, 6}}},
    {"abcd,cde->abe", {{2, 3, 4, 5}, {4, 5, 6}}},
    {"ij,jk->ik", {{3, 4}, {4, 5}}},
    {"ji,jk->ik", {{4, 3}, {4, 5}}},
    {"ij,kj->ik", {{3, 4}, {5, 4}}},
    {"ji,kj->ki", {{4, 3}, {5, 4}}},
    {"ji,kj->ik", {{4, 3}, {5, 4}}},
    {"ij,ij->ij", {{3, 4}, {3, 4}}},
    {"ij,ij->", {{3, 4}, {3, 4}}},
    {"i,j->ij", {{3}, {4}}},
    {"i,i->", {{5}, {5}}},
    {"ij,j->i", {{3, 4}, {4}}},
    {"ijk,ikl->jl", {{2, 3, 4}, {2, 4, 5}}},
    {"bij,bjk->kib", {{3, 2, 4}, {3, 4, 5}}},
    {"ij,jk->ki", {{3, 4}, {4, 5}}},
    {"iij,jk->ik", {{3, 3, 4}, {4, 2}}},
    {"ijk,jl->il", {{2, 3, 4}, {3, 5}}},
    {"ij,jk->ikk", {{2, 3}, {3, 2}}},
    {"b...,b...->...b", {{2, 3, 1}, {2, 1, 4}}},
    {"...,...->...", {{2, 3}, {3}}},
    {"i...j,j...k->...ik", {{2, 3, 4}, {4, 3, 5}}},
    {"ij->", {{3, 4}}},
    {"ijk->kji", {{2, 3, 4}}},
    {"ijk->ik", {{2, 3, 4}}},
    {"iij->ji", {{3, 3, 2}}},
    {"iii->i", {{3, 3, 3}}},
    {"i->ii", {{3}}},
    {"ij->jji", {{2, 3}}},
    {"...ij->...ji", {{2, 2, 3, 4}}},
    {"...ii->...i", {{2, 3, 3}}},
    {"a...->...", {{3, 2, 2}}},
    // Seven distinct labels and a repeated one (TensorFlow's kernel stops at six).
    {"abcdefgg->gfedcba", {{2, 1, 2, 1, 2, 2, 3, 3}}},
    {"->", {{}}},
    {",->", {{}, {}}},
    {"i,->i", {{3}, {}}},
};

TEST_F(EinsumOpTest, EveryFormInFloat) {
  for (const auto& [eq, shapes] : kForms) Check<float>(eq, shapes);
}

TEST_F(EinsumOpTest, EveryFormInDouble) {
  for (const auto& [eq, shapes] : kForms) Check<double>(eq, shapes);
}

TEST_F(EinsumOpTest, EveryFormInInt32AndInt64) {
  for (const auto& [eq, shapes] : kForms) Check<int32_t>(eq, shapes);
  for (const auto& [eq, shapes] : kForms) Check<int64_t>(eq, shapes);
}

TEST_F(EinsumOpTest, EveryFormInHalfAndBfloat16) {
  // Results of at most a few dozen, exact in half; bfloat16 has 8 significant bits.
  for (const auto& [eq, shapes] : kForms) Check<half>(eq, shapes);
  for (const auto& [eq, shapes] : kForms) Check<bfloat16>(eq, shapes, 1.0 / 128);
}

TEST_F(EinsumOpTest, EveryFormInComplex) {
  for (const auto& [eq, shapes] : kForms) Check<complex64>(eq, shapes);
  for (const auto& [eq, shapes] : kForms) Check<complex128>(eq, shapes);
}

// Random equations: labels from "abcd" repeated or not within an input, summed, contracted,
// batch or free, permuted or repeated in the output, and ellipses that broadcast.
TEST_F(EinsumOpTest, RandomEquationsMatchTheBruteForceSum) {
  std::mt19937 gen(77);
  const auto uniform = [&](int lo, int hi) {
    return std::uniform_int_distribution<int>(lo, hi)(gen);
  };
  for (int iteration = 0; iteration < 400; ++iteration) {
    std::map<char, int64_t> size;
    for (char l : std::string("abcd")) size[l] = uniform(1, 3);
    const int num_inputs = uniform(0, 2) == 0 ? 1 : 2;
    const int max_bcast = uniform(0, 2);
    std::vector<int64_t> bcast_size(max_bcast);
    for (int64_t& s : bcast_size) s = uniform(1, 3);
    std::vector<std::string> subs(num_inputs);
    std::vector<std::vector<int64_t>> shapes(num_inputs);
    std::string used;
    for (int i = 0; i < num_inputs; ++i) {
      const int rank = uniform(0, 4);
      for (int a = 0; a < rank; ++a) subs[i].push_back("abcd"[uniform(0, 3)]);
      const bool ellipsis = max_bcast > 0 ? uniform(0, 2) > 0 : uniform(0, 4) == 0;
      const int at = uniform(0, rank);
      int nb = 0;
      if (ellipsis) {
        nb = i == 0 ? max_bcast : uniform(0, max_bcast);
        subs[i].insert(at, "...");
      }
      for (int a = 0; a < static_cast<int>(subs[i].size()); ++a) {
        if (subs[i][a] == '.') {
          for (int q = max_bcast - nb; q < max_bcast; ++q) {
            shapes[i].push_back(uniform(0, 1) ? bcast_size[q] : 1);
          }
          a += 2;
          continue;
        }
        shapes[i].push_back(size[subs[i][a]]);
        if (used.find(subs[i][a]) == std::string::npos) used.push_back(subs[i][a]);
      }
    }
    std::shuffle(used.begin(), used.end(), gen);
    std::string out = used.substr(0, uniform(0, static_cast<int>(used.size())));
    if (!out.empty() && uniform(0, 9) == 0) out.insert(uniform(0, out.size()), 1, out[0]);
    bool needs_ellipsis = false;
    for (int i = 0; i < num_inputs; ++i) {
      needs_ellipsis = needs_ellipsis || subs[i].find("...") != std::string::npos;
    }
    if (needs_ellipsis) out.insert(uniform(0, out.size()), "...");
    std::string equation = subs[0];
    if (num_inputs == 2) equation += "," + subs[1];
    equation += "->" + out;
    Check<double>(equation, shapes);
    Check<float>(equation, shapes);
    if (HasFailure()) return;
  }
}

TEST_F(EinsumOpTest, LargeShapesRunOnOneDnnAndThePool) {
  // Sums of up to 128 products of integers in [-4, 4]: exact in float and double.
  Check<float>("bhqd,bhkd->bhqk", {{2, 4, 64, 32}, {2, 4, 48, 32}});
  Check<float>("aecd,abcd->acbe", {{2, 40, 4, 32}, {2, 48, 4, 32}});
  Check<float>("abc,cd->abd", {{4, 50, 96}, {96, 70}});
  Check<float>("...ij,...jk->...ik", {{3, 1, 40, 50}, {4, 50, 30}});
  Check<double>("bhqk,bhkd->bhqd", {{2, 4, 64, 48}, {2, 4, 48, 32}});
  Check<int32_t>("ijk->kji", {{40, 50, 30}});
  Check<float>("ij->i", {{300, 200}});
  Check<float>("ii->i", {{1000, 1000}});
}

TEST_F(EinsumOpTest, ACachedPrimitiveIsReused) {
  ASSERT_TRUE(Init("ij,jk->ik", 2, DT_FLOAT).ok());
  AddInputFromArray<float>(TensorShape({2, 3}), {1, 2, 3, 4, 5, 6});
  AddInputFromArray<float>(TensorShape({3, 1}), {1, 1, 1});
  for (int run = 0; run < 2; ++run) {
    ASSERT_TRUE(RunOpKernel().ok());
    EXPECT_EQ(Values<float>(*GetOutput(0)), (std::vector<float>{6, 15}));
  }
}

TEST_F(EinsumOpTest, AnEquationThatMovesNothingForwardsTheInput) {
  ASSERT_TRUE(Init("ijk->kji", 1, DT_FLOAT).ok());
  const Tensor x = MakeTensor<float>(TensorShape({1, 3, 1}), {1, 2, 3});
  AddInput(x);
  ASSERT_TRUE(RunOpKernel().ok());
  EXPECT_TRUE(GetOutput(0)->SharesBufferWith(x));
  EXPECT_EQ(GetOutput(0)->shape(), TensorShape({1, 3, 1}));
}

TEST_F(EinsumOpTest, EmptyDims) {
  // Contracting over an empty dim gives zeros.
  ASSERT_TRUE(Init("ij,jk->ik", 2, DT_FLOAT).ok());
  AddInputFromArray<float>(TensorShape({2, 0}), {});
  AddInputFromArray<float>(TensorShape({0, 3}), {});
  ASSERT_TRUE(RunOpKernel().ok());
  EXPECT_EQ(GetOutput(0)->shape(), TensorShape({2, 3}));
  EXPECT_EQ(Values<float>(*GetOutput(0)), std::vector<float>(6, 0.0f));
  // An empty free dim gives an empty output.
  ASSERT_TRUE(Init("ij,jk->ik", 2, DT_INT32).ok());
  AddInputFromArray<int32_t>(TensorShape({0, 2}), {});
  AddInputFromArray<int32_t>(TensorShape({2, 3}), {1, 2, 3, 4, 5, 6});
  ASSERT_TRUE(RunOpKernel().ok());
  EXPECT_EQ(GetOutput(0)->shape(), TensorShape({0, 3}));
  // Summing an empty dim out of one input.
  ASSERT_TRUE(Init("ij->i", 1, DT_DOUBLE).ok());
  AddInputFromArray<double>(TensorShape({3, 0}), {});
  ASSERT_TRUE(RunOpKernel().ok());
  EXPECT_EQ(Values<double>(*GetOutput(0)), std::vector<double>(3, 0.0));
  // An ellipsis of size 0 broadcasts against 1.
  ASSERT_TRUE(Init("...i,...i->...", 2, DT_FLOAT).ok());
  AddInputFromArray<float>(TensorShape({0, 2}), {});
  AddInputFromArray<float>(TensorShape({1, 2}), {1, 2});
  ASSERT_TRUE(RunOpKernel().ok());
  EXPECT_EQ(GetOutput(0)->shape(), TensorShape({0}));
}

TEST_F(EinsumOpTest, IntegerProductsWrapAround) {
  ASSERT_TRUE(Init("i,i->", 2, DT_INT32).ok());
  AddInputFromArray<int32_t>(TensorShape({2}), {65536, 2147483647});
  AddInputFromArray<int32_t>(TensorShape({2}), {65536, 2});
  ASSERT_TRUE(RunOpKernel().ok());
  // 2^32 wraps to 0; 2 * (2^31 - 1) wraps to -2.
  EXPECT_EQ(Values<int32_t>(*GetOutput(0)), std::vector<int32_t>{-2});
  ASSERT_TRUE(Init("ij->i", 1, DT_INT32).ok());
  AddInputFromArray<int32_t>(TensorShape({1, 2}), {2147483647, 1});
  ASSERT_TRUE(RunOpKernel().ok());
  EXPECT_EQ(Values<int32_t>(*GetOutput(0)), std::vector<int32_t>{-2147483647 - 1});
}

TEST_F(EinsumOpTest, NonFiniteValuesPropagate) {
  const float inf = std::numeric_limits<float>::infinity();
  ASSERT_TRUE(Init("ij,jk->ik", 2, DT_FLOAT).ok());
  AddInputFromArray<float>(TensorShape({2, 2}), {inf, 1, std::nanf(""), 1});
  AddInputFromArray<float>(TensorShape({2, 1}), {1, 1});
  ASSERT_TRUE(RunOpKernel().ok());
  const std::vector<float> got = Values<float>(*GetOutput(0));
  EXPECT_EQ(got[0], inf);
  EXPECT_TRUE(std::isnan(got[1]));
}

TEST_F(EinsumOpTest, BadEquationsFailAtConstruction) {
  for (const auto& [eq, n, message] : std::vector<std::tuple<std::string, int, std::string>>{
           {"ij,jk", 2, "Expecting exactly one '->'"},
           {"ij,jk,kl->il", 3, "Expecting 1 or 2 input subscripts"},
           {"ij,jk->ik", 1, "Expected 2 inputs for equation ij,jk->ik but got: 1"},
           {"ij->ik", 1, "has label 'k' which is not present in the input subscripts"},
           {"i.j->ij", 1, "Expected at most one ellipsis"},
           {"..i.->i", 1, "Periods found outside of ellipsis"},
       }) {
    const absl::Status s = Init(eq, n, DT_FLOAT);
    EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << eq << ": " << s;
    EXPECT_THAT(s.message(), HasSubstr(message)) << eq;
  }
}

TEST_F(EinsumOpTest, ShapesThatDoNotFitFailTheRun) {
  struct Case {
    std::string equation;
    std::vector<TensorShape> shapes;
    std::string message;
  };
  for (const Case& c : std::vector<Case>{
           {"ij,jk->ik", {TensorShape({2, 3}), TensorShape({4, 3})}, "Expected dimension 3"},
           {"ii->i", {TensorShape({2, 3})}, "Expected dimension 2 at axis 1"},
           {"ijk->", {TensorShape({2, 3})}, "Expected input 0 to have rank 3 but got: 2"},
           {"...ijk->...", {TensorShape({2, 3})}, "to have rank at least 3"},
           {"...ij->ij", {TensorShape({4, 2, 3})}, "no ellipsis (...) was found in the output"},
           {"...ij,...jk->...ik",
            {TensorShape({2, 2, 3}), TensorShape({5, 3, 4})},
            "Invalid broadcasting dimensions"},
           {"bij,bjk->bik",
            {TensorShape({1, 2, 3}), TensorShape({4, 3, 2})},
            "Expected dimension 1 at axis 0"},
       }) {
    SCOPED_TRACE(c.equation);
    ASSERT_TRUE(Init(c.equation, static_cast<int>(c.shapes.size()), DT_FLOAT).ok());
    for (const TensorShape& shape : c.shapes) {
      AddInputFromArray<float>(shape, std::vector<float>(shape.num_elements(), 1.0f));
    }
    const absl::Status s = RunOpKernel();
    EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << s;
    EXPECT_THAT(s.message(), HasSubstr(c.message));
  }
}

}  // namespace
}  // namespace test
}  // namespace sluice
