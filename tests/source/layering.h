// Checks that every #include in the tree points at the includer's own layer or one below it.
//
// The layers and what each may use are written once, in //:layers.bzl; the build writes them
// out as a table (layer_table in layers.bzl) with lines of the form
//   "graph/shape: graph/op"      a layer and the layers it may use directly
//   "tree: kernels"              a layer whose subfolders belong to it
//   "test_reach: passes"         layers whose closure every test may also use
// A file belongs to the layer of the longest layer folder that holds it.
//
// Rules, for every quoted #include of a path that lies in some layer:
//  - a library file may include only from the closure of its own layer's uses;
//  - a test file (*_test.cc, *_testutil.*, *_test_util.*, *_test_ops.*, *_benchmark.cc) may
//    also use the test reach, since its fixtures may come from above its layer (a graph
//    imported from text, a CPU device to run a kernel on), but never the session or the APIs
//    unless its own layer may;
//  - a file under testdata/ stands in for users' code and may include from any layer;
//  - no file includes a forwarding header (one whose text opens with "// Forwarding header"),
//    which exists only for users' code, but for files under testdata/, which stand in for it;
//  - the included file must be one of the checked files, unless it is generated (*.pb.h, or
//    named in `generated_headers`), so that a package left out of the check is noticed.
// Every checked file must lie in a layer.
#ifndef SLUICE_TESTS_SOURCE_LAYERING_H_
#define SLUICE_TESTS_SOURCE_LAYERING_H_

#include <map>
#include <set>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace sluice {
namespace layering {

struct LayerTable {
  // Layer -> the layers it may use directly.
  std::map<std::string, std::vector<std::string>> uses;
  // Layers whose subfolders belong to them.
  std::set<std::string> trees;
  // What tests of layers below these may use besides their own layer's closure.
  std::vector<std::string> test_reach;
};

// INVALID_ARGUMENT on a malformed line, a use of an unknown layer, or a cycle.
absl::StatusOr<LayerTable> ParseLayerTable(absl::string_view text);

// The layer that holds `path` (a path from the workspace root), or "" if none does.
std::string LayerOf(const LayerTable& table, absl::string_view path);

// The layers `layer` may include from: itself and everything it uses, transitively.
std::set<std::string> Closure(const LayerTable& table, const std::string& layer);

bool IsTestSource(absl::string_view path);

struct SourceFile {
  std::string path;  // from the workspace root, e.g. "graph/core/tensor.h"
  std::string text;
};

// One line per violation, naming the file, its layer, the include and the include's layer.
std::vector<std::string> FindViolations(const LayerTable& table,
                                        const std::vector<SourceFile>& files,
                                        const std::set<std::string>& generated_headers);

}  // namespace layering
}  // namespace sluice

#endif  // SLUICE_TESTS_SOURCE_LAYERING_H_
