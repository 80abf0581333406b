#include "kernels/cpu/training/arg_checks.h"

#include <algorithm>

#include "graph/core/errors.h"
#include "graph/core/tensor_shape.h"
#include "graph/core/types.h"
#include "kernels/cpu/indexing/index_coordinates.h"

namespace sluice {
namespace {

// The value of a floating scalar (the training ops' dtypes); 0 for any other dtype.
double ScalarValue(const Tensor& t) {
  switch (t.dtype()) {
    case DT_HALF:
      return static_cast<float>(*t.base<half>());
    case DT_BFLOAT16:
      return static_cast<float>(*t.base<bfloat16>());
    case DT_FLOAT:
      return *t.base<float>();
    case DT_DOUBLE:
      return *t.base<double>();
    default:
      return 0;
  }
}

bool ValueOk(ArgCheck::Kind kind, double v, bool zero_allowed) {
  switch (kind) {
    case ArgCheck::kPositive:
      return v > 0;
    case ArgCheck::kPositiveOrAllowedZero:
      return v > 0 || (zero_allowed && v == 0);
    case ArgCheck::kNonNegative:
      return v >= 0;
    case ArgCheck::kNonPositive:
      return v <= 0;
    default:
      return true;
  }
}

// Dim d of `shape`, or -1 past its rank (TensorFlow reads past it; here it never matches).
int64_t DimOrNone(const TensorShape& shape, int d) {
  return d < shape.dims() ? shape.dim_size(d) : -1;
}

}  // namespace

absl::Status CheckArgs(OpKernelContext* ctx, const VariableInputs& vars,
                       absl::Span<const ArgCheck> checks, bool zero_allowed) {
  auto arg = [&](int i) -> const Tensor& {
    return i < vars.count() ? vars.tensor(i) : ctx->input(i);
  };
  const TensorShape& var = vars.tensor(0).shape();
  for (const ArgCheck& check : checks) {
    switch (check.kind) {
      case ArgCheck::kScalar:
      case ArgCheck::kPositive:
      case ArgCheck::kNonNegative:
      case ArgCheck::kNonPositive:
      case ArgCheck::kPositiveOrAllowedZero: {
        const Tensor& t = arg(check.input);
        if (t.dims() != 0 || !ValueOk(check.kind, ScalarValue(t), zero_allowed)) {
          return errors::InvalidArgument(check.text, t.shape().DebugString());
        }
        break;
      }
      case ArgCheck::kSameShape:
        if (!var.IsSameSize(arg(check.input).shape())) {
          const int shown = check.shown >= 0 ? check.shown : check.input;
          return errors::InvalidArgument(check.text, var.DebugString(), " ",
                                         arg(shown).shape().DebugString());
        }
        break;
      case ArgCheck::kVarAtLeast1D:
        if (var.dims() < 1) return errors::InvalidArgument("var must be at least 1 dimensional");
        break;
      case ArgCheck::kIndicesVector:
        if (arg(check.input).dims() != 1) {
          return errors::InvalidArgument("indices must be one-dimensional");
        }
        break;
      case ArgCheck::kGradRows: {
        const TensorShape& grad = arg(check.input).shape();
        // TensorFlow compares var's dims only; a grad of another rank would have it read past
        // grad's dims (or rows of another size), so any difference is a mismatch here.
        for (int d = 1; d < std::max(var.dims(), grad.dims()); ++d) {
          if (DimOrNone(var, d) != DimOrNone(grad, d)) {
            return errors::InvalidArgument("var and grad must match in dimension ", d);
          }
        }
        if (DimOrNone(grad, 0) != DimOrNone(arg(check.input + 1).shape(), 0)) {
          return errors::InvalidArgument(
              "grad must be the same size as indices in the first dimension.");
        }
        break;
      }
      case ArgCheck::kInnerDimPositive: {
        const TensorShape& grad = arg(check.input).shape();
        // Empty rows have a zero dim (a product that overflows has none).
        bool empty = false;
        for (int d = 1; d < grad.dims(); ++d) empty = empty || grad.dim_size(d) == 0;
        if (empty) {
          return errors::InvalidArgument("Inner dimension should be greater than zero.");
        }
        break;
      }
    }
  }
  return absl::OkStatus();
}

absl::Status CheckRowIndices(const Tensor& indices, int64_t rows, bool gather_style) {
  for (int64_t i = 0; i < indices.NumElements(); ++i) {
    const int64_t index =
        indices.dtype() == DT_INT32 ? indices.base<int32_t>()[i] : indices.base<int64_t>()[i];
    if (index >= 0 && index < rows) continue;
    if (gather_style) {
      return errors::InvalidArgument("indices", SliceDebugString(indices.shape(), i), " = ", index,
                                     " is not in [0, ", rows, ")");
    }
    return errors::InvalidArgument("Index ", index, " at offset ", i,
                                   " in indices is out of range");
  }
  return absl::OkStatus();
}

}  // namespace sluice
