// The tree's C++ sources as a test in tests/source sees them: the packages' layer_sources()
// filegroups in the test's runfiles (the `data` of the test, CHECKED_SOURCES in the BUILD).
#ifndef SLUICE_TESTS_SOURCE_SOURCE_TREE_H_
#define SLUICE_TESTS_SOURCE_SOURCE_TREE_H_

#include <string>
#include <vector>

#include "tests/source/layering.h"

namespace sluice {
namespace source_tree {

// The workspace root inside the running test's runfiles.
std::string Runfiles();

// The whole file at `path`; "" if it cannot be read.
std::string ReadFile(const std::string& path);

// Every .h, .cc and .cu file under Runfiles(), with paths from the workspace root.
std::vector<layering::SourceFile> TreeSources();

}  // namespace source_tree
}  // namespace sluice

#endif  // SLUICE_TESTS_SOURCE_SOURCE_TREE_H_
