// Row updates of variables: ScatterUpdate/Add/Sub/Mul/Div/Min/Max on ref variables (TF1
// optimizers' sparse updates; the ref is forwarded as output_ref) and the ResourceScatter ops
// on resource variables (TF2 optimizers, embeddings). Row indices[i] of the variable becomes
// op(row, updates[i]), or op(row, updates) for a scalar updates, in index order, so duplicate
// indices apply one after another as in TensorFlow's serial kernel.
//
// Checks, with TensorFlow's codes and texts, in its order: the variable found (the lookup's
// NOT_FOUND) and of updates' dtype, initialized (FAILED_PRECONDITION); for the ref forms at
// least 1-D ("params must be at least 1-D, got shape []") and updates.shape = indices.shape +
// params.shape[1:] or a scalar, every dim; for the resource forms only updates' rank, then
// ResourceScatterDiv's "updates must not contain 0", and with indices, indices' shape a prefix
// of updates'; the index counts fit the index dtype; every index in [0, params.shape[0])
// ("indices[1] = 7 is not in [0, 5)").
//
// Unlike TensorFlow, nothing is written unless every check passes (TensorFlow's kernel
// updates the rows before a bad index), and inputs TensorFlow's kernel would crash on or read
// out of bounds with are INVALID_ARGUMENT: resource updates whose rows are not the variable's
// row size (the "Must have updates.shape = ..." text), a scalar resource variable given
// indices ("params must be at least 1-D"), an integer ScatterDiv by zero ("Integer division
// by zero"). Integer arithmetic wraps; INT_MIN / -1 is INT_MIN.
//
// Locking: resource variables are updated under their mutex, with copy-on-write of a shared
// buffer (variable_inputs.h); ref variables under theirs only with use_locking.
// ScatterUpdate moves elements by size (one instantiation per element size); the arithmetic
// ops are instantiated per real number type (TensorFlow's CPU sets, minus complex).
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <type_traits>

#include "absl/strings/str_cat.h"
#include "graph/core/element_bytes.h"
#include "graph/core/errors.h"
#include "graph/core/integer_tensor.h"
#include "graph/core/tensor.h"
#include "graph/core/types.h"
#include "kernels/cpu/indexing/index_coordinates.h"
#include "kernels/cpu/training/update_math.h"
#include "kernels/cpu/training/variable_inputs.h"
#include "kernels/cpu/wrapping_arithmetic.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace {

enum class Kind { kUpdate, kAdd, kSub, kMul, kDiv, kMin, kMax };

template <Kind K, typename T>
T Combine(T p, T u) {
  if constexpr (K == Kind::kAdd) return WrappingAdd(p, u);
  if constexpr (K == Kind::kSub) return WrappingSub(p, u);
  if constexpr (K == Kind::kMul) return WrappingMul(p, u);
  if constexpr (K == Kind::kDiv) {
    if constexpr (std::is_integral_v<T> && std::is_signed_v<T>) {
      if (u == T(-1)) return WrappingSub(T(0), p);  // INT_MIN / -1 would trap
    }
    return static_cast<T>(p / u);  // u != 0 for integers (checked)
  }
  if constexpr (K == Kind::kMin) return training::Min(p, u);
  if constexpr (K == Kind::kMax) return training::Max(p, u);
  return u;
}

// The validated geometry of one call: n index entries, rows of `row` elements.
struct ScatterShape {
  int64_t n = 0;
  int64_t row = 1;
  bool scalar_update = false;
};

std::string ShapesText(const Tensor& updates, const Tensor& indices, const Tensor& params) {
  return absl::StrCat("updates.shape ", updates.shape().DebugString(), ", indices.shape ",
                      indices.shape().DebugString(), ", params.shape ",
                      params.shape().DebugString());
}

