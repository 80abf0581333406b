// GenerateOpGraph: small graphs of registered ops, built from a ByteSource, for the fuzz
// targets that run ops (session_graph_fuzzer, the per-family kernel fuzzers).
//
// A graph is one to max_ops op nodes ("op0", "op1", ...), each of an op that has a CPU
// kernel in this binary (FuzzableCpuKernels; every op equally likely, then one of its
// kernels), with attrs from AddRandomAttrs (within the kernel's type constraints) and one
// input per input the attrs imply. An input is a new Const ("op<k>_in<i>") holding a
// RandomTensor, a Placeholder of that dtype fed with it (when allowed; its shape attr is the
// tensor's, partly or wholly unknown), or, for later ops, an output of an earlier op of the
// same dtype. Half of an op's new data inputs share one shape (the op's common shape), so
// that operands of elementwise ops, concatenations and the like often agree, and shape
// arguments (Reshape's shape, Transpose's perm, Pad's paddings) mostly fit that shape
// (fuzz/input_roles.h). Inputs of dtypes that cannot be generated (resource handles,
// variants) come only from earlier ops, such as a VarHandleOp or an EmptyTensorList. The
// outputs of every op are fetched (the first 16 of an op with more); ops without outputs are
// targets.
//
// The graph is not guaranteed to be valid: attrs may break their OpDef's constraints, an
// input list may have a count the OpDef refuses (the node then gets no inputs), and shapes
// rarely agree. That is the point: every such graph must fail cleanly.
//
// Thread-compatible: no shared state beyond the registries, which are read only.
#ifndef SLUICE_FUZZ_OP_GRAPH_GENERATOR_H_
#define SLUICE_FUZZ_OP_GRAPH_GENERATOR_H_

#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/types/span.h"
#include "fuzz/byte_source.h"
#include "graph/core/tensor.h"
#include "graph/core/types.h"
#include "proto/graph.pb.h"
#include "proto/kernel_def.pb.h"

namespace sluice {
namespace fuzz {

// The CPU kernels registered in this binary whose ops a generated graph can drive: not ops
// with function attrs or ref arguments, not the internal ops that need a rendezvous or a
// call frame (_Send, _Recv, _Arg, _Retval; only "_Fused..." internal ops are kept), not
// Placeholders (fed, never run), not Print/PrintV2 (which would flood the log) and not Abort
// (whose failure would hide the other ops' results). Sorted by op name and constraints, so
// that the same bytes pick the same kernel in every run.
std::vector<KernelDef> FuzzableCpuKernels();

struct OpGraphOptions {
  int max_ops = 1;
  // Inputs may be fed Placeholders; otherwise they are all Consts (or earlier ops).
  bool allow_placeholders = true;
};

struct OpGraph {
  GraphDef graph;
  // The generated ops, in order ("AddV2", "Range"): for logs.
  std::vector<std::string> ops;
  std::vector<std::pair<std::string, Tensor>> feeds;
  std::vector<std::string> fetches;
  // The dtype each fetch has by its op's signature.
  DataTypeVector fetch_types;
  std::vector<std::string> targets;
};

// INVALID_ARGUMENT when `kernels` is empty; UNIMPLEMENTED when an input of the drawn op can
// be neither generated nor taken from an earlier op (the case is then skipped).
absl::Status GenerateOpGraph(absl::Span<const KernelDef> kernels, const OpGraphOptions& options,
                             ByteSource* bytes, OpGraph* out);

}  // namespace fuzz
}  // namespace sluice

#endif  // SLUICE_FUZZ_OP_GRAPH_GENERATOR_H_
