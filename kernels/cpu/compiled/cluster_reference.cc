#include "kernels/cpu/compiled/cluster_reference.h"

#include <algorithm>
#include <cstdint>
#include <vector>

#include "graph/core/errors.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_shape.h"
#include "graph/core/types.h"
#include "graph/ops/mlir_cluster_spec.h"
#include "kernels/cpu/compiled/cluster_unary.h"
#include "kernels/cpu/cwise/cwise_functors.h"
#include "kernels/cpu/reduction/reduce_loops.h"
#include "kernels/cpu/reduction/reducers.h"

namespace sluice {
namespace {

using BinaryFunction = float (*)(float, float);

BinaryFunction FindBinary(absl::string_view op) {
  if (op == "Add" || op == "AddV2") return cwise::AddFunctor<float>::Apply;
  if (op == "Sub") return cwise::SubFunctor<float>::Apply;
  if (op == "Mul") return cwise::MulFunctor<float>::Apply;
  if (op == "Div" || op == "RealDiv") return cwise::DivFunctor<float>::Apply;
  if (op == "Maximum") return cwise::MaximumFunctor<float>::Apply;
  if (op == "Minimum") return cwise::MinimumFunctor<float>::Apply;
  if (op == "SquaredDifference") return cwise::SquaredDifferenceFunctor<float>::Apply;
  return nullptr;
}

// The values' layout: rows of cols, and batch_rows rows per batch element.
struct Layout {
  int64_t rows;
  int64_t cols;
  int64_t batch_rows;
};

int64_t Size(ValueKind kind, const Layout& l) {
  switch (kind) {
    case ValueKind::kFull:
      return l.rows * l.cols;
    case ValueKind::kRow:
      return l.rows;
    case ValueKind::kColumn:
      return l.cols;
    case ValueKind::kBatchColumn:
      return l.rows / l.batch_rows * l.cols;
    case ValueKind::kScalar:
      break;
  }
  return 1;
}

// Element (r, c) of a value of `kind`.
int64_t At(ValueKind kind, int64_t r, int64_t c, const Layout& l) {
  switch (kind) {
    case ValueKind::kFull:
      return r * l.cols + c;
    case ValueKind::kRow:
      return r;
    case ValueKind::kColumn:
      return c;
    case ValueKind::kBatchColumn:
      return r / l.batch_rows * l.cols + c;
    case ValueKind::kScalar:
      break;
  }
  return 0;
}

template <template <typename> class Reducer>
absl::Status ReduceRows(OpKernelContext* ctx, const float* x, int64_t rows, int64_t cols,
                        float* y) {
  using R = Reducer<float>;
  // A reduced axis of length 1 is copied by the reduction kernels (no pass at all).
  if (cols == 1) {
    std::copy(x, x + rows, y);
    return absl::OkStatus();
  }
  RETURN_IF_ERROR((reduction::ReducePass<float, R>(ctx, x, y, {rows, cols, 1})));
  for (int64_t r = 0; r < rows; ++r) y[r] = R::Finalize(y[r], cols);
  return absl::OkStatus();
}

absl::Status Reduce(OpKernelContext* ctx, absl::string_view op, const float* x, int64_t rows,
                    int64_t cols, float* y) {
  if (op == "Sum") return ReduceRows<reduction::SumReducer>(ctx, x, rows, cols, y);
  if (op == "Mean") return ReduceRows<reduction::MeanReducer>(ctx, x, rows, cols, y);
  if (op == "Max") return ReduceRows<reduction::MaxReducer>(ctx, x, rows, cols, y);
  if (op == "Min") return ReduceRows<reduction::MinReducer>(ctx, x, rows, cols, y);
  return errors::InvalidArgument("_MlirCluster cannot reduce with ", op);
}

}  // namespace

absl::Status EvaluateClusterUnfused(OpKernelContext* ctx,
                                    absl::Span<const FusedElementwiseStep> steps,
                                    absl::Span<const ValueKind> kinds,
                                    absl::Span<const float* const> inputs, int64_t rows,
                                    int64_t cols, int64_t batch_rows, float* out) {
  const Layout layout{rows, cols, batch_rows};
  const size_t num_inputs = inputs.size();
  if (kinds.size() != num_inputs + steps.size()) {
    return errors::Internal("_MlirCluster: ", kinds.size(), " value kinds for ", num_inputs,
                            " inputs and ", steps.size(), " ops");
  }
  // The ops' values, from the device's allocator as the unfused kernels' outputs would be.
  std::vector<Tensor> computed(steps.size());  // heap-ok: one per op of the program
  const auto value = [&](int v) -> const float* {
    return v < static_cast<int>(num_inputs) ? inputs[v] : computed[v - num_inputs].base<float>();
  };
  for (size_t k = 0; k < steps.size(); ++k) {
    const FusedElementwiseStep& step = steps[k];
    const ValueKind kind = kinds[num_inputs + k];
    const int64_t size = Size(kind, layout);
    // shape-safe: no larger than the cluster's full shape, which is a valid one
    RETURN_IF_ERROR(ctx->allocate_temp(DT_FLOAT, TensorShape({size}), &computed[k]));
    float* result = computed[k].base<float>();
    const int a = step.operands[0];
    if (IsClusterReduction(step.op)) {
      RETURN_IF_ERROR(Reduce(ctx, step.op, value(a), rows, cols, result));
    } else if (step.arity == 1) {
      const ClusterUnaryFunction apply = FindClusterUnary(step.op);
      if (apply == nullptr) return errors::InvalidArgument("_MlirCluster: no op ", step.op);
      std::copy(value(a), value(a) + size, result);
      apply(result, size, 0, size);
    } else {
      const BinaryFunction apply = FindBinary(step.op);
      if (apply == nullptr) return errors::InvalidArgument("_MlirCluster: no op ", step.op);
      const int b = step.operands[1];
      const ValueKind kind_a = kinds[a];
      const ValueKind kind_b = kinds[b];
      const float* x = value(a);
      const float* y = value(b);
      // Every element of the result once: each row of a full or row value, the first row of
      // each batch element for a batch-column value, row 0 otherwise.
      const int64_t row_step = kind == ValueKind::kFull || kind == ValueKind::kRow ? 1
                               : kind == ValueKind::kBatchColumn                   ? batch_rows
                                                                                   : rows;
      const int64_t result_cols = kind == ValueKind::kRow || kind == ValueKind::kScalar ? 1 : cols;
      for (int64_t r = 0; r < rows; r += row_step) {
        for (int64_t c = 0; c < result_cols; ++c) {
          result[At(kind, r, c, layout)] =
              apply(x[At(kind_a, r, c, layout)], y[At(kind_b, r, c, layout)]);
        }
      }
    }
  }
  const Tensor& last = computed.back();
  std::copy(last.base<float>(), last.base<float>() + last.NumElements(), out);
  return absl::OkStatus();
}

}  // namespace sluice
