// gpu_check: every GPU test linked into one binary (what tools/gpu_check.sh carries to a GPU
// machine), then, with --step_overhead, a micro-benchmark of a step's fixed cost on the GPU,
// and with --model_bench=DIR the whole-model benchmark (model_bench.h) over DIR's graphs.
//
// The benchmark runs a graph with one small GPU op (AddV2 of a fed [4] tensor and a [4] Const,
// on GPU:0) and fetches its result: each Run copies the feed in, launches one kernel and
// copies the result out. The same graph pinned to CPU:0 runs in the same process as the
// reference. It prints the median, p90 and p99 of 2000 runs after 200 warm-up runs.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "tests/gpu/gpu_test_util.h"
#include "tests/gpu/model_bench.h"

namespace sluice {
namespace {

constexpr char kAddGraph[] =
    "node { name: 'x' op: 'Placeholder' attr { key: 'dtype' value { type: DT_FLOAT } } }\n"
    "node { name: 'c' op: 'Const' attr { key: 'dtype' value { type: DT_FLOAT } } "
    "attr { key: 'value' value { tensor { dtype: DT_FLOAT tensor_shape { dim { size: 4 } } "
    "float_val: [1, 2, 3, 4] } } } }\n"
    "node { name: 'y' op: 'AddV2' input: 'x' input: 'c' "
    "attr { key: 'T' value { type: DT_FLOAT } } }\n";

// Microseconds per Run of the add graph pinned to `device`; empty on failure.
std::vector<double> TimeSteps(const std::string& device) {
  auto session = gpu_test::NewSessionOrDie();
  absl::Status s =
      session->Create(gpu_test::PinnedTo(gpu_test::ParseGraphOrDie(kAddGraph), device));
  if (!s.ok()) {
    std::printf("step overhead on %s: %s\n", device.c_str(), std::string(s.message()).c_str());
    return {};
  }
  const Tensor x = gpu_test::RandomTensor(DT_FLOAT, TensorShape({4}), 1);
  std::vector<Tensor> outputs;
  std::vector<double> micros;
  for (int i = 0; i < 2200; ++i) {
    const auto start = std::chrono::steady_clock::now();
    s = session->Run({{"x", x}}, {"y"}, {}, &outputs);
    const auto end = std::chrono::steady_clock::now();
    if (!s.ok()) {
      std::printf("step overhead on %s: %s\n", device.c_str(), std::string(s.message()).c_str());
      return {};
    }
    if (i >= 200) micros.push_back(std::chrono::duration<double, std::micro>(end - start).count());
  }
  std::sort(micros.begin(), micros.end());
  return micros;
}

void ReportStepOverhead() {
  if (!gpu_test::HasGpu()) {
    std::printf("step overhead: skipped (no CUDA device)\n");
    return;
  }
  std::printf("step overhead (one AddV2 of [4] floats, fed and fetched; 2000 runs):\n");
  for (const char* device : {"/device:GPU:0", "/device:CPU:0"}) {
    const std::vector<double> t = TimeSteps(device);
    if (t.empty()) continue;
    auto at = [&](double q) { return t[static_cast<size_t>(q * (t.size() - 1))]; };
    std::printf("  %s: p50 %.1f us, p90 %.1f us, p99 %.1f us\n", device, at(0.5), at(0.9),
                at(0.99));
  }
}

}  // namespace
}  // namespace sluice

int main(int argc, char** argv) {
  testing::InitGoogleTest(&argc, argv);
  bool step_overhead = false;
  std::string model_bench_dir;
  std::string model_bench_device = "GPU";
  constexpr char kModelBench[] = "--model_bench=";
  for (int i = 1; i < argc; ++i) {
    step_overhead |= std::strcmp(argv[i], "--step_overhead") == 0;
    if (std::strncmp(argv[i], kModelBench, sizeof(kModelBench) - 1) == 0) {
      model_bench_dir = argv[i] + sizeof(kModelBench) - 1;
    }
    // Tries the benchmark's graphs where there is no GPU.
    if (std::strcmp(argv[i], "--model_bench_on_cpu") == 0) model_bench_device = "CPU";
  }
  const int failed = RUN_ALL_TESTS();
  if (step_overhead) sluice::ReportStepOverhead();
  if (!model_bench_dir.empty()) {
    const absl::Status s =
        sluice::gpu_bench::RunModelBenchmark(model_bench_dir, model_bench_device);
    if (!s.ok()) {
      std::printf("model benchmark: %s\n", std::string(s.message()).c_str());
      return 1;
    }
  }
  return failed;
}
