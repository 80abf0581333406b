// `_MlirCluster` on the CPU: a cluster of elementwise ops and last-axis reductions
// (graph/ops/mlir_cluster_spec.h) run as one compiled loop nest (compiler/cluster_codegen.h),
// rows split over the intra-op pool.
//
// Each input's kind comes from its shape against the cluster's full shape F, the broadcast of
// all inputs: F itself (full), F with its last dim 1 (row), ones then F's last dim (column),
// F's first and last dims with ones between, for F of rank 3 or more (batch column: a
// squeeze-and-excitation gate), or one element (scalar). The output is F, or F with its last dim 1
// when the program ends in a row value. The compiled code computes what the unfused ops compute,
// bit for bit; where the reduction kernels would order their sums differently (a row long enough
// for them to split it over threads, or a row of one element, which they copy), and where
// compilation failed, the kernel evaluates the ops one at a time (cluster_reference.h) instead.
#include <algorithm>
#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/container/inlined_vector.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/synchronization/mutex.h"
#include "compiler/cluster_codegen.h"
#include "graph/core/errors.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_shape.h"
#include "graph/core/types.h"
#include "graph/ops/mlir_cluster_spec.h"
#include "kernels/cpu/compiled/cluster_reference.h"
#include "kernels/cpu/compiled/compiled_cluster_cache.h"
#include "kernels/cpu/parallel_for.h"
#include "kernels/cpu/reduction/reduce_loops.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace {

// A flat float buffer as a lowered memref<?xf32> takes it.
struct MemRefArgs {
  float* allocated = nullptr;
  float* aligned = nullptr;
  int64_t offset = 0;
  int64_t size = 0;
  int64_t stride = 1;

  MemRefArgs(float* data, int64_t n) : allocated(data), aligned(data), size(n) {}
  void AppendTo(std::vector<void*>* args) {
    args->insert(args->end(), {&allocated, &aligned, &offset, &size, &stride});
  }
};

