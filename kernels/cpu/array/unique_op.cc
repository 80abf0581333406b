// Unique and UniqueV2 on the CPU: the distinct slices of x along an axis, in order of first
// occurrence (y), and for each slice the index of its value in y (idx, int32 or int64).
// UniqueWithCounts and UniqueWithCountsV2 add how many slices have each value (count).
//
// Unique takes a vector. UniqueV2 takes an axis vector: [] (x must be a vector) or [a], a in
// [-rank, rank). x is viewed as [outer, len, inner]; slice k is the outer*inner elements
// (o, k, i). Equality is TensorFlow's, which differs by path:
//  - floating values compare as numbers: -0.0 equals 0.0 and NaN equals nothing (every
//    slice holding a NaN is distinct, even from itself);
//  - except that single-element slices (outer == inner == 1) of half and bfloat16 compare by
//    bits (so -0.0 and 0.0 differ) — NaN still equal to nothing — as TensorFlow's hash map of
//    those types does;
//  - integers, bools and strings compare by value; slices of no elements are all equal.
// Integers and bools are compared as unsigned units of their size, so the kernel has one
// instantiation per size rather than per dtype.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <type_traits>

#include "absl/hash/hash.h"
#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "graph/core/element_bytes.h"
#include "graph/core/errors.h"
#include "graph/core/integer_tensor.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_shape.h"
#include "graph/core/types.h"
#include "kernels/cpu/scratch.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace {

template <typename E>
constexpr bool kIsFloating = std::is_same_v<E, float> || std::is_same_v<E, double> ||
                             std::is_same_v<E, half> || std::is_same_v<E, bfloat16>;

template <typename E>
bool IsNaNValue(const E& v) {
  if constexpr (kIsFloating<E>) {
    return Eigen::numext::isnan(v);
  } else {
    return false;
  }
}

// The bits of a floating value, as an unsigned integer of its size.
template <typename E>
uint64_t FloatBits(const E& v) {
  if constexpr (sizeof(E) == 2) {
    uint16_t bits;
    std::memcpy(&bits, &v, 2);
    return bits;
  } else if constexpr (sizeof(E) == 4) {
    uint32_t bits;
    std::memcpy(&bits, &v, 4);
    return bits;
  } else {
    uint64_t bits;
    std::memcpy(&bits, &v, 8);
    return bits;
  }
}

// Element equality and hashing; `bitwise` selects the single-element rule for half and
// bfloat16 described above.
template <typename E>
struct ElementRules {
  bool bitwise = false;

  bool Equal(const E& a, const E& b) const {
    if constexpr (kIsFloating<E>) {
      if (bitwise) return !IsNaNValue(a) && FloatBits(a) == FloatBits(b);
      return a == b;
    } else {
      return a == b;
    }
  }
  size_t Hash(const E& v) const {
    if constexpr (std::is_same_v<E, std::string>) {
      return absl::Hash<absl::string_view>()(v);
    } else if constexpr (kIsFloating<E>) {
      // -0.0 hashes as 0.0 unless compared by bits; NaN hashes anyhow (it equals nothing).
      return absl::Hash<uint64_t>()(!bitwise && v == E(0) ? 0 : FloatBits(v));
    } else {
      return absl::Hash<uint64_t>()(static_cast<uint64_t>(v));
    }
  }
};

// The slices of `x` viewed as [outer, len, inner].
template <typename E>
struct Slices {
  const E* x;
  int64_t outer;
  int64_t len;
  int64_t inner;
  ElementRules<E> rules;

  const E& At(int64_t o, int64_t k, int64_t i) const { return x[(o * len + k) * inner + i]; }
};

// The slices seen so far, for NumberSlices: an open-addressing table (linear probing) of
// 2^bits slots, each the index of the first slice of its value or -1, in memory from the
// allocator. At most half full, so a probe always ends.
struct SeenTable {
  int64_t* slots;
  int bits;
};

// Writes idx[0, s.len) (first-occurrence numbering) and firsts[0, count), per distinct slice
// its first index; returns count. The numbering depends only on which slices are equal, not
// on how the table finds them.
template <typename E>
int64_t NumberSlices(const Slices<E>& s, const SeenTable& seen, int64_t* idx, int64_t* firsts) {
  const auto hash = [&s](int64_t k) {
    size_t h = 0;
    for (int64_t o = 0; o < s.outer; ++o) {
      for (int64_t i = 0; i < s.inner; ++i) {
        h = absl::Hash<std::pair<size_t, size_t>>()({h, s.rules.Hash(s.At(o, k, i))});
      }
    }
    return h;
  };
  // Only ever of an earlier slice and a later one, so a NaN slice need not equal itself.
  const auto equal = [&s](int64_t a, int64_t b) {
    for (int64_t o = 0; o < s.outer; ++o) {
      for (int64_t i = 0; i < s.inner; ++i) {
        if (!s.rules.Equal(s.At(o, a, i), s.At(o, b, i))) return false;
      }
    }
    return true;
  };
  const uint64_t mask = (uint64_t{1} << seen.bits) - 1;
  const int shift = 64 - seen.bits;
  std::fill_n(seen.slots, int64_t{1} << seen.bits, int64_t{-1});
  int64_t count = 0;
  for (int64_t k = 0; k < s.len; ++k) {
    // Fibonacci hashing: the top bits of the product mix every bit of the hash.
    uint64_t slot = (static_cast<uint64_t>(hash(k)) * 0x9E3779B97F4A7C15ull) >> shift;
    while (true) {
      const int64_t first = seen.slots[slot];
      if (first < 0) {
        seen.slots[slot] = k;
        firsts[count] = k;
        idx[k] = count++;
        break;
      }
      if (equal(first, k)) {
        idx[k] = idx[first];
        break;
      }
      slot = (slot + 1) & mask;
    }
  }
  return count;
}

