// The GPU Einsum's pieces, built for the host, against the CPU Einsum kernel: each pass of
// the plan as the pass kernel computes it (ToPassShape, PassOffsets, PassValue) and the
// product as the MatMulPlan handed to cuBLAS describes it (ProductOf), on equations with
// transposes, diagonals, sums over labels, inflated outputs, swapped inputs and broadcast
// batch dims. Passes are exact (sums in double, as the CPU); products within 1e-5 relative.
#include "kernels/cuda/strided_pass.h"

#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_shape.h"
#include "graph/core/types.h"
#include "gtest/gtest.h"
#include "kernels/cpu/linalg/einsum_plan.h"
#include "kernels/cpu/linalg/matmul_plan.h"
#include "kernels/cuda/linalg/einsum_pass.h"
#include "kernels/kernel_test_util.h"
#include "runtime/framework/op_kernel_test_util.h"

namespace sluice {
namespace cuda {
namespace {

using test::NodeDefBuilder;

// Runs `pass` from src into dst as the GPU's kernel does, one kept element at a time.
void RunPassOnHost(const einsum::StridedPass& pass, const float* src, float* dst) {
  PassShape shape;
  ASSERT_TRUE(ToPassShape(pass, &shape).ok());
  for (int64_t i = 0; i < shape.kept; ++i) {
    int64_t s = 0, d = 0;
    PassOffsets(shape, i, &s, &d);
    dst[d] = PassValue<float>(shape, src, s);
  }
}

// out[b, m, n] = sum_k X[b, m, k] * Y[b, k, n] as `p` describes it (cuBLAS's contract in
// gemm.h), accumulated in double.
void ProductOnHost(const MatMulPlan& p, const float* x, const float* y, float* out) {
  int64_t batch = 1;
  for (int64_t d : p.batch) batch *= d;
  for (int64_t b = 0; b < batch; ++b) {
    int64_t x_off = 0, y_off = 0, x_step = 1, y_step = 1;
    for (int64_t d = static_cast<int64_t>(p.batch.size()) - 1, rest = b; d >= 0; --d) {
      const int64_t i = rest % p.batch[d];
      rest /= p.batch[d];
      if (p.x_batch[d] != 1) x_off += i * x_step;
      if (p.y_batch[d] != 1) y_off += i * y_step;
      x_step *= p.x_batch[d];
      y_step *= p.y_batch[d];
    }
    const float* xb = x + x_off * p.m * p.k;
    const float* yb = y + y_off * p.k * p.n;
    for (int64_t m = 0; m < p.m; ++m) {
      for (int64_t n = 0; n < p.n; ++n) {
        double sum = 0;
        for (int64_t k = 0; k < p.k; ++k) {
          const float a = p.adj_x ? xb[k * p.m + m] : xb[m * p.k + k];
          const float c = p.adj_y ? yb[n * p.k + k] : yb[k * p.n + n];
          sum += static_cast<double>(a) * c;
        }
        out[(b * p.m + m) * p.n + n] = static_cast<float>(sum);
      }
    }
  }
}

Tensor Random(const TensorShape& shape, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> dist(-1, 1);
  Tensor t(DT_FLOAT, shape);
  for (int64_t i = 0; i < t.NumElements(); ++i) t.flat<float>()(i) = dist(rng);
  return t;
}

// The GPU kernel's computation of `equation` on `inputs`, on the host.
std::vector<float> EinsumOnHost(const std::string& equation, const std::vector<Tensor>& inputs) {
  einsum::Equation eq;
  EXPECT_TRUE(einsum::ParseEquation(equation, static_cast<int>(inputs.size()), &eq).ok());
  std::vector<TensorShape> shapes;
  for (const Tensor& t : inputs) shapes.push_back(t.shape());
  einsum::Plan plan;
  const absl::Status s = einsum::MakePlan(eq, shapes, &plan);
  EXPECT_TRUE(s.ok()) << equation << ": " << s;
  std::vector<float> out(plan.output_shape.num_elements(), 0.0f);
  if (!s.ok() || plan.output_empty || plan.zeros) return out;
  const auto data = [&](int i) { return inputs[i].flat<float>().data(); };
  if (plan.forward) {
    for (size_t i = 0; i < out.size(); ++i) out[i] = data(0)[i];
    return out;
  }
  if (plan.num_inputs == 1) {
    RunPassOnHost(plan.x.prepare, data(0), out.data());
    return out;
  }
  std::vector<float> x_buffer(plan.x.num_elements), y_buffer(plan.y.num_elements);
  const float* x = data(plan.x.input);
  const float* y = data(plan.y.input);
  if (!plan.x.direct) {
    RunPassOnHost(plan.x.prepare, x, x_buffer.data());
    x = x_buffer.data();
  }
  if (!plan.y.direct) {
    RunPassOnHost(plan.y.prepare, y, y_buffer.data());
    y = y_buffer.data();
  }
  if (plan.result_is_output) {
    ProductOnHost(ProductOf(plan), x, y, out.data());
  } else {
    std::vector<float> result(plan.finish.NumKept());
    ProductOnHost(ProductOf(plan), x, y, result.data());
    RunPassOnHost(plan.finish, result.data(), out.data());
  }
  return out;
}

struct Case {
  std::string equation;
  std::vector<TensorShape> inputs;
};

class StridedPassTest : public test::KernelTest {};

TEST_F(StridedPassTest, EinsumPiecesMatchTheCpuKernel) {
  const std::vector<Case> cases = {
      {"ij->ji", {TensorShape({3, 5})}},
      {"ii->i", {TensorShape({4, 4})}},
      {"ij->i", {TensorShape({3, 7})}},
      {"ijk->k", {TensorShape({2, 3, 4})}},
      {"i->ii", {TensorShape({3})}},
      {"iij->ji", {TensorShape({3, 3, 2})}},
      {"ij,jk->ik", {TensorShape({3, 4}), TensorShape({4, 5})}},
      {"ji,jk->ik", {TensorShape({4, 3}), TensorShape({4, 5})}},
      {"ij,kj->ik", {TensorShape({3, 4}), TensorShape({5, 4})}},
      {"bji,bkj->bik", {TensorShape({2, 4, 3}), TensorShape({2, 5, 4})}},
      {"bhqd,bhkd->bhqk", {TensorShape({2, 2, 3, 4}), TensorShape({2, 2, 5, 4})}},
      {"bhqk,bhkd->bhqd", {TensorShape({2, 2, 3, 5}), TensorShape({2, 2, 5, 4})}},
      {"abc,cd->abd", {TensorShape({2, 3, 4}), TensorShape({4, 5})}},
      {"abcd,cde->abe", {TensorShape({2, 3, 4, 5}), TensorShape({4, 5, 6})}},
      {"aecd,abcd->acbe", {TensorShape({2, 3, 4, 5}), TensorShape({2, 6, 4, 5})}},
      {"ij,ij->i", {TensorShape({3, 4}), TensorShape({3, 4})}},
      {"ab,cd->abcd", {TensorShape({2, 3}), TensorShape({4, 5})}},
      {"ii,ij->j", {TensorShape({3, 3}), TensorShape({3, 4})}},
      {"ijk,jl->il", {TensorShape({2, 3, 4}), TensorShape({3, 5})}},
      {"...ij,...jk->...ik", {TensorShape({2, 1, 3, 4}), TensorShape({5, 4, 6})}},
      {"ij,jk->ikk", {TensorShape({2, 3}), TensorShape({3, 4})}},
  };
  uint32_t seed = 1;
  for (const Case& c : cases) {
    std::vector<Tensor> inputs;
    for (const TensorShape& shape : c.inputs) inputs.push_back(Random(shape, seed++));
    NodeDefBuilder b("einsum", "Einsum");
    for (size_t i = 0; i < inputs.size(); ++i) b.Input(absl::StrCat("x", i));
    ASSERT_TRUE(InitOp(b.Attr("T", DT_FLOAT)
                           .Attr("N", static_cast<int64_t>(inputs.size()))
                           .Attr("equation", c.equation)
                           .Build())
                    .ok())
        << c.equation;
    for (const Tensor& t : inputs) AddInput(t);
    const absl::Status s = RunOpKernel();
    ASSERT_TRUE(s.ok()) << c.equation << ": " << s;
    const Tensor& want = *GetOutput(0);
    const std::vector<float> got = EinsumOnHost(c.equation, inputs);
    ASSERT_EQ(static_cast<int64_t>(got.size()), want.NumElements()) << c.equation;
    const bool product = inputs.size() == 2;
    for (int64_t i = 0; i < want.NumElements(); ++i) {
      const float w = want.flat<float>()(i);
      if (product) {
        EXPECT_NEAR(got[i], w, 1e-5 * (1 + std::fabs(w))) << c.equation << " element " << i;
      } else {
        EXPECT_EQ(got[i], w) << c.equation << " element " << i;
      }
    }
  }
}

// A pass of more dims than the kernel's argument holds is refused, not overrun.
TEST_F(StridedPassTest, TooManyDimsIsUnimplemented) {
  einsum::StridedPass pass;
  for (int d = 0; d <= kMaxPassDims; ++d) {
    pass.dims.push_back(2);
    pass.src_strides.push_back(int64_t{1} << (2 * d));
    pass.dst_strides.push_back(int64_t{1} << d);
  }
  PassShape shape;
  EXPECT_EQ(ToPassShape(pass, &shape).code(), absl::StatusCode::kUnimplemented);
}

}  // namespace
}  // namespace cuda
}  // namespace sluice
