// The gradients of y = f(x) written in terms of y, on the CPU (c = conj(y)):
//
//   TanhGrad                      dy * (1 - y * y)
//   SigmoidGrad                   dy * y * (1 - y)
//   SqrtGrad                      dy == 0 ? 0 : 0.5 * dy / c
//   RsqrtGrad                     dy == 0 ? 0 : -0.5 * dy * c * (c * c)
//   ReciprocalGrad, InvGrad       dy == 0 ? 0 : -c * c * dy
//
// TensorFlow's functors have a vectorised form and a scalar one that associate differently
// (SigmoidGrad: dy * (y * (1 - y)) against (dy * y) * (1 - y); SqrtGrad: (0.5 / c) * dy
// against (0.5 * dy) / c; RsqrtGrad: (-0.5 * (c * c)) * (c * dy), zero where c * dy is zero,
// against (-0.5 * (dy * c)) * (c * c)), and its Eigen takes the scalar form for the tensor's
// last total % packet elements only (grad_binary_op.h). Each op here has both forms and makes
// the same split, so results are TensorFlow's bit for bit; half and bfloat16 round after each
// operation as TensorFlow's packets of them do. Complex numbers multiply in the vector form
// with the plain formula and divide with Eigen's scaled algorithm (PacketDivide below), and
// in the scalar form with std::complex's multiplication and Smith's division, as TensorFlow's
// do.
//
// The two inputs need only the same number of elements (INVALID_ARGUMENT otherwise, with
// TensorFlow's message); the output has y's shape.
#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>