absl::Status CheckShapes(bool resource, const Tensor& params, const Tensor& indices,
                         const Tensor& updates, ScatterShape* s) {
  // The ref forms check the variable's rank, then every dim of updates.
  if (!resource && params.dims() < 1) {
    return errors::InvalidArgument("params must be at least 1-D, got shape ",
                                   params.shape().DebugString());
  }
  s->scalar_update = updates.dims() == 0;
  bool valid = s->scalar_update || updates.dims() == indices.dims() + params.dims() - 1;
  if (valid && !s->scalar_update && !resource) {
    for (int d = 0; d < indices.dims(); ++d) valid &= updates.dim_size(d) == indices.dim_size(d);
    for (int d = 1; d < params.dims(); ++d) {
      valid &= updates.dim_size(d - 1 + indices.dims()) == params.dim_size(d);
    }
  }
  if (!valid) {
    return errors::InvalidArgument(
        "Must have updates.shape = indices.shape + params.shape[1:] or updates.shape = [], got ",
        ShapesText(updates, indices, params));
  }
  s->n = indices.NumElements();
  const int64_t index_max = MaxIndexValue(indices.dtype());
  const std::string index_type = DataTypeString(indices.dtype());
  if (s->n > index_max) {
    return errors::InvalidArgument("indices has too many elements for ", index_type,
                                   " indexing: ", s->n, " > ", index_max);
  }
  if (params.dims() > 0 && params.dim_size(0) > index_max) {
    return errors::InvalidArgument("params.shape[0] too large for ", index_type,
                                   " indexing: ", params.dim_size(0), " > ", index_max);
  }
  return absl::OkStatus();
}

// The resource forms' checks of the rows, made only when there are indices: TensorFlow's
// prefix check, then what its kernel takes for granted (a variable with rows, updates rows of
// the variable's row size).
absl::Status CheckRows(bool resource, const Tensor& params, const Tensor& indices,
                       const Tensor& updates, ScatterShape* s) {
  if (resource && params.dims() < 1) {
    return errors::InvalidArgument("params must be at least 1-D, got shape ",
                                   params.shape().DebugString());
  }
  for (int d = 1; d < params.dims(); ++d) s->row *= params.dim_size(d);
  if (!resource || s->scalar_update) return absl::OkStatus();
  bool prefix = updates.dims() >= indices.dims();
  for (int d = 0; prefix && d < indices.dims(); ++d) {
    prefix = updates.dim_size(d) == indices.dim_size(d);
  }
  if (!prefix) {
    return errors::InvalidArgument("The shape of indices (", indices.shape().DebugString(),
                                   ") must be a prefix of the shape of updates (",
                                   updates.shape().DebugString(), ")");
  }
  if (updates.NumElements() != s->n * s->row) {
    return errors::InvalidArgument(
        "Must have updates.shape = indices.shape + params.shape[1:] or updates.shape = [], got ",
        ShapesText(updates, indices, params));
  }
  return absl::OkStatus();
}

// Every index in [0, limit), else TensorFlow's error naming the first bad one.
absl::Status CheckIndices(const Tensor& indices, int64_t limit) {
  absl::Status status;
  VisitIndexType(indices.dtype(), [&](auto tag) {
    using Index = typename decltype(tag)::type;
    const Index* idx = indices.base<Index>();
    for (int64_t i = 0; i < indices.NumElements(); ++i) {
      const int64_t v = static_cast<int64_t>(idx[i]);
      if (v < 0 || v >= limit) {
        status = errors::InvalidArgument("indices", SliceDebugString(indices.shape(), i), " = ", v,
                                         " is not in [0, ", limit, ")");
        return;
      }
    }
  });
  return status;
}

int64_t IndexAt(const Tensor& indices, int64_t i) {
  return indices.dtype() == DT_INT32 ? indices.base<int32_t>()[i] : indices.base<int64_t>()[i];
}

// Applies the updates; U is the element type (T) or, for kUpdate, the unit of its size.
template <Kind K, typename U>
void ScatterRows(const ScatterShape& s, const Tensor& indices, const Tensor& updates,
                 Tensor* params) {
  U* p = static_cast<U*>(params->raw_data());
  const U* u = static_cast<const U*>(updates.raw_data());
  for (int64_t i = 0; i < s.n; ++i) {
    U* row = p + IndexAt(indices, i) * s.row;
    if (s.scalar_update) {
      for (int64_t j = 0; j < s.row; ++j) row[j] = Combine<K>(row[j], u[0]);
    } else if constexpr (K == Kind::kUpdate && std::is_trivially_copyable_v<U>) {
      // memmove: updates may be the variable's own buffer (a read of a ref variable).
      std::memmove(row, u + i * s.row, s.row * sizeof(U));
    } else {
      for (int64_t j = 0; j < s.row; ++j) row[j] = Combine<K>(row[j], u[i * s.row + j]);
    }
  }
}

// Calls fn(ElementTypeTag<T>{}) for a real number dtype (the arithmetic ops' dtypes).
template <typename Fn>
bool VisitRealNumberType(DataType dtype, Fn&& fn) {
  switch (dtype) {
#define SLUICE_REAL_CASE(T)      \
  case DataTypeToEnum<T>::value: \
    fn(ElementTypeTag<T>{});     \
    return true;
    SLUICE_CALL_REAL_NUMBER_TYPES(SLUICE_REAL_CASE)
#undef SLUICE_REAL_CASE
    default:
      return false;
  }
}