// Copies the slices firsts[0, count) of `input` (viewed as [outer, len, inner]) into
// `output` ([outer, count, inner]), moving elements by size.
void GatherSlices(const Tensor& input, int64_t outer, int64_t len, int64_t inner,
                  const int64_t* firsts, int64_t count, Tensor* output) {
  VisitByElementSize(input.dtype(), [&](auto tag) {
    using U = typename decltype(tag)::type;
    const U* in = ElementsAs<U>(input);
    U* out = MutableElementsAs<U>(output);
    for (int64_t o = 0; o < outer; ++o) {
      for (int64_t n = 0; n < count; ++n) {
        const U* src = in + (o * len + firsts[n]) * inner;
        U* dst = out + (o * count + n) * inner;
        for (int64_t i = 0; i < inner; ++i) dst[i] = src[i];
      }
    }
  });
}

// NumberSlices for the element type of `dtype`: idx and firsts get len entries each (count
// of firsts used), from ctx's allocator as is the table; RESOURCE_EXHAUSTED when it refuses.
absl::Status NumberSlicesOf(OpKernelContext* ctx, const Tensor& input, int64_t outer, int64_t len,
                            int64_t inner, ScratchArray<int64_t>* idx,
                            ScratchArray<int64_t>* firsts, int64_t* count) {
  RETURN_IF_ERROR(idx->Allocate(ctx, len));
  RETURN_IF_ERROR(firsts->Allocate(ctx, len));
  // The smallest power of two of at least 2 * len slots. idx's len * 8 bytes fit in int64,
  // so len < 2^60 and the doubling cannot overflow.
  int bits = 1;
  while ((int64_t{1} << bits) < 2 * len) ++bits;
  ScratchArray<int64_t> table;
  RETURN_IF_ERROR(table.Allocate(ctx, int64_t{1} << bits));
  const SeenTable seen{table.data(), bits};
  *count = 0;
  const bool single = outer == 1 && inner == 1;
  auto number = [&](auto tag) {
    using E = typename decltype(tag)::type;
    Slices<E> s{static_cast<const E*>(input.raw_data()), outer, len, inner, {}};
    if constexpr (std::is_same_v<E, half> || std::is_same_v<E, bfloat16>) {
      s.rules.bitwise = single;
    }
    *count = NumberSlices<E>(s, seen, idx->data(), firsts->data());
  };
  switch (input.dtype()) {
    case DT_FLOAT:
      number(ElementTypeTag<float>{});
      break;
    case DT_DOUBLE:
      number(ElementTypeTag<double>{});
      break;
    case DT_HALF:
      number(ElementTypeTag<half>{});
      break;
    case DT_BFLOAT16:
      number(ElementTypeTag<bfloat16>{});
      break;
    case DT_STRING:
      number(ElementTypeTag<std::string>{});
      break;
    default:
      // Integers and bool: equal exactly when their bits are.
      VisitByElementSize(input.dtype(), [&](auto tag) {
        using U = typename decltype(tag)::type;
        if constexpr (std::is_integral_v<U>) number(tag);
      });
  }
  return absl::OkStatus();
}

class UniqueOp : public OpKernel {
 public:
  explicit UniqueOp(OpKernelConstruction* ctx) : OpKernel(ctx) {}

