// Dense FTRL-proximal updates (Ftrl; FtrlV2 adds l2_shrinkage), in TensorFlow's order of
// operations. With p(x) = sqrt(x) when lr_power == -0.5, else x ^ -lr_power,
// g' = grad + 2 * l2_shrinkage * var (FtrlV2; grad for Ftrl), new_accum = accum + grad * grad:
//   linear += g' - (p(new_accum) - p(accum)) / lr * var
//   var = |linear| > l1 ? (l1 * sign(linear) - linear) / (p(new_accum) / lr + 2 * l2) : 0
//   accum = new_accum
// and with multiply_linear_by_lr (linear holds lr times TensorFlow's linear):
//   linear += g' * lr - (p(new_accum) - p(accum)) * var
//   var = |linear| > l1 * lr ? (l1 * lr * sign(linear) - linear) / (p(new_accum) + 2 * l2 * lr)
//                             : 0
// Note the order of TensorFlow's checks: the slots' and grad's shapes before the scalars, and
// FtrlV2's l2_shrinkage after lr_power.
#include <cstdint>

#include "kernels/cpu/training/apply_op.h"
#include "kernels/cpu/training/update_math.h"

namespace sluice {
namespace {

using training::Abs;
using training::Pow;
using training::Sign;
using training::Sqrt;

#define SLUICE_FTRL_CHECKS                                                      \
  {ArgCheck::kSameShape, 1, "var and accum do not have the same shape"},        \
      {ArgCheck::kSameShape, 2, "var and linear do not have the same shape"},   \
      {ArgCheck::kSameShape, 3, "var and grad do not have the same shape"},     \
      {ArgCheck::kScalar, 4, "lr is not a scalar: "},                           \
      {ArgCheck::kScalar, 5, "l1 regularization strength is not a scalar: "}, { \
    ArgCheck::kScalar, 6, "l2 regularization strength is not a scalar: "        \
  }

template <bool kShrinkage>
struct FtrlRule {
  static constexpr int kVars = 3;
  static constexpr int kGrad = 3;
  static constexpr ArgCheck kChecks[] = {
      SLUICE_FTRL_CHECKS,
      {ArgCheck::kScalar, kShrinkage ? 8 : 7, "lr_power is not a scalar"},
      // FtrlV2's l2_shrinkage, checked last; for Ftrl, lr_power again (a no-op).
      {ArgCheck::kScalar, 7, "l2 shrinkage regularization strength is not a scalar: "},
  };
  template <typename T>
  struct Step {
    T lr, l1, two_l2, two_shrinkage, neg_power, l1_lr, two_l2_lr;
    bool multiply, sqrt_power;
    Step(const ApplyOptions& options, OpKernelContext* ctx)
        : lr(ScalarInput<T>(ctx, 4)),
          l1(ScalarInput<T>(ctx, 5)),
          two_l2(T(2) * ScalarInput<T>(ctx, 6)),
          two_shrinkage(kShrinkage ? T(2) * ScalarInput<T>(ctx, 7) : T(0)),
          neg_power(-ScalarInput<T>(ctx, kShrinkage ? 8 : 7)),
          l1_lr(l1 * lr),
          two_l2_lr(two_l2 * lr),
          multiply(options.multiply_linear_by_lr),
          sqrt_power(neg_power == T(0.5)) {}
    T P(T x) const { return sqrt_power ? Sqrt(x) : Pow(x, neg_power); }
    void operator()(T* const* v, T g, int64_t i) const {
      const T var = v[0][i];
      const T accum = v[1][i];
      const T shrunk = kShrinkage ? g + two_shrinkage * var : g;
      const T new_accum = accum + g * g;
      const T p_new = P(new_accum);
      const T growth = p_new - P(accum);
      T linear;
      if (multiply) {
        linear = v[2][i] + (shrunk * lr - growth * var);
        v[0][i] =
            Abs(linear) > l1_lr ? (l1_lr * Sign(linear) - linear) / (p_new + two_l2_lr) : T(0);
      } else {
        linear = v[2][i] + (shrunk - growth / lr * var);
        v[0][i] = Abs(linear) > l1 ? (l1 * Sign(linear) - linear) / (p_new / lr + two_l2) : T(0);
      }
      v[2][i] = linear;
      v[1][i] = new_accum;
    }
  };
};

#undef SLUICE_FTRL_CHECKS

#define REGISTER(T)                                 \
  SLUICE_REGISTER_APPLY("Ftrl", T, FtrlRule<false>) \
  SLUICE_REGISTER_APPLY("FtrlV2", T, FtrlRule<true>)
SLUICE_CALL_FLOAT_TYPES(REGISTER)
#undef REGISTER

}  // namespace
}  // namespace sluice
