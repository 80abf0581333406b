// Sparse updates of momentum and RMSProp: the rows of var (and its slots) that indices names,
// in TensorFlow's order of operations (which differs from the dense kernels' here):
//   Momentum:         accum = accum * momentum + grad; var -= lr * accum, or with
//                     use_nesterov var -= lr * grad + lr * momentum * accum
//   KerasMomentum (resource only): as the dense update
//   RMSProp:          ms = ms * rho + grad * grad * (1 - rho);
//                     mom = mom * momentum + rsqrt(ms + epsilon) * lr * grad; var -= mom
//   CenteredRMSProp:  ms as RMSProp; mg = mg * rho + grad * (1 - rho);
//                     mom = mom * momentum + rsqrt(ms + epsilon - mg * mg) * lr * grad;
//                     var -= mom
#include <cstdint>

#include "kernels/cpu/training/sparse_apply_op.h"
#include "kernels/cpu/training/update_math.h"

namespace sluice {
namespace {

using training::Rsqrt;

#define SLUICE_MOMENTUM_CHECKS                                                             \
  {                                                                                        \
    {ArgCheck::kSameShape, 1, "var and accum do not have the same shape"},                 \
        {ArgCheck::kVarAtLeast1D, 0, ""}, {ArgCheck::kScalar, 2, "lr is not a scalar : "}, \
        {ArgCheck::kIndicesVector, 4, ""}, {ArgCheck::kGradRows, 3, ""},                   \
        {ArgCheck::kScalar, 5, "momentum is not a scalar: "},                              \
  }

struct SparseMomentumRule {
  static constexpr int kVars = 2;
  static constexpr int kIndices = 4;
  static constexpr bool kGatherStyleIndexError = false;
  static constexpr ArgCheck kChecks[] = SLUICE_MOMENTUM_CHECKS;
  template <typename T>
  struct Step {
    T lr, momentum, lr_momentum;
    bool nesterov;
    Step(const ApplyOptions& options, OpKernelContext* ctx, bool)
        : lr(ScalarInput<T>(ctx, 2)),
          momentum(ScalarInput<T>(ctx, 5)),
          lr_momentum(lr * momentum),
          nesterov(options.use_nesterov) {}
    void operator()(T* const* v, T g, int64_t i) const {
      const T accum = v[1][i] * momentum + g;
      v[1][i] = accum;
      v[0][i] = nesterov ? v[0][i] - (lr * g + lr_momentum * accum) : v[0][i] - lr * accum;
    }
  };
};

struct SparseKerasMomentumRule {
  static constexpr int kVars = 2;
  static constexpr int kIndices = 4;
  static constexpr bool kGatherStyleIndexError = true;
  static constexpr ArgCheck kChecks[] = SLUICE_MOMENTUM_CHECKS;
  template <typename T>
  struct Step {
    T lr, momentum;
    bool nesterov;
    Step(const ApplyOptions& options, OpKernelContext* ctx, bool)
        : lr(ScalarInput<T>(ctx, 2)),
          momentum(ScalarInput<T>(ctx, 5)),
          nesterov(options.use_nesterov) {}
    void operator()(T* const* v, T g, int64_t i) const {
      const T accum = v[1][i] * momentum - g * lr;
      v[1][i] = accum;
      v[0][i] = nesterov ? v[0][i] + (accum * momentum - g * lr) : v[0][i] + accum;
    }
  };
};

#undef SLUICE_MOMENTUM_CHECKS

struct SparseRMSPropRule {
  static constexpr int kVars = 3;
  static constexpr int kIndices = 8;
  static constexpr bool kGatherStyleIndexError = false;
  static constexpr ArgCheck kChecks[] = {
      {ArgCheck::kScalar, 3, "lr is not a scalar: "},
      {ArgCheck::kScalar, 4, "rho is not a scalar: "},
      {ArgCheck::kScalar, 5, "momentum is not a scalar: "},
      {ArgCheck::kScalar, 6, "epsilon is not a scalar: "},
      {ArgCheck::kSameShape, 1, "var and ms do not have the same shape"},
      {ArgCheck::kSameShape, 2, "var and mom do not have the same shape"},
      {ArgCheck::kVarAtLeast1D, 0, ""},
      {ArgCheck::kIndicesVector, 8, ""},
      {ArgCheck::kGradRows, 7, ""},
  };
  template <typename T>
  struct Step {
    T lr, rho, one_minus_rho, momentum, epsilon;
    Step(const ApplyOptions&, OpKernelContext* ctx, bool)
        : lr(ScalarInput<T>(ctx, 3)),
          rho(ScalarInput<T>(ctx, 4)),
          one_minus_rho(T(1) - rho),
          momentum(ScalarInput<T>(ctx, 5)),
          epsilon(ScalarInput<T>(ctx, 6)) {}
    void operator()(T* const* v, T g, int64_t i) const {
      const T ms = v[1][i] * rho + g * g * one_minus_rho;
      const T mom = v[2][i] * momentum + Rsqrt(ms + epsilon) * lr * g;
      v[1][i] = ms;
      v[2][i] = mom;
      v[0][i] = v[0][i] - mom;
    }
  };
};

struct SparseCenteredRMSPropRule {
  static constexpr int kVars = 4;  // var, mg, ms, mom
  static constexpr int kIndices = 9;
  static constexpr bool kGatherStyleIndexError = false;
  static constexpr ArgCheck kChecks[] = {
      {ArgCheck::kScalar, 4, "lr is not a scalar: "},
      {ArgCheck::kScalar, 5, "rho is not a scalar: "},
      {ArgCheck::kScalar, 6, "momentum is not a scalar: "},
      {ArgCheck::kScalar, 7, "epsilon is not a scalar: "},
      {ArgCheck::kSameShape, 1, "var and mg do not have the same shape"},
      {ArgCheck::kSameShape, 2, "var and ms do not have the same shape"},
      {ArgCheck::kSameShape, 3, "var and mom do not have the same shape"},
      {ArgCheck::kVarAtLeast1D, 0, ""},
      {ArgCheck::kIndicesVector, 9, ""},
      {ArgCheck::kGradRows, 8, ""},
  };
  template <typename T>
  struct Step {
    T lr, rho, one_minus_rho, momentum, epsilon;
    Step(const ApplyOptions&, OpKernelContext* ctx, bool)
        : lr(ScalarInput<T>(ctx, 4)),
          rho(ScalarInput<T>(ctx, 5)),
          one_minus_rho(T(1) - rho),
          momentum(ScalarInput<T>(ctx, 6)),
          epsilon(ScalarInput<T>(ctx, 7)) {}
    void operator()(T* const* v, T g, int64_t i) const {
      const T ms = v[2][i] * rho + g * g * one_minus_rho;
      const T mg = v[1][i] * rho + g * one_minus_rho;
      const T mom = v[3][i] * momentum + Rsqrt(ms + epsilon - mg * mg) * lr * g;
      v[1][i] = mg;
      v[2][i] = ms;
      v[3][i] = mom;
      v[0][i] = v[0][i] - mom;
    }
  };
};

#define REGISTER(T)                                               \
  SLUICE_REGISTER_SPARSE_APPLY("Momentum", T, SparseMomentumRule) \
  SLUICE_REGISTER_RESOURCE_SPARSE_APPLY("KerasMomentum", T, SparseKerasMomentumRule)
SLUICE_CALL_FLOAT_TYPES(REGISTER)
#undef REGISTER

// TensorFlow has the sparse RMSProps for half, float and double.
#define REGISTER(T)                                             \
  SLUICE_REGISTER_SPARSE_APPLY("RMSProp", T, SparseRMSPropRule) \
  SLUICE_REGISTER_SPARSE_APPLY("CenteredRMSProp", T, SparseCenteredRMSPropRule)
REGISTER(half)
REGISTER(float)
REGISTER(double)
#undef REGISTER

}  // namespace
}  // namespace sluice