  void Compute(OpKernelContext* ctx) override {
    const Tensor& input = ctx->input(0);
    OP_REQUIRES(ctx, input.NumElements() <= std::numeric_limits<int32_t>::max(),
                errors::InvalidArgument("unique does not support input tensors larger than ",
                                        std::numeric_limits<int32_t>::max(), " elements"));
    int64_t axis = 0;
    int64_t outer = 1;
    int64_t len = input.NumElements();
    int64_t inner = 1;
    bool has_axis = false;
    if (ctx->num_inputs() == 2) {
      const Tensor& axis_t = ctx->input(1);
      OP_REQUIRES(ctx, axis_t.dims() == 1, errors::InvalidArgument("axis expects a 1D vector."));
      OP_REQUIRES(
          ctx, axis_t.NumElements() <= 1,
          errors::InvalidArgument("axis does not support input tensors larger than 1 elements"));
      has_axis = axis_t.NumElements() == 1;
      if (has_axis) {
        IntegerValues axes;
        OP_REQUIRES_OK(ctx, IntegerTensorValues(axis_t, &axes));
        axis = axes[0] < 0 ? axes[0] + input.dims() : axes[0];
        OP_REQUIRES(ctx, 0 <= axis && axis < input.dims(),
                    errors::InvalidArgument("axis has to be between [0, ", input.dims(), ")"));
        outer = 1;
        for (int64_t d = 0; d < axis; ++d) outer *= input.dim_size(d);
        len = input.dim_size(axis);
        inner = 1;
        for (int64_t d = axis + 1; d < input.dims(); ++d) inner *= input.dim_size(d);
      }
    }
    OP_REQUIRES(ctx, has_axis || input.dims() == 1,
                errors::InvalidArgument("unique expects a 1D vector."));

    ScratchArray<int64_t> idx, firsts;
    int64_t count = 0;
    OP_REQUIRES_OK(ctx, NumberSlicesOf(ctx, input, outer, len, inner, &idx, &firsts, &count));
    TensorShape y_shape = input.shape();
    // shape-safe: 0 <= axis < rank (checked above); there are at most len distinct slices
    y_shape.set_dim(static_cast<int>(axis), count);
    Tensor* y = nullptr;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, y_shape, &y));
    GatherSlices(input, outer, len, inner, firsts.data(), count, y);
    Tensor* idx_out = nullptr;
    // shape-safe: len is one of the input's dims or its element count
    OP_REQUIRES_OK(ctx, ctx->allocate_output(1, TensorShape({len}), &idx_out));
    if (idx_out->dtype() == DT_INT32) {
      int32_t* out = idx_out->base<int32_t>();
      for (int64_t k = 0; k < len; ++k) out[k] = static_cast<int32_t>(idx[k]);
    } else {
      int64_t* out = idx_out->base<int64_t>();
      for (int64_t k = 0; k < len; ++k) out[k] = idx[k];
    }
    if (ctx->num_outputs() > 2) OP_REQUIRES_OK(ctx, WriteCounts(ctx, idx.data(), len, count));
  }

 private:
  // UniqueWithCounts' third output: how many of the len slices have each of the count values.
  static absl::Status WriteCounts(OpKernelContext* ctx, const int64_t* idx, int64_t len,
                                  int64_t count) {
    Tensor* counts = nullptr;
    // shape-safe: count is at most len, one of the input's dims or its element count
    RETURN_IF_ERROR(ctx->allocate_output(2, TensorShape({count}), &counts));
    if (counts->dtype() == DT_INT32) {
      int32_t* out = counts->base<int32_t>();
      std::fill_n(out, count, 0);
      for (int64_t k = 0; k < len; ++k) ++out[idx[k]];
    } else {
      int64_t* out = counts->base<int64_t>();
      std::fill_n(out, count, 0);
      for (int64_t k = 0; k < len; ++k) ++out[idx[k]];
    }
    return absl::OkStatus();
  }
};

// TensorFlow's CPU registrations: the real number types, string and bool.
const DataTypeVector& UniqueTypes() {
  static const DataTypeVector* types = new DataTypeVector{
      DT_FLOAT, DT_DOUBLE, DT_HALF,   DT_BFLOAT16, DT_INT8,   DT_INT16, DT_INT32,
      DT_INT64, DT_UINT8,  DT_UINT16, DT_UINT32,   DT_UINT64, DT_BOOL,  DT_STRING};
  return *types;
}

REGISTER_KERNEL_BUILDER(Name("Unique")
                            .Device(DEVICE_CPU)
                            .TypeConstraint("T", UniqueTypes())
                            .TypeConstraint("out_idx", {DT_INT32, DT_INT64}),
                        UniqueOp);
REGISTER_KERNEL_BUILDER(Name("UniqueV2")
                            .Device(DEVICE_CPU)
                            .TypeConstraint("T", UniqueTypes())
                            .TypeConstraint("out_idx", {DT_INT32, DT_INT64}),
                        UniqueOp);
REGISTER_KERNEL_BUILDER(Name("UniqueWithCounts")
                            .Device(DEVICE_CPU)
                            .TypeConstraint("T", UniqueTypes())
                            .TypeConstraint("out_idx", {DT_INT32, DT_INT64}),
                        UniqueOp);
REGISTER_KERNEL_BUILDER(Name("UniqueWithCountsV2")
                            .Device(DEVICE_CPU)
                            .TypeConstraint("T", UniqueTypes())
                            .TypeConstraint("out_idx", {DT_INT32, DT_INT64}),
                        UniqueOp);

}  // namespace
}  // namespace sluice