class MlirClusterOp : public OpKernel {
 public:
  explicit MlirClusterOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    std::vector<std::string> ops;
    std::vector<int64_t> operands;
    OP_REQUIRES_OK(ctx, ctx->GetAttr("ops", &ops));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("operands", &operands));
    num_inputs_ = ctx->num_inputs();
    auto steps = ParseClusterProgram(num_inputs_, ops, operands);
    OP_REQUIRES_OK(ctx, steps.status());
    steps_ = *std::move(steps);
  }

  void Compute(OpKernelContext* ctx) override {
    TensorShape full;
    OP_REQUIRES_OK(ctx, FullShape(ctx, &full));
    std::vector<ValueKind> kinds;
    OP_REQUIRES_OK(ctx, InputKinds(ctx, full, &kinds));
    const int64_t cols = full.dim_size(full.dims() - 1);
    // Cannot overflow: TensorShape bounds the product of a shape's non-zero dims (CheckDims),
    // also when the last dim is 0.
    int64_t rows = 1;
    for (int d = 0; d + 1 < full.dims(); ++d) rows *= full.dim_size(d);
    // Rows per index of the first dim, for batch-column values (rank 3 or more); the column
    // values the program computes are computed once per that many rows. Rank 1 or 2: all.
    const int64_t batch_rows = full.dims() >= 3 && full.dim_size(0) > 0
                                   ? rows / full.dim_size(0)
                                   : std::max<int64_t>(rows, 1);
    // The output's kind follows from the inputs'; a program that does not fit them is refused.
    const CompiledCluster& cluster = Cluster(ctx, kinds);
    OP_REQUIRES(ctx, cluster.code.ok(),
                errors::InvalidArgument("Node '", name(),
                                        "' (_MlirCluster): ", cluster.code.status().message()));
    const std::vector<ValueKind>& value_kinds = cluster.code->value_kinds;
    TensorShape out_shape = full;
    if (value_kinds.back() == ValueKind::kRow) {
      out_shape.set_dim(full.dims() - 1, 1);  // shape-safe: a dim made 1 shrinks a valid shape
    }
    // A full input nothing else reads may become the output: the compiled code writes each
    // element of a row after the last read of that element (reductions come in earlier
    // phases than the output), and reads full values in their own row only; the unfused
    // evaluation writes the output last. In place, the output reuses memory the previous op
    // just wrote, still in cache (a squeeze-and-excitation gate: 12 to 20 us per EfficientNet
    // block otherwise).
    absl::InlinedVector<int, 4> full_inputs;
    if (value_kinds.back() == ValueKind::kFull) {
      for (int i = 0; i < num_inputs_; ++i) {
        if (kinds[i] == ValueKind::kFull) full_inputs.push_back(i);
      }
    }
    Tensor* out = nullptr;
    OP_REQUIRES_OK(ctx, ctx->forward_input_or_allocate_output(full_inputs, 0, out_shape, &out));
    if (rows == 0) return;

    std::vector<const float*> inputs;
    for (int i = 0; i < num_inputs_; ++i) inputs.push_back(ctx->input(i).base<float>());
    float* result = out->base<float>();
    if (cluster.function == nullptr || !CompiledOrderMatches(ctx, rows, cols)) {
      OP_REQUIRES_OK(ctx, EvaluateClusterUnfused(ctx, steps_, value_kinds, inputs, rows, cols,
                                                 batch_rows, result));
      return;
    }
    const int64_t scratch = kClusterScratchSlot + cluster.code->scratch_rows * cols;
    const Eigen::TensorOpCost row_cost(sizeof(float) * cols * num_inputs_, sizeof(float) * cols,
                                       static_cast<double>(cols) * 2 * steps_.size());
    OP_REQUIRES_OK(ctx, ParallelForWithScratch<float>(
                            ctx, rows, rows * cols, row_cost, scratch,
                            [&](int64_t first, int64_t last, float* buffer) {
                              Run(cluster, kinds, inputs, result, out->NumElements(), buffer,
                                  scratch, first, last, rows, cols, batch_rows);
                            }));
  }

 private:
  // The process-wide compiled cluster for these input kinds. The kernel remembers the last
  // one it used, so that steps whose kinds do not change take neither a lock nor the
  // process-wide lookup.
  const CompiledCluster& Cluster(OpKernelContext* ctx, const std::vector<ValueKind>& kinds) {
    const KnownCluster* last = last_.load(std::memory_order_acquire);
    if (last != nullptr && last->kinds == kinds) return *last->cluster;
    absl::MutexLock lock(&mu_);
    for (const std::unique_ptr<KnownCluster>& known : known_) {
      if (known->kinds == kinds) {
        last_.store(known.get(), std::memory_order_release);
        return *known->cluster;
      }
    }
    auto known = std::make_unique<KnownCluster>();
    known->kinds = kinds;
    bool compiled_here = false;
    double seconds = 0;
    known->cluster = &GetCompiledCluster(steps_, kinds, &compiled_here, &seconds);
    if (compiled_here) {
      // In the step statistics of the step that paid for it (TensorFlow users read compile
      // time from a step's timeline).
      ctx->AddStatsNote(
          known->cluster->function != nullptr
              ? absl::StrFormat("compiled in %.1f ms", seconds * 1e3)
              : absl::StrFormat("did not compile (%.1f ms); ran unfused", seconds * 1e3));
    }
    last_.store(known.get(), std::memory_order_release);
    known_.push_back(std::move(known));
    return *known_.back()->cluster;
  }

  void Run(const CompiledCluster& cluster, const std::vector<ValueKind>& kinds,
           const std::vector<const float*>& inputs, float* result, int64_t result_size,
           float* scratch, int64_t scratch_size, int64_t first, int64_t last, int64_t rows,
           int64_t cols, int64_t batch_rows) const {
    std::vector<MemRefArgs> memrefs;
    memrefs.reserve(num_inputs_ + 2);  // heap-ok: one per input, the output and the scratch
    for (int i = 0; i < num_inputs_; ++i) {
      const int64_t size = kinds[i] == ValueKind::kFull          ? rows * cols
                           : kinds[i] == ValueKind::kRow         ? rows
                           : kinds[i] == ValueKind::kColumn      ? cols
                           : kinds[i] == ValueKind::kBatchColumn ? rows / batch_rows * cols
                                                                 : 1;
      // The compiled code only reads its inputs (the output may share a full input's buffer,
      // which it writes as Compute says).
      memrefs.emplace_back(const_cast<float*>(inputs[i]), size);
    }
    memrefs.emplace_back(result, result_size);
    memrefs.emplace_back(scratch, scratch_size);
    int64_t scratch_address = reinterpret_cast<int64_t>(scratch);
    int64_t indices[5] = {first, last, rows, cols, batch_rows};
    std::vector<void*> args;
    for (MemRefArgs& m : memrefs) m.AppendTo(&args);
    args.push_back(&scratch_address);
    for (int64_t& index : indices) args.push_back(&index);
    cluster.function(args.data());
  }

  // Whether the compiled order of the reductions is the reduction kernels' own: they split a
  // row over threads when there are fewer rows than threads and the row is long
  // (reduce_loops.h), and copy a row of one element.
  static bool CompiledOrderMatches(OpKernelContext* ctx, int64_t rows, int64_t cols) {
    if (cols == 1) return false;
    const auto* pool = ctx->device()->eigen_cpu_device();
    const int threads = pool == nullptr ? 1 : pool->numThreads();
    return !(threads > 1 && rows < threads && cols >= 2 * reduction::kMinChunkElements &&
             cols >= 2 * reduction::kLanes);
  }

  // The broadcast of all inputs' shapes (right-aligned, as numpy), of rank at least 1.
  absl::Status FullShape(OpKernelContext* ctx, TensorShape* full) const {
    int rank = 1;
    for (int i = 0; i < num_inputs_; ++i) rank = std::max(rank, ctx->input(i).dims());
    std::vector<int64_t> dims(rank, 1);  // heap-ok: one per dim (rank <= 254)
    for (int i = 0; i < num_inputs_; ++i) {
      const TensorShape& s = ctx->input(i).shape();
      for (int j = 0; j < s.dims(); ++j) {
        int64_t& d = dims[rank - s.dims() + j];
        const int64_t e = s.dim_size(j);
        if (d == e || e == 1) continue;
        if (d != 1) {
          return errors::InvalidArgument("Node '", name(), "' (_MlirCluster): input ", i,
                                         " has shape ", s.DebugString(),
                                         ", which does not broadcast with the other inputs");
        }
        d = e;
      }
    }
    *full = TensorShape();
    for (const int64_t d : dims) RETURN_IF_ERROR(full->AddDimWithStatus(d));
    return absl::OkStatus();
  }

  absl::Status InputKinds(OpKernelContext* ctx, const TensorShape& full,
                          std::vector<ValueKind>* kinds) const {
    const int rank = full.dims();
    const int64_t cols = full.dim_size(rank - 1);
    for (int i = 0; i < num_inputs_; ++i) {
      const TensorShape& s = ctx->input(i).shape();
      if (s == full) {
        kinds->push_back(ValueKind::kFull);
        continue;
      }
      bool row = s.dims() == rank && s.dim_size(rank - 1) == 1;
      for (int j = 0; row && j + 1 < rank; ++j) row = s.dim_size(j) == full.dim_size(j);
      if (row) {
        kinds->push_back(ValueKind::kRow);
        continue;
      }
      bool column = s.dims() >= 1 && s.dim_size(s.dims() - 1) == cols;
      for (int j = 0; column && j + 1 < s.dims(); ++j) column = s.dim_size(j) == 1;
      if (column) {
        kinds->push_back(ValueKind::kColumn);
        continue;
      }
      bool batch_column = rank >= 3 && s.dims() == rank && s.dim_size(0) == full.dim_size(0) &&
                          s.dim_size(rank - 1) == cols;
      for (int j = 1; batch_column && j + 1 < rank; ++j) batch_column = s.dim_size(j) == 1;
      if (batch_column) {
        kinds->push_back(ValueKind::kBatchColumn);
        continue;
      }
      if (s.num_elements() == 1) {
        kinds->push_back(ValueKind::kScalar);
        continue;
      }
      return errors::InvalidArgument(
          "Node '", name(), "' (_MlirCluster): input ", i, " has shape ", s.DebugString(),
          ", which is neither the cluster's shape ", full.DebugString(),
          ", that shape with a last dim of 1, its last dim alone, its first and last dims with "
          "ones between, nor one element");
    }
    return absl::OkStatus();
  }

  int num_inputs_ = 0;
  std::vector<FusedElementwiseStep> steps_;
  struct KnownCluster {
    std::vector<ValueKind> kinds;
    const CompiledCluster* cluster = nullptr;
  };
  std::atomic<const KnownCluster*> last_{nullptr};
  absl::Mutex mu_;
  // One entry per distinct input kinds the node has seen (in practice one or two), kept
  // alive for readers of last_.
  std::vector<std::unique_ptr<KnownCluster>> known_ ABSL_GUARDED_BY(mu_);
};

REGISTER_KERNEL_BUILDER(Name("_MlirCluster").Device(DEVICE_CPU).TypeConstraint<float>("T"),
                        MlirClusterOp);

}  // namespace
}  // namespace sluice
