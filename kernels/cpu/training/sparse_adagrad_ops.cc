// Sparse updates of the Adagrad family and proximal gradient descent: the rows of var (and
// its slots) that indices names, in TensorFlow's order of operations. TensorFlow's kernels
// take a scalar code path when each row is one element, which evaluates some updates
// differently; the steps follow both:
//   Adagrad:          accum += grad * grad (with update_slots); var -= lr * grad *
//                     rsqrt(accum), or lr * grad / sqrt(accum) for one-element rows
//   AdagradV2:        accum += grad * grad (with update_slots);
//                     var -= lr * grad / (sqrt(accum) + epsilon)
//   ProximalAdagrad:  accum += grad * grad; rate = lr * rsqrt(accum) (lr / sqrt(accum) for
//                     one-element rows), then as the dense update with that rate
//   ProximalGradientDescent: as the dense update
//   Adadelta:         as the dense update
// For one-element rows the proximal updates divide by (1 + l2 * rate) in double, as
// TensorFlow's scalar code does (its literal 1.0 is a double), and take sign(NaN) as 1.
#include <cmath>
#include <cstdint>

#include "kernels/cpu/training/sparse_apply_op.h"
#include "kernels/cpu/training/update_math.h"

namespace sluice {
namespace {

using training::Abs;
using training::AdadeltaElementUpdate;
using training::Max;
using training::Rsqrt;
using training::Sign;
using training::Sqrt;

// TensorFlow's sgn of its scalar code paths: 0 for 0, -1 below, 1 otherwise (NaN too).
template <typename T>
T ScalarSign(T x) {
  return x == T(0) ? T(0) : (x < T(0) ? T(-1) : T(1));
}

// The proximal step of both code paths: prox = the gradient step, rate the learning rate.
template <typename T>
T Proximal(T prox, T rate, T l1, T l2, bool scalar_rows) {
  if (scalar_rows) {
    const double denom = 1.0 + static_cast<double>(l2 * rate);
    const T num = l1 > T(0) ? ScalarSign(prox) * Max(T(std::abs(prox) - rate * l1), T(0)) : prox;
    return static_cast<T>(static_cast<double>(num) / denom);
  }
  const T denom = T(1) + l2 * rate;
  return l1 > T(0) ? Sign(prox) * Max(Abs(prox) - rate * l1, T(0)) / denom : prox / denom;
}

struct SparseAdagradRule {
  static constexpr int kVars = 2;
  static constexpr int kIndices = 4;
  static constexpr bool kGatherStyleIndexError = false;
  static constexpr ArgCheck kChecks[] = {
      {ArgCheck::kSameShape, 1, "var and accum do not have the same shape"},
      {ArgCheck::kVarAtLeast1D, 0, ""},
      {ArgCheck::kScalar, 2, "lr is not a scalar: "},
      {ArgCheck::kIndicesVector, 4, ""},
      {ArgCheck::kGradRows, 3, ""},
      {ArgCheck::kInnerDimPositive, 3, ""},
  };
  template <typename T>
  struct Step {
    T lr;
    bool update_slots, scalar_rows;
    Step(const ApplyOptions& options, OpKernelContext* ctx, bool scalar)
        : lr(ScalarInput<T>(ctx, 2)), update_slots(options.update_slots), scalar_rows(scalar) {}
    void operator()(T* const* v, T g, int64_t i) const {
      if (update_slots) v[1][i] = v[1][i] + g * g;
      v[0][i] = v[0][i] - (scalar_rows ? lr * g / Sqrt(v[1][i]) : lr * g * Rsqrt(v[1][i]));
    }
  };
};

struct SparseAdagradV2Rule {
  static constexpr int kVars = 2;
  static constexpr int kIndices = 5;
  static constexpr bool kGatherStyleIndexError = false;
  static constexpr ArgCheck kChecks[] = {
      {ArgCheck::kSameShape, 1, "var and accum do not have the same shape"},
      {ArgCheck::kVarAtLeast1D, 0, ""},
      {ArgCheck::kScalar, 2, "lr is not a scalar: "},
      {ArgCheck::kScalar, 3, "epsilon is not a scalar: "},
      {ArgCheck::kIndicesVector, 5, ""},
      {ArgCheck::kGradRows, 4, ""},
      {ArgCheck::kInnerDimPositive, 4, ""},
  };
  template <typename T>
  struct Step {
    T lr, epsilon;
    bool update_slots;
    Step(const ApplyOptions& options, OpKernelContext* ctx, bool)
        : lr(ScalarInput<T>(ctx, 2)),
          epsilon(ScalarInput<T>(ctx, 3)),
          update_slots(options.update_slots) {}
    void operator()(T* const* v, T g, int64_t i) const {
      if (update_slots) v[1][i] = v[1][i] + g * g;
      v[0][i] = v[0][i] - lr * g / (Sqrt(v[1][i]) + epsilon);
    }
  };
};

struct SparseProximalAdagradRule {
  static constexpr int kVars = 2;
  static constexpr int kIndices = 6;
  static constexpr bool kGatherStyleIndexError = false;
  static constexpr ArgCheck kChecks[] = {
      {ArgCheck::kSameShape, 1, "var and accum do not have the same shape"},
      {ArgCheck::kVarAtLeast1D, 0, ""},
      {ArgCheck::kPositive, 2, "lr is not a positive scalar: "},
      {ArgCheck::kNonNegative, 3, "l1 regularization strength is not a non-negative scalar: "},
      {ArgCheck::kNonNegative, 4, "l2 regularization strength is not a non-negative scalar: "},
      {ArgCheck::kIndicesVector, 6, ""},
      {ArgCheck::kGradRows, 5, ""},
      {ArgCheck::kInnerDimPositive, 5, ""},
  };
  template <typename T>
  struct Step {
    T lr, l1, l2;
    bool scalar_rows;
    Step(const ApplyOptions&, OpKernelContext* ctx, bool scalar)
        : lr(ScalarInput<T>(ctx, 2)),
          l1(ScalarInput<T>(ctx, 3)),
          l2(ScalarInput<T>(ctx, 4)),
          scalar_rows(scalar) {}
    void operator()(T* const* v, T g, int64_t i) const {
      const T accum = v[1][i] + g * g;
      v[1][i] = accum;
      const T rate = scalar_rows ? lr / Sqrt(accum) : lr * Rsqrt(accum);
      const T prox = scalar_rows ? v[0][i] - rate * g : v[0][i] - g * rate;
      v[0][i] = Proximal(prox, rate, l1, l2, scalar_rows);
    }
  };
};

struct SparseProximalGradientDescentRule {
  static constexpr int kVars = 1;
  static constexpr int kIndices = 5;
  static constexpr bool kGatherStyleIndexError = false;
  static constexpr ArgCheck kChecks[] = {
      {ArgCheck::kVarAtLeast1D, 0, ""},
      {ArgCheck::kScalar, 1, "lr is not a scalar: "},
      {ArgCheck::kScalar, 2, "l1 regularization strength is not a scalar: "},
      {ArgCheck::kScalar, 3, "l2 regularization strength is not a scalar: "},
      {ArgCheck::kIndicesVector, 5, ""},
      {ArgCheck::kGradRows, 4, ""},
      {ArgCheck::kInnerDimPositive, 4, ""},
  };
  template <typename T>
  struct Step {
    T lr, l1, l2;
    bool scalar_rows;
    Step(const ApplyOptions&, OpKernelContext* ctx, bool scalar)
        : lr(ScalarInput<T>(ctx, 1)),
          l1(ScalarInput<T>(ctx, 2)),
          l2(ScalarInput<T>(ctx, 3)),
          scalar_rows(scalar) {}
    void operator()(T* const* v, T g, int64_t i) const {
      const T prox = scalar_rows ? v[0][i] - lr * g : v[0][i] - g * lr;
      v[0][i] = Proximal(prox, lr, l1, l2, scalar_rows);
    }
  };
};

struct SparseAdadeltaRule {
  static constexpr int kVars = 3;
  static constexpr int kIndices = 7;
  static constexpr bool kGatherStyleIndexError = false;
  static constexpr ArgCheck kChecks[] = {
      {ArgCheck::kSameShape, 1, "var and accum_grad do not have the same shape"},
      {ArgCheck::kSameShape, 2, "var and accum_update do not have the same shape"},
      {ArgCheck::kVarAtLeast1D, 0, ""},
      {ArgCheck::kScalar, 3, "lr is not a scalar: "},
      {ArgCheck::kScalar, 4, "rho is not a scalar: "},
      {ArgCheck::kScalar, 5, "epsilon is not a scalar: "},
      {ArgCheck::kIndicesVector, 7, ""},
      {ArgCheck::kGradRows, 6, ""},
  };
  template <typename T>
  struct Step {
    T lr, rho, epsilon, one_minus_rho;
    Step(const ApplyOptions&, OpKernelContext* ctx, bool)
        : lr(ScalarInput<T>(ctx, 3)),
          rho(ScalarInput<T>(ctx, 4)),
          epsilon(ScalarInput<T>(ctx, 5)),
          one_minus_rho(T(1) - rho) {}
    void operator()(T* const* v, T g, int64_t i) const {
      AdadeltaElementUpdate(v, g, i, lr, rho, epsilon, one_minus_rho);
    }
  };
};

#define REGISTER(T)                                                 \
  SLUICE_REGISTER_SPARSE_APPLY("Adagrad", T, SparseAdagradRule)     \
  SLUICE_REGISTER_SPARSE_APPLY("AdagradV2", T, SparseAdagradV2Rule) \
  SLUICE_REGISTER_SPARSE_APPLY("Adadelta", T, SparseAdadeltaRule)
SLUICE_CALL_FLOAT_TYPES(REGISTER)
#undef REGISTER

// TensorFlow has the proximal updates for float and double only.
#define REGISTER(T)                                                             \
  SLUICE_REGISTER_SPARSE_APPLY("ProximalAdagrad", T, SparseProximalAdagradRule) \
  SLUICE_REGISTER_SPARSE_APPLY("ProximalGradientDescent", T, SparseProximalGradientDescentRule)
REGISTER(float)
REGISTER(double)
#undef REGISTER

}  // namespace
}  // namespace sluice
