// The CUDA elementwise kernels: unary ops (activations and math), binary ops with broadcasting, and
// BiasAdd, as grid-stride loops over the functors of cwise_functors.h. See cwise_launch.h for the
// launchers' contract.
//
// One kernel template per shape of loop, instantiated per (element type, functor): the math
// lives in the functors, so a new op costs one functor and one switch case. Binary ops have
// three loops: equal shapes and a single-element operand (flat, no index arithmetic) and the
// general broadcast, which maps each output index to both operands' offsets through a
// BroadcastIndex (32-bit division when the output has fewer than 2^31 elements).
#include <cstdint>

#include "kernels/cuda/broadcast_index.h"
#include "kernels/cuda/cwise_functors.h"
#include "kernels/cuda/cwise_launch.h"
#include "kernels/cuda/half_bits.h"
#include "kernels/cuda/launch_util.cu.h"

namespace sluice {
namespace cuda {
namespace {

template <typename S, typename F>
__global__ void UnaryKernel(const S* x, S* y, int64_t n, F f) {
  for (int64_t i = GridStart(); i < n; i += GridStride()) y[i] = Store<S>(f(Load<S>(x[i])));
}

template <typename S, template <typename> class F>
void Unary(const void* x, void* y, int64_t n, CUstream_st* stream, F<S> f = F<S>()) {
  UnaryKernel<S, F<S>><<<BlocksFor(n), kBlockThreads, 0, stream>>>(static_cast<const S*>(x),
                                                                   static_cast<S*>(y), n, f);
}

// Every unary op by kind; the switch has no default, so a new kind without a case warns.
template <typename S>
bool UnaryOf(UnaryKind op, const void* x, void* y, int64_t n, float alpha, CUstream_st* stream) {
  switch (op) {
    case UnaryKind::kLeakyRelu:
      Unary<S, LeakyReluFunctor>(x, y, n, stream, LeakyReluFunctor<S>{Constant<S>(alpha)});
      return true;
    case UnaryKind::kRelu:
      Unary<S, ReluFunctor>(x, y, n, stream);
      return true;
    case UnaryKind::kRelu6:
      Unary<S, Relu6Functor>(x, y, n, stream);
      return true;
    case UnaryKind::kElu:
      Unary<S, EluFunctor>(x, y, n, stream);
      return true;
    case UnaryKind::kSelu:
      Unary<S, SeluFunctor>(x, y, n, stream);
      return true;
    case UnaryKind::kSigmoid:
      Unary<S, SigmoidFunctor>(x, y, n, stream);
      return true;
    case UnaryKind::kTanh:
      Unary<S, TanhFunctor>(x, y, n, stream);
      return true;
    case UnaryKind::kSoftplus:
      Unary<S, SoftplusFunctor>(x, y, n, stream);
      return true;
    case UnaryKind::kSoftsign:
      Unary<S, SoftsignFunctor>(x, y, n, stream);
      return true;
    case UnaryKind::kNeg:
      Unary<S, NegFunctor>(x, y, n, stream);
      return true;
    case UnaryKind::kAbs:
      Unary<S, AbsFunctor>(x, y, n, stream);
      return true;
    case UnaryKind::kSquare:
      Unary<S, SquareFunctor>(x, y, n, stream);
      return true;
    case UnaryKind::kFloor:
      Unary<S, FloorFunctor>(x, y, n, stream);
      return true;
    case UnaryKind::kCeil:
      Unary<S, CeilFunctor>(x, y, n, stream);
      return true;
    case UnaryKind::kSqrt:
      Unary<S, SqrtFunctor>(x, y, n, stream);
      return true;
    case UnaryKind::kRsqrt:
      Unary<S, RsqrtFunctor>(x, y, n, stream);
      return true;
    case UnaryKind::kReciprocal:
      Unary<S, ReciprocalFunctor>(x, y, n, stream);
      return true;
    case UnaryKind::kExp:
      Unary<S, ExpFunctor>(x, y, n, stream);
      return true;
    case UnaryKind::kExpm1:
      Unary<S, Expm1Functor>(x, y, n, stream);
      return true;
    case UnaryKind::kLog:
      Unary<S, LogFunctor>(x, y, n, stream);
      return true;
    case UnaryKind::kLog1p:
      Unary<S, Log1pFunctor>(x, y, n, stream);
      return true;
    case UnaryKind::kErf:
      Unary<S, ErfFunctor>(x, y, n, stream);
      return true;
    case UnaryKind::kErfc:
      Unary<S, ErfcFunctor>(x, y, n, stream);
      return true;
    case UnaryKind::kSin:
      Unary<S, SinFunctor>(x, y, n, stream);
      return true;
    case UnaryKind::kCos:
      Unary<S, CosFunctor>(x, y, n, stream);
      return true;
  }
  return false;
}

// kScalar: 0 when both operands have n elements, 1 when x has one, 2 when y has one.
template <typename S, typename F, int kScalar>
__global__ void BinaryFlatKernel(const S* x, const S* y, S* z, int64_t n, F f) {
  using C = ComputeType<S>;
  const C x0 = kScalar == 1 ? Load<S>(x[0]) : C(0);
  const C y0 = kScalar == 2 ? Load<S>(y[0]) : C(0);
  for (int64_t i = GridStart(); i < n; i += GridStride()) {
    const C a = kScalar == 1 ? x0 : Load<S>(x[i]);
    const C b = kScalar == 2 ? y0 : Load<S>(y[i]);
    z[i] = Store<S>(f(a, b));
  }
}

template <typename S, typename F>
__global__ void BinaryBroadcastKernel(const S* x, const S* y, S* z, BroadcastIndex index, F f) {
  const int64_t n = index.num_elements;
  if (n <= INT32_MAX) {
    const uint32_t stride = static_cast<uint32_t>(GridStride());
    for (uint32_t i = static_cast<uint32_t>(GridStart()); i < n; i += stride) {
      uint32_t xo, yo;
      index.Offsets(i, &xo, &yo);
      z[i] = Store<S>(f(Load<S>(x[xo]), Load<S>(y[yo])));
    }
  } else {
    for (int64_t i = GridStart(); i < n; i += GridStride()) {
      int64_t xo, yo;
      index.Offsets(i, &xo, &yo);
      z[i] = Store<S>(f(Load<S>(x[xo]), Load<S>(y[yo])));
    }
  }
}

// One binary launch: flat (index == nullptr) or broadcast.
struct BinaryArgs {
  const void* x;
  const void* y;
  void* z;
  int64_t n;
  ScalarOperand scalar;
  const BroadcastIndex* index;
  CUstream_st* stream;
};

template <typename S, template <typename> class Functor>
void Binary(const BinaryArgs& a) {
  using F = Functor<S>;
  const S* x = static_cast<const S*>(a.x);
  const S* y = static_cast<const S*>(a.y);
  S* z = static_cast<S*>(a.z);
  const unsigned blocks = BlocksFor(a.n);
  if (a.index != nullptr) {
    BinaryBroadcastKernel<S, F><<<blocks, kBlockThreads, 0, a.stream>>>(x, y, z, *a.index, F());
  } else if (a.scalar == ScalarOperand::kX) {
    BinaryFlatKernel<S, F, 1><<<blocks, kBlockThreads, 0, a.stream>>>(x, y, z, a.n, F());
  } else if (a.scalar == ScalarOperand::kY) {
    BinaryFlatKernel<S, F, 2><<<blocks, kBlockThreads, 0, a.stream>>>(x, y, z, a.n, F());
  } else {
    BinaryFlatKernel<S, F, 0><<<blocks, kBlockThreads, 0, a.stream>>>(x, y, z, a.n, F());
  }
}

template <typename S>
bool BinaryOf(BinaryKind op, const BinaryArgs& args) {
  switch (op) {
    case BinaryKind::kAdd:
      Binary<S, AddFunctor>(args);
      return true;
    case BinaryKind::kSub:
      Binary<S, SubFunctor>(args);
      return true;
    case BinaryKind::kMul:
      Binary<S, MulFunctor>(args);
      return true;
    case BinaryKind::kRealDiv:
      Binary<S, RealDivFunctor>(args);
      return true;
    case BinaryKind::kMaximum:
      Binary<S, MaximumFunctor>(args);
      return true;
    case BinaryKind::kMinimum:
      Binary<S, MinimumFunctor>(args);
      return true;
    case BinaryKind::kSquaredDifference:
      Binary<S, SquaredDifferenceFunctor>(args);
      return true;
    case BinaryKind::kPow:
      Binary<S, PowFunctor>(args);
      return true;
  }
  return false;
}

template <typename S>
__global__ void BiasAddKernel(const S* value, const S* bias, S* out, int64_t n, int64_t channels,
                              int64_t inner) {
  // Eigen's half arithmetic rounds the one addition, as Store does.
  if (n <= INT32_MAX) {
    const uint32_t c32 = static_cast<uint32_t>(channels);
    const uint32_t inner32 = static_cast<uint32_t>(inner);
    const uint32_t stride = static_cast<uint32_t>(GridStride());
    for (uint32_t i = static_cast<uint32_t>(GridStart()); i < n; i += stride) {
      const uint32_t c = (inner32 == 1 ? i : i / inner32) % c32;
      out[i] = Store<S>(Load<S>(value[i]) + Load<S>(bias[c]));
    }
  } else {
    for (int64_t i = GridStart(); i < n; i += GridStride()) {
      const int64_t c = (i / inner) % channels;
      out[i] = Store<S>(Load<S>(value[i]) + Load<S>(bias[c]));
    }
  }
}

}  // namespace

bool LaunchUnary(UnaryKind op, ElementType type, const void* x, void* y, int64_t n, float alpha,
                 CUstream_st* stream) {
  bool launched = false;
  const bool known = VisitFloatType(
      type, [&](auto tag) { launched = UnaryOf<decltype(tag)>(op, x, y, n, alpha, stream); });
  return known && launched;
}

bool LaunchBinaryFlat(BinaryKind op, ElementType type, const void* x, const void* y, void* z,
                      int64_t n, ScalarOperand scalar, CUstream_st* stream) {
  const BinaryArgs args{x, y, z, n, scalar, nullptr, stream};
  bool launched = false;
  const bool known =
      VisitFloatType(type, [&](auto tag) { launched = BinaryOf<decltype(tag)>(op, args); });
  return known && launched;
}

bool LaunchBinaryBroadcast(BinaryKind op, ElementType type, const void* x, const void* y, void* z,
                           const BroadcastIndex& index, CUstream_st* stream) {
  const BinaryArgs args{x, y, z, index.num_elements, ScalarOperand::kNone, &index, stream};
  bool launched = false;
  const bool known =
      VisitFloatType(type, [&](auto tag) { launched = BinaryOf<decltype(tag)>(op, args); });
  return known && launched;
}

bool LaunchBiasAdd(ElementType type, const void* value, const void* bias, void* out, int64_t n,
                   int64_t channels, int64_t inner, CUstream_st* stream) {
  return VisitFloatType(type, [&](auto tag) {
    using S = decltype(tag);
    BiasAddKernel<S><<<BlocksFor(n), kBlockThreads, 0, stream>>>(
        static_cast<const S*>(value), static_cast<const S*>(bias), static_cast<S*>(out), n,
        channels, inner);
  });
}

}  // namespace cuda
}  // namespace sluice
