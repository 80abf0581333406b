// StringToHashBucketFast, StringToHashBucketStrong and StringToHashBucket on the CPU: each
// string's 64-bit hash (FarmHash Fingerprint64, keyed SipHash-2-4, TensorFlow's legacy
// Hash64; see string_hash.h), as unsigned, modulo num_buckets. num_buckets >= 1 is the
// OpDef's, so every bucket fits in int64. The Strong variant's key must hold two words.
#include <cstdint>
#include <string>
#include <vector>

#include "graph/core/errors.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_types.h"
#include "graph/core/types.h"
#include "kernels/cpu/parallel_for.h"
#include "kernels/cpu/strings/string_hash.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace {

// Writes hash(s) % num_buckets for every string s of input 0 to output 0.
template <typename Hash>
void HashToBuckets(OpKernelContext* ctx, int64_t num_buckets, const Hash& hash) {
  const Tensor& input = ctx->input(0);
  Tensor* output = nullptr;
  OP_REQUIRES_OK(ctx, ctx->allocate_output(0, input.shape(), &output));
  const int64_t n = input.NumElements();
  if (n == 0) return;
  const std::string* in = input.base<std::string>();
  int64_t* out = output->base<int64_t>();
  const uint64_t buckets = static_cast<uint64_t>(num_buckets);
  const Eigen::TensorOpCost cost(32, sizeof(int64_t), 100);
  ParallelFor(ctx, n, n, cost, [&](int64_t first, int64_t last) {
    for (int64_t i = first; i < last; ++i) {
      out[i] = static_cast<int64_t>(hash(in[i]) % buckets);
    }
  });
}

class StringToHashBucketFastOp : public OpKernel {
 public:
  explicit StringToHashBucketFastOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("num_buckets", &num_buckets_));
  }

  void Compute(OpKernelContext* ctx) override {
    HashToBuckets(ctx, num_buckets_, [](const std::string& s) { return Fingerprint64(s); });
  }

 private:
  int64_t num_buckets_;
};

class StringToHashBucketLegacyOp : public OpKernel {
 public:
  explicit StringToHashBucketLegacyOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("num_buckets", &num_buckets_));
  }

  void Compute(OpKernelContext* ctx) override {
    HashToBuckets(ctx, num_buckets_, [](const std::string& s) { return LegacyHash64(s); });
  }

 private:
  int64_t num_buckets_;
};

class StringToHashBucketStrongOp : public OpKernel {
 public:
  explicit StringToHashBucketStrongOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("num_buckets", &num_buckets_));
    std::vector<int64_t>
        key;  // on the heap, bounded: the key attr's list, read once at construction
    OP_REQUIRES_OK(ctx, ctx->GetAttr("key", &key));
    OP_REQUIRES(ctx, key.size() == 2, errors::InvalidArgument("Key must have 2 elements"));
    key_[0] = static_cast<uint64_t>(key[0]);
    key_[1] = static_cast<uint64_t>(key[1]);
  }

  void Compute(OpKernelContext* ctx) override {
    HashToBuckets(ctx, num_buckets_, [this](const std::string& s) { return SipHash24(key_, s); });
  }

 private:
  int64_t num_buckets_;
  uint64_t key_[2];
};

REGISTER_KERNEL_BUILDER(Name("StringToHashBucketFast").Device(DEVICE_CPU),
                        StringToHashBucketFastOp);
REGISTER_KERNEL_BUILDER(Name("StringToHashBucketStrong").Device(DEVICE_CPU),
                        StringToHashBucketStrongOp);
REGISTER_KERNEL_BUILDER(Name("StringToHashBucket").Device(DEVICE_CPU), StringToHashBucketLegacyOp);

}  // namespace
}  // namespace sluice
