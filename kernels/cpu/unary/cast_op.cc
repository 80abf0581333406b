// Cast on the CPU: y = x converted from SrcT to DstT, element by element (the rules are in
// cast_functions.h), with Truncate=true rounding narrowing float conversions toward zero.
//
// As in TensorFlow, one kernel serves every pair of types: the constructor picks the
// conversion loop for (SrcT, DstT) once, from a table over bool, the integer, floating-point
// and complex types; quantized types convert as their underlying integers. A cast to the
// same type forwards the input; a pair outside the table (string <-> anything else) is
// UNIMPLEMENTED "Cast string to int32 is not supported" when the kernel is built.
#include <cstdint>

#include "graph/core/errors.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_types.h"
#include "graph/core/types.h"
#include "kernels/cpu/parallel_for.h"
#include "kernels/cpu/unary/cast_functions.h"
#include "runtime/framework/op_kernel.h"
#include "unsupported/Eigen/CXX11/Tensor"

namespace sluice {
namespace {

// Converts elements [first, last) of `in` into `out`.
using CastFn = void (*)(const void* in, void* out, int64_t first, int64_t last);

template <typename Src, typename Dst, bool kTruncate>
void CastRange(const void* in, void* out, int64_t first, int64_t last) {
  const Src* src = static_cast<const Src*>(in);
  Dst* dst = static_cast<Dst*>(out);
  for (int64_t i = first; i < last; ++i) {
    if constexpr (kTruncate) {
      dst[i] = TruncatingCast<Dst>(src[i]);
    } else {
      dst[i] = CastValue<Dst>(src[i]);
    }
  }
}

// The type a quantized dtype converts as.
DataType CastableType(DataType dtype) {
  switch (dtype) {
    case DT_QINT8:
      return DT_INT8;
    case DT_QUINT8:
      return DT_UINT8;
    case DT_QINT16:
      return DT_INT16;
    case DT_QUINT16:
      return DT_UINT16;
    case DT_QINT32:
      return DT_INT32;
    default:
      return dtype;
  }
}

// Calls fn(ElementTypeTag<T>{}) for the castable element types; false for others.
template <typename Fn>
bool VisitCastType(DataType dtype, Fn&& fn) {
  switch (dtype) {
#define SLUICE_CAST_CASE(T)      \
  case DataTypeToEnum<T>::value: \
    fn(ElementTypeTag<T>{});     \
    return true;
    SLUICE_CALL_NUMBER_TYPES(SLUICE_CAST_CASE)
    SLUICE_CALL_bool(SLUICE_CAST_CASE)
#undef SLUICE_CAST_CASE
        default : return false;
  }
}

// The conversion loop for src -> dst, or nullptr if there is none.
CastFn GetCastFn(DataType src, DataType dst, bool truncate) {
  CastFn fn = nullptr;
  VisitCastType(CastableType(src), [&](auto src_tag) {
    VisitCastType(CastableType(dst), [&](auto dst_tag) {
      using Src = typename decltype(src_tag)::type;
      using Dst = typename decltype(dst_tag)::type;
      if constexpr (kTruncates<Src, Dst>) {
        fn = truncate ? &CastRange<Src, Dst, true> : &CastRange<Src, Dst, false>;
      } else {
        fn = &CastRange<Src, Dst, false>;
      }
    });
  });
  return fn;
}

class CastOp : public OpKernel {
 public:
  explicit CastOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    DataType src = DT_INVALID;
    DataType dst = DT_INVALID;
    bool truncate = false;
    OP_REQUIRES_OK(ctx, ctx->GetAttr("SrcT", &src));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("DstT", &dst));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("Truncate", &truncate));
    if (src == dst) return;  // forwarded in Compute
    cast_ = GetCastFn(src, dst, truncate);
    OP_REQUIRES(ctx, cast_ != nullptr,
                errors::Unimplemented("Cast ", DataTypeString(src), " to ", DataTypeString(dst),
                                      " is not supported"));
    src_size_ = DataTypeSize(src);
    dst_size_ = DataTypeSize(dst);
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& x = ctx->input(0);
    if (cast_ == nullptr) {
      ctx->set_output(0, x);
      return;
    }
    Tensor* y = nullptr;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, x.shape(), &y));
    const int64_t n = x.NumElements();
    if (n == 0) return;
    const void* in = x.raw_data();
    void* out = y->raw_data();
    const CastFn cast = cast_;
    ParallelFor(ctx, n, n, Eigen::TensorOpCost(src_size_, dst_size_, 1),
                [in, out, cast](int64_t first, int64_t last) { cast(in, out, first, last); });
  }

 private:
  // Constant after construction; cast_ is null for a cast to the same type.
  CastFn cast_ = nullptr;
  int src_size_ = 0;
  int dst_size_ = 0;
};

REGISTER_KERNEL_BUILDER(Name("Cast").Device(DEVICE_CPU), CastOp);

}  // namespace
}  // namespace sluice
