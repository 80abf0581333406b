// Dense updates of RMSProp and the sign optimizers, in TensorFlow's order of operations:
//   RMSProp:          ms += (grad * grad - ms) * (1 - rho);
//                     mom = mom * momentum + grad * lr / sqrt(ms + epsilon); var -= mom
//   CenteredRMSProp:  ms as RMSProp; mg += (grad - mg) * (1 - rho);
//                     mom = mom * momentum + grad * lr / sqrt(ms - mg * mg + epsilon);
//                     var -= mom
//   AddSign:          m = m * beta + grad * (1 - beta); s = sign(grad) * sign(m);
//                     var -= lr * (alpha + sign_decay * s) * grad
//   PowerSign:        m and s as AddSign; var -= lr * exp(logbase * sign_decay * s) * grad
// TensorFlow's AddSign and PowerSign check alpha's (logbase's) shape where they mean
// sign_decay's, and then read a non-scalar sign_decay as a scalar (a crash); here a
// non-scalar sign_decay is INVALID_ARGUMENT "sign_decay is not a scalar: <shape>".
#include <cstdint>

#include "kernels/cpu/training/apply_op.h"
#include "kernels/cpu/training/update_math.h"

namespace sluice {
namespace {

using training::Exp;
using training::Sign;
using training::Sqrt;

struct RMSPropRule {
  static constexpr int kVars = 3;
  static constexpr int kGrad = 7;
  static constexpr ArgCheck kChecks[] = {
      {ArgCheck::kScalar, 3, "lr is not a scalar : "},
      {ArgCheck::kScalar, 4, "rho is not a scalar: "},
      {ArgCheck::kScalar, 5, "momentum is not a scalar: "},
      {ArgCheck::kScalar, 6, "epsilon is not a scalar: "},
      {ArgCheck::kSameShape, 1, "var and ms do not have the same shape"},
      {ArgCheck::kSameShape, 2, "var and mom do not have the same shape"},
      {ArgCheck::kSameShape, 7, "var and grad do not have the same shape"},
  };
  template <typename T>
  struct Step {
    T lr, one_minus_rho, momentum, epsilon;
    Step(const ApplyOptions&, OpKernelContext* ctx)
        : lr(ScalarInput<T>(ctx, 3)),
          one_minus_rho(T(1) - ScalarInput<T>(ctx, 4)),
          momentum(ScalarInput<T>(ctx, 5)),
          epsilon(ScalarInput<T>(ctx, 6)) {}
    void operator()(T* const* v, T g, int64_t i) const {
      const T ms = v[1][i] + (g * g - v[1][i]) * one_minus_rho;
      const T mom = v[2][i] * momentum + g * lr / Sqrt(ms + epsilon);
      v[1][i] = ms;
      v[2][i] = mom;
      v[0][i] = v[0][i] - mom;
    }
  };
};

struct CenteredRMSPropRule {
  static constexpr int kVars = 4;  // var, mg, ms, mom
  static constexpr int kGrad = 8;
  static constexpr ArgCheck kChecks[] = {
      {ArgCheck::kScalar, 4, "lr is not a scalar : "},
      {ArgCheck::kScalar, 5, "rho is not a scalar: "},
      {ArgCheck::kScalar, 6, "momentum is not a scalar: "},
      {ArgCheck::kScalar, 7, "epsilon is not a scalar: "},
      {ArgCheck::kSameShape, 1, "var and mg do not have the same shape", /*shown=*/2},
      {ArgCheck::kSameShape, 2, "var and ms do not have the same shape"},
      {ArgCheck::kSameShape, 3, "var and mom do not have the same shape"},
      {ArgCheck::kSameShape, 8, "var and grad do not have the same shape"},
  };
  template <typename T>
  struct Step {
    T lr, one_minus_rho, momentum, epsilon;
    Step(const ApplyOptions&, OpKernelContext* ctx)
        : lr(ScalarInput<T>(ctx, 4)),
          one_minus_rho(T(1) - ScalarInput<T>(ctx, 5)),
          momentum(ScalarInput<T>(ctx, 6)),
          epsilon(ScalarInput<T>(ctx, 7)) {}
    void operator()(T* const* v, T g, int64_t i) const {
      const T ms = v[2][i] + (g * g - v[2][i]) * one_minus_rho;
      const T mg = v[1][i] + (g - v[1][i]) * one_minus_rho;
      const T mom = v[3][i] * momentum + g * lr / Sqrt(ms - mg * mg + epsilon);
      v[1][i] = mg;
      v[2][i] = ms;
      v[3][i] = mom;
      v[0][i] = v[0][i] - mom;
    }
  };
};

// AddSign's and PowerSign's checks; `base` names input 3 (alpha or logbase).
#define SLUICE_SIGN_CHECKS(base)                                              \
  {                                                                           \
    {ArgCheck::kScalar, 2, "lr is not a scalar: "},                           \
        {ArgCheck::kScalar, 3, base " is not a scalar: "},                    \
        {ArgCheck::kScalar, 4, "sign_decay is not a scalar: "},               \
        {ArgCheck::kScalar, 5, "beta is not a scalar: "},                     \
        {ArgCheck::kSameShape, 1, "var and m do not have the same shape"},    \
        {ArgCheck::kSameShape, 6, "var and grad do not have the same shape"}, \
  }

struct AddSignRule {
  static constexpr int kVars = 2;
  static constexpr int kGrad = 6;
  static constexpr ArgCheck kChecks[] = SLUICE_SIGN_CHECKS("alpha");
  template <typename T>
  struct Step {
    T lr, alpha, sign_decay, beta, one_minus_beta;
    Step(const ApplyOptions&, OpKernelContext* ctx)
        : lr(ScalarInput<T>(ctx, 2)),
          alpha(ScalarInput<T>(ctx, 3)),
          sign_decay(ScalarInput<T>(ctx, 4)),
          beta(ScalarInput<T>(ctx, 5)),
          one_minus_beta(T(1) - beta) {}
    void operator()(T* const* v, T g, int64_t i) const {
      const T m = v[1][i] * beta + g * one_minus_beta;
      v[1][i] = m;
      const T s = Sign(g) * Sign(m);
      v[0][i] = v[0][i] - lr * (alpha + sign_decay * s) * g;
    }
  };
};

struct PowerSignRule {
  static constexpr int kVars = 2;
  static constexpr int kGrad = 6;
  static constexpr ArgCheck kChecks[] = SLUICE_SIGN_CHECKS("logbase");
  template <typename T>
  struct Step {
    T lr, log_decay, beta, one_minus_beta;
    Step(const ApplyOptions&, OpKernelContext* ctx)
        : lr(ScalarInput<T>(ctx, 2)),
          log_decay(ScalarInput<T>(ctx, 3) * ScalarInput<T>(ctx, 4)),
          beta(ScalarInput<T>(ctx, 5)),
          one_minus_beta(T(1) - beta) {}
    void operator()(T* const* v, T g, int64_t i) const {
      const T m = v[1][i] * beta + g * one_minus_beta;
      v[1][i] = m;
      const T s = Sign(g) * Sign(m);
      v[0][i] = v[0][i] - lr * Exp(log_decay * s) * g;
    }
  };
};

#undef SLUICE_SIGN_CHECKS

#define REGISTER(T)                                                \
  SLUICE_REGISTER_APPLY("RMSProp", T, RMSPropRule)                 \
  SLUICE_REGISTER_APPLY("CenteredRMSProp", T, CenteredRMSPropRule) \
  SLUICE_REGISTER_APPLY("AddSign", T, AddSignRule)                 \
  SLUICE_REGISTER_APPLY("PowerSign", T, PowerSignRule)
SLUICE_CALL_FLOAT_TYPES(REGISTER)
#undef REGISTER

}  // namespace
}  // namespace sluice
