// MergeV2Checkpoints on the CPU: TensorFlow's merge of a sharded save's bundles into one
// (io/tensor_bundle_merge.h), then, with delete_old_dirs, a best-effort removal of each input's
// folder other than the destination's (only empty folders go, as TensorFlow's DeleteDir).
#include <unistd.h>

#include <string>
#include <vector>

#include "absl/types/span.h"
#include "graph/core/errors.h"
#include "graph/core/tensor.h"
#include "io/tensor_bundle_merge.h"
#include "io/tensor_bundle_writer.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace {

class MergeV2CheckpointsOp : public OpKernel {
 public:
  explicit MergeV2CheckpointsOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("delete_old_dirs", &delete_old_dirs_));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("allow_missing_files", &allow_missing_files_));
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& prefixes = ctx->input(0);
    const Tensor& destination = ctx->input(1);
    OP_REQUIRES(ctx, prefixes.dims() == 1,
                errors::InvalidArgument("Input checkpoint_prefixes should be an 1-D tensor, got ",
                                        prefixes.shape().DebugString(), " instead."));
    OP_REQUIRES(ctx, destination.dims() == 0,
                errors::InvalidArgument("Input destination_prefix should be a scalar tensor, got ",
                                        destination.shape().DebugString(), " instead."));
    const absl::Span<const std::string> inputs(
        prefixes.NumElements() > 0 ? prefixes.base<std::string>() : nullptr,
        static_cast<size_t>(prefixes.NumElements()));
    const std::string& merged = *destination.base<std::string>();
    OP_REQUIRES_OK(ctx, MergeBundles(inputs, merged, allow_missing_files_));
    if (delete_old_dirs_) {
      const absl::string_view merged_dir = Dirname(merged);
      for (const std::string& input : inputs) {
        const absl::string_view dir = Dirname(input);
        if (dir == merged_dir) continue;
        // Only an empty folder goes; the other inputs' folders are usually the same one.
        rmdir(std::string(dir).c_str());
      }
    }
  }

 private:
  bool delete_old_dirs_ = true;
  bool allow_missing_files_ = false;
};

REGISTER_KERNEL_BUILDER(Name("MergeV2Checkpoints").Device(DEVICE_CPU), MergeV2CheckpointsOp);

}  // namespace
}  // namespace sluice
