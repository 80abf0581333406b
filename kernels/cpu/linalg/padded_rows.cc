#include "kernels/cpu/linalg/padded_rows.h"

#include <algorithm>
#include <utility>

#include "graph/core/allocator.h"
#include "graph/core/errors.h"
#include "graph/core/tensor_types.h"

namespace sluice {
namespace {

constexpr int64_t kAliasingRowBytes = 4096;

}  // namespace

bool PaddedRowsCopy::Applies(const Tensor& matrix, int64_t rows, int64_t cols) {
  return matrix.dtype() == DT_FLOAT && matrix.IsReadOnly() && rows > 1 && cols > 0 &&
         matrix.NumElements() == rows * cols &&
         (cols * int64_t{sizeof(float)}) % kAliasingRowBytes == 0;
}

absl::Status PaddedRowsCopy::Get(OpKernelContext* ctx, const Tensor& matrix, int64_t rows,
                                 int64_t cols, Tensor* copy) {
  {
    absl::MutexLock lock(&mu_);
    if (source_.raw_data() == matrix.raw_data() && source_.shape() == matrix.shape()) {
      *copy = copy_;
      return absl::OkStatus();
    }
  }
  const int64_t stride = cols + kPadding;
  // Applies() bounds rows * cols by an existing matrix; the padding is checked all the same.
  TensorShape padded_shape;
  RETURN_IF_ERROR(TensorShape::BuildTensorShape({rows, stride}, &padded_shape));
  Tensor padded;
  RETURN_IF_ERROR(ctx->allocate_temp(DT_FLOAT, padded_shape, &padded));
  const float* src = matrix.flat<float>().data();
  float* dst = padded.flat<float>().data();
  for (int64_t row = 0; row < rows; ++row) {
    std::copy_n(src + row * cols, cols, dst + row * stride);
    std::fill_n(dst + row * stride + cols, kPadding, 0.0f);
  }
  padded.MarkReadOnly();
  absl::MutexLock lock(&mu_);
  source_ = matrix;
  copy_ = padded;
  *copy = std::move(padded);
  return absl::OkStatus();
}

}  // namespace sluice
