// The Philox stream a stateful random kernel owns: started from the node's `seed` and `seed2`
// attrs (random seeds when both are 0, as in TensorFlow), shared by concurrent runs of the
// kernel. Each run reserves the blocks it may read, and the stream moves past them, so runs
// never share samples and a seeded node repeats TensorFlow's sequence run after run.
#ifndef SLUICE_KERNELS_CPU_RANDOM_GUARDED_STREAM_H_
#define SLUICE_KERNELS_CPU_RANDOM_GUARDED_STREAM_H_

#include <cstdint>
#include <random>

#include "absl/base/thread_annotations.h"
#include "absl/synchronization/mutex.h"
#include "kernels/cpu/random/philox.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace random {

class GuardedStream {
 public:
  explicit GuardedStream(OpKernelConstruction* ctx) {
    int64_t seed = 0, seed2 = 0;
    OP_REQUIRES_OK(ctx, ctx->GetAttr("seed", &seed));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("seed2", &seed2));
    if (seed == 0 && seed2 == 0) {
      std::random_device entropy;
      seed = static_cast<int64_t>(uint64_t{entropy()} << 32 | entropy());
      seed2 = static_cast<int64_t>(uint64_t{entropy()} << 32 | entropy());
    }
    stream_ = Philox4x32::FromSeedPair(static_cast<uint64_t>(seed), static_cast<uint64_t>(seed2));
  }

  // The stream as it stands; the kernel's stream moves on by `blocks`.
  Philox4x32 ReserveBlocks(uint64_t blocks) {
    absl::MutexLock lock(&mu_);
    const Philox4x32 reserved = stream_;
    stream_.Skip(blocks);
    return reserved;
  }

  // TensorFlow's reservation for a fill of `outputs` values: 256 blocks per output.
  Philox4x32 ReserveForOutputs(int64_t outputs) {
    return ReserveBlocks(static_cast<uint64_t>(outputs) * 256);
  }

 private:
  absl::Mutex mu_;
  Philox4x32 stream_ ABSL_GUARDED_BY(mu_);
};

}  // namespace random
}  // namespace sluice

#endif  // SLUICE_KERNELS_CPU_RANDOM_GUARDED_STREAM_H_
