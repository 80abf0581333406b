// UnaryOp: the one kernel template behind every elementwise op of one input, y = f(x).
//
// A functor F supplies the math and the types:
//
//   struct ExpFunctor {
//     using In = float;                      // element type of x
//     using Out = float;                     // element type of y
//     static constexpr int kCycles = 20;     // rough cost of one element, for ParallelFor
//     template <typename X, typename Y>
//     void operator()(const X& x, Y& y) const { y = x.exp(); }
//   };
//
// x and y are Eigen TensorMaps over one contiguous range of the flat buffers, so the functor
// writes an Eigen expression and Eigen vectorises it where it has packet ops (exp, tanh,
// sigmoid, erf...). A functor that reads attrs has a constructor taking the
// OpKernelConstruction and reports bad attrs on it.
//
// Contract: the output has x's shape; when In == Out it takes x's buffer if no one else holds
// it (each element is read before it is written, so in place is safe). Empty tensors produce
// empty outputs without calling the functor. Large tensors are split over the device's
// intra-op pool with ParallelFor, in ranges of whole kBlockAlign elements (as TensorFlow's
// Eigen executor aligns them), so only the tensor's last few elements take Eigen's scalar
// path whatever the split; the functor's operator() must be const and thread-safe.
#ifndef SLUICE_KERNELS_CPU_UNARY_UNARY_OP_H_
#define SLUICE_KERNELS_CPU_UNARY_UNARY_OP_H_

#include <cstdint>
#include <type_traits>

#include "graph/core/tensor.h"
#include "graph/core/tensor_types.h"
#include "kernels/cpu/parallel_for.h"
#include "runtime/framework/op_kernel.h"
#include "unsupported/Eigen/CXX11/Tensor"

namespace sluice {

// Flat, unaligned views of one range of a kernel's buffers (ranges start anywhere).
template <typename T>
using ConstVec = Eigen::TensorMap<Eigen::Tensor<const T, 1, Eigen::RowMajor, Eigen::Index>>;
template <typename T>
using Vec = Eigen::TensorMap<Eigen::Tensor<T, 1, Eigen::RowMajor, Eigen::Index>>;

// A multiple of every Eigen packet's element count on x86 (up to 16 floats).
inline constexpr int64_t kBlockAlign = 64;

template <typename Functor>
class UnaryOp : public OpKernel {
 public:
  using In = typename Functor::In;
  using Out = typename Functor::Out;

  explicit UnaryOp(OpKernelConstruction* ctx) : OpKernel(ctx), functor_(MakeFunctor(ctx)) {}

  void Compute(OpKernelContext* ctx) override {
    const Tensor& x = ctx->input(0);
    Tensor* y = nullptr;
    if constexpr (std::is_same_v<In, Out>) {
      OP_REQUIRES_OK(ctx, ctx->forward_input_or_allocate_output({0}, 0, x.shape(), &y));
    } else {
      OP_REQUIRES_OK(ctx, ctx->allocate_output(0, x.shape(), &y));
    }
    const int64_t n = x.NumElements();
    if (n == 0) return;
    const In* in = x.flat<In>().data();
    Out* out = y->flat<Out>().data();
    const Eigen::TensorOpCost cost(sizeof(In), sizeof(Out), Functor::kCycles);
    const Functor& f = functor_;
    ParallelFor(
        ctx, n, n, cost,
        [in, out, &f](int64_t first, int64_t last) {
          const ConstVec<In> src(in + first, last - first);
          Vec<Out> dst(out + first, last - first);
          f(src, dst);
        },
        kBlockAlign);
  }

 private:
  static Functor MakeFunctor(OpKernelConstruction* ctx) {
    if constexpr (std::is_constructible_v<Functor, OpKernelConstruction*>) {
      return Functor(ctx);
    } else {
      return Functor();
    }
  }

  const Functor functor_;
};

// Functor building blocks: an Eigen scalar functor (with its packet ops) applied to x, at
// the cost Eigen states for it.
template <typename T, typename EigenOp>
struct EigenUnaryFunctor {
  using In = T;
  using Out = T;
  static constexpr int kCycles = Eigen::internal::functor_traits<EigenOp>::Cost;
  template <typename X, typename Y>
  void operator()(const X& x, Y& y) const {
    y = x.unaryExpr(EigenOp());
  }
};

// A plain scalar function applied element by element, for ops Eigen has no functor for or
// where Eigen's would be undefined behaviour (integer overflow). The compiler still
// vectorises most of these loops.
template <typename InT, typename OutT, typename Fn, int Cycles>
struct ScalarUnaryFunctor {
  using In = InT;
  using Out = OutT;
  static constexpr int kCycles = Cycles;
  template <typename X, typename Y>
  void operator()(const X& x, Y& y) const {
    const InT* src = x.data();
    OutT* dst = y.data();
    const Eigen::Index n = x.size();
    for (Eigen::Index i = 0; i < n; ++i) dst[i] = Fn::Apply(src[i]);
  }
};

// Registers UnaryOp<FUNCTOR<T>> as the CPU kernel of OP for T.
#define SLUICE_REGISTER_UNARY(OP, FUNCTOR, T)                                 \
  REGISTER_KERNEL_BUILDER(Name(OP).Device(DEVICE_CPU).TypeConstraint<T>("T"), \
                          ::sluice::UnaryOp<FUNCTOR<T>>);

}  // namespace sluice

#endif  // SLUICE_KERNELS_CPU_UNARY_UNARY_OP_H_
