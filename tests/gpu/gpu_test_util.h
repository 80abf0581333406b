// Helpers for tests that run graphs on a real GPU and compare with the CPU.
//
// Every such test starts with SLUICE_SKIP_WITHOUT_GPU(): on machines without a GPU (CI, most
// developers') it reports itself skipped, "no CUDA device", never passed.
#ifndef SLUICE_TESTS_GPU_GPU_TEST_UTIL_H_
#define SLUICE_TESTS_GPU_GPU_TEST_UTIL_H_

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "graph/core/tensor.h"
#include "gtest/gtest.h"
#include "proto/graph.pb.h"
#include "runtime/device/session_options.h"
#include "runtime/session/session.h"

namespace sluice {
namespace gpu_test {

// Whether a session here gets a GPU device.
bool HasGpu();

#define SLUICE_SKIP_WITHOUT_GPU() \
  if (!::sluice::gpu_test::HasGpu()) GTEST_SKIP() << "no CUDA device"

// Session options for comparisons: no constant folding (test graphs are small chains that it
// would fold away on the host).
SessionOptions UnfoldedOptions();

std::unique_ptr<Session> NewSessionOrDie(const SessionOptions& options = UnfoldedOptions());

GraphDef ParseGraphOrDie(const std::string& text);

// `graph` with every node that has no device pinned to `device` ("/device:GPU:0").
GraphDef PinnedTo(const GraphDef& graph, const std::string& device);

// Uniform values in [lo, hi) of `dtype` (float, half, bfloat16, double), from `seed`.
Tensor RandomTensor(DataType dtype, const TensorShape& shape, uint64_t seed, float lo = -1,
                    float hi = 1);

// Runs `graph` with everything pinned to `device` and returns the fetches.
std::vector<Tensor> RunOn(const GraphDef& graph, const std::string& device,
                          const std::vector<std::pair<std::string, Tensor>>& feeds,
                          const std::vector<std::string>& fetches);

// Each element of `actual` within `abs_tol + rel_tol * |expected|` of `expected` (NaN matches
// NaN, infinities must match exactly); shapes and dtypes equal. Reports the worst element.
void ExpectClose(const Tensor& expected, const Tensor& actual, double abs_tol, double rel_tol,
                 const std::string& what);

// Elements as doubles (float, half, bfloat16, double, int32, int64).
std::vector<double> AsDoubles(const Tensor& t);

}  // namespace gpu_test
}  // namespace sluice

#endif  // SLUICE_TESTS_GPU_GPU_TEST_UTIL_H_
