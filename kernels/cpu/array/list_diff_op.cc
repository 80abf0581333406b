// ListDiff on the CPU: the elements of vector x that are not in vector y, in x's order, and
// their positions in x.
//
// Checked as TensorFlow does, with its messages: x and y vectors. Membership is equality of
// values: NaN is in no set (so every NaN of x is kept) and -0.0 equals 0.0. y is looked up in
// a sorted index of its elements, from the allocator (its length is the data's); its NaNs,
// which equal nothing, are left out of the index.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <type_traits>

#include "graph/core/element_bytes.h"
#include "graph/core/errors.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_shape.h"
#include "graph/core/types.h"
#include "kernels/cpu/array/real_types.h"
#include "kernels/cpu/scratch.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace {

template <typename E>
bool IsNaN(const E& v) {
  if constexpr (std::is_same_v<E, std::string> || std::is_integral_v<E>) {
    return false;
  } else {
    return v != v;
  }
}

class ListDiffOp : public OpKernel {
 public:
  using OpKernel::OpKernel;

  void Compute(OpKernelContext* ctx) override {
    const Tensor& x = ctx->input(0);
    const Tensor& y = ctx->input(1);
    OP_REQUIRES(ctx, x.dims() == 1, errors::InvalidArgument("x should be a 1D vector."));
    OP_REQUIRES(ctx, y.dims() == 1, errors::InvalidArgument("y should be a 1D vector."));
    auto run = [&](auto tag) {
      using E = typename decltype(tag)::type;
      Diff<E>(ctx, x.base<E>(), x.NumElements(), y.base<E>(), y.NumElements());
    };
    if (x.dtype() == DT_STRING) {
      run(ElementTypeTag<std::string>{});
    } else {
      array_internal::VisitRealType(x.dtype(), run);
    }
  }

 private:
  template <typename E>
  static void Diff(OpKernelContext* ctx, const E* x, int64_t nx, const E* y, int64_t ny) {
    ScratchArray<int64_t> order;
    OP_REQUIRES_OK(ctx, order.Allocate(ctx, ny));
    int64_t n = 0;
    for (int64_t i = 0; i < ny; ++i) {
      if (!IsNaN(y[i])) order[n++] = i;
    }
    const auto less = [y](int64_t a, int64_t b) { return y[a] < y[b]; };
    std::sort(order.begin(), order.begin() + n, less);
    const auto in_y = [&](const E& v) {
      if (IsNaN(v)) return false;
      const int64_t* at = std::lower_bound(order.begin(), order.begin() + n, v,
                                           [y](int64_t a, const E& b) { return y[a] < b; });
      return at != order.begin() + n && !(v < y[*at]);
    };
    int64_t kept = 0;
    for (int64_t i = 0; i < nx; ++i) kept += in_y(x[i]) ? 0 : 1;
    Tensor* out = nullptr;
    Tensor* idx = nullptr;
    // shape-safe: kept is at most x's length
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, TensorShape({kept}), &out));
    // shape-safe: kept is at most x's length
    OP_REQUIRES_OK(ctx, ctx->allocate_output(1, TensorShape({kept}), &idx));
    E* values = out->base<E>();
    int64_t k = 0;
    for (int64_t i = 0; i < nx; ++i) {
      if (in_y(x[i])) continue;
      values[k] = x[i];
      if (idx->dtype() == DT_INT32) {
        idx->base<int32_t>()[k] = static_cast<int32_t>(i);
      } else {
        idx->base<int64_t>()[k] = i;
      }
      ++k;
    }
  }
};

// TensorFlow's CPU registrations: the real number types and string.
DataTypeVector ListDiffTypes() {
  DataTypeVector types = array_internal::RealTypes();
  types.push_back(DT_STRING);
  return types;
}

REGISTER_KERNEL_BUILDER(Name("ListDiff")
                            .Device(DEVICE_CPU)
                            .TypeConstraint("T", ListDiffTypes())
                            .TypeConstraint("out_idx", {DT_INT32, DT_INT64}),
                        ListDiffOp);

}  // namespace
}  // namespace sluice
