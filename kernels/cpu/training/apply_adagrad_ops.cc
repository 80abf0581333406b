// Dense updates of the Adagrad family, in TensorFlow's order of operations:
//   Adagrad:          accum += grad * grad (with update_slots); var -= grad * lr * rsqrt(accum)
//   AdagradV2:        accum += grad * grad (with update_slots);
//                     var -= grad * lr / (sqrt(accum) + epsilon)
//   ProximalAdagrad:  accum += grad * grad; rate = lr * rsqrt(accum); prox = var - grad * rate;
//                     var = sign(prox) * max(|prox| - rate * l1, 0) / (1 + l2 * rate) when
//                     l1 > 0, else prox / (1 + l2 * rate)
//   Adadelta:         accum = accum * rho + grad * grad * (1 - rho);
//                     update = sqrt(accum_update + epsilon) * rsqrt(accum + epsilon) * grad;
//                     var -= update * lr;
//                     accum_update = accum_update * rho + update * update * (1 - rho)
// TensorFlow's Adadelta does not check accum_update's shape (its kernel then reads out of
// bounds); here a mismatch is INVALID_ARGUMENT "var and accum_update do not have the same
// shape", the message of TensorFlow's sparse form.
#include <cstdint>

#include "kernels/cpu/training/apply_op.h"
#include "kernels/cpu/training/update_math.h"

namespace sluice {
namespace {

using training::Abs;
using training::AdadeltaElementUpdate;
using training::Max;
using training::Rsqrt;
using training::Sign;
using training::Sqrt;

struct AdagradRule {
  static constexpr int kVars = 2;
  static constexpr int kGrad = 3;
  static constexpr ArgCheck kChecks[] = {
      {ArgCheck::kScalar, 2, "lr is not a scalar: "},
      {ArgCheck::kSameShape, 1, "var and accum do not have the same shape"},
      {ArgCheck::kSameShape, 3, "var and grad do not have the same shape"},
  };
  template <typename T>
  struct Step {
    T lr;
    bool update_slots;
    Step(const ApplyOptions& options, OpKernelContext* ctx)
        : lr(ScalarInput<T>(ctx, 2)), update_slots(options.update_slots) {}
    void operator()(T* const* v, T g, int64_t i) const {
      if (update_slots) v[1][i] = v[1][i] + g * g;
      v[0][i] = v[0][i] - g * lr * Rsqrt(v[1][i]);
    }
  };
};

struct AdagradV2Rule {
  static constexpr int kVars = 2;
  static constexpr int kGrad = 4;
  static constexpr ArgCheck kChecks[] = {
      {ArgCheck::kScalar, 2, "lr is not a scalar: "},
      {ArgCheck::kScalar, 3, "epsilon is not a scalar: "},
      {ArgCheck::kSameShape, 1, "var and accum do not have the same shape"},
      {ArgCheck::kSameShape, 4, "var and grad do not have the same shape"},
  };
  template <typename T>
  struct Step {
    T lr, epsilon;
    bool update_slots;
    Step(const ApplyOptions& options, OpKernelContext* ctx)
        : lr(ScalarInput<T>(ctx, 2)),
          epsilon(ScalarInput<T>(ctx, 3)),
          update_slots(options.update_slots) {}
    void operator()(T* const* v, T g, int64_t i) const {
      if (update_slots) v[1][i] = v[1][i] + g * g;
      v[0][i] = v[0][i] - g * lr / (Sqrt(v[1][i]) + epsilon);
    }
  };
};

struct ProximalAdagradRule {
  static constexpr int kVars = 2;
  static constexpr int kGrad = 5;
  static constexpr ArgCheck kChecks[] = {
      {ArgCheck::kSameShape, 1, "var and accum do not have the same shape"},
      {ArgCheck::kPositive, 2, "lr is not a positive scalar: "},
      {ArgCheck::kNonNegative, 3, "l1 regularization strength is not a non-negative scalar: "},
      {ArgCheck::kNonNegative, 4, "l2 regularization strength is not a non-negative scalar: "},
      {ArgCheck::kSameShape, 5, "var and grad do not have the same shape"},
  };
  template <typename T>
  struct Step {
    T lr, l1, l2;
    Step(const ApplyOptions&, OpKernelContext* ctx)
        : lr(ScalarInput<T>(ctx, 2)), l1(ScalarInput<T>(ctx, 3)), l2(ScalarInput<T>(ctx, 4)) {}
    void operator()(T* const* v, T g, int64_t i) const {
      const T accum = v[1][i] + g * g;
      v[1][i] = accum;
      const T rate = lr * Rsqrt(accum);
      const T prox = v[0][i] - g * rate;
      const T denom = T(1) + l2 * rate;
      v[0][i] = l1 > T(0) ? Sign(prox) * Max(Abs(prox) - rate * l1, T(0)) / denom : prox / denom;
    }
  };
};

struct AdadeltaRule {
  static constexpr int kVars = 3;
  static constexpr int kGrad = 6;
  static constexpr ArgCheck kChecks[] = {
      {ArgCheck::kScalar, 3, "lr is not a scalar: "},
      {ArgCheck::kScalar, 4, "rho is not a scalar: "},
      {ArgCheck::kScalar, 5, "epsilon is not a scalar: "},
      {ArgCheck::kSameShape, 1, "var and accum do not have the same shape"},
      {ArgCheck::kSameShape, 6, "var and grad do not have the same shape"},
      {ArgCheck::kSameShape, 2, "var and accum_update do not have the same shape"},
  };
  template <typename T>
  struct Step {
    T lr, rho, epsilon, one_minus_rho;
    Step(const ApplyOptions&, OpKernelContext* ctx)
        : lr(ScalarInput<T>(ctx, 3)),
          rho(ScalarInput<T>(ctx, 4)),
          epsilon(ScalarInput<T>(ctx, 5)),
          one_minus_rho(T(1) - rho) {}
    void operator()(T* const* v, T g, int64_t i) const {
      AdadeltaElementUpdate(v, g, i, lr, rho, epsilon, one_minus_rho);
    }
  };
};

#define REGISTER(T)                                    \
  SLUICE_REGISTER_APPLY("Adagrad", T, AdagradRule)     \
  SLUICE_REGISTER_APPLY("AdagradV2", T, AdagradV2Rule) \
  SLUICE_REGISTER_APPLY("Adadelta", T, AdadeltaRule)
SLUICE_CALL_FLOAT_TYPES(REGISTER)
#undef REGISTER

// TensorFlow has ProximalAdagrad for float and double only.
SLUICE_REGISTER_APPLY("ProximalAdagrad", float, ProximalAdagradRule)
SLUICE_REGISTER_APPLY("ProximalAdagrad", double, ProximalAdagradRule)

}  // namespace
}  // namespace sluice
