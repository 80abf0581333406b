// Substr on the CPU: the substring of each string from `pos` for `len` bytes (unit BYTE) or
// characters (unit UTF8_CHAR), with TensorFlow's rules:
//  - pos and len have one shape (INVALID_ARGUMENT otherwise);
//  - pos and len scalar, or of the input's shape: element by element; otherwise input and
//    pos broadcast, for outputs of rank 1 or 2 only (UNIMPLEMENTED above);
//  - BYTE: a negative pos counts from the end; pos must then lie in [0, size], else
//    INVALID_ARGUMENT naming the string; a negative len means "to the end";
//  - UTF8_CHAR: a positive pos must not pass the end; a negative pos counts characters back
//    from the end, and -pos - len characters are first dropped from the end; running out of
//    characters on the way is INVALID_ARGUMENT.
// Errors name the first failing element in row-major order.
#include <cstdint>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "graph/core/errors.h"
#include "graph/core/tensor.h"
#include "kernels/cpu/strings/utf8_positions.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace {

// -x without overflow for the most negative value (it stays negative: such a pos can never
// be within a string, and reports the out-of-range error).
int64_t NegateWrapping(int64_t x) { return static_cast<int64_t>(0 - static_cast<uint64_t>(x)); }

// The byte range [*start, *start + *length) of s for the character pos/len; false when pos is
// out of range.
bool Utf8Range(absl::string_view s, int64_t pos, int64_t len, int64_t* start, int64_t* length) {
  if (pos >= 0) {
    *start = 0;
    if (!strings::ForwardUtf8Chars(s, pos, start)) return false;
    int64_t end = *start;
    strings::ForwardUtf8Chars(s, len, &end);  // stops at the end of the string
    *length = end - *start;
    return true;
  }
  int64_t end = static_cast<int64_t>(s.size());
  int64_t skip =
      static_cast<int64_t>(static_cast<uint64_t>(NegateWrapping(pos)) - static_cast<uint64_t>(len));
  if (skip < 0) skip = 0;
  if (!strings::BackUtf8Chars(s, skip, &end)) return false;
  *start = end;
  const int64_t back = static_cast<int64_t>(static_cast<uint64_t>(NegateWrapping(pos)) -
                                            static_cast<uint64_t>(skip));
  if (!strings::BackUtf8Chars(s, back, start)) return false;
  *length = end - *start;
  return true;
}

