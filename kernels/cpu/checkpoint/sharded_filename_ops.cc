// ShardedFilename ("basename-00003-of-00012") and ShardedFilespec ("basename-?????-of-00012")
// on the CPU, TensorFlow's printf formats; every input must be a scalar (INVALID_ARGUMENT
// "shard must be a scalar, got shape [1]"). As TensorFlow's %s of c_str(), the basename ends
// at its first NUL byte.
#include <cstdint>
#include <cstring>
#include <string>

#include "absl/strings/str_format.h"
#include "graph/core/errors.h"
#include "graph/core/tensor.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace {

absl::Status CheckScalars(OpKernelContext* ctx, std::initializer_list<const char*> names) {
  int i = 0;
  for (const char* name : names) {
    const Tensor& t = ctx->input(i++);
    if (t.dims() != 0) {
      return errors::InvalidArgument(name, " must be a scalar, got shape ",
                                     t.shape().DebugString());
    }
  }
  return absl::OkStatus();
}

std::string Basename(const Tensor& t) {
  const std::string& s = *t.base<std::string>();
  return s.substr(0, strnlen(s.data(), s.size()));
}

absl::Status SetScalarOutput(OpKernelContext* ctx, std::string value) {
  Tensor* out = nullptr;
  RETURN_IF_ERROR(ctx->allocate_output(0, TensorShape({}), &out));
  *out->base<std::string>() = std::move(value);
  return absl::OkStatus();
}

class ShardedFilenameOp : public OpKernel {
 public:
  explicit ShardedFilenameOp(OpKernelConstruction* ctx) : OpKernel(ctx) {}

  void Compute(OpKernelContext* ctx) override {
    OP_REQUIRES_OK(ctx, CheckScalars(ctx, {"basename", "shard", "num_shards"}));
    OP_REQUIRES_OK(ctx,
                   SetScalarOutput(ctx, absl::StrFormat("%s-%05d-of-%05d", Basename(ctx->input(0)),
                                                        *ctx->input(1).base<int32_t>(),
                                                        *ctx->input(2).base<int32_t>())));
  }

  bool IsExpensive() override { return false; }
};

class ShardedFilespecOp : public OpKernel {
 public:
  explicit ShardedFilespecOp(OpKernelConstruction* ctx) : OpKernel(ctx) {}

  void Compute(OpKernelContext* ctx) override {
    OP_REQUIRES_OK(ctx, CheckScalars(ctx, {"basename", "num_shards"}));
    OP_REQUIRES_OK(ctx,
                   SetScalarOutput(ctx, absl::StrFormat("%s-?????-of-%05d", Basename(ctx->input(0)),
                                                        *ctx->input(1).base<int32_t>())));
  }

  bool IsExpensive() override { return false; }
};

REGISTER_KERNEL_BUILDER(Name("ShardedFilename").Device(DEVICE_CPU), ShardedFilenameOp);
REGISTER_KERNEL_BUILDER(Name("ShardedFilespec").Device(DEVICE_CPU), ShardedFilespecOp);

}  // namespace
}  // namespace sluice
