// Checks that a compiled cluster's Erfc is numerics::ErfcFloat — the function Sluice's Erfc
// kernel calls — on every float: the generated MLIR must perform ErfcFloat's operations in
// its order (numerics/erfc_float.h). A reordering at double precision changes a float result
// only for the rare inputs whose value lies next to a rounding boundary, which random tests
// seldom meet; this meets them all. About half a minute on two cores.
//
//   bazel run -c opt //kernels/cpu/compiled:erfc_cluster_sweep
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <thread>
#include <vector>

#include "compiler/cluster_codegen.h"
#include "graph/ops/mlir_cluster_spec.h"
#include "kernels/cpu/compiled/compiled_cluster_cache.h"
#include "numerics/erfc_float.h"

namespace {

constexpr int64_t kCols = 4096;
constexpr int64_t kRows = 64;

struct MemRef {
  float* allocated;
  float* aligned;
  int64_t offset = 0;
  int64_t size;
  int64_t stride = 1;
  MemRef(float* data, int64_t n) : allocated(data), aligned(data), size(n) {}
  void AppendTo(std::vector<void*>* args) {
    args->insert(args->end(), {&allocated, &aligned, &offset, &size, &stride});
  }
};

void Sweep(sluice::CompiledMlirModule::PackedFunction function, uint64_t begin, uint64_t end,
           int64_t* differ) {
  // heap-ok: a check tool's fixed blocks, not a kernel's memory
  std::vector<float> x(kRows * kCols), compiled(x.size()), expected(x.size());
  // heap-ok: a check tool's fixed blocks, not a kernel's memory
  std::vector<float> scratch(sluice::kClusterScratchSlot + kCols);
  for (uint64_t b = begin; b < end; b += x.size()) {
    for (size_t i = 0; i < x.size(); ++i) {
      const uint32_t bits = static_cast<uint32_t>(b + i);
      std::memcpy(&x[i], &bits, sizeof(float));
    }
    MemRef in(x.data(), x.size()), out(compiled.data(), x.size());
    MemRef scratch_ref(scratch.data(), scratch.size());
    int64_t scratch_address = reinterpret_cast<int64_t>(scratch.data());
    int64_t indices[4] = {0, kRows, kRows, kCols};
    std::vector<void*> args;
    in.AppendTo(&args);
    out.AppendTo(&args);
    scratch_ref.AppendTo(&args);
    args.push_back(&scratch_address);
    for (int64_t& index : indices) args.push_back(&index);
    function(args.data());
    sluice::numerics::ErfcFloat(x.data(), expected.data(), x.size());
    for (size_t i = 0; i < x.size(); ++i) {
      *differ += std::memcmp(&compiled[i], &expected[i], sizeof(float)) != 0;
    }
  }
}

}  // namespace

int main() {
  auto steps = sluice::ParseClusterProgram(1, {"Erfc"}, {0});
  if (!steps.ok()) return 2;
  const sluice::CompiledCluster& cluster =
      sluice::GetCompiledCluster(*steps, {sluice::ValueKind::kFull});
  if (cluster.function == nullptr) {
    std::fprintf(stderr, "the cluster did not compile: %s\n", cluster.failure.ToString().c_str());
    return 2;
  }
  const unsigned threads = std::max(1u, std::thread::hardware_concurrency());
  const uint64_t total = uint64_t{1} << 32;
  const uint64_t block = kRows * kCols;
  std::vector<int64_t> differ(threads);  // heap-ok: one count per thread
  std::vector<std::thread> workers;
  for (unsigned t = 0; t < threads; ++t) {
    const uint64_t begin = total / block * t / threads * block;
    const uint64_t end = total / block * (t + 1) / threads * block;
    workers.emplace_back(Sweep, cluster.function, begin, end, &differ[t]);
  }
  for (auto& w : workers) w.join();
  int64_t sum = 0;
  for (int64_t d : differ) sum += d;
  std::printf("every float through the compiled Erfc: %lld differ from numerics::ErfcFloat\n",
              static_cast<long long>(sum));
  return sum == 0 ? 0 : 1;
}
