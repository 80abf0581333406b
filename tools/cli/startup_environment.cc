#include "tools/cli/startup_environment.h"

#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <string>

namespace sluice {
namespace cli {

void ApplyStartupEnvironment(char** argv) {
  bool changed = false;
  if (std::getenv("GOMP_SPINCOUNT") == nullptr && std::getenv("OMP_WAIT_POLICY") == nullptr) {
    if (setenv("GOMP_SPINCOUNT", kDefaultGompSpinCount, /*overwrite=*/0) != 0) return;
    changed = true;
  }
  const char* tunables = std::getenv("GLIBC_TUNABLES");
  if (tunables == nullptr || *tunables == '\0') {
    if (setenv("GLIBC_TUNABLES", kHugePageTunable, /*overwrite=*/1) != 0) return;
    changed = true;
  } else if (std::strstr(tunables, "glibc.malloc.hugetlb") == nullptr) {
    const std::string both = std::string(tunables) + ":" + kHugePageTunable;
    if (setenv("GLIBC_TUNABLES", both.c_str(), /*overwrite=*/1) != 0) return;
    changed = true;
  }
  // Set before the exec: the new image finds both settings and returns above.
  if (changed) execv("/proc/self/exe", argv);
  // Only on failure: run on with what the runtimes already read.
}

}  // namespace cli
}  // namespace sluice
