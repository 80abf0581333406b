// GatherNd on the CPU: indices of shape [..., K] pick slices of params; the output has shape
// indices.shape[:-1] + params.shape[K:], row r being params[indices[r, 0], ..., indices[r,
// K-1]] (K = 0 repeats all of params per row).
//
// Validation (gather_nd_plan.h, shared with the GPU kernel) follows TensorFlow's kernel and
// texts: both inputs at least vectors, K <= rank
// of params (and K <= 7, TensorFlow's limit), no more params elements than the index dtype
// can count, a non-empty params whenever a row is asked
// for, and every index row in range ("indices[1] = [3, 0] does not index into param shape
// [3,4], node name: g"). bad_indices_policy is "" / "DEFAULT" / "ERROR" (fail) or "IGNORE"
// (an out-of-range row becomes zeros). Rows are copied by element size, split over the
// intra-op pool when the output is large.
#include <algorithm>
#include <cstdint>
#include <string>

#include "absl/container/inlined_vector.h"
#include "absl/strings/str_join.h"
#include "graph/core/element_bytes.h"
#include "graph/core/errors.h"
#include "graph/core/integer_tensor.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_shape.h"
#include "graph/core/tensor_types.h"
#include "graph/core/types.h"
#include "kernels/cpu/indexing/gather_nd_plan.h"
#include "kernels/cpu/indexing/index_coordinates.h"
#include "kernels/cpu/parallel_for.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace {

// Where row r of the output reads from: the element offset of its slice in params, or -1
// when the index row is out of range.
template <typename Index>
int64_t SliceOffset(const Index* row, const GatherNdPlan& plan) {
  return IndexRowOffset(row, plan);
}

class GatherNdOp : public OpKernel {
 public:
  explicit GatherNdOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    std::string policy;
    OP_REQUIRES_OK(ctx, ctx->GetAttr("bad_indices_policy", &policy));
    if (policy == "IGNORE") {
      ignore_bad_indices_ = true;
    } else {
      OP_REQUIRES(ctx, policy.empty() || policy == "DEFAULT" || policy == "ERROR",
                  errors::InvalidArgument("Unknown bad indices handling attribute: ", policy));
    }
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& params = ctx->input(0);
    const Tensor& indices = ctx->input(1);
    GatherNdPlan plan;
    OP_REQUIRES_OK(ctx, PlanGatherNd(params, indices, &plan));
    Tensor* out = nullptr;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, plan.output_shape, &out));
    if (plan.rows == 0) return;
    const int64_t rows = plan.rows;
    const int64_t depth = plan.depth;
    const int64_t slice = plan.slice;

    VisitIndexType(indices.dtype(), [&](auto index_tag) {
      using Index = typename decltype(index_tag)::type;
      const Index* idx = indices.base<Index>();
      if (!ignore_bad_indices_) {
        for (int64_t r = 0; r < rows; ++r) {
          if (SliceOffset(idx + r * depth, plan) >= 0) continue;
          TensorShape rows_shape = indices.shape();
          rows_shape.RemoveLastDims(1);  // shape-safe: indices has rank >= 1 (checked above)
          // heap-ok: indices.shape[-1] entries, at most GatherNdPlan::kMaxDepth (checked)
          absl::InlinedVector<int64_t, 8> bad(idx + r * depth, idx + (r + 1) * depth);
          OP_REQUIRES(ctx, false,
                      errors::InvalidArgument(
                          "indices", SliceDebugString(rows_shape, r), " = [",
                          absl::StrJoin(bad, ", "), "] does not index into param shape ",
                          params.shape().DebugString(), ", node name: ", name()));
        }
      }
      if (slice == 0) return;
      VisitByElementSize(params.dtype(), [&](auto tag) {
        using U = typename decltype(tag)::type;
        const U* src = ElementsAs<U>(params);
        U* dst = MutableElementsAs<U>(out);
        const Eigen::TensorOpCost cost(slice * sizeof(U), slice * sizeof(U), depth);
        ParallelFor(ctx, rows, rows * slice, cost, [&](int64_t first, int64_t last) {
          for (int64_t r = first; r < last; ++r) {
            const int64_t offset = SliceOffset(idx + r * depth, plan);
            if (offset < 0) {
              std::fill_n(dst + r * slice, slice, U{});
            } else {
              std::copy_n(src + offset, slice, dst + r * slice);
            }
          }
        });
      });
    });
  }

 private:
  bool ignore_bad_indices_ = false;
};

// TensorFlow's CPU registrations: every dtype with an element type here except qint16 and
// quint16, plus resource handles.
constexpr DataType kGatherNdTypes[] = {
#define SLUICE_GATHER_ND_TYPE(T) DataTypeToEnum<T>::value,
    SLUICE_CALL_NUMBER_TYPES(SLUICE_GATHER_ND_TYPE) SLUICE_CALL_bool(SLUICE_GATHER_ND_TYPE)
        SLUICE_CALL_string(SLUICE_GATHER_ND_TYPE)
#undef SLUICE_GATHER_ND_TYPE
            DT_QINT8,
    DT_QUINT8, DT_QINT32, DT_RESOURCE};

REGISTER_KERNEL_BUILDER(
    Name("GatherNd").Device(DEVICE_CPU).TypeConstraint("Tparams", kGatherNdTypes), GatherNdOp);

}  // namespace
}  // namespace sluice
