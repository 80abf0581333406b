#include "kernels/cpu/summary/summary_output.h"

#include <string>

#include "graph/core/errors.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_shape.h"
#include "graph/core/tensor_types.h"

namespace sluice {
namespace summary {

absl::Status SetSummaryOutput(OpKernelContext* ctx, const Summary& summary) {
  Tensor* output = nullptr;
  RETURN_IF_ERROR(ctx->allocate_output(0, TensorShape({}), &output));
  if (!summary.SerializeToString(&output->scalar<std::string>()())) {
    return errors::Internal("cannot serialize a Summary of ", summary.ByteSizeLong(), " bytes");
  }
  return absl::OkStatus();
}

}  // namespace summary
}  // namespace sluice