template <typename T>
class SubstrOp : public OpKernel {
 public:
  explicit SubstrOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    std::string unit;
    OP_REQUIRES_OK(ctx, ctx->GetAttr("unit", &unit));
    OP_REQUIRES(ctx, unit == "BYTE" || unit == "UTF8_CHAR",
                errors::InvalidArgument("unknown unit: ", unit));
    utf8_ = unit == "UTF8_CHAR";
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& input = ctx->input(0);
    const Tensor& pos = ctx->input(1);
    const Tensor& len = ctx->input(2);
    OP_REQUIRES(ctx, pos.shape() == len.shape(),
                errors::InvalidArgument(
                    "pos and len should have the same shape, got: ", pos.shape().DebugString(),
                    " vs. ", len.shape().DebugString()));
    const std::string* in = input.base<std::string>();
    const T* p = pos.base<T>();
    const T* l = len.base<T>();
    const bool scalar = pos.dims() == 0;
    if (scalar || input.shape() == pos.shape()) {
      Tensor* output = nullptr;
      OP_REQUIRES_OK(ctx, ctx->allocate_output(0, input.shape(), &output));
      std::string* out = output->base<std::string>();
      for (int64_t i = 0; i < input.NumElements(); ++i) {
        const int64_t k = scalar ? 0 : i;
        OP_REQUIRES(ctx, Extract(in[i], p[k], l[k], &out[i]),
                    OutOfRange(in[i], p[k], absl::StrCat(i)));
      }
      return;
    }
    Broadcast(ctx, input, p, l, pos.shape());
  }

 private:
  // Input and pos/len broadcast against each other (numpy rules), up to rank 2.
  void Broadcast(OpKernelContext* ctx, const Tensor& input, const T* p, const T* l,
                 const TensorShape& pos_shape) {
    const TensorShape& in_shape = input.shape();
    const int rank = in_shape.dims() > pos_shape.dims() ? in_shape.dims() : pos_shape.dims();
    // Each side's dims aligned to the right, missing leading dims read as 1.
    auto dim_of = [rank](const TensorShape& s, int d) -> int64_t {
      const int k = d - (rank - s.dims());
      return k < 0 ? 1 : s.dim_size(k);
    };
    TensorShape out_shape;
    for (int d = 0; d < rank; ++d) {
      const int64_t a = dim_of(in_shape, d);
      const int64_t b = dim_of(pos_shape, d);
      OP_REQUIRES(ctx, a == b || a == 1 || b == 1,
                  errors::InvalidArgument("Incompatible shapes: ", in_shape.DebugString(), " vs. ",
                                          pos_shape.DebugString()));
      OP_REQUIRES_OK(ctx, out_shape.AddDimWithStatus(a == 1 ? b : a));
    }
    Tensor* output = nullptr;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, out_shape, &output));
    OP_REQUIRES(
        ctx, rank <= 2,
        errors::Unimplemented("Substr broadcast not implemented for ", rank, " dimensions"));
    const std::string* in = input.base<std::string>();
    std::string* out = output->base<std::string>();
    const int64_t rows = rank == 2 ? out_shape.dim_size(0) : 1;
    const int64_t cols = out_shape.dim_size(rank - 1);
    // Row-major strides of each side over the output's dims, 0 where the side broadcasts.
    const int64_t in_cols = dim_of(in_shape, rank - 1);
    const int64_t pos_cols = dim_of(pos_shape, rank - 1);
    const int64_t in_row_stride = rank == 2 && dim_of(in_shape, 0) > 1 ? in_cols : 0;
    const int64_t pos_row_stride = rank == 2 && dim_of(pos_shape, 0) > 1 ? pos_cols : 0;
    const int64_t in_col_stride = in_cols > 1 ? 1 : 0;
    const int64_t pos_col_stride = pos_cols > 1 ? 1 : 0;
    for (int64_t r = 0; r < rows; ++r) {
      for (int64_t c = 0; c < cols; ++c) {
        const int64_t a = r * in_row_stride + c * in_col_stride;
        const int64_t b = r * pos_row_stride + c * pos_col_stride;
        if (Extract(in[a], p[b], l[b], &out[r * cols + c])) continue;
        // TensorFlow names a rank-2 element (r, c) for bytes but by its row for characters.
        const std::string where = rank == 1 ? absl::StrCat(c)
                                  : utf8_   ? absl::StrCat(r)
                                            : absl::StrCat("(", r, ", ", c, ")");
        ctx->SetStatus(OutOfRange(in[a], p[b], where));
        return;
      }
    }
  }

  // The error for a pos outside string s; `where` names its element.
  absl::Status OutOfRange(const std::string& s, T pos, const std::string& where) const {
    if (utf8_) {
      return errors::InvalidArgument("pos ", pos, " out of range for string at index ", where);
    }
    return errors::InvalidArgument("pos ", pos, " out of range for string b'", s, "' at index ",
                                   where);
  }

  // Writes the substring of s to *out; false when pos is out of range.
  bool Extract(const std::string& s, T pos_value, T len_value, std::string* out) const {
    const int64_t pos = static_cast<int64_t>(pos_value);
    const int64_t len = static_cast<int64_t>(len_value);
    const int64_t size = static_cast<int64_t>(s.size());
    if (utf8_) {
      int64_t start = 0;
      int64_t length = 0;
      if (!Utf8Range(s, pos, len, &start, &length)) return false;
      *out = s.substr(static_cast<size_t>(start), static_cast<size_t>(length));
      return true;
    }
    const int64_t start = pos < 0 ? size + pos : pos;
    if (start < 0 || start > size) return false;
    // A negative len takes the rest of the string (std::string clamps the count).
    *out = s.substr(static_cast<size_t>(start),
                    len < 0 ? std::string::npos : static_cast<size_t>(len));
    return true;
  }

  bool utf8_ = false;
};

REGISTER_KERNEL_BUILDER(Name("Substr").Device(DEVICE_CPU).TypeConstraint<int32_t>("T"),
                        SubstrOp<int32_t>);
REGISTER_KERNEL_BUILDER(Name("Substr").Device(DEVICE_CPU).TypeConstraint<int64_t>("T"),
                        SubstrOp<int64_t>);

}  // namespace
}  // namespace sluice
