// Dense updates of the plain-gradient optimizers, in TensorFlow's order of operations:
//   GradientDescent:          var -= grad * lr
//   ProximalGradientDescent:  prox = var - grad * lr; var = sign(prox) * max(|prox| - lr * l1,
//                             0) / (1 + l2 * lr) when l1 > 0, else prox / (1 + l2 * lr)
//   Momentum:                 accum = accum * momentum + grad; var -= accum * lr, or with
//                             use_nesterov var -= grad * lr + accum * momentum * lr
//   KerasMomentum (resource): accum = accum * momentum - grad * lr; var += accum, or with
//                             use_nesterov var += accum * momentum - grad * lr
// See apply_op.h for how the kernels take, check and update their variables.
#include <cstdint>

#include "kernels/cpu/training/apply_op.h"
#include "kernels/cpu/training/update_math.h"

namespace sluice {
namespace {

using training::Abs;
using training::Max;
using training::Sign;

struct GradientDescentRule {
  static constexpr int kVars = 1;
  static constexpr int kGrad = 2;
  static constexpr ArgCheck kChecks[] = {
      {ArgCheck::kScalar, 1, "alpha is not a scalar: "},
      {ArgCheck::kSameShape, 2, "var and delta do not have the same shape"},
  };
  template <typename T>
  struct Step {
    T lr;
    Step(const ApplyOptions&, OpKernelContext* ctx) : lr(ScalarInput<T>(ctx, 1)) {}
    void operator()(T* const* v, T g, int64_t i) const { v[0][i] = v[0][i] - g * lr; }
  };
};

struct ProximalGradientDescentRule {
  static constexpr int kVars = 1;
  static constexpr int kGrad = 4;
  static constexpr ArgCheck kChecks[] = {
      {ArgCheck::kScalar, 1, "alpha is not a scalar: "},
      {ArgCheck::kScalar, 2, "l1 regularization strength is not a scalar: "},
      {ArgCheck::kScalar, 3, "l2 regularization strength is not a scalar: "},
      {ArgCheck::kSameShape, 4, "var and delta do not have the same shape"},
  };
  template <typename T>
  struct Step {
    T lr, l1, lr_l1, denom;
    Step(const ApplyOptions&, OpKernelContext* ctx)
        : lr(ScalarInput<T>(ctx, 1)),
          l1(ScalarInput<T>(ctx, 2)),
          lr_l1(lr * l1),
          denom(T(1) + ScalarInput<T>(ctx, 3) * lr) {}
    void operator()(T* const* v, T g, int64_t i) const {
      const T prox = v[0][i] - g * lr;
      v[0][i] = l1 > T(0) ? Sign(prox) * Max(Abs(prox) - lr_l1, T(0)) / denom : prox / denom;
    }
  };
};

constexpr ArgCheck kMomentumChecks[] = {
    {ArgCheck::kScalar, 2, "lr is not a scalar: "},
    {ArgCheck::kSameShape, 1, "var and accum do not have the same shape"},
    {ArgCheck::kSameShape, 3, "var and grad do not have the same shape"},
    {ArgCheck::kScalar, 4, "momentum is not a scalar: "},
};

struct MomentumRule {
  static constexpr int kVars = 2;
  static constexpr int kGrad = 3;
  static constexpr const ArgCheck (&kChecks)[4] = kMomentumChecks;
  template <typename T>
  struct Step {
    T lr, momentum;
    bool nesterov;
    Step(const ApplyOptions& options, OpKernelContext* ctx)
        : lr(ScalarInput<T>(ctx, 2)),
          momentum(ScalarInput<T>(ctx, 4)),
          nesterov(options.use_nesterov) {}
    void operator()(T* const* v, T g, int64_t i) const {
      const T accum = v[1][i] * momentum + g;
      v[1][i] = accum;
      v[0][i] = nesterov ? v[0][i] - (g * lr + accum * momentum * lr) : v[0][i] - accum * lr;
    }
  };
};

struct KerasMomentumRule {
  static constexpr int kVars = 2;
  static constexpr int kGrad = 3;
  static constexpr const ArgCheck (&kChecks)[4] = kMomentumChecks;
  template <typename T>
  struct Step {
    T lr, momentum;
    bool nesterov;
    Step(const ApplyOptions& options, OpKernelContext* ctx)
        : lr(ScalarInput<T>(ctx, 2)),
          momentum(ScalarInput<T>(ctx, 4)),
          nesterov(options.use_nesterov) {}
    void operator()(T* const* v, T g, int64_t i) const {
      const T accum = v[1][i] * momentum - g * lr;
      v[1][i] = accum;
      v[0][i] = nesterov ? v[0][i] + (accum * momentum - g * lr) : v[0][i] + accum;
    }
  };
};

#define REGISTER(T)                                                \
  SLUICE_REGISTER_APPLY("GradientDescent", T, GradientDescentRule) \
  SLUICE_REGISTER_APPLY("Momentum", T, MomentumRule)               \
  SLUICE_REGISTER_RESOURCE_APPLY("KerasMomentum", T, KerasMomentumRule)
SLUICE_CALL_FLOAT_TYPES(REGISTER)
#undef REGISTER

// TensorFlow has ProximalGradientDescent for float and double only.
SLUICE_REGISTER_APPLY("ProximalGradientDescent", float, ProximalGradientDescentRule)
SLUICE_REGISTER_APPLY("ProximalGradientDescent", double, ProximalGradientDescentRule)

}  // namespace
}  // namespace sluice
