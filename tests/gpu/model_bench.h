// The GPU model benchmark of issue 22: whole models at batch 1 and 64 on the first GPU, also
// with their regions run as CUDA graphs (SessionOptions::cuda_graphs), next to the floor of
// the same run (the model's convolutions and matrix products alone), from the
// graphs tools/gpu_bench/make_bench_models.py writes (weights left out, filled here with
// deterministic values: speed does not depend on them). gpu_check runs it with
// --model_bench=DIR; it prints one table, in Markdown, for docs/benchmarks.md.
#ifndef SLUICE_TESTS_GPU_MODEL_BENCH_H_
#define SLUICE_TESTS_GPU_MODEL_BENCH_H_

#include <string>

#include "absl/status/status.h"
#include "proto/graph.pb.h"

namespace sluice {
namespace gpu_bench {

// Gives every Const marked `_sluice_synthetic` values of its dtype and shape, uniform in
// [-0.1, 0.1) and different per node, and drops the mark. INVALID_ARGUMENT for a marked Const
// that is not floating point.
absl::Status FillSyntheticConstants(GraphDef* graph);

// Times every model of `dir`'s manifest.txt on GPU:0 (skipped, saying so, without a GPU), or
// with `device_type` "CPU" on CPU:0 (to try the graphs where there is no GPU). Returns the
// first error that stopped a model (the others still run).
absl::Status RunModelBenchmark(const std::string& dir, const std::string& device_type = "GPU");

}  // namespace gpu_bench
}  // namespace sluice

#endif  // SLUICE_TESTS_GPU_MODEL_BENCH_H_
