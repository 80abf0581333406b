// UseSmallPages: prctl(PR_SET_THP_DISABLE) (see the header).
#include "tools/cli/page_policy.h"

#include <sys/prctl.h>

namespace sluice {
namespace cli {

void UseSmallPages(bool small) {
  // Fails only on kernels older than 3.15, which keep their THP settings as they were.
  prctl(PR_SET_THP_DISABLE, small ? 1 : 0, 0, 0, 0);
}

bool UsingSmallPages() { return prctl(PR_GET_THP_DISABLE, 0, 0, 0, 0) == 1; }

}  // namespace cli
}  // namespace sluice
