#include "tools/cli/cluster_mlir.h"

#include <cerrno>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "compiler/cluster_codegen.h"
#include "compiler/mlir_jit.h"
#include "graph/core/errors.h"
#include "graph/ops/mlir_cluster_spec.h"
#include "kernels/cpu/compiled/cluster_unary.h"

namespace sluice {
namespace cli {
namespace {

absl::StatusOr<ValueKind> ParseKind(const std::string& name) {
  for (const ValueKind kind : {ValueKind::kFull, ValueKind::kRow, ValueKind::kColumn,
                               ValueKind::kBatchColumn, ValueKind::kScalar}) {
    if (name == ValueKindName(kind)) return kind;
  }
  return errors::InvalidArgument("unknown value kind '", name, "'");
}

absl::Status WriteText(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
  out.close();
  if (!out) return absl::ErrnoToStatus(errno, absl::StrCat("cannot write ", path));
  return absl::OkStatus();
}

// A cluster's module and its lowered form, written into `dir`.
absl::Status EmitOne(const NodeDef& node, const std::string& dir) {
  const auto context = [&](absl::Status s) {
    return errors::PrependToMessage(s, absl::StrCat("cluster '", node.name(), "': "));
  };
  const auto attr = [&](const char* name) -> const AttrValue* {
    const auto it = node.attr().find(name);
    return it == node.attr().end() ? nullptr : &it->second;
  };
  const AttrValue* ops = attr("ops");
  const AttrValue* operands = attr("operands");
  const AttrValue* kinds = attr(kMlirClusterInputKindsAttr);
  if (ops == nullptr || operands == nullptr || kinds == nullptr) {
    return context(errors::InvalidArgument("no ops, operands or recorded input kinds"));
  }
  std::vector<ValueKind> input_kinds;
  for (const std::string& name : kinds->list().s()) {
    auto kind = ParseKind(name);
    if (!kind.ok()) return context(kind.status());
    input_kinds.push_back(*kind);
  }
  const std::vector<std::string> op_list(ops->list().s().begin(), ops->list().s().end());
  const std::vector<int64_t> operand_list(operands->list().i().begin(), operands->list().i().end());
  auto steps = ParseClusterProgram(static_cast<int>(input_kinds.size()), op_list, operand_list);
  if (!steps.ok()) return context(steps.status());
  auto code = GenerateClusterCode(*steps, input_kinds, ClusterCodegenOptionsHere());
  if (!code.ok()) return context(code.status());
  const std::string base = absl::StrCat(dir, "/", absl::StrReplaceAll(node.name(), {{"/", "_"}}));
  RETURN_IF_ERROR(WriteText(base + ".mlir", code->mlir));
  // The callback is declared, not called: any address resolves it for the lowering.
  MlirCompileOptions compile;
  compile.symbols.emplace_back(kClusterCallback, reinterpret_cast<void*>(&ClusterUnaryCallback));
  std::string lowered;
  compile.lowered_text = &lowered;
  auto module = CompileMlir(code->mlir, compile);
  if (!module.ok()) return context(module.status());
  return WriteText(base + ".llvm.mlir", lowered);
}

}  // namespace

absl::Status EmitClusterMlir(const GraphDef& graph, const std::string& dir, int* clusters) {
  *clusters = 0;
  std::error_code error;
  std::filesystem::create_directories(dir, error);
  if (error) {
    return absl::ErrnoToStatus(error.value(),
                               absl::StrCat("--emit-mlir: cannot create directory ", dir));
  }
  for (const NodeDef& node : graph.node()) {
    if (node.op() != kMlirClusterOp) continue;
    RETURN_IF_ERROR(EmitOne(node, dir));
    ++*clusters;
  }
  return absl::OkStatus();
}

}  // namespace cli
}  // namespace sluice
