// ClipByValue on the CPU: output = min(max(t, clip_value_min), clip_value_max), computed as
// TensorFlow does, max(min(t, max), min), so NaN in t stays NaN and min > max yields min.
// Each bound is a scalar or has t's shape (TensorFlow's kernel does not broadcast further;
// its Python wrapper does that with explicit ops). The output takes t's buffer when unshared.
#include <algorithm>
#include <cstdint>
#include <type_traits>

#include "graph/core/errors.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_types.h"
#include "graph/core/types.h"
#include "kernels/cpu/parallel_for.h"
#include "runtime/framework/op_kernel.h"
#include "unsupported/Eigen/CXX11/Tensor"

namespace sluice {
namespace {

// max(min(v, hi), lo); complex values clip their real and imaginary parts separately, as
// if the bounds were the corners of a box, as TensorFlow does.
template <typename T>
T Clip(T v, T lo, T hi) {
  if constexpr (std::is_same_v<T, complex64> || std::is_same_v<T, complex128>) {
    return T(Clip(v.real(), lo.real(), hi.real()), Clip(v.imag(), lo.imag(), hi.imag()));
  } else {
    return std::max(std::min(v, hi), lo);
  }
}

template <typename T>
class ClipOp : public OpKernel {
 public:
  using OpKernel::OpKernel;

  void Compute(OpKernelContext* ctx) override {
    const Tensor& t = ctx->input(0);
    const Tensor& lo = ctx->input(1);
    const Tensor& hi = ctx->input(2);
    OP_REQUIRES(
        ctx,
        (t.shape() == lo.shape() || lo.dims() == 0) && (t.shape() == hi.shape() || hi.dims() == 0),
        errors::InvalidArgument(
            "clip_value_min and clip_value_max must be either of the same shape as "
            "input, or a scalar. input shape: ",
            t.shape().DebugString(), "clip_value_min shape: ", lo.shape().DebugString(),
            "clip_value_max shape: ", hi.shape().DebugString()));
    Tensor* out = nullptr;
    OP_REQUIRES_OK(ctx, ctx->forward_input_or_allocate_output({0}, 0, t.shape(), &out));
    const int64_t n = t.NumElements();
    if (n == 0) return;
    const T* tp = t.flat<T>().data();
    const T* lp = lo.flat<T>().data();
    const T* hp = hi.flat<T>().data();
    T* op = out->flat<T>().data();
    // A scalar bound repeats (stride 0); a full one advances with t.
    const int64_t ls = lo.dims() == 0 ? 0 : 1;
    const int64_t hs = hi.dims() == 0 ? 0 : 1;
    const Eigen::TensorOpCost cost(3 * sizeof(T), sizeof(T), 2);
    ParallelFor(ctx, n, n, cost, [=](int64_t first, int64_t last) {
      for (int64_t i = first; i < last; ++i) {
        op[i] = Clip(tp[i], lp[i * ls], hp[i * hs]);
      }
    });
  }
};

#define REGISTER_CLIP(T) \
  REGISTER_KERNEL_BUILDER(Name("ClipByValue").Device(DEVICE_CPU).TypeConstraint<T>("T"), ClipOp<T>);
SLUICE_CALL_FLOAT_TYPES(REGISTER_CLIP)
SLUICE_CALL_int8(REGISTER_CLIP) SLUICE_CALL_int16(REGISTER_CLIP) SLUICE_CALL_int32(REGISTER_CLIP)
    SLUICE_CALL_int64(REGISTER_CLIP) SLUICE_CALL_uint8(REGISTER_CLIP)
        SLUICE_CALL_uint16(REGISTER_CLIP) SLUICE_CALL_COMPLEX_TYPES(REGISTER_CLIP)
#undef REGISTER_CLIP

}  // namespace
}  // namespace sluice
