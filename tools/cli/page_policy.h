// Small pages while a graph loads, huge pages for its steps.
//
// sluice runs with transparent huge pages for malloc's memory (startup_environment.h), because
// steps run faster and steadier on them. Loading a graph is the opposite case: parsing,
// importing and shape inference make millions of small objects, and with the kernel's THP
// defrag mode "madvise" (Debian's default) each fresh 2 MiB page of them is compacted and
// zeroed in the page fault. A 1,000,000-node chain spent 3-4 s of its 10 s in the kernel's
// clear_page, and more when memory was fragmented. So the commands take new memory in small
// pages until their session exists, and in huge pages from the first step on: what loading
// made keeps its small pages, while the first step's tensors, weights and executors get huge
// ones. (prctl's PR_SET_THP_DISABLE; on a kernel without it nothing changes.)
#ifndef SLUICE_TOOLS_CLI_PAGE_POLICY_H_
#define SLUICE_TOOLS_CLI_PAGE_POLICY_H_

namespace sluice {
namespace cli {

// Whether memory the process touches from now on may come in transparent huge pages (false)
// or only in small ones (true). Process-wide.
void UseSmallPages(bool small);

// What the last UseSmallPages set, as the kernel reports it (false where it cannot say).
bool UsingSmallPages();

}  // namespace cli
}  // namespace sluice

#endif  // SLUICE_TOOLS_CLI_PAGE_POLICY_H_