template <typename T>
bool HasZero(const Tensor& t) {
  const T* v = t.base<T>();
  for (int64_t i = 0; i < t.NumElements(); ++i) {
    if (v[i] == T(0)) return true;
  }
  return false;
}

template <Kind K>
class ScatterOp : public OpKernel {
 public:
  explicit ScatterOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    // The resource forms have no use_locking; they always lock (variable_inputs.h).
    if (ctx->HasAttr("use_locking")) {
      OP_REQUIRES_OK(ctx, ctx->GetAttr("use_locking", &use_locking_));
    }
  }

  void Compute(OpKernelContext* ctx) override {
    const bool resource = ctx->input_dtype(0) == DT_RESOURCE;
    const Tensor& indices = ctx->input(1);
    const Tensor& updates = ctx->input(2);
    VariableInputs vars(ctx, 1, updates.dtype(), use_locking_, LookupErrors::kAsIs);
    OP_REQUIRES_OK(ctx, vars.status());
    Tensor& params = vars.tensor(0);
    ScatterShape s;
    OP_REQUIRES_OK(ctx, CheckShapes(resource, params, indices, updates, &s));
    if constexpr (K == Kind::kDiv) {
      // TensorFlow's resource form rejects any zero (even with no indices); its ref form
      // divides floats by zero and dies on integers.
      bool zero = false;
      VisitRealNumberType(updates.dtype(), [&](auto tag) {
        using T = typename decltype(tag)::type;
        if (resource || std::is_integral_v<T>) zero = HasZero<T>(updates);
      });
      OP_REQUIRES(ctx, !zero,
                  errors::InvalidArgument(resource ? "updates must not contain 0"
                                                   : "Integer division by zero"));
    }
    if (s.n > 0) {
      OP_REQUIRES_OK(ctx, CheckRows(resource, params, indices, updates, &s));
      OP_REQUIRES_OK(ctx, CheckIndices(indices, params.dim_size(0)));
      if constexpr (K == Kind::kUpdate) {
        VisitByElementSize(params.dtype(), [&](auto tag) {
          ScatterRows<K, typename decltype(tag)::type>(s, indices, updates, &params);
        });
      } else {
        VisitRealNumberType(params.dtype(), [&](auto tag) {
          ScatterRows<K, typename decltype(tag)::type>(s, indices, updates, &params);
        });
      }
    }
    vars.ForwardRef();
  }

 private:
  bool use_locking_ = false;
};

// TensorFlow's CPU dtypes: every number type (complex left out here) for the arithmetic, the
// real ones for min and max, and bool and string as well for ScatterUpdate.
constexpr DataType kRealTypes[] = {
#define SLUICE_TYPE(T) DataTypeToEnum<T>::value,
    SLUICE_CALL_REAL_NUMBER_TYPES(SLUICE_TYPE)
#undef SLUICE_TYPE
};
constexpr DataType kUpdateTypes[] = {
#define SLUICE_TYPE(T) DataTypeToEnum<T>::value,
    SLUICE_CALL_NUMBER_TYPES(SLUICE_TYPE) SLUICE_CALL_bool(SLUICE_TYPE)
        SLUICE_CALL_string(SLUICE_TYPE)
#undef SLUICE_TYPE
};

#define SLUICE_REGISTER_SCATTER(name, kind, types)                                            \
  REGISTER_KERNEL_BUILDER(Name("Scatter" name).Device(DEVICE_CPU).TypeConstraint("T", types), \
                          ScatterOp<kind>);                                                   \
  REGISTER_KERNEL_BUILDER(                                                                    \
      Name("ResourceScatter" name).Device(DEVICE_CPU).TypeConstraint("dtype", types),         \
      ScatterOp<kind>);
SLUICE_REGISTER_SCATTER("Update", Kind::kUpdate, kUpdateTypes)
SLUICE_REGISTER_SCATTER("Add", Kind::kAdd, kRealTypes)
SLUICE_REGISTER_SCATTER("Sub", Kind::kSub, kRealTypes)
SLUICE_REGISTER_SCATTER("Mul", Kind::kMul, kRealTypes)
SLUICE_REGISTER_SCATTER("Div", Kind::kDiv, kRealTypes)
SLUICE_REGISTER_SCATTER("Min", Kind::kMin, kRealTypes)
SLUICE_REGISTER_SCATTER("Max", Kind::kMax, kRealTypes)
#undef SLUICE_REGISTER_SCATTER

}  // namespace
}  // namespace sluice
