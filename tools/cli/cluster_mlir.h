// EmitClusterMlir: for `sluice optimize --emit-mlir DIR`, each `_MlirCluster` node of an
// optimised graph as the MLIR its kernel compiles: DIR/<node>.mlir, the generated module
// (compiler/cluster_codegen.h), and DIR/<node>.llvm.mlir, the same after lowering to the LLVM
// dialect (compiler/mlir_jit.h). The inputs' kinds are those the clustering pass recorded
// (kMlirClusterInputKindsAttr); '/' in a node's name becomes '_' in the file's.
//
// Errors: INVALID_ARGUMENT for a cluster without recorded kinds or whose program does not
// generate, the file system's for a file that cannot be written; files already written stay.
#ifndef SLUICE_TOOLS_CLI_CLUSTER_MLIR_H_
#define SLUICE_TOOLS_CLI_CLUSTER_MLIR_H_

#include <string>

#include "absl/status/status.h"
#include "proto/graph.pb.h"

namespace sluice {
namespace cli {

absl::Status EmitClusterMlir(const GraphDef& graph, const std::string& dir, int* clusters);

}  // namespace cli
}  // namespace sluice

#endif  // SLUICE_TOOLS_CLI_CLUSTER_MLIR_H_
