// StringSplit and StringSplitV2 on the CPU: a vector of strings split into tokens
// (string_split.h), returned as a SparseTensor with one row per string: indices
// [[row, column]...], the tokens, and dense_shape [rows, most tokens in a row]. The input
// must be a vector and the separator a scalar (INVALID_ARGUMENT otherwise). Strings are
// tokenized twice, once to count and once to copy, so nothing is held per token between.
#include <cstdint>
#include <string>

#include "absl/strings/string_view.h"
#include "graph/core/errors.h"
#include "graph/core/tensor.h"
#include "kernels/cpu/scratch.h"
#include "kernels/cpu/strings/string_split.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace {

// Validates the inputs, then fills the three outputs from split(text, separator, emit).
template <typename Split>
void SplitToSparse(OpKernelContext* ctx, const char* separator_name, const Split& split) {
  const Tensor& input = ctx->input(0);
  const Tensor& separator = ctx->input(1);
  OP_REQUIRES(
      ctx, input.dims() == 1,
      errors::InvalidArgument("input must be a vector, got shape: ", input.shape().DebugString()));
  OP_REQUIRES(ctx, separator.dims() == 0,
              errors::InvalidArgument(separator_name, " must be a scalar, got shape: ",
                                      separator.shape().DebugString()));
  const int64_t rows = input.dim_size(0);
  const std::string* in = input.base<std::string>();
  const absl::string_view sep = *separator.base<std::string>();

  ScratchArray<int64_t> counts;
  OP_REQUIRES_OK(ctx, counts.Allocate(ctx, rows));
  int64_t total = 0;
  int64_t widest = 0;
  for (int64_t i = 0; i < rows; ++i) {
    int64_t n = 0;
    split(in[i], sep, [&n](absl::string_view) { ++n; });
    counts[i] = n;
    total += n;
    if (n > widest) widest = n;
  }
  Tensor* indices = nullptr;
  Tensor* values = nullptr;
  Tensor* shape = nullptr;
  // shape-safe: at most one token per input byte plus one per string, so 2 * total fits
  OP_REQUIRES_OK(ctx, ctx->allocate_output(0, TensorShape({total, 2}), &indices));
  // shape-safe: total counts tokens, as above
  OP_REQUIRES_OK(ctx, ctx->allocate_output(1, TensorShape({total}), &values));
  OP_REQUIRES_OK(ctx, ctx->allocate_output(2, TensorShape({2}), &shape));
  shape->base<int64_t>()[0] = rows;
  shape->base<int64_t>()[1] = widest;
  int64_t* index = indices->base<int64_t>();
  std::string* value = values->base<std::string>();
  int64_t k = 0;
  for (int64_t i = 0; i < rows; ++i) {
    int64_t column = 0;
    split(in[i], sep, [&](absl::string_view token) {
      index[2 * k] = i;
      index[2 * k + 1] = column++;
      value[k++] = std::string(token);
    });
  }
}

class StringSplitOp : public OpKernel {
 public:
  explicit StringSplitOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("skip_empty", &skip_empty_));
  }

  void Compute(OpKernelContext* ctx) override {
    const bool skip_empty = skip_empty_;
    SplitToSparse(ctx, "delimiter",
                  [skip_empty](absl::string_view text, absl::string_view sep, auto&& emit) {
                    strings::SplitOnAnyByte(text, sep, skip_empty, emit);
                  });
  }

 private:
  bool skip_empty_ = true;
};

class StringSplitV2Op : public OpKernel {
 public:
  explicit StringSplitV2Op(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("maxsplit", &maxsplit_));
  }

  void Compute(OpKernelContext* ctx) override {
    const int64_t maxsplit = maxsplit_;
    SplitToSparse(ctx, "sep",
                  [maxsplit](absl::string_view text, absl::string_view sep, auto&& emit) {
                    strings::SplitLikePython(text, sep, maxsplit, emit);
                  });
  }

 private:
  int64_t maxsplit_ = -1;
};

REGISTER_KERNEL_BUILDER(Name("StringSplit").Device(DEVICE_CPU), StringSplitOp);
REGISTER_KERNEL_BUILDER(Name("StringSplitV2").Device(DEVICE_CPU), StringSplitV2Op);

}  // namespace
}  // namespace sluice
