// The gradients of the activations on the CPU, with TensorFlow's formulas and operation order
// (g: the incoming gradient; f: the activation's input; a: its output):
//
//   ReluGrad       g * (f > 0)                   Relu6Grad  g * (0 < f < 6)
//   LeakyReluGrad  f > 0 ? g : g * alpha         EluGrad    a < 0 ? (a + 1) * g : g
//   SeluGrad       a < 0 ? g * (a + scale * alpha) : g * scale
//   SoftsignGrad   g / ((|f| + 1) * (|f| + 1))   SoftplusGrad  g / (exp(-f) + 1)
//
// where a condition is 1 or 0 in T, so that NaN or infinite gradients multiplied by 0 give
// NaN, as in TensorFlow. half and bfloat16 round after each operation, as TensorFlow's Eigen
// does. Only exp rounds differently in TensorFlow's vectorised loop and its scalar tail: float
// exp is numerics/exp_float.h's, which makes the same split; half and bfloat16 take that float
// exp rounded; double takes Eigen's vectorised exp below the tail (Eigen 3.4's here, which
// agrees with TensorFlow's newer one on every value its fixture tries) and std::exp in it. Both
// inputs must have the same shape (INVALID_ARGUMENT otherwise, with TensorFlow's message).
#include <cmath>
#include <cstdint>

#include "graph/core/types.h"
#include "kernels/cpu/gradients/grad_binary_op.h"
#include "numerics/exp_float.h"
#include "runtime/framework/op_kernel.h"
#include "unsupported/Eigen/CXX11/Tensor"

namespace sluice {
namespace gradients {
namespace {

constexpr GradInputs kSame = GradInputs::kSameShape;

template <typename T>
T Indicator(bool condition) {
  return condition ? static_cast<T>(1) : static_cast<T>(0);
}

template <typename T>
struct ReluGradFunctor : ElementwiseGrad<ReluGradFunctor<T>, T, kSame> {
  static T Scalar(T g, T f) { return static_cast<T>(g * Indicator<T>(f > static_cast<T>(0))); }
};

template <typename T>
struct Relu6GradFunctor : ElementwiseGrad<Relu6GradFunctor<T>, T, kSame> {
  static T Scalar(T g, T f) {
    return static_cast<T>(g * Indicator<T>(f > static_cast<T>(0) && f < static_cast<T>(6)));
  }
};

template <typename T>
class LeakyReluGradFunctor : public ElementwiseGrad<LeakyReluGradFunctor<T>, T, kSame> {
 public:
  explicit LeakyReluGradFunctor(OpKernelConstruction* ctx) {
    float alpha = 0.2f;
    OP_REQUIRES_OK(ctx, ctx->GetAttr("alpha", &alpha));
    alpha_ = static_cast<T>(alpha);
  }
  T Scalar(T g, T f) const { return f > static_cast<T>(0) ? g : g * alpha_; }

