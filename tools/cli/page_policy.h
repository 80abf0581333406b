// Which memory of the sluice program may come in transparent huge pages.
//
// sluice asks malloc for transparent huge pages (startup_environment.h), because repeated steps
// run steadier on them. Two cases are the opposite:
//
// - `run`: one step (or one per input file), so its time is setup and first touches of memory,
//   and a fresh huge page costs far more to fault in than the small pages it replaces. On a
//   virtual machine whose balloon driver reports free memory to the host (Firecracker, the
//   2-core AMD EPYC guest of docs/benchmarks.md), every huge page a process takes is
//   2 MiB the host must back and zero again, because the guest keeps only whole free blocks
//   of that size reported and given back: `sluice run` of MobileNetV2 took 1.1-1.35 s with huge
//   pages (1.0-1.2 s of it system time) against 0.2 s in small ones, ConvNeXt-Tiny 4.95
//   against 0.8 s, and neither's steps ran faster on huge pages there
//   (`sluice benchmark` with glibc.malloc.hugetlb=1 and 0, alternating). So `run` runs in small
//   pages throughout.
// - Loading a big graph (`benchmark`): parsing, importing and shape inference make millions
//   of small objects, and with the kernel's THP defrag mode "madvise" (Debian's default) each
//   fresh 2 MiB page of them is compacted and zeroed in the page fault. A 1,000,000-node chain
//   spent 3-4 s of its 10 s in the kernel's clear_page. So `benchmark` creates the session of
//   a graph of kSmallPagesFromNodes nodes or more in small pages, and switches back to huge
//   pages for the steps it times. Smaller graphs (every real model) load as before: at one
//   thread the transformer block's step was 2-3% slower when it loaded in small pages.
//
// (prctl's PR_SET_THP_DISABLE; on a kernel without it nothing changes.)
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
