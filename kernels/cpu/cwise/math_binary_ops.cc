// Atan2, BitwiseAnd, BitwiseOr, BitwiseXor, LeftShift, RightShift, Mod, MulNoNan, Xlogy,
// Xdivy, Xlog1py, NextAfter, Igamma, Igammac, Zeta and Polygamma on the CPU, over BinaryOp
// (binary_op.h) with the functors of math_functors.h. Dtypes are TensorFlow's CPU registrations.
#include <cstdint>
#include <type_traits>

#include "graph/core/errors.h"
#include "graph/core/types.h"
#include "kernels/cpu/cwise/binary_op.h"
#include "kernels/cpu/cwise/broadcast.h"
#include "kernels/cpu/cwise/math_functors.h"
#include "kernels/cpu/cwise/packet_tail_binary_op.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace {

using cwise::ModFunctor;

// Mod: an integer divisor of zero anywhere in y is INVALID_ARGUMENT when the output has
// elements, as TensorFlow reports it for Mod (unlike TruncateMod's INTERNAL). Checked before
// BinaryOp runs, as the output may take y's buffer.
template <typename T>
class ModOp : public BinaryOp<ModFunctor<T>> {
 public:
  using BinaryOp<ModFunctor<T>>::BinaryOp;

  void Compute(OpKernelContext* ctx) override {
    if constexpr (std::is_integral_v<T>) {
      const Tensor& x = ctx->input(0);
      const Tensor& y = ctx->input(1);
      if (x.NumElements() > 0 && HasZero(y)) {
        BroadcastPlan plan;
        const TensorShape* shapes[] = {&x.shape(), &y.shape()};
        OP_REQUIRES(ctx, !MakeBroadcastPlan(shapes, &plan) || plan.output_shape.num_elements() == 0,
                    errors::InvalidArgument("Integer division by zero"));
      }
    }
    BinaryOp<ModFunctor<T>>::Compute(ctx);
  }

 private:
  static bool HasZero(const Tensor& y) {
    const T* p = y.flat<T>().data();
    bool zero = false;
    for (int64_t i = 0, n = y.NumElements(); i < n; ++i) zero |= p[i] == T(0);
    return zero;
  }
};

// Ops whose TensorFlow kernel gives a tensor's last total % packet elements its scalar form.
#define REGISTER_PACKET_TAIL(OP, T, VECTOR, TAIL, PACKET)                     \
  REGISTER_KERNEL_BUILDER(Name(OP).Device(DEVICE_CPU).TypeConstraint<T>("T"), \
                          PacketTailBinaryOp<cwise::VECTOR<T>, cwise::TAIL<T>, PACKET>);

SLUICE_REGISTER_BINARY("Atan2", Atan2ScalarFunctor, half)
SLUICE_REGISTER_BINARY("Atan2", Atan2ScalarFunctor, bfloat16)
REGISTER_PACKET_TAIL("Atan2", float, Atan2PacketFunctor, Atan2ScalarFunctor, 8)
REGISTER_PACKET_TAIL("Atan2", double, Atan2PacketFunctor, Atan2ScalarFunctor, 4)

// Xlogy, Xlog1py and Xdivy: packets of 8 for float, half and bfloat16, of 4 for double.
#define REGISTER_X_OPS(T, PACKET)                                         \
  REGISTER_PACKET_TAIL("Xlogy", T, XlogyFunctor, XlogyTail, PACKET)       \
  REGISTER_PACKET_TAIL("Xlog1py", T, Xlog1pyFunctor, Xlog1pyTail, PACKET) \
  REGISTER_PACKET_TAIL("Xdivy", T, XdivyFunctor, XdivyTail, PACKET)
REGISTER_X_OPS(half, 8)
REGISTER_X_OPS(bfloat16, 8)
REGISTER_X_OPS(float, 8)
REGISTER_X_OPS(double, 4)
#undef REGISTER_X_OPS
#undef REGISTER_PACKET_TAIL

#define REGISTER_BITWISE(T)                                  \
  SLUICE_REGISTER_BINARY("BitwiseAnd", BitwiseAndFunctor, T) \
  SLUICE_REGISTER_BINARY("BitwiseOr", BitwiseOrFunctor, T)   \
  SLUICE_REGISTER_BINARY("BitwiseXor", BitwiseXorFunctor, T) \
  SLUICE_REGISTER_BINARY("LeftShift", LeftShiftFunctor, T)   \
  SLUICE_REGISTER_BINARY("RightShift", RightShiftFunctor, T)
SLUICE_CALL_INTEGRAL_TYPES(REGISTER_BITWISE)
#undef REGISTER_BITWISE

#define REGISTER_MOD(T) \
  REGISTER_KERNEL_BUILDER(Name("Mod").Device(DEVICE_CPU).TypeConstraint<T>("T"), ModOp<T>);
REGISTER_MOD(int32_t)
REGISTER_MOD(int64_t)
REGISTER_MOD(float)
REGISTER_MOD(double)
#undef REGISTER_MOD

#define REGISTER_MUL_NO_NAN(T) SLUICE_REGISTER_BINARY("MulNoNan", MulNoNanFunctor, T)
SLUICE_CALL_FLOAT_TYPES(REGISTER_MUL_NO_NAN)
SLUICE_CALL_COMPLEX_TYPES(REGISTER_MUL_NO_NAN)
#undef REGISTER_MUL_NO_NAN

// Complex Xlogy, Xlog1py and Xdivy: one form for every element.
#define REGISTER_COMPLEX_X_OPS(T)                  \
  SLUICE_REGISTER_BINARY("Xlogy", XlogyFunctor, T) \
  SLUICE_REGISTER_BINARY("Xdivy", XdivyFunctor, T) \
  SLUICE_REGISTER_BINARY("Xlog1py", Xlog1pyFunctor, T)
SLUICE_CALL_COMPLEX_TYPES(REGISTER_COMPLEX_X_OPS)
#undef REGISTER_COMPLEX_X_OPS

#define REGISTER_NEXT_AFTER(T) SLUICE_REGISTER_BINARY("NextAfter", NextAfterFunctor, T)
REGISTER_NEXT_AFTER(float)
REGISTER_NEXT_AFTER(double)
#undef REGISTER_NEXT_AFTER

#define REGISTER_SPECIAL(T)                            \
  SLUICE_REGISTER_BINARY("Igamma", IgammaFunctor, T)   \
  SLUICE_REGISTER_BINARY("Igammac", IgammacFunctor, T) \
  SLUICE_REGISTER_BINARY("Zeta", ZetaFunctor, T)       \
  SLUICE_REGISTER_BINARY("Polygamma", PolygammaFunctor, T)
REGISTER_SPECIAL(float)
REGISTER_SPECIAL(double)
#undef REGISTER_SPECIAL

}  // namespace
}  // namespace sluice
