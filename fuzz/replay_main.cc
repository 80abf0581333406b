// The main of a fuzz target outside --config=fuzz: runs LLVMFuzzerTestOneInput once on each
// input named on the command line, as libFuzzer does for file arguments, so that the seed
// corpora and the regressions run as ordinary tests under gcc and --config=asan.
//
// Arguments are files or directories (their regular files, in name order, not recursing);
// arguments starting with '-' are libFuzzer flags and are ignored. A missing or unreadable
// path, or no input at all, fails the run (exit 1), so a broken corpus path is noticed; an input
// that breaks a property crashes the process, which fails the test. LLVMFuzzerInitialize runs first
// when the target defines it.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <system_error>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);
extern "C" __attribute__((weak)) int LLVMFuzzerInitialize(int* argc, char*** argv);

namespace {

bool ReadInput(const std::string& path, std::string* bytes) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  bytes->assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  return !in.bad();
}

// The files `path` names: itself, or a directory's regular files in name order.
bool ListInputs(const std::string& path, std::vector<std::string>* files) {
  std::error_code error;
  if (!std::filesystem::is_directory(path, error)) {
    files->push_back(path);
    return true;
  }
  std::vector<std::string> found;
  for (const auto& entry : std::filesystem::directory_iterator(path, error)) {
    if (entry.is_regular_file(error)) found.push_back(entry.path().string());
  }
  if (error) return false;
  std::sort(found.begin(), found.end());
  files->insert(files->end(), found.begin(), found.end());
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  if (LLVMFuzzerInitialize != nullptr) LLVMFuzzerInitialize(&argc, &argv);
  std::vector<std::string> files;
  for (int i = 1; i < argc; ++i) {
    if (argv[i][0] == '-') continue;
    if (!ListInputs(argv[i], &files)) {
      std::fprintf(stderr, "cannot list %s\n", argv[i]);
      return 1;
    }
  }
  if (files.empty()) {
    std::fprintf(stderr, "no inputs: name corpus files or directories\n");
    return 1;
  }
  for (const std::string& file : files) {
    std::string bytes;
    if (!ReadInput(file, &bytes)) {
      std::fprintf(stderr, "cannot read %s\n", file.c_str());
      return 1;
    }
    std::fprintf(stderr, "running %s (%zu bytes)\n", file.c_str(), bytes.size());
    LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
  }
  std::fprintf(stderr, "replayed %zu inputs\n", files.size());
  return 0;
}
