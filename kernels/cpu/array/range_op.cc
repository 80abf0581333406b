// Range: start, start + delta, ... up to (excluding) limit, for int32, int64, float, double,
// half and bfloat16. As in TensorFlow, the count and the values are computed in the element
// type (element i is start + T(i) * delta), and a count beyond int64 is INVALID_ARGUMENT
// before anything is allocated. Integer counts are computed without overflow.
//
// LinSpace: num values from start to stop for float and double. As in TensorFlow, element i
// (i < num - 1) is start + step * T(i) with step = (stop - start) / T(num - 1), and the last
// element is stop exactly.
#include <cstdint>
#include <type_traits>

#include "graph/core/errors.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_shape.h"
#include "graph/core/types.h"
#include "graph/ops/range_count.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace {

// A value as errors::InvalidArgument can print it (half and bfloat16 as float).
template <typename T>
auto Printable(T v) {
  if constexpr (std::is_integral_v<T> || std::is_same_v<T, double>) {
    return v;
  } else {
    return static_cast<float>(v);
  }
}

template <typename T>
class RangeOp : public OpKernel {
 public:
  using OpKernel::OpKernel;

  void Compute(OpKernelContext* ctx) override {
    const char* names[] = {"start", "limit", "delta"};
    T values[3];
    for (int i = 0; i < 3; ++i) {
      const Tensor& t = ctx->input(i);
      OP_REQUIRES(ctx, t.dims() == 0 || (t.dims() == 1 && t.NumElements() == 1),
                  errors::InvalidArgument(names[i], " must be a scalar, not shape ",
                                          t.shape().DebugString()));
      values[i] = t.base<T>()[0];
    }
    const T start = values[0];
    const T limit = values[1];
    const T delta = values[2];
    const T zero = T(0);
    OP_REQUIRES(ctx, delta != zero,
                errors::InvalidArgument("Requires delta != 0: ", Printable(delta)));
    if (delta > zero) {
      OP_REQUIRES(ctx, start <= limit,
                  errors::InvalidArgument("Requires start <= limit when delta > 0: ",
                                          Printable(start), "/", Printable(limit)));
    } else {
      OP_REQUIRES(ctx, start >= limit,
                  errors::InvalidArgument("Requires start >= limit when delta < 0: ",
                                          Printable(start), "/", Printable(limit)));
    }
    int64_t size = 0;
    OP_REQUIRES_OK(ctx, RangeCount(start, limit, delta, &size));
    Tensor* out = nullptr;
    // shape-safe: RangeCount gives 0 <= size <= INT64_MAX, and a single dim cannot overflow
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, TensorShape({size}), &out));
    T* data = out->base<T>();
    if constexpr (std::is_integral_v<T>) {
      // Wrapping uint64 arithmetic: each value fits T, but i * delta alone may not.
      const uint64_t s = static_cast<uint64_t>(start);
      const uint64_t d = static_cast<uint64_t>(delta);
      for (int64_t i = 0; i < size; ++i) {
        data[i] = static_cast<T>(s + static_cast<uint64_t>(i) * d);
      }
    } else {
      for (int64_t i = 0; i < size; ++i) data[i] = start + static_cast<T>(i) * delta;
    }
  }
};

#define REGISTER_RANGE(T)                                 \
  REGISTER_KERNEL_BUILDER(Name("Range")                   \
                              .Device(DEVICE_CPU)         \
                              .HostMemory("start")        \
                              .HostMemory("limit")        \
                              .HostMemory("delta")        \
                              .TypeConstraint<T>("Tidx"), \
                          RangeOp<T>);
SLUICE_CALL_int32(REGISTER_RANGE) SLUICE_CALL_int64(REGISTER_RANGE)
    SLUICE_CALL_float(REGISTER_RANGE) SLUICE_CALL_double(REGISTER_RANGE)
        SLUICE_CALL_half(REGISTER_RANGE) SLUICE_CALL_bfloat16(REGISTER_RANGE)
#undef REGISTER_RANGE

            template <typename T, typename Tnum>
            class LinSpaceOp : public OpKernel {
 public:
  using OpKernel::OpKernel;

  void Compute(OpKernelContext* ctx) override {
    const char* names[] = {"start", "stop", "num"};
    for (int i = 0; i < 3; ++i) {
      const Tensor& t = ctx->input(i);
      OP_REQUIRES(ctx, t.dims() == 0,
                  errors::InvalidArgument(names[i], " must be a scalar, not shape ",
                                          t.shape().DebugString()));
    }
    const T start = ctx->input(0).base<T>()[0];
    const T stop = ctx->input(1).base<T>()[0];
    const Tnum num = ctx->input(2).base<Tnum>()[0];
    OP_REQUIRES(ctx, num > 0, errors::InvalidArgument("Requires num > 0: ", num));
    Tensor* out = nullptr;
    // shape-safe: 0 < num <= INT64_MAX, a single dim
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, TensorShape({static_cast<int64_t>(num)}), &out));
    T* data = out->base<T>();
    if (num == 1) {
      data[0] = start;
      return;
    }
    const T step = (stop - start) / static_cast<T>(num - 1);
    for (Tnum i = 0; i < num - 1; ++i) data[i] = start + step * static_cast<T>(i);
    data[num - 1] = stop;
  }
};

#define REGISTER_LINSPACE(T, TNUM)                           \
  REGISTER_KERNEL_BUILDER(Name("LinSpace")                   \
                              .Device(DEVICE_CPU)            \
                              .HostMemory("start")           \
                              .HostMemory("stop")            \
                              .HostMemory("num")             \
                              .TypeConstraint<T>("T")        \
                              .TypeConstraint<TNUM>("Tidx"), \
                          (LinSpaceOp<T, TNUM>));
REGISTER_LINSPACE(float, int32_t)
REGISTER_LINSPACE(float, int64_t)
REGISTER_LINSPACE(double, int32_t)
REGISTER_LINSPACE(double, int64_t)
#undef REGISTER_LINSPACE

// On GPUs, int32 in host memory (TensorFlow's registration).
REGISTER_KERNEL_BUILDER(Name("Range")
                            .Device(DEVICE_GPU)
                            .HostMemory("start")
                            .HostMemory("limit")
                            .HostMemory("delta")
                            .HostMemory("output")
                            .TypeConstraint<int32_t>("Tidx"),
                        RangeOp<int32_t>);

}  // namespace
}  // namespace sluice
