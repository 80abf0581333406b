#include "kernels/cpu/scratch.h"

#include <utility>

#include "absl/status/statusor.h"
#include "graph/core/allocator.h"
#include "graph/core/errors.h"
#include "graph/core/size_arithmetic.h"

namespace sluice {
namespace scratch_internal {

absl::Status AllocateBytes(OpKernelContext* ctx, int64_t n, size_t element_size, Tensor* buffer) {
  const int64_t bytes = MultiplyWithoutOverflow(n, static_cast<int64_t>(element_size));
  if (bytes < 0) {
    return errors::ResourceExhausted("OOM when allocating scratch of ", n, " elements of ",
                                     element_size, " bytes for node ", ctx->op_kernel().name(),
                                     " (op ", ctx->op_kernel().type_string(),
                                     "): the size overflows int64");
  }
  // Host memory on every device: the host reads and writes scratch, also for a kernel
  // registered for a GPU (its device's host allocator; on a CPU, its only allocator).
  Allocator* allocator = ctx->device()->GetHostAllocator();
  // shape-safe: bytes >= 0
  absl::StatusOr<Tensor> allocated = Tensor::Allocate(allocator, DT_UINT8, TensorShape({bytes}));
  if (!allocated.ok()) {
    return errors::ResourceExhausted(
        "OOM when allocating scratch of ", bytes, " bytes for node ", ctx->op_kernel().name(),
        " (op ", ctx->op_kernel().type_string(), ") on ", ctx->device()->name(), " by allocator ",
        allocator->Name(), ": ", allocated.status().message());
  }
  *buffer = *std::move(allocated);
  return absl::OkStatus();
}

}  // namespace scratch_internal
}  // namespace sluice
