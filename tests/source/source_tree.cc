#include "tests/source/source_tree.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"

namespace sluice {
namespace source_tree {

std::string Runfiles() {
  return absl::StrCat(std::getenv("TEST_SRCDIR"), "/", std::getenv("TEST_WORKSPACE"));
}

std::string ReadFile(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

std::vector<layering::SourceFile> TreeSources() {
  std::vector<layering::SourceFile> files;
  const std::filesystem::path root = Runfiles();
  for (auto it = std::filesystem::recursive_directory_iterator(root);
       it != std::filesystem::recursive_directory_iterator(); ++it) {
    const std::string relative = it->path().lexically_relative(root).string();
    if (it->is_directory() && (relative == "external" || absl::StartsWith(relative, "_"))) {
      it.disable_recursion_pending();
      continue;
    }
    const std::string extension = it->path().extension().string();
    if (extension != ".h" && extension != ".cc" && extension != ".cu") continue;
    files.push_back({relative, ReadFile(it->path().string())});
  }
  return files;
}

}  // namespace source_tree
}  // namespace sluice
