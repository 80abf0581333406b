// Activation functions on the CPU: Relu, Relu6 (real numbers), Elu, Selu, LeakyRelu,
// Softplus and Softsign (floating-point), with TensorFlow's formulas:
//
//   Relu(x)      = max(x, 0)                  Relu6(x)    = min(max(x, 0), 6)
//   Elu(x)       = x < 0 ? exp(x) - 1 : x     Selu(x)     = x < 0 ? scale*alpha*(exp(x)-1)
//   LeakyRelu(x) = x > 0 ? x : alpha * x                               : scale * x
//   Softsign(x)  = x / (|x| + 1)
//   Softplus(x)  = x                  if x > -t     (exp(x) would overflow; log1p(e^x) == x)
//                  exp(x)             if x < t      (log(1 + e^x) == e^x to machine precision)
//                  log(exp(x) + 1)    otherwise,    t = log(epsilon of T) + 2.
// NaN propagates through each.
#include "graph/core/errors.h"
#include "graph/core/types.h"
#include "kernels/cpu/unary/unary_functors.h"
#include "kernels/cpu/unary/unary_op.h"
#include "runtime/framework/op_kernel.h"
#include "unsupported/Eigen/CXX11/Tensor"

namespace sluice {
namespace {

using unary::ActivationFunctor;
using unary::Relu6Functor;
using unary::ReluFunctor;

template <typename T>
struct EluFunctor : ActivationFunctor<T> {
  static constexpr int kCycles = 20;
  template <typename X, typename Y>
  void operator()(const X& x, Y& y) const {
    y = (x < static_cast<T>(0)).select(x.exp() - x.constant(static_cast<T>(1)), x);
  }
};

template <typename T>
struct SeluFunctor : ActivationFunctor<T> {
  static constexpr int kCycles = 20;
  template <typename X, typename Y>
  void operator()(const X& x, Y& y) const {
    const T scale = static_cast<T>(1.0507009873554804934193349852946);
    const T scale_alpha = static_cast<T>(1.7580993408473768599402175208123);
    y = (x < static_cast<T>(0))
            .select(scale_alpha * (x.exp() - x.constant(static_cast<T>(1))), scale * x);
  }
};

template <typename T>
class LeakyReluFunctor : public ActivationFunctor<T> {
 public:
  explicit LeakyReluFunctor(OpKernelConstruction* ctx) {
    float alpha = 0.2f;
    OP_REQUIRES_OK(ctx, ctx->GetAttr("alpha", &alpha));
    alpha_ = static_cast<T>(alpha);
  }
  template <typename X, typename Y>
  void operator()(const X& x, Y& y) const {
    y = (x > static_cast<T>(0)).select(x, x * alpha_);
  }

 private:
  T alpha_ = static_cast<T>(0.2f);
};

template <typename T>
struct SoftplusFunctor : ActivationFunctor<T> {
  static constexpr int kCycles = 40;
  template <typename X, typename Y>
  void operator()(const X& x, Y& y) const {
    const T threshold = Eigen::numext::log(Eigen::NumTraits<T>::epsilon()) + static_cast<T>(2);
    const auto x_exp = x.exp();
    y = (x > -threshold)
            .select(x,
                    (x < threshold).select(x_exp, (x_exp + x.constant(static_cast<T>(1))).log()));
  }
};

template <typename T>
struct SoftsignFunctor : ActivationFunctor<T> {
  template <typename X, typename Y>
  void operator()(const X& x, Y& y) const {
    y = x / (x.abs() + x.constant(static_cast<T>(1)));
  }
};

#define REGISTER_RELU(T)                        \
  SLUICE_REGISTER_UNARY("Relu", ReluFunctor, T) \
  SLUICE_REGISTER_UNARY("Relu6", Relu6Functor, T)
SLUICE_CALL_REAL_NUMBER_TYPES(REGISTER_RELU)
#undef REGISTER_RELU

#define REGISTER_FLOAT_ACTIVATIONS(T)                     \
  SLUICE_REGISTER_UNARY("Elu", EluFunctor, T)             \
  SLUICE_REGISTER_UNARY("Selu", SeluFunctor, T)           \
  SLUICE_REGISTER_UNARY("LeakyRelu", LeakyReluFunctor, T) \
  SLUICE_REGISTER_UNARY("Softplus", SoftplusFunctor, T)   \
  SLUICE_REGISTER_UNARY("Softsign", SoftsignFunctor, T)
SLUICE_CALL_FLOAT_TYPES(REGISTER_FLOAT_ACTIVATIONS)
#undef REGISTER_FLOAT_ACTIVATIONS

}  // namespace
}  // namespace sluice