#include "graph/core/types.h"
#include "kernels/cpu/gradients/grad_binary_op.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace gradients {
namespace {

// The vector form's arithmetic: the type's own for real numbers.
template <typename T>
T PacketMultiply(T a, T b) {
  return a * b;
}
template <typename T>
T PacketDivide(T a, T b) {
  return a / b;
}
template <typename T>
bool IsZero(T a) {
  return a == static_cast<T>(0);
}
template <typename T>
T Conj(T a) {
  return a;
}

// Complex: (ac - bd) + (ad + bc)i, without std::complex's recovery of infinities from NaN.
template <typename R>
std::complex<R> PacketMultiply(std::complex<R> x, std::complex<R> y) {
  return {x.real() * y.real() - x.imag() * y.imag(), x.real() * y.imag() + x.imag() * y.real()};
}

// Complex x / y as Eigen's packets divide: y scaled by the larger of |re y| and |im y| (each
// lane taking the max its own way, which matters only for NaN), x times the conjugate of the
// scaled y, divided by the scaled |y|^2 and then by the scale.
template <typename R>
std::complex<R> PacketDivide(std::complex<R> x, std::complex<R> y) {
  const R abs_re = std::fabs(y.real());
  const R abs_im = std::fabs(y.imag());
  const R scale_re = abs_im > abs_re ? abs_im : abs_re;
  const R scale_im = abs_re > abs_im ? abs_re : abs_im;
  const R y_re = y.real() / scale_re;
  const R y_im = y.imag() / scale_im;
  const R sq_re = y_re * y_re;
  const R sq_im = y_im * y_im;
  const R denom_re = sq_re + sq_im;
  const R denom_im = sq_im + sq_re;
  const std::complex<R> num = PacketMultiply(x, std::complex<R>(y_re, -y_im));
  return {num.real() / denom_re / scale_re, num.imag() / denom_im / scale_im};
}

// The scalar form's division: the type's own for real numbers.
template <typename T>
T ScalarDivide(T a, T b) {
  return a / b;
}

// Complex x / y as TensorFlow's scalar loop divides: C's complex division as implemented by
// the GCC runtime its build links (Smith's algorithm, in the type itself, then C99's recovery
// of infinities and zeros from a NaN + NaN i result). Newer GCC runtimes, which std::complex
// would call here, divide float complexes in double instead, which rounds differently.
template <typename R>
std::complex<R> ScalarDivide(std::complex<R> x, std::complex<R> y) {
  const R a = x.real();
  const R b = x.imag();
  const R c = y.real();
  const R d = y.imag();
  R re;
  R im;
  if (std::fabs(c) < std::fabs(d)) {
    const R ratio = c / d;
    const R denom = c * ratio + d;
    re = (a * ratio + b) / denom;
    im = (b * ratio - a) / denom;
  } else {
    const R ratio = d / c;
    const R denom = d * ratio + c;
    re = (b * ratio + a) / denom;
    im = (b - a * ratio) / denom;
  }
  if (std::isnan(re) && std::isnan(im)) {
    const R inf = std::numeric_limits<R>::infinity();
    const R one(1);
    const R zero(0);
    if (c == zero && d == zero && (!std::isnan(a) || !std::isnan(b))) {
      re = std::copysign(inf, c) * a;
      im = std::copysign(inf, c) * b;
    } else if ((std::isinf(a) || std::isinf(b)) && std::isfinite(c) && std::isfinite(d)) {
      const R a1 = std::copysign(std::isinf(a) ? one : zero, a);
      const R b1 = std::copysign(std::isinf(b) ? one : zero, b);
      re = inf * (a1 * c + b1 * d);
      im = inf * (b1 * c - a1 * d);
    } else if ((std::isinf(c) || std::isinf(d)) && std::isfinite(a) && std::isfinite(b)) {
      const R c1 = std::copysign(std::isinf(c) ? one : zero, c);
      const R d1 = std::copysign(std::isinf(d) ? one : zero, d);
      re = zero * (a * c1 + b * d1);
      im = zero * (b * c1 - a * d1);
    }
  }
  return {re, im};
}

template <typename R>
std::complex<R> Conj(std::complex<R> a) {
  return std::conj(a);
}

template <typename T>
struct TanhGradFunctor : PacketTailGrad<TanhGradFunctor<T>, T> {
  static constexpr int64_t kPacket = kTfPacket<T>;
  static T Vector(T y, T dy) {
    return PacketMultiply(dy, static_cast<T>(1) - PacketMultiply(y, y));
  }
  static T Scalar(T y, T dy) { return dy * (static_cast<T>(1) - y * y); }
};

template <typename T>
struct SigmoidGradFunctor : PacketTailGrad<SigmoidGradFunctor<T>, T> {
  static constexpr int64_t kPacket = kTfPacket<T>;
  static T Vector(T y, T dy) {
    return PacketMultiply(dy, PacketMultiply(y, static_cast<T>(1) - y));
  }
  static T Scalar(T y, T dy) { return dy * y * (static_cast<T>(1) - y); }
};

template <typename T>
struct SqrtGradFunctor : PacketTailGrad<SqrtGradFunctor<T>, T, 8> {
  static constexpr int64_t kPacket = kTfPacket<T>;
  static T Vector(T y, T dy) {
    if (IsZero(dy)) return static_cast<T>(0);
    return PacketMultiply(PacketDivide(static_cast<T>(0.5), Conj(y)), dy);
  }
  static T Scalar(T y, T dy) {
    if (IsZero(dy)) return static_cast<T>(0);
    return ScalarDivide(static_cast<T>(0.5) * dy, Conj(y));
  }
};

template <typename T>
struct RsqrtGradFunctor : PacketTailGrad<RsqrtGradFunctor<T>, T> {
  static constexpr int64_t kPacket = kTfPacket<T>;
  static T Vector(T y, T dy) {
    const T c = Conj(y);
    // Two multiplications that give 0 where their second operand is 0.
    const T c_dy = IsZero(dy) ? static_cast<T>(0) : PacketMultiply(c, dy);
    if (IsZero(c_dy)) return static_cast<T>(0);
    return PacketMultiply(PacketMultiply(static_cast<T>(-0.5), PacketMultiply(c, c)), c_dy);
  }
  static T Scalar(T y, T dy) {
    if (IsZero(dy)) return static_cast<T>(0);
    const T c = Conj(y);
    return static_cast<T>(-0.5) * (dy * c) * (c * c);
  }
};

template <typename T>
struct ReciprocalGradFunctor : PacketTailGrad<ReciprocalGradFunctor<T>, T> {
  static constexpr int64_t kPacket = kTfPacket<T>;
  static T Vector(T y, T dy) {
    if (IsZero(dy)) return static_cast<T>(0);
    const T c = Conj(y);
    return PacketMultiply(-PacketMultiply(c, c), dy);
  }
  static T Scalar(T y, T dy) {
    if (IsZero(dy)) return static_cast<T>(0);
    const T c = Conj(y);
    return -c * c * dy;
  }
};

#define REGISTER_GRAD(OP, FUNCTOR, T)                                         \
  REGISTER_KERNEL_BUILDER(Name(OP).Device(DEVICE_CPU).TypeConstraint<T>("T"), \
                          GradBinaryOp<FUNCTOR<T>>);
#define REGISTER_OUTPUT_GRADS(T)                            \
  REGISTER_GRAD("TanhGrad", TanhGradFunctor, T)             \
  REGISTER_GRAD("SigmoidGrad", SigmoidGradFunctor, T)       \
  REGISTER_GRAD("SqrtGrad", SqrtGradFunctor, T)             \
  REGISTER_GRAD("RsqrtGrad", RsqrtGradFunctor, T)           \
  REGISTER_GRAD("ReciprocalGrad", ReciprocalGradFunctor, T) \
  REGISTER_GRAD("InvGrad", ReciprocalGradFunctor, T)
SLUICE_CALL_FLOAT_TYPES(REGISTER_OUTPUT_GRADS)
SLUICE_CALL_COMPLEX_TYPES(REGISTER_OUTPUT_GRADS)
#undef REGISTER_OUTPUT_GRADS
#undef REGISTER_GRAD

}  // namespace
}  // namespace gradients
}  // namespace sluice
