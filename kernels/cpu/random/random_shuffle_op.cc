// RandomShuffle: the input's rows (its first dimension) in a random order, TensorFlow's order
// for a seeded node. The permutation is a forward Fisher-Yates walk (row i swaps with row
// i + uniform(size - i)) drawing size - 1 uint32s, each taken modulo its range, from a stream
// that moves on by the blocks those samples need; rows are then copied by element size.
#include <cstdint>
#include <utility>

#include "graph/core/element_bytes.h"
#include "graph/core/errors.h"
#include "graph/core/tensor.h"
#include "graph/core/types.h"
#include "kernels/cpu/array/array_types.h"
#include "kernels/cpu/random/guarded_stream.h"
#include "kernels/cpu/random/philox.h"
#include "kernels/cpu/scratch.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace random {
namespace {

class RandomShuffleOp : public OpKernel {
 public:
  explicit RandomShuffleOp(OpKernelConstruction* ctx) : OpKernel(ctx), stream_(ctx) {}

  void Compute(OpKernelContext* ctx) override {
    const Tensor& input = ctx->input(0);
    // Scalars, single rows and empty tensors pass through without drawing a sample.
    if (input.NumElements() <= 1 || input.dims() == 0 || input.dim_size(0) <= 1) {
      ctx->set_output(0, input);
      return;
    }
    const int64_t rows = input.dim_size(0);
    const int64_t samples_needed = rows - 1;
    Philox4x32 stream = stream_.ReserveBlocks(static_cast<uint64_t>(samples_needed + 3) / 4);
    SingleSamples samples(&stream);

    ScratchArray<int64_t> order;
    OP_REQUIRES_OK(ctx, order.Allocate(ctx, rows));
    int64_t* perm = order.data();
    for (int64_t i = 0; i < rows; ++i) perm[i] = i;
    for (int64_t i = 0; i + 1 < rows; ++i) {
      const uint64_t range = static_cast<uint64_t>(rows - i);
      // Past 2^32 rows a draw needs 64 bits: two samples, the first as the high word (beyond
      // what any recorded case reaches).
      const uint64_t draw = range <= 0xffffffffu ? samples() % static_cast<uint32_t>(range)
                                                 : (uint64_t{samples()} << 32 | samples()) % range;
      std::swap(perm[i], perm[i + static_cast<int64_t>(draw)]);
    }

    Tensor* out = nullptr;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, input.shape(), &out));
    const int64_t row_size = input.NumElements() / rows;
    VisitByElementSize(input.dtype(), [&](auto tag) {
      using U = typename decltype(tag)::type;
      const U* from = ElementsAs<U>(input);
      U* to = MutableElementsAs<U>(out);
      for (int64_t i = 0; i < rows; ++i) {
        CopyUnits(from + perm[i] * row_size, to + i * row_size, row_size);
      }
    });
  }

 private:
  GuardedStream stream_;
};

REGISTER_KERNEL_BUILDER(Name("RandomShuffle")
                            .Device(DEVICE_CPU)
                            .TypeConstraint("T",
                                            array_internal::ArrayTypes({DT_RESOURCE, DT_VARIANT})),
                        RandomShuffleOp);

}  // namespace
}  // namespace random
}  // namespace sluice
