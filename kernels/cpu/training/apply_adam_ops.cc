// Dense updates of Adam and its variants, in TensorFlow's order of operations, with
// alpha = lr * sqrt(1 - beta2_power) / (1 - beta1_power) computed once:
//   Adam:                      m += (grad - m) * (1 - beta1);
//                              v += (grad * grad - v) * (1 - beta2);
//                              var -= m * alpha / (sqrt(v) + epsilon), or with use_nesterov
//                              var -= (grad * (1 - beta1) + beta1 * m) * alpha /
//                                     (sqrt(v) + epsilon)
//   AdamWithAmsgrad (resource): m and v as Adam; vhat = max(vhat, v);
//                              var -= m * alpha / (sqrt(vhat) + epsilon)
//   AdaMax:                    m += (grad - m) * (1 - beta1); v = max(beta2 * v, |grad|);
//                              var -= lr / (1 - beta1_power) * (m / (v + epsilon))
// TensorFlow's AdamWithAmsgrad does not check vhat's shape (its kernel then reads out of
// bounds); here a mismatch is INVALID_ARGUMENT "var and vhat do not have the same shape".
#include <cstdint>

#include "kernels/cpu/training/apply_op.h"
#include "kernels/cpu/training/update_math.h"

namespace sluice {
namespace {

using training::Abs;
using training::Max;
using training::Sqrt;

// Adam's checks with its inputs shifted by `s` (AdamWithAmsgrad has one variable more).
#define SLUICE_ADAM_CHECKS(s)                                              \
  {ArgCheck::kScalar, 3 + s, "beta1_power is not a scalar: "},             \
      {ArgCheck::kScalar, 4 + s, "beta2_power is not a scalar: "},         \
      {ArgCheck::kScalar, 5 + s, "lr is not a scalar : "},                 \
      {ArgCheck::kScalar, 6 + s, "beta1 is not a scalar: "},               \
      {ArgCheck::kScalar, 7 + s, "beta2 is not a scalar: "},               \
      {ArgCheck::kScalar, 8 + s, "epsilon is not a scalar: "},             \
      {ArgCheck::kSameShape, 1, "var and m do not have the same shape"},   \
      {ArgCheck::kSameShape, 2, "var and v do not have the same shape"}, { \
    ArgCheck::kSameShape, 9 + s, "var and grad do not have the same shape" \
  }

// The scalars of Adam's step, read from inputs shifted by `s`.
template <typename T>
struct AdamScalars {
  T alpha, beta1, one_minus_beta1, one_minus_beta2, epsilon;
  AdamScalars(OpKernelContext* ctx, int s)
      : alpha(ScalarInput<T>(ctx, 5 + s) * Sqrt(T(1) - ScalarInput<T>(ctx, 4 + s)) /
              (T(1) - ScalarInput<T>(ctx, 3 + s))),
        beta1(ScalarInput<T>(ctx, 6 + s)),
        one_minus_beta1(T(1) - beta1),
        one_minus_beta2(T(1) - ScalarInput<T>(ctx, 7 + s)),
        epsilon(ScalarInput<T>(ctx, 8 + s)) {}
};

struct AdamRule {
  static constexpr int kVars = 3;
  static constexpr int kGrad = 9;
  static constexpr ArgCheck kChecks[] = {SLUICE_ADAM_CHECKS(0)};
  template <typename T>
  struct Step {
    AdamScalars<T> s;
    bool nesterov;
    Step(const ApplyOptions& options, OpKernelContext* ctx)
        : s(ctx, 0), nesterov(options.use_nesterov) {}
    void operator()(T* const* v, T g, int64_t i) const {
      const T m = v[1][i] + (g - v[1][i]) * s.one_minus_beta1;
      const T second = v[2][i] + (g * g - v[2][i]) * s.one_minus_beta2;
      v[1][i] = m;
      v[2][i] = second;
      const T step = nesterov ? (g * s.one_minus_beta1 + s.beta1 * m) * s.alpha : m * s.alpha;
      v[0][i] = v[0][i] - step / (Sqrt(second) + s.epsilon);
    }
  };
};

struct AdamWithAmsgradRule {
  static constexpr int kVars = 4;
  static constexpr int kGrad = 10;
  static constexpr ArgCheck kChecks[] = {
      SLUICE_ADAM_CHECKS(1),
      {ArgCheck::kSameShape, 3, "var and vhat do not have the same shape"},
  };
  template <typename T>
  struct Step {
    AdamScalars<T> s;
    Step(const ApplyOptions&, OpKernelContext* ctx) : s(ctx, 1) {}
    void operator()(T* const* v, T g, int64_t i) const {
      const T m = v[1][i] + (g - v[1][i]) * s.one_minus_beta1;
      const T second = v[2][i] + (g * g - v[2][i]) * s.one_minus_beta2;
      const T vhat = Max(v[3][i], second);
      v[1][i] = m;
      v[2][i] = second;
      v[3][i] = vhat;
      v[0][i] = v[0][i] - m * s.alpha / (Sqrt(vhat) + s.epsilon);
    }
  };
};

#undef SLUICE_ADAM_CHECKS

struct AdaMaxRule {
  static constexpr int kVars = 3;
  static constexpr int kGrad = 8;
  static constexpr ArgCheck kChecks[] = {
      {ArgCheck::kScalar, 3, "beta1_power is not a scalar: "},
      {ArgCheck::kScalar, 4, "lr is not a scalar : "},
      {ArgCheck::kScalar, 5, "beta1 is not a scalar: "},
      {ArgCheck::kScalar, 6, "beta2 is not a scalar: "},
      {ArgCheck::kScalar, 7, "epsilon is not a scalar: "},
      {ArgCheck::kSameShape, 1, "var and m do not have the same shape"},
      {ArgCheck::kSameShape, 2, "var and v do not have the same shape"},
      {ArgCheck::kSameShape, 8, "var and grad do not have the same shape"},
  };
  template <typename T>
  struct Step {
    T rate, one_minus_beta1, beta2, epsilon;
    Step(const ApplyOptions&, OpKernelContext* ctx)
        : rate(ScalarInput<T>(ctx, 4) / (T(1) - ScalarInput<T>(ctx, 3))),
          one_minus_beta1(T(1) - ScalarInput<T>(ctx, 5)),
          beta2(ScalarInput<T>(ctx, 6)),
          epsilon(ScalarInput<T>(ctx, 7)) {}
    void operator()(T* const* v, T g, int64_t i) const {
      const T m = v[1][i] + (g - v[1][i]) * one_minus_beta1;
      const T u = Max(beta2 * v[2][i], Abs(g));
      v[1][i] = m;
      v[2][i] = u;
      v[0][i] = v[0][i] - rate * (m / (u + epsilon));
    }
  };
};

#define REGISTER(T)                          \
  SLUICE_REGISTER_APPLY("Adam", T, AdamRule) \
  SLUICE_REGISTER_RESOURCE_APPLY("AdamWithAmsgrad", T, AdamWithAmsgradRule)
SLUICE_CALL_FLOAT_TYPES(REGISTER)
#undef REGISTER

// TensorFlow has AdaMax for half, float and double.
SLUICE_REGISTER_APPLY("AdaMax", half, AdaMaxRule)
SLUICE_REGISTER_APPLY("AdaMax", float, AdaMaxRule)
SLUICE_REGISTER_APPLY("AdaMax", double, AdaMaxRule)

}  // namespace
}  // namespace sluice
