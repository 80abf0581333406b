// Small pages while a graph loads, huge pages for its steps.
//
// sluice runs with transparent huge pages for malloc's memory (startup_environment.h), because
// steps run faster and steadier on them. Loading a big graph is the opposite case: parsing,
// importing and shape inference make millions of small objects, and with the kernel's THP
// defrag mode "madvise" (Debian's default) each fresh 2 MiB page of them is compacted and
// zeroed in the page fault. A 1,000,000-node chain spent 3-4 s of its 10 s in the kernel's
// clear_page, and more when memory was fragmented. So `run` and `benchmark` create the session
// of a graph of kSmallPagesFromNodes nodes or more in small pages, and switch back to huge
// pages for the steps: what loading made keeps its small pages, while the first step's
// tensors, weights and executors get huge ones. Smaller graphs (every real model) load as
// before: at one thread the transformer block's step was 2-3% slower when it loaded in small
// pages. (prctl's PR_SET_THP_DISABLE; on a kernel without it nothing changes.)
#ifndef SLUICE_TOOLS_CLI_PAGE_POLICY_H_
#define SLUICE_TOOLS_CLI_PAGE_POLICY_H_

namespace sluice {
namespace cli {

// Graphs with at least this many nodes load in small pages (see above).
inline constexpr int kSmallPagesFromNodes = 100000;

// Whether memory the process touches from now on may come in transparent huge pages (false)
// or only in small ones (true). Process-wide.
void UseSmallPages(bool small);

// What the last UseSmallPages set, as the kernel reports it (false where it cannot say).
bool UsingSmallPages();

}  // namespace cli
}  // namespace sluice

#endif  // SLUICE_TOOLS_CLI_PAGE_POLICY_H_
