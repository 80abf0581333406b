#include "kernels/cpu/compiled/compiled_cluster_cache.h"

#include <chrono>
#include <cstdlib>
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
  CompiledCluster cluster;
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

// The folder SLUICE_MLIR_CACHE_DIR names, read once; empty when unset.
const std::string& CacheDir() {
  static const std::string* const dir = [] {
    const char* env = std::getenv("SLUICE_MLIR_CACHE_DIR");
    return new std::string(env == nullptr ? "" : env);
  }();
  return *dir;
}

// Generates and compiles; a failure is recorded in the result, never returned. `*loaded`:
// whether the code came from the cache folder.
void Compile(absl::Span<const FusedElementwiseStep> steps, absl::Span<const ValueKind> input_kinds,
             CompiledCluster* cluster, bool* loaded) {
  cluster->code = GenerateClusterCode(steps, input_kinds, ClusterCodegenOptionsHere());
  if (!cluster->code.ok()) {
    cluster->failure = cluster->code.status();
    return;
  }
  MlirCompileOptions options;
  options.symbols.emplace_back(kClusterCallback, reinterpret_cast<void*>(&Callback));
  options.cache_dir = CacheDir();
  options.loaded_from_cache = loaded;
  auto module = CompileMlir(cluster->code->mlir, options);
  if (!module.ok()) {
    cluster->failure = module.status();
    return;
  }
  auto function = (*module)->Lookup(kClusterFunction);
  if (!function.ok()) {
    cluster->failure = function.status();
    return;
  }
  cluster->module = *std::move(module);
  cluster->function = *function;
}

}  // namespace

const CompiledCluster& GetCompiledCluster(absl::Span<const FusedElementwiseStep> steps,
                                          absl::Span<const ValueKind> input_kinds,
                                          bool* compiled_here, double* seconds) {
  if (compiled_here != nullptr) *compiled_here = false;
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
    bool loaded = false;
    Compile(steps, input_kinds, &entry->cluster, &loaded);
    const bool compiled = entry->cluster.function != nullptr;
    const double took =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    {
      absl::MutexLock lock(&stats_mu);
      ++(compiled ? stats->compiled : stats->failed);
      if (compiled && loaded) ++stats->from_cache;
      stats->seconds += took;
    }
    if (compiled_here != nullptr) *compiled_here = true;
    if (seconds != nullptr) *seconds = took;
    // A program that does not fit its kinds is the kernel's error to report, not a warning.
    if (!compiled && entry->cluster.code.ok()) {
      LOG(WARNING) << "a cluster of " << steps.size()
                   << " ops runs unfused: it did not compile: " << entry->cluster.failure;
    }
  });
  return entry->cluster;
}

ClusterCompileStats GetClusterCompileStats() {
  absl::MutexLock lock(&stats_mu);
  return *stats;
}

}  // namespace sluice
