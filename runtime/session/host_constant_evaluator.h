// HostConstantEvaluator: runs constant subgraphs on the host with the CPU kernels, for
// constant folding (passes/constant_folding.h).
//
// Evaluate runs the given nodes one after the other, in the given order, on a private host
// device (DefaultCpuAllocator(), an Eigen ThreadPoolDevice over a small pool of its own).
// Const nodes are read from their `value` attr without a kernel; every other node gets a
// kernel from CreateOpKernel, built once and cached by (node name, op, attrs) for the
// evaluator's lifetime, so folding the same graph again reuses it. Intermediate values are
// dropped as soon as their last consumer in the subgraph has run.
//
// Errors: a kernel's failure (at construction or in Compute) comes back with the node
// attached ("\n\t [[{{node n}}]]"); INVALID_ARGUMENT when a node's data input is produced
// outside `nodes` or has no edge, when an output asked for is not an output of a node in
// `nodes`, or when a Const's `value` does not parse or disagrees with its `dtype`;
// UNIMPLEMENTED for nodes with ref inputs; INTERNAL when a kernel leaves an output unset.
// Nothing a graph holds can crash the evaluator.
//
// Thread safety: CanEvaluate and Evaluate may be called concurrently; the kernel cache is
// guarded by a mutex, and kernels' Compute is thread-safe by the kernel API's contract.
#ifndef SLUICE_RUNTIME_SESSION_HOST_CONSTANT_EVALUATOR_H_
#define SLUICE_RUNTIME_SESSION_HOST_CONSTANT_EVALUATOR_H_

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/synchronization/mutex.h"
#include "absl/types/span.h"
#include "graph/core/tensor.h"
#include "passes/constant_evaluator.h"

namespace sluice {

class DeviceBase;
class Node;
class OpKernel;

class HostConstantEvaluator : public ConstantSubgraphEvaluator {
 public:
  // `num_threads` (at least 1) sizes the pool kernels use for intra-op parallelism.
  explicit HostConstantEvaluator(int num_threads = 1);
  ~HostConstantEvaluator() override;

  HostConstantEvaluator(const HostConstantEvaluator&) = delete;
  HostConstantEvaluator& operator=(const HostConstantEvaluator&) = delete;

  bool CanEvaluate(const Node& node) const override;
  absl::Status Evaluate(absl::Span<const Node* const> nodes,
                        absl::Span<const std::pair<const Node*, int>> outputs,
                        std::vector<Tensor>* values) override;

  // Kernels built so far (for tests of the cache).
  int num_cached_kernels() const;

 private:
  struct HostDevice;

  // The cached kernel for `node`, built on first use, and the device it runs on (whose pool
  // starts on first use: RESOURCE_EXHAUSTED if the system refuses its threads).
  absl::Status GetKernel(const Node& node, OpKernel** kernel, DeviceBase** device);
  // Runs `node`'s kernel on `inputs` and moves its outputs into *outputs.
  absl::Status RunKernel(const Node& node, std::vector<Tensor>* inputs,
                         std::vector<Tensor>* outputs);

  const int num_threads_;
  mutable absl::Mutex mu_;
  // Made once, on first use, and constant from then on. Declared before kernels_ so that the
  // kernels are destroyed before the device they were built for.
  std::unique_ptr<HostDevice> device_ ABSL_GUARDED_BY(mu_);
  absl::flat_hash_map<std::string, std::unique_ptr<OpKernel>> kernels_ ABSL_GUARDED_BY(mu_);
};

}  // namespace sluice

#endif  // SLUICE_RUNTIME_SESSION_HOST_CONSTANT_EVALUATOR_H_
