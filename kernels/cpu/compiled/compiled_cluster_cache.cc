#include "kernels/cpu/compiled/compiled_cluster_cache.h"

#include <chrono>
#include <memory>
#include <mutex>
#include <string>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "absl/synchronization/mutex.h"
#include "glog/logging.h"
#include "graph/core/errors.h"
#include "kernels/cpu/compiled/cluster_unary.h"

namespace sluice {
namespace {

absl::Mutex stats_mu;
ClusterCompileStats* const stats = new ClusterCompileStats();

struct Entry {
  std::once_flag once;
  std::unique_ptr<absl::StatusOr<CompiledCluster>> result;
};

std::string Key(absl::Span<const FusedElementwiseStep> steps,
                absl::Span<const ValueKind> input_kinds) {
  std::string key;
  for (const ValueKind kind : input_kinds) absl::StrAppend(&key, ValueKindName(kind), ",");
  for (const FusedElementwiseStep& step : steps) {
    absl::StrAppend(&key, ";", step.op);
    for (int j = 0; j < step.arity; ++j) absl::StrAppend(&key, ",", step.operands[j]);
  }
  return key;
}

void Callback(int64_t id, int64_t address, int64_t n, int64_t flat, int64_t total) {
  ClusterUnaryCallback(id, address, n, flat, total);
}

absl::StatusOr<CompiledCluster> Compile(absl::Span<const FusedElementwiseStep> steps,
                                        absl::Span<const ValueKind> input_kinds) {
  const auto start = std::chrono::steady_clock::now();
  CompiledCluster compiled;
  ClusterCodegenOptions codegen;
  codegen.eigen_rationals = EigenRationalsAsGenerated();
  ASSIGN_OR_RETURN(compiled.code, GenerateClusterCode(steps, input_kinds, codegen));
  MlirCompileOptions options;
  options.symbols.emplace_back(kClusterCallback, reinterpret_cast<void*>(&Callback));
  ASSIGN_OR_RETURN(compiled.module, CompileMlir(compiled.code.mlir, options));
  ASSIGN_OR_RETURN(compiled.function, compiled.module->Lookup(kClusterFunction));
  compiled.compile_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return compiled;
}

}  // namespace

const absl::StatusOr<CompiledCluster>* GetCompiledCluster(
    absl::Span<const FusedElementwiseStep> steps, absl::Span<const ValueKind> input_kinds) {
  static absl::Mutex mu;
  static auto* const entries = new absl::flat_hash_map<std::string, std::unique_ptr<Entry>>();
  const std::string key = Key(steps, input_kinds);
  Entry* entry;
  {
    absl::MutexLock lock(&mu);
    std::unique_ptr<Entry>& slot = (*entries)[key];
    if (slot == nullptr) slot = std::make_unique<Entry>();
    entry = slot.get();
  }
  std::call_once(entry->once, [&] {
    const auto start = std::chrono::steady_clock::now();
    entry->result = std::make_unique<absl::StatusOr<CompiledCluster>>(Compile(steps, input_kinds));
    {
      absl::MutexLock lock(&stats_mu);
      ++(entry->result->ok() ? stats->compiled : stats->failed);
      stats->seconds +=
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    }
    if (!entry->result->ok()) {
      LOG(WARNING) << "a cluster of " << steps.size()
                   << " ops runs unfused: it did not compile: " << entry->result->status();
    }
  });
  return entry->result.get();
}

ClusterCompileStats GetClusterCompileStats() {
  absl::MutexLock lock(&stats_mu);
  return *stats;
}

}  // namespace sluice
