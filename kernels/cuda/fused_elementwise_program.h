// The evaluation of a GPU `_FusedElementwise` program at one element, as host-and-device
// code: each step applies its op's own functor (cwise_functors.h, the unfused GPU kernels'),
// computing in float and rounding to the element type where the op's own kernel stores its
// output, so that the fused node gives the unfused GPU graph's values bit for bit. The host
// build is checked against Sluice's CPU kernels (fused_elementwise_program_test.cc).
#ifndef SLUICE_KERNELS_CUDA_FUSED_ELEMENTWISE_PROGRAM_H_
#define SLUICE_KERNELS_CUDA_FUSED_ELEMENTWISE_PROGRAM_H_

#include <cstdint>

#include "kernels/cuda/cwise_functors.h"
#include "kernels/cuda/cwise_launch.h"
#include "kernels/cuda/fused_elementwise_launch.h"
#include "kernels/cuda/half_bits.h"

namespace sluice {
namespace cuda {

// op(x) in the compute type, before the store's rounding. LeakyRelu takes its default
// alpha (the fused program has no attrs for it; the fusion pass does not take LeakyRelu).
template <typename S>
SLUICE_HOST_DEVICE inline ComputeType<S> ApplyUnaryKind(UnaryKind op, ComputeType<S> x) {
  switch (op) {
    case UnaryKind::kRelu:
      return ReluFunctor<S>()(x);
    case UnaryKind::kRelu6:
      return Relu6Functor<S>()(x);
    case UnaryKind::kElu:
      return EluFunctor<S>()(x);
    case UnaryKind::kSelu:
      return SeluFunctor<S>()(x);
    case UnaryKind::kSigmoid:
      return SigmoidFunctor<S>()(x);
    case UnaryKind::kTanh:
      return TanhFunctor<S>()(x);
    case UnaryKind::kSoftplus:
      return SoftplusFunctor<S>()(x);
    case UnaryKind::kSoftsign:
      return SoftsignFunctor<S>()(x);
    case UnaryKind::kLeakyRelu:
      return LeakyReluFunctor<S>{Constant<S>(0.2f)}(x);
    case UnaryKind::kNeg:
      return NegFunctor<S>()(x);
    case UnaryKind::kAbs:
      return AbsFunctor<S>()(x);
    case UnaryKind::kSquare:
      return SquareFunctor<S>()(x);
    case UnaryKind::kFloor:
      return FloorFunctor<S>()(x);
    case UnaryKind::kCeil:
      return CeilFunctor<S>()(x);
    case UnaryKind::kSqrt:
      return SqrtFunctor<S>()(x);
    case UnaryKind::kRsqrt:
      return RsqrtFunctor<S>()(x);
    case UnaryKind::kReciprocal:
      return ReciprocalFunctor<S>()(x);
    case UnaryKind::kExp:
      return ExpFunctor<S>()(x);
    case UnaryKind::kExpm1:
      return Expm1Functor<S>()(x);
    case UnaryKind::kLog:
      return LogFunctor<S>()(x);
    case UnaryKind::kLog1p:
      return Log1pFunctor<S>()(x);
    case UnaryKind::kErf:
      return ErfFunctor<S>()(x);
    case UnaryKind::kErfc:
      return ErfcFunctor<S>()(x);
    case UnaryKind::kSin:
      return SinFunctor<S>()(x);
    case UnaryKind::kCos:
      return CosFunctor<S>()(x);
  }
  return x;
}

template <typename S>
SLUICE_HOST_DEVICE inline ComputeType<S> ApplyBinaryKind(BinaryKind op, ComputeType<S> x,
                                                         ComputeType<S> y) {
  switch (op) {
    case BinaryKind::kAdd:
      return AddFunctor<S>()(x, y);
    case BinaryKind::kSub:
      return SubFunctor<S>()(x, y);
    case BinaryKind::kMul:
      return MulFunctor<S>()(x, y);
    case BinaryKind::kRealDiv:
      return RealDivFunctor<S>()(x, y);
    case BinaryKind::kMaximum:
      return MaximumFunctor<S>()(x, y);
    case BinaryKind::kMinimum:
      return MinimumFunctor<S>()(x, y);
    case BinaryKind::kSquaredDifference:
      return SquaredDifferenceFunctor<S>()(x, y);
    case BinaryKind::kPow:
      return PowFunctor<S>()(x, y);
  }
  return x;
}

// Input `in`'s element for output element e, widened.
template <typename S>
SLUICE_HOST_DEVICE inline ComputeType<S> ReadElementwiseInput(const ElementwiseInput& in,
                                                              int64_t e) {
  const S* data = static_cast<const S*>(in.data);
  switch (in.kind) {
    case ElementwiseInput::kFull:
      return Load<S>(data[e]);
    case ElementwiseInput::kScalar:
      return Load<S>(data[0]);
    case ElementwiseInput::kRow:
      return Load<S>(data[e % in.period]);
    case ElementwiseInput::kRun:
      return Load<S>(data[e / in.period]);
  }
  return Load<S>(data[e]);
}

// The program's output element e.
template <typename S>
SLUICE_HOST_DEVICE inline S EvaluateElementwise(const ElementwiseProgram& p, int64_t e) {
  using C = ComputeType<S>;
  C slots[kMaxElementwiseSlots];
  C result = C(0);
  const auto operand = [&](int16_t ref) -> C {
    return ref >= 0 ? ReadElementwiseInput<S>(p.inputs[ref], e) : slots[-(ref + 1)];
  };
  for (int k = 0; k < p.num_steps; ++k) {
    const ElementwiseStep& step = p.steps[k];
    const C x = operand(step.operands[0]);
    const C v =
        RoundTo<S>(step.binary ? ApplyBinaryKind<S>(step.binary_kind, x, operand(step.operands[1]))
                               : ApplyUnaryKind<S>(step.unary_kind, x));
    if (step.result_slot < 0) {
      result = v;
    } else {
      slots[step.result_slot] = v;
    }
  }
  return Store<S>(result);
}

}  // namespace cuda
}  // namespace sluice

#endif  // SLUICE_KERNELS_CUDA_FUSED_ELEMENTWISE_PROGRAM_H_
