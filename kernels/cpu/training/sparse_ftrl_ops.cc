// Sparse FTRL-proximal updates (SparseApplyFtrl, SparseApplyFtrlV2 and their resource forms):
// the rows of var, accum and linear that indices names. TensorFlow has two code paths that
// round differently, and the step follows both. With p(x) = sqrt(x) when lr_power == -0.5,
// else x ^ -lr_power, g' = grad + 2 * l2_shrinkage * var (V2; grad otherwise):
//  rows of several elements:
//   linear += g' - (p(accum + grad^2) - p(accum)) / lr * var
//             (multiply_linear_by_lr: g' * lr - (p(accum + grad^2) - p(accum)) * var)
//   var = (clamp(linear, -l1, l1) - linear) / (p(accum + grad^2) / lr + 2 * l2)
//             (multiply_linear_by_lr: l1 * lr for l1, p(accum + grad^2) + 2 * l2 * lr)
//   accum += grad^2
//  one-element rows (TensorFlow's scalar code):
//   sigma = pow(accum + grad^2, -lr_power) - pow(accum, -lr_power) (pow even for -0.5),
//   divided by lr unless multiply_linear_by_lr; linear = linear + g' - sigma * var
//   (linear + g' * lr - sigma * var); var from linear and the new accum as above.
// The checks are TensorFlow's, with its value checks: lr > 0 (or 0 with
// multiply_linear_by_lr), l1, l2 and l2_shrinkage >= 0, lr_power <= 0.
#include <cstdint>

#include "kernels/cpu/training/sparse_apply_op.h"
#include "kernels/cpu/training/update_math.h"

namespace sluice {
namespace {

using training::Max;
using training::Min;
using training::Pow;
using training::Sqrt;

template <bool kShrinkage>
struct SparseFtrlRule {
  static constexpr int kVars = 3;
  static constexpr int kIndices = 4;
  static constexpr bool kGatherStyleIndexError = false;
  static constexpr int kPower = kShrinkage ? 9 : 8;
  static constexpr ArgCheck kChecks[] = {
      {ArgCheck::kSameShape, 1, "var and accum do not have the same shape"},
      {ArgCheck::kSameShape, 2, "var and linear do not have the same shape"},
      {ArgCheck::kVarAtLeast1D, 0, ""},
      {ArgCheck::kIndicesVector, 4, ""},
      {ArgCheck::kPositiveOrAllowedZero, 5,
       "lr is not a positive scalar (or zero if multiply_linear_by_lr is set): "},
      {ArgCheck::kNonNegative, 6, "l1 regularization strength is not a non-negative scalar: "},
      {ArgCheck::kNonNegative, 7, "l2 regularization strength is not a non-negative scalar: "},
      {ArgCheck::kNonPositive, kPower, "lr_power is not a non-positive scalar: "},
      {ArgCheck::kGradRows, 3, ""},
      {ArgCheck::kInnerDimPositive, 3, ""},
      // FtrlV2's l2_shrinkage, checked last; for Ftrl, lr_power again (a no-op).
      {kShrinkage ? ArgCheck::kNonNegative : ArgCheck::kNonPositive, kShrinkage ? 8 : kPower,
       "l2 shrinkage regularization strength is not a non-negative scalar: "},
  };
  template <typename T>
  struct Step {
    T lr, l1, l2, two_shrinkage, neg_power, l1_lr, two_l2_lr, two_l2;
    bool multiply, sqrt_power, scalar_rows;
    Step(const ApplyOptions& options, OpKernelContext* ctx, bool scalar)
        : lr(ScalarInput<T>(ctx, 5)),
          l1(ScalarInput<T>(ctx, 6)),
          l2(ScalarInput<T>(ctx, 7)),
          two_shrinkage(kShrinkage ? T(2) * ScalarInput<T>(ctx, 8) : T(0)),
          neg_power(-ScalarInput<T>(ctx, kPower)),
          l1_lr(l1 * lr),
          two_l2_lr(T(2) * l2 * lr),
          two_l2(T(2) * l2),
          multiply(options.multiply_linear_by_lr),
          sqrt_power(neg_power == T(0.5)),
          scalar_rows(scalar) {}
    T P(T x) const { return sqrt_power ? Sqrt(x) : Pow(x, neg_power); }
    void operator()(T* const* v, T g, int64_t i) const {
      const T var = v[0][i];
      const T accum = v[1][i];
      const T shrunk = kShrinkage ? g + two_shrinkage * var : g;
      const T new_accum = accum + g * g;
      T linear;
      if (scalar_rows) {
        T sigma = Pow(new_accum, neg_power) - Pow(accum, neg_power);
        if (!multiply) sigma = sigma / lr;
        linear = multiply ? v[2][i] + shrunk * lr - sigma * var : v[2][i] + shrunk - sigma * var;
      } else {
        const T growth = P(new_accum) - P(accum);
        linear = v[2][i] + (multiply ? shrunk * lr - growth * var : shrunk - growth / lr * var);
      }
      const T bound = multiply ? l1_lr : l1;
      const T quadratic = multiply ? P(new_accum) + two_l2_lr : P(new_accum) / lr + two_l2;
      v[0][i] = (Max(Min(linear, bound), -bound) - linear) / quadratic;
      v[2][i] = linear;
      v[1][i] = new_accum;
    }
  };
};

#define REGISTER(T)                                              \
  SLUICE_REGISTER_SPARSE_APPLY("Ftrl", T, SparseFtrlRule<false>) \
  SLUICE_REGISTER_SPARSE_APPLY("FtrlV2", T, SparseFtrlRule<true>)
SLUICE_CALL_FLOAT_TYPES(REGISTER)
#undef REGISTER

}  // namespace
}  // namespace sluice
