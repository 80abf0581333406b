// Checks a unary op that compiled clusters write out (Erfc, Exp, Sigmoid, Log, Sqrt, Rsqrt,
// Reciprocal, Erf, Tanh) on every float: the cluster's value against the op's kernel's own
// (cluster_unary.h: the packet path of the kernel's Eigen functor, or numerics::ErfcFloat), bit for
// bit. The generated MLIR must perform the same operations in the same order; a difference in the
// last place of an intermediate changes a float result only for the rare inputs next to a rounding
// boundary, which random tests seldom meet and this meets all of. Up to a minute on two cores.
//
//   bazel run -c opt //kernels/cpu/compiled:cluster_unary_sweep -- Exp
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "compiler/cluster_codegen.h"
#include "graph/ops/mlir_cluster_spec.h"
#include "kernels/cpu/compiled/cluster_unary.h"
#include "kernels/cpu/compiled/compiled_cluster_cache.h"

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

void Sweep(sluice::CompiledMlirModule::PackedFunction function, sluice::ClusterUnaryFunction op,
           uint64_t begin, uint64_t end, int64_t* differ) {
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
    int64_t indices[5] = {0, kRows, kRows, kCols, /*batch_rows=*/1};
    std::vector<void*> args;
    in.AppendTo(&args);
    out.AppendTo(&args);
    scratch_ref.AppendTo(&args);
    args.push_back(&scratch_address);
    for (int64_t& index : indices) args.push_back(&index);
    function(args.data());
    // The whole block is one tensor whose size is a multiple of any packet: Eigen's packet
    // path throughout, as in the compiled code.
    expected = x;
    op(expected.data(), expected.size(), 0, expected.size());
    for (size_t i = 0; i < x.size(); ++i) {
      // Any NaN for any NaN, as the kernel tests compare.
      if (std::isnan(compiled[i]) && std::isnan(expected[i])) continue;
      *differ += std::memcmp(&compiled[i], &expected[i], sizeof(float)) != 0;
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  const std::string name = argc > 1 ? argv[1] : "Erfc";
  const sluice::ClusterUnaryFunction op = sluice::FindClusterUnary(name);
  auto steps = sluice::ParseClusterProgram(1, {name}, {0});
  if (op == nullptr || !steps.ok()) {
    std::fprintf(stderr, "not a unary op clusters hold: %s\n", name.c_str());
    return 2;
  }
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
    workers.emplace_back(Sweep, cluster.function, op, begin, end, &differ[t]);
  }
  for (auto& w : workers) w.join();
  int64_t sum = 0;
  for (int64_t d : differ) sum += d;
  std::printf("every float through the compiled %s: %lld differ from the kernel's\n", name.c_str(),
              static_cast<long long>(sum));
  return sum == 0 ? 0 : 1;
}
