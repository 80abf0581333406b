// op_gen HEADER_OUT SOURCE_OUT HEADER_INCLUDE: writes the C++ client wrappers of every op
// registered in this binary (see cc_op_gen.h). Each wrapper library links this main with the
// op library whose ops it wraps, so the registry holds exactly those ops.
#include <fstream>
#include <iostream>
#include <string>

#include "graph/op/op_registry.h"
#include "proto/op_def.pb.h"
#include "tools/op_gen/cc_op_gen.h"

namespace {

bool WriteFile(const std::string& path, const std::string& contents) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << contents;
  out.close();
  if (!out) {
    std::cerr << "op_gen: cannot write " << path << "\n";
    return false;
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 4) {
    std::cerr << "usage: " << argv[0] << " HEADER_OUT SOURCE_OUT HEADER_INCLUDE\n";
    return 2;
  }
  const auto errors = sluice::OpRegistry::Global()->registration_errors();
  for (const auto& error : errors) std::cerr << "op_gen: registration failed: " << error << "\n";
  if (!errors.empty()) return 1;
  sluice::OpList ops;
  sluice::OpRegistry::Global()->Export(/*include_internal=*/false, &ops);
  const sluice::op_gen::GeneratedCode code = sluice::op_gen::GenerateCcOps(ops, argv[3]);
  return WriteFile(argv[1], code.header) && WriteFile(argv[2], code.source) ? 0 : 1;
}
