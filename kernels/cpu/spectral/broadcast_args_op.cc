// BroadcastArgs on the CPU: r0 = the shape that shapes s0 and s1 broadcast to. (It lives in
// this package because Keras's MelSpectrogram layer, through tf.linspace, brought it here;
// it is an array op.)
//
// As in TensorFlow's BCast: the shorter vector is padded with leading 1s; each pair of sizes
// must be equal or contain a 1, and gives the other size (so [2,1,3] and [4,1] give
// [2,4,3], and [0] and [1] give [0]). Sizes are not checked otherwise: a negative size is
// matched like any other. Errors, INVALID_ARGUMENT: "In[0] must be a vector.[]" for an
// argument that is not a vector, "Incompatible shapes: [2,3] vs. [4]".
#include <algorithm>
#include <cstdint>

#include "absl/strings/str_join.h"
#include "graph/core/errors.h"
#include "graph/core/integer_tensor.h"
#include "graph/core/tensor.h"
#include "graph/core/types.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace {

template <typename T>
class BroadcastArgsOp : public OpKernel {
 public:
  explicit BroadcastArgsOp(OpKernelConstruction* ctx) : OpKernel(ctx) {}

  void Compute(OpKernelContext* ctx) override {
    IntegerValues shapes[2];
    for (int i = 0; i < 2; ++i) {
      const Tensor& in = ctx->input(i);
      OP_REQUIRES(
          ctx, in.dims() == 1,
          errors::InvalidArgument("In[", i, "] must be a vector.", in.shape().DebugString()));
      OP_REQUIRES_OK(ctx, IntegerTensorValues(in, &shapes[i]));
    }
    const IntegerValues& a = shapes[0];
    const IntegerValues& b = shapes[1];
    const int64_t rank = std::max(a.size(), b.size());
    IntegerValues result(rank);
    for (int64_t d = 0; d < rank; ++d) {
      // Right-aligned: dim d of the result is dim d - (rank - size) of each argument.
      const int64_t ia = d - (rank - static_cast<int64_t>(a.size()));
      const int64_t ib = d - (rank - static_cast<int64_t>(b.size()));
      const int64_t x = ia >= 0 ? a[ia] : 1;
      const int64_t y = ib >= 0 ? b[ib] : 1;
      OP_REQUIRES(ctx, x == y || x == 1 || y == 1,
                  errors::InvalidArgument("Incompatible shapes: [", absl::StrJoin(a, ","),
                                          "] vs. [", absl::StrJoin(b, ","), "]"));
      result[d] = x == 1 ? y : x;
    }
    Tensor* out = nullptr;
    // shape-safe: one dim, the larger of the two inputs' element counts
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, TensorShape({rank}), &out));
    T* values = out->base<T>();
    for (int64_t d = 0; d < rank; ++d) values[d] = static_cast<T>(result[d]);
  }

  bool IsExpensive() override { return false; }
};

#define REGISTER_BROADCAST_ARGS(T)                    \
  REGISTER_KERNEL_BUILDER(Name("BroadcastArgs")       \
                              .Device(DEVICE_CPU)     \
                              .TypeConstraint<T>("T") \
                              .HostMemory("s0")       \
                              .HostMemory("s1")       \
                              .HostMemory("r0"),      \
                          BroadcastArgsOp<T>);
SLUICE_CALL_int32(REGISTER_BROADCAST_ARGS) SLUICE_CALL_int64(REGISTER_BROADCAST_ARGS)
#undef REGISTER_BROADCAST_ARGS

}  // namespace
}  // namespace sluice
