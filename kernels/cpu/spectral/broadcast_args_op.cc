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
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "graph/core/errors.h"
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
    for (int i = 0; i < 2; ++i) {
      const Tensor& in = ctx->input(i);
      OP_REQUIRES(
          ctx, in.dims() == 1,
          errors::InvalidArgument("In[", i, "] must be a vector.", in.shape().DebugString()));
    }
    // Read in place and written straight to the output: the vectors may be long, and a copy
    // would be memory the allocator does not see.
    const Tensor& a_t = ctx->input(0);
    const Tensor& b_t = ctx->input(1);
    const T* a = a_t.base<T>();
    const T* b = b_t.base<T>();
    const int64_t a_size = a_t.NumElements();
    const int64_t b_size = b_t.NumElements();
    const int64_t rank = std::max(a_size, b_size);
    Tensor* out = nullptr;
    // shape-safe: one dim, the larger of the two inputs' element counts
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, TensorShape({rank}), &out));
    T* values = out->base<T>();
    for (int64_t d = 0; d < rank; ++d) {
      // Right-aligned: dim d of the result is dim d - (rank - size) of each argument.
      const int64_t ia = d - (rank - a_size);
      const int64_t ib = d - (rank - b_size);
      const T x = ia >= 0 ? a[ia] : T{1};
      const T y = ib >= 0 ? b[ib] : T{1};
      OP_REQUIRES(ctx, x == y || x == 1 || y == 1,
                  errors::InvalidArgument("Incompatible shapes: [", Joined(a, a_size), "] vs. [",
                                          Joined(b, b_size), "]"));
      values[d] = x == 1 ? y : x;
    }
  }

 private:
  // The sizes joined with commas, as TensorFlow prints them; past kMaxShown only a count,
  // so that a long vector does not make a huge message.
  static std::string Joined(const T* values, int64_t size) {
    constexpr int64_t kMaxShown = 64;
    std::string text = absl::StrJoin(values, values + std::min(size, kMaxShown), ",");
    if (size > kMaxShown) absl::StrAppend(&text, ",... (", size, " sizes)");
    return text;
  }

 public:
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
