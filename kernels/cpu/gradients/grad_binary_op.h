// GradBinaryOp<F>: the kernel of the elementwise gradient ops of two inputs (the activation
// gradients ReluGrad ... SoftsignGrad, and TanhGrad ... InvGrad, which compute dx from y and
// dy). The output has input 0's shape and takes the buffer of an unshared input.
//
// A functor F supplies:
//   using T = ...;                       the element type of both inputs and the output
//   static constexpr GradInputs kInputs; how TensorFlow checks the two inputs (below)
//   static constexpr int kCycles;        rough cost of one element, for ParallelFor
//   void Apply(const T* a, const T* b, T* z, int64_t n, int64_t flat, int64_t total) const;
// Apply computes z[i] = f(a[i], b[i]) for the n elements at flat indices [flat, flat + n) of
// an output of `total` elements; z may be a or b (each element is read before it is written).
// The flat position is there for the ops whose TensorFlow kernel rounds differently in its
// vectorised loop and in the scalar loop over the tensor's last total % packet elements
// (packet_width.h). A functor that reads attrs has a constructor taking the
// OpKernelConstruction and reports bad attrs on it.
//
// The loop is split over the intra-op pool in ranges of whole kGradBlockAlign elements, so
// every range but the last starts on a packet boundary.
#ifndef SLUICE_KERNELS_CPU_GRADIENTS_GRAD_BINARY_OP_H_
#define SLUICE_KERNELS_CPU_GRADIENTS_GRAD_BINARY_OP_H_

#include <cstdint>
#include <type_traits>

#include "graph/core/errors.h"
#include "graph/core/tensor.h"
#include "kernels/cpu/gradients/packet_width.h"
#include "kernels/cpu/parallel_for.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace gradients {

// TensorFlow checks its activation gradients' inputs for equal shapes (BinaryElementWiseOp)
// but its output gradients' only for equal element counts (SimpleBinaryOp), each with its
// own message.
enum class GradInputs { kSameShape, kSameSize };

// A multiple of every packet length of TensorFlow's x86 Eigen (8 floats in AVX).
inline constexpr int64_t kGradBlockAlign = 64;

template <typename F>
class GradBinaryOp : public OpKernel {
 public:
  using T = typename F::T;

  explicit GradBinaryOp(OpKernelConstruction* ctx) : OpKernel(ctx), f_(MakeFunctor(ctx)) {}

  void Compute(OpKernelContext* ctx) override {
    const Tensor& a = ctx->input(0);
    const Tensor& b = ctx->input(1);
    if constexpr (F::kInputs == GradInputs::kSameShape) {
      OP_REQUIRES(ctx, a.shape() == b.shape(),
                  errors::InvalidArgument(
                      "Inputs to operation ", name(), " of type ", type_string(),
                      " must have the same size and shape.  Input 0: ", a.shape().DebugString(),
                      " != input 1: ", b.shape().DebugString()));
    } else {
      OP_REQUIRES(ctx, a.NumElements() == b.NumElements(),
                  errors::InvalidArgument(
                      "The two arguments to a cwise op must have same number of elements, got ",
                      a.NumElements(), " and ", b.NumElements()));
    }
    Tensor* z = nullptr;
    OP_REQUIRES_OK(ctx, ctx->forward_input_or_allocate_output({0, 1}, 0, a.shape(), &z));
    const int64_t n = a.NumElements();
    if (n == 0) return;
    const T* ap = a.flat<T>().data();
    const T* bp = b.flat<T>().data();
    T* zp = z->flat<T>().data();
    const F& f = f_;
    const Eigen::TensorOpCost cost(2.0 * sizeof(T), sizeof(T), F::kCycles);
    ParallelFor(
        ctx, n, n, cost,
        [&](int64_t first, int64_t last) {
          f.Apply(ap + first, bp + first, zp + first, last - first, first, n);
        },
        kGradBlockAlign);
  }

 private:
  static F MakeFunctor(OpKernelConstruction* ctx) {
    if constexpr (std::is_constructible_v<F, OpKernelConstruction*>) {
      return F(ctx);
    } else {
      return F();
    }
  }

  const F f_;
};

// For functors whose vectorised and scalar forms agree: z[i] = F::Scalar(a[i], b[i]).
template <typename Derived, typename Elem, GradInputs Inputs, int Cycles = 2>
struct ElementwiseGrad {
  using T = Elem;
  static constexpr GradInputs kInputs = Inputs;
  static constexpr int kCycles = Cycles;
  void Apply(const T* a, const T* b, T* z, int64_t n, int64_t /*flat*/, int64_t /*total*/) const {
    const Derived& self = static_cast<const Derived&>(*this);
    for (int64_t i = 0; i < n; ++i) z[i] = self.Scalar(a[i], b[i]);
  }
};

// For functors whose forms differ: F::Vector below VectorEnd(total, F::kPacket), F::Scalar
// from there on.
template <typename Derived, typename Elem, int Cycles = 4>
struct PacketTailGrad {
  using T = Elem;
  static constexpr GradInputs kInputs = GradInputs::kSameSize;
  static constexpr int kCycles = Cycles;
  void Apply(const T* a, const T* b, T* z, int64_t n, int64_t flat, int64_t total) const {
    const int64_t end = VectorEnd(total, Derived::kPacket);
    const int64_t split = end <= flat ? 0 : (end - flat < n ? end - flat : n);
    for (int64_t i = 0; i < split; ++i) z[i] = Derived::Vector(a[i], b[i]);
    for (int64_t i = split; i < n; ++i) z[i] = Derived::Scalar(a[i], b[i]);
  }
};

}  // namespace gradients
}  // namespace sluice

#endif  // SLUICE_KERNELS_CPU_GRADIENTS_GRAD_BINARY_OP_H_
