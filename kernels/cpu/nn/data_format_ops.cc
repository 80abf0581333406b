// DataFormatDimMap and DataFormatVecPermute on the CPU: what TensorFlow's layout optimizer
// inserts where it converts a graph between layouts (NHWC <-> NCHW and their 5-D kin), so
// frozen graphs it has rewritten hold them.
//
// DimMap: each x names a dim of src_format, n letters long, and y is where that dim sits in
// dst_format. As TensorFlow's kernel, x is read as m = (x + n) % n with C's remainder and
// wrapping addition: so x in [-n, n) names the dim it indexes (-1 the last), larger x wrap
// around, and where m is negative (x < -n, or x near the type's maximum) the last dim is named.
// VecPermute: x is indexed by the dims of src_format (a vector of 4 or 5, or a [4 or 5, 2] matrix
// of rows) and y holds the same entries ordered by dst_format; a vector of 2 or 3 (a [2 or 3, 2]
// matrix) holds the spatial dims only, the formats' H and W (and D); each must hold them once.
// Formats are checked when the kernel is built, with TensorFlow's messages: each 4 or 5 letters
// long, dst a permutation of src.
#include <algorithm>
#include <cstdint>
#include <string>
#include <type_traits>

#include "absl/container/inlined_vector.h"
#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "graph/core/errors.h"
#include "graph/core/tensor.h"
#include "graph/core/types.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace {

// Reads and checks src_format and dst_format.
absl::Status ReadFormats(OpKernelConstruction* ctx, std::string* src, std::string* dst) {
  RETURN_IF_ERROR(ctx->GetAttr("src_format", src));
  if (src->size() != 4 && src->size() != 5) {
    return errors::InvalidArgument("Source format must be of length 4 or 5, received src_format = ",
                                   *src);
  }
  RETURN_IF_ERROR(ctx->GetAttr("dst_format", dst));
  if (dst->size() != 4 && dst->size() != 5) {
    return errors::InvalidArgument(
        "Destination format must be of length 4 or 5, received dst_format = ", *dst);
  }
  std::string sorted_src = *src;
  std::string sorted_dst = *dst;
  std::sort(sorted_src.begin(), sorted_src.end());
  std::sort(sorted_dst.begin(), sorted_dst.end());
  if (sorted_src != sorted_dst) {
    return errors::InvalidArgument(
        "Destination and source format must determine a permutation, got ", *src, " and ", *dst);
  }
  return absl::OkStatus();
}

template <typename T>
class DataFormatDimMapOp : public OpKernel {
 public:
  explicit DataFormatDimMapOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    std::string src, dst;
    OP_REQUIRES_OK(ctx, ReadFormats(ctx, &src, &dst));
    for (char letter : src) {
      dst_position_.push_back(static_cast<T>(dst.find(letter)));
    }
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& x = ctx->input(0);
    Tensor* y = nullptr;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, x.shape(), &y));
    const int64_t n = x.NumElements();
    if (n == 0) return;
    using Unsigned = std::make_unsigned_t<T>;
    const T rank = static_cast<T>(dst_position_.size());
    const T* in = x.base<T>();
    T* out = y->base<T>();
    for (int64_t i = 0; i < n; ++i) {
      const T m = static_cast<T>(static_cast<Unsigned>(in[i]) + static_cast<Unsigned>(rank)) % rank;
      out[i] = dst_position_[m >= 0 ? m : rank - 1];
    }
  }

 private:
  // Where each of src_format's 4 or 5 letters sits in dst_format (inline: no allocation).
  absl::InlinedVector<T, 5> dst_position_;
};

template <typename T>
class DataFormatVecPermuteOp : public OpKernel {
 public:
  explicit DataFormatVecPermuteOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ReadFormats(ctx, &src_, &dst_));
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& x = ctx->input(0);
    OP_REQUIRES(ctx, x.dims() == 1 || x.dims() == 2,
                errors::InvalidArgument("input must be a vector or 2D tensor, but got shape ",
                                        x.shape().DebugString()));
    const int64_t full = static_cast<int64_t>(src_.size());
    const int64_t spatial = full - 2;
    const std::string sizes = absl::StrCat(spatial, " or ", full);
    const int64_t length = x.dim_size(0);
    if (x.dims() == 1) {
      OP_REQUIRES(ctx, length == spatial || length == full,
                  errors::InvalidArgument("1D input must be of size ", sizes, ", but got shape ",
                                          x.shape().DebugString()));
    } else {
      OP_REQUIRES(ctx, length == spatial || length == full,
                  errors::InvalidArgument("First dimension of 2D input must be of size ", sizes,
                                          ", but got shape ", x.shape().DebugString()));
      OP_REQUIRES(ctx, x.dim_size(1) == 2,
                  errors::InvalidArgument("Second dimension of 2D input must be of size 2, but "
                                          "got shape ",
                                          x.shape().DebugString()));
    }
    // Spatial vectors order the formats' H and W (and D, for 5 letters), which each format
    // must hold exactly once (TFSA-2020-030: "1234" has none, so a vector of 2 is refused).
    std::string src = src_;
    std::string dst = dst_;
    if (length == spatial) {
      const auto not_spatial = [spatial](char c) {
        return c != 'H' && c != 'W' && (spatial == 2 || c != 'D');
      };
      src.erase(std::remove_if(src.begin(), src.end(), not_spatial), src.end());
      dst.erase(std::remove_if(dst.begin(), dst.end(), not_spatial), dst.end());
      // TensorFlow's message says "2D case" for both.
      OP_REQUIRES(ctx,
                  static_cast<int64_t>(src.size()) == spatial &&
                      static_cast<int64_t>(dst.size()) == spatial,
                  errors::InvalidArgument(
                      spatial == 3 ? "Format specifier must contain D, H and W for 2D case"
                                   : "Format specifier must contain H and W for 2D case"));
    }
    Tensor* y = nullptr;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, x.shape(), &y));
    const int64_t row = x.dims() == 2 ? 2 : 1;
    const T* in = x.base<T>();
    T* out = y->base<T>();
    for (int64_t i = 0; i < length; ++i) {
      // Formats with other letters than N, C and spatial ones may leave an entry unnamed:
      // it stays in place.
      size_t from = i < static_cast<int64_t>(dst.size()) ? src.find(dst[i]) : std::string::npos;
      if (from == std::string::npos || static_cast<int64_t>(from) >= length) from = i;
      for (int64_t k = 0; k < row; ++k) out[i * row + k] = in[from * row + k];
    }
  }

 private:
  std::string src_;
  std::string dst_;
};

#define REGISTER_DATA_FORMAT_OPS(T)                                                               \
  REGISTER_KERNEL_BUILDER(Name("DataFormatDimMap").Device(DEVICE_CPU).TypeConstraint<T>("T"),     \
                          DataFormatDimMapOp<T>);                                                 \
  REGISTER_KERNEL_BUILDER(Name("DataFormatVecPermute").Device(DEVICE_CPU).TypeConstraint<T>("T"), \
                          DataFormatVecPermuteOp<T>);
REGISTER_DATA_FORMAT_OPS(int32_t)
REGISTER_DATA_FORMAT_OPS(int64_t)
#undef REGISTER_DATA_FORMAT_OPS

}  // namespace
}  // namespace sluice
