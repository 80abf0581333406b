// PacketTailBinaryOp: BinaryOp (binary_op.h) for ops whose TensorFlow kernel computes a
// vector form in packets and a scalar form for the output's last total % kPacket elements,
// the two forms giving different bits (Atan2, Xlogy: TensorFlow's Eigen evaluates the whole
// output, broadcast or not, as one flat range of packets and a tail). F gives every element
// the vector form; the tail is then recomputed with Tail::Apply. The tail's operands are read
// before F runs, as the output may take an input's buffer.
#ifndef SLUICE_KERNELS_CPU_CWISE_PACKET_TAIL_BINARY_OP_H_
#define SLUICE_KERNELS_CPU_CWISE_PACKET_TAIL_BINARY_OP_H_

#include <cstdint>

#include "graph/core/tensor.h"
#include "graph/core/tensor_shape.h"
#include "kernels/cpu/cwise/binary_op.h"
#include "kernels/cpu/cwise/broadcast.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {

// The flat index in an operand of shape `in` (broadcast against `out`, aligned at the last
// dim) of the output's element `i`.
inline int64_t BroadcastSourceIndex(int64_t i, const TensorShape& out, const TensorShape& in) {
  int64_t index = 0;
  int64_t stride = 1;
  const int offset = out.dims() - in.dims();
  for (int d = out.dims() - 1; d >= 0; --d) {
    const int64_t extent = out.dim_size(d);
    const int64_t coord = i % extent;
    i /= extent;
    const int k = d - offset;
    if (k < 0) continue;
    if (in.dim_size(k) != 1) index += coord * stride;
    stride *= in.dim_size(k);
  }
  return index;
}

template <typename F, typename Tail, int64_t kPacket>
class PacketTailBinaryOp : public BinaryOp<F> {
 public:
  using In = typename F::In;
  using Out = typename F::Out;
  using BinaryOp<F>::BinaryOp;

  void Compute(OpKernelContext* ctx) override {
    const Tensor& x = ctx->input(0);
    const Tensor& y = ctx->input(1);
    BroadcastPlan plan;
    const TensorShape* shapes[] = {&x.shape(), &y.shape()};
    if (!MakeBroadcastPlan(shapes, &plan)) {
      BinaryOp<F>::Compute(ctx);  // reports the shapes
      return;
    }
    const TensorShape& out = plan.output_shape;
    const int64_t n = out.num_elements();
    const int64_t tail = n % kPacket;
    In xs[kPacket];
    In ys[kPacket];
    for (int64_t k = 0; k < tail; ++k) {
      const int64_t i = n - tail + k;
      xs[k] = x.flat<In>().data()[BroadcastSourceIndex(i, out, x.shape())];
      ys[k] = y.flat<In>().data()[BroadcastSourceIndex(i, out, y.shape())];
    }
    BinaryOp<F>::Compute(ctx);
    if (!ctx->status().ok() || tail == 0) return;
    Out* z = ctx->mutable_output(0)->template flat<Out>().data();
    for (int64_t k = 0; k < tail; ++k) z[n - tail + k] = Tail::Apply(xs[k], ys[k]);
  }
};

}  // namespace sluice

#endif  // SLUICE_KERNELS_CPU_CWISE_PACKET_TAIL_BINARY_OP_H_
