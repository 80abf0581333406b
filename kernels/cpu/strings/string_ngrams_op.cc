// StringNGrams on the CPU: for each row of a ragged vector of tokens (data, data_splits), the
// n-grams of every width in ngram_widths, in that order, each its tokens joined by
// `separator`. Rows are padded with up to pad_width (-1: width - 1, and never more than
// width - 1) copies of left_pad and right_pad; with preserve_short_sequences, a non-empty row
// too short for any n-gram gives one n-gram of all its tokens and pad_width pads each side.
// The splits must start at 0, not decrease and end at the data size (INVALID_ARGUMENT
// otherwise). The n-grams' splits are counted first, so the output is sized before it is
// written.
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "graph/core/errors.h"
#include "graph/core/tensor.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace {

template <typename Splits>
class StringNGramsOp : public OpKernel {
 public:
  explicit StringNGramsOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("separator", &separator_));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("ngram_widths", &widths_));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("left_pad", &left_pad_));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("right_pad", &right_pad_));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("pad_width", &pad_width_));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("preserve_short_sequences", &preserve_short_));
  }

  void Compute(OpKernelContext* ctx) override {
    for (int64_t width : widths_) {
      OP_REQUIRES(ctx, width > 0,
                  errors::InvalidArgument("ngram_widths must contain positive values"));
    }
    const Tensor& data = ctx->input(0);
    const Tensor& splits = ctx->input(1);
    const std::string* tokens = data.base<std::string>();
    const Splits* split = splits.base<Splits>();
    const int64_t size = data.NumElements();
    const int64_t num_splits = splits.NumElements();
    if (num_splits > 0) {
      OP_REQUIRES(ctx, split[0] == 0,
                  errors::InvalidArgument("First split value must be 0, got ", split[0]));
      int64_t previous = 0;
      for (int64_t i = 1; i < num_splits; ++i) {
        const int64_t s = static_cast<int64_t>(split[i]);
        OP_REQUIRES(ctx, s >= previous && s <= size,
                    errors::InvalidArgument("Invalid split value ", s, ", must be in [", previous,
                                            ", ", size, "]"));
        previous = s;
      }
      OP_REQUIRES(ctx, previous == size,
                  errors::InvalidArgument("Last split value must be data size. Expected ", size,
                                          ", got ", previous));
    }
    Tensor* out_splits = nullptr;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(1, splits.shape(), &out_splits));
    Splits* out_split = out_splits->base<Splits>();
    const int64_t rows = num_splits - 1;
    if (size == 0 || num_splits == 0) {
      Tensor* empty = nullptr;
      OP_REQUIRES_OK(ctx, ctx->allocate_output(0, data.shape(), &empty));
      for (int64_t i = 0; i < num_splits; ++i) out_split[i] = 0;
      return;
    }
    out_split[0] = 0;
    for (int64_t i = 0; i < rows; ++i) {
      const int64_t length = static_cast<int64_t>(split[i + 1] - split[i]);
      int64_t count = 0;
      for (int64_t width : widths_) count += NumNGrams(length, width);
      if (preserve_short_ && length > 0 && count == 0) count = 1;
      out_split[i + 1] = static_cast<Splits>(out_split[i] + count);
    }
    // Wide pads can make more n-grams than the splits' type counts: a negative total.
    TensorShape ngrams_shape;
    OP_REQUIRES_OK(
        ctx, TensorShape::BuildTensorShape({static_cast<int64_t>(out_split[rows])}, &ngrams_shape));
    Tensor* ngrams = nullptr;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, ngrams_shape, &ngrams));
    std::string* out = ngrams->base<std::string>();
    for (int64_t i = 0; i < rows; ++i) {
      const std::string* row = tokens + static_cast<int64_t>(split[i]);
      const int64_t length = static_cast<int64_t>(split[i + 1] - split[i]);
      int64_t k = static_cast<int64_t>(out_split[i]);
      for (int64_t width : widths_) {
        const int64_t count = NumNGrams(length, width);
        Write(row, width, PadWidth(width), count, out + k);
        k += count;
      }
      if (!preserve_short_ || k != static_cast<int64_t>(out_split[i]) || length == 0) continue;
      // No width fit: one n-gram of the whole row, padded by pad_width on each side.
      OP_REQUIRES(ctx, pad_width_ >= 0,
                  errors::InvalidArgument("Pad width should be >= 0 when "
                                          "preserve_short_sequences is True and "
                                          "ngram_widths are not provided, got ",
                                          pad_width_));
      const int64_t width = length + 2 * pad_width_;
      Write(row, width, PadWidth(width), 1, out + k);
    }
  }

 private:
  // The padding on each side for n-grams of `width`.
  int64_t PadWidth(int64_t width) const {
    return std::min<int64_t>(pad_width_ < 0 ? width - 1 : pad_width_, width - 1);
  }

  int64_t NumNGrams(int64_t length, int64_t width) const {
    return std::max<int64_t>(0, length + 2 * PadWidth(width) - width + 1);
  }

  // Writes the `count` n-grams of `width` tokens of the padded row starting at `row`.
  void Write(const std::string* row, int64_t width, int64_t pad, int64_t count,
             std::string* out) const {
    for (int64_t g = 0; g < count; ++g) {
      const int64_t left = std::max<int64_t>(0, pad - g);
      const int64_t right = std::max<int64_t>(0, pad - (count - 1 - g));
      const int64_t num_tokens = width - left - right;
      const std::string* first = row + (left > 0 ? 0 : g - pad);
      std::string& ngram = out[g];
      // Items: `left` pads, the tokens, `right` pads, separated by `separator`.
      int64_t item = 0;
      auto add = [&](const std::string& s) {
        if (item++ > 0) ngram.append(separator_);
        ngram.append(s);
      };
      for (int64_t n = 0; n < left; ++n) add(left_pad_);
      for (int64_t n = 0; n < num_tokens; ++n) add(first[n]);
      for (int64_t n = 0; n < right; ++n) add(right_pad_);
    }
  }

  std::string separator_;
  std::string left_pad_;
  std::string right_pad_;
  std::vector<int64_t> widths_;  // the attr's list
  int64_t pad_width_ = 0;
  bool preserve_short_ = false;
};

REGISTER_KERNEL_BUILDER(Name("StringNGrams").Device(DEVICE_CPU).TypeConstraint<int32_t>("Tsplits"),
                        StringNGramsOp<int32_t>);
REGISTER_KERNEL_BUILDER(Name("StringNGrams").Device(DEVICE_CPU).TypeConstraint<int64_t>("Tsplits"),
                        StringNGramsOp<int64_t>);

}  // namespace
}  // namespace sluice
