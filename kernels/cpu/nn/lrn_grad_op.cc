// LRNGrad on the CPU: the gradient of LRN (lrn_op.cc) with respect to its input, given the
// incoming gradient dy, LRN's input x and its output y, all [batch, rows, cols, depth]:
//
//   N_j = bias + alpha * sum(x_k ** 2 for k in window(j))      (window clipped to the depth)
//   dx_k = sum over j with k in window(j) of
//            dy_j * ([k == j] * N_j ** -beta - 2 * alpha * beta * x_k * y_j / N_j)
//
// since y_j = x_j * N_j ** -beta. N_j is computed from x rather than recovered from y / x,
// which is unstable for small x. As TensorFlow's CPU kernel, it computes in T (float or half,
// the types TensorFlow registers) and skips the j whose dy_j is exactly zero, so a non-finite x
// next to a zero gradient leaves dx finite there.
#include <algorithm>
#include <cstdint>
#include <limits>

#include "graph/core/errors.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_types.h"
#include "graph/core/types.h"
#include "kernels/cpu/parallel_for.h"
#include "runtime/framework/op_kernel.h"
#include "unsupported/Eigen/CXX11/Tensor"

namespace sluice {
namespace {

template <typename T>
struct LrnGradParams {
  int64_t radius;
  T bias;
  T alpha;
  T beta;
};

// Pixels [first, last) of the flattened [pixels, depth] views.
template <typename T>
void LrnGradPixels(const LrnGradParams<T>& p, const T* dy, const T* x, const T* y, T* dx,
                   int64_t depth, int64_t first, int64_t last) {
  const T minus_two_alpha_beta = T(-2) * p.alpha * p.beta;
  for (int64_t pixel = first; pixel < last; ++pixel) {
    const int64_t base = pixel * depth;
    std::fill(dx + base, dx + base + depth, T(0));
    for (int64_t j = 0; j < depth; ++j) {
      const T g = dy[base + j];
      if (g == T(0)) continue;
      const int64_t lo = std::max<int64_t>(0, j - p.radius);
      const int64_t hi = std::min<int64_t>(depth, j + p.radius + 1);
      T norm(0);
      for (int64_t k = lo; k < hi; ++k) norm += x[base + k] * x[base + k];
      norm = p.alpha * norm + p.bias;
      const T own = Eigen::numext::pow(norm, -p.beta);
      const T scaled_y = minus_two_alpha_beta * y[base + j];
      for (int64_t k = lo; k < hi; ++k) {
        T d = x[base + k] * scaled_y / norm;
        if (k == j) d += own;
        dx[base + k] += d * g;
      }
    }
  }
}

template <typename T>
class LrnGradOp : public OpKernel {
 public:
  explicit LrnGradOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    int64_t radius;
    OP_REQUIRES_OK(ctx, ctx->GetAttr("depth_radius", &radius));
    // TensorFlow keeps the radius in an int and rejects what does not fit below INT_MAX.
    OP_REQUIRES(ctx, radius >= 0 && radius < std::numeric_limits<int>::max(),
                errors::InvalidArgument("depth_radius = ", radius, " larger than int max"));
    params_.radius = radius;
    float value;
    OP_REQUIRES_OK(ctx, ctx->GetAttr("bias", &value));
    params_.bias = T(value);
    OP_REQUIRES_OK(ctx, ctx->GetAttr("alpha", &value));
    params_.alpha = T(value);
    OP_REQUIRES_OK(ctx, ctx->GetAttr("beta", &value));
    params_.beta = T(value);
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& dy = ctx->input(0);
    const Tensor& x = ctx->input(1);
    const Tensor& y = ctx->input(2);
    OP_REQUIRES(ctx, dy.dims() == 4 && x.dims() == 4,
                errors::InvalidArgument("inputs must be 4-dimensional"));
    OP_REQUIRES(ctx, x.shape() == dy.shape() && y.shape() == dy.shape(),
                errors::InvalidArgument(
                    "input_grads, input_image, and out_image should have the same shape"));
    Tensor* dx = nullptr;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, dy.shape(), &dx));
    const int64_t n = dy.NumElements();
    if (n == 0) return;
    const int64_t depth = dy.dim_size(3);
    const T* dy_data = dy.flat<T>().data();
    const T* x_data = x.flat<T>().data();
    const T* y_data = y.flat<T>().data();
    T* dx_data = dx->flat<T>().data();
    const double window = static_cast<double>(std::min<int64_t>(depth, 2 * params_.radius + 1));
    const double d = static_cast<double>(depth);
    const Eigen::TensorOpCost pixel_cost(3 * d * sizeof(T), d * sizeof(T), d * window * 8);
    ParallelFor(ctx, n / depth, n, pixel_cost, [&](int64_t first, int64_t last) {
      LrnGradPixels<T>(params_, dy_data, x_data, y_data, dx_data, depth, first, last);
    });
  }

 private:
  LrnGradParams<T> params_;
};

#define REGISTER_LRN_GRAD(T) \
  REGISTER_KERNEL_BUILDER(Name("LRNGrad").Device(DEVICE_CPU).TypeConstraint<T>("T"), LrnGradOp<T>);
SLUICE_CALL_float(REGISTER_LRN_GRAD) SLUICE_CALL_half(REGISTER_LRN_GRAD)
#undef REGISTER_LRN_GRAD

}  // namespace
}  // namespace sluice