 private:
  T alpha_ = static_cast<T>(0.2f);
};

template <typename T>
struct EluGradFunctor : ElementwiseGrad<EluGradFunctor<T>, T, kSame> {
  static T Scalar(T g, T a) { return a < static_cast<T>(0) ? (a + static_cast<T>(1)) * g : g; }
};

template <typename T>
struct SeluGradFunctor : ElementwiseGrad<SeluGradFunctor<T>, T, kSame> {
  static T Scalar(T g, T a) {
    // TensorFlow's constants, rounded to T.
    const T scale = static_cast<T>(1.0507009873554804934193349852946);
    const T scale_alpha = static_cast<T>(1.7580993408473768599402175208123);
    return a < static_cast<T>(0) ? g * (a + scale_alpha) : g * scale;
  }
};

template <typename T>
struct SoftsignGradFunctor : ElementwiseGrad<SoftsignGradFunctor<T>, T, kSame, 4> {
  static T Scalar(T g, T f) {
    const T d = Eigen::numext::abs(f) + static_cast<T>(1);
    return g / (d * d);
  }
};

// exp(-f[i]) for the n elements at flat indices [flat, flat + n) of a tensor of `total`, as
// TensorFlow computes it in T, into e (which may not alias f).
void NegExp(const float* f, float* e, int64_t n, int64_t flat, int64_t total) {
  for (int64_t i = 0; i < n; ++i) e[i] = -f[i];
  numerics::ExpFloat(e, e, n, flat, total);
}

// half and bfloat16 (n <= kGradBlockAlign): TensorFlow's packets of them compute exp in float
// and round, and so does its scalar exp.
template <typename T>
void NegExp(const T* f, T* e, int64_t n, int64_t flat, int64_t total) {
  float tmp[kGradBlockAlign];
  for (int64_t i = 0; i < n; ++i) tmp[i] = -static_cast<float>(f[i]);
  numerics::ExpFloat(tmp, tmp, n, flat, total);
  for (int64_t i = 0; i < n; ++i) e[i] = static_cast<T>(tmp[i]);
}

void NegExp(const double* f, double* e, int64_t n, int64_t flat, int64_t total) {
  namespace ei = Eigen::internal;
  using Packet = ei::packet_traits<double>::type;
  constexpr int64_t kSize = ei::packet_traits<double>::size;
  const int64_t end = VectorEnd(total, kTfPacket<double>);
  const int64_t split = end <= flat ? 0 : (end - flat < n ? end - flat : n);
  // TensorFlow's packets of 4 start at multiples of 4, so its vectorised range holds whole
  // packets of Eigen's width here too.
  int64_t i = 0;
  for (; i + kSize <= split; i += kSize) {
    ei::pstoreu(e + i, ei::pexp(ei::pnegate(ei::ploadu<Packet>(f + i))));
  }
  for (; i < n; ++i) e[i] = std::exp(-f[i]);
}

// SoftplusGrad works in chunks of kGradBlockAlign elements (ranges start on multiples of it),
// each chunk's exp split between the vector and scalar forms by its flat position.
template <typename Elem>
struct SoftplusGradFunctor {
  using T = Elem;
  static constexpr GradInputs kInputs = kSame;
  static constexpr int kCycles = 20;
  void Apply(const T* g, const T* f, T* z, int64_t n, int64_t flat, int64_t total) const {
    T e[kGradBlockAlign];
    for (int64_t begin = 0; begin < n; begin += kGradBlockAlign) {
      const int64_t count = n - begin < kGradBlockAlign ? n - begin : kGradBlockAlign;
      NegExp(f + begin, e, count, flat + begin, total);
      for (int64_t i = 0; i < count; ++i) {
        z[begin + i] = g[begin + i] / (e[i] + static_cast<T>(1));
      }
    }
  }
};

#define REGISTER_GRAD(OP, FUNCTOR, T)                                         \
  REGISTER_KERNEL_BUILDER(Name(OP).Device(DEVICE_CPU).TypeConstraint<T>("T"), \
                          GradBinaryOp<FUNCTOR<T>>);

#define REGISTER_RELU_GRADS(T)                  \
  REGISTER_GRAD("ReluGrad", ReluGradFunctor, T) \
  REGISTER_GRAD("Relu6Grad", Relu6GradFunctor, T)
SLUICE_CALL_REAL_NUMBER_TYPES(REGISTER_RELU_GRADS)
#undef REGISTER_RELU_GRADS

#define REGISTER_FLOAT_GRADS(T)                           \
  REGISTER_GRAD("LeakyReluGrad", LeakyReluGradFunctor, T) \
  REGISTER_GRAD("EluGrad", EluGradFunctor, T)             \
  REGISTER_GRAD("SeluGrad", SeluGradFunctor, T)           \
  REGISTER_GRAD("SoftsignGrad", SoftsignGradFunctor, T)   \
  REGISTER_GRAD("SoftplusGrad", SoftplusGradFunctor, T)
SLUICE_CALL_FLOAT_TYPES(REGISTER_FLOAT_GRADS)
#undef REGISTER_FLOAT_GRADS
#undef REGISTER_GRAD

}  // namespace
}  // namespace gradients
}  // namespace sluice
