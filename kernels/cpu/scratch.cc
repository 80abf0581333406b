#include "kernels/cpu/scratch.h"

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
  return ctx->allocate_temp(DT_UINT8, TensorShape({bytes}), buffer);  // shape-safe: bytes >= 0
}

}  // namespace scratch_internal
}  // namespace sluice
