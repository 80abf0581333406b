#include "tools/cli/openmp_defaults.h"

#include <unistd.h>

#include <cstdlib>

namespace sluice {
namespace cli {

void ApplyOpenMpDefaults(char** argv) {
  if (std::getenv("GOMP_SPINCOUNT") != nullptr || std::getenv("OMP_WAIT_POLICY") != nullptr) {
    return;
  }
  // Set first: the new image sees it and returns above, so this happens once.
  if (setenv("GOMP_SPINCOUNT", kDefaultGompSpinCount, /*overwrite=*/0) != 0) return;
  execv("/proc/self/exe", argv);
  // Only on failure: run on with what libgomp already read.
}

}  // namespace cli
}  // namespace sluice
