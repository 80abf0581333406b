// The environment the sluice program starts with: two settings that the OpenMP runtime and
// the C library read before main(), so the program sets them and executes itself again.
//
// GOMP_SPINCOUNT=10000: a shorter spin of idle OpenMP threads. Debian's oneDNN runs on
// OpenMP, while Sluice's own element-wise kernels run on Eigen's thread pool. After a oneDNN
// primitive, libgomp's idle threads spin for about 300,000 iterations (some milliseconds)
// before they sleep, and with as many threads as cores they take a core away from the Eigen
// pool's threads: at two threads, the transformer block's element-wise ops ran slower than at
// one. 10000 keeps the OpenMP threads ready across back-to-back convolutions (CNNs at batch 1
// are unchanged) and lets them go well within an element-wise op on a batch (the transformer
// block at batch 32 and two threads: about 10% faster). OMP_WAIT_POLICY=passive lets them go
// at once, but makes MobileNetV2 at batch 1 and two threads about 50% slower. Not set when
// the user set GOMP_SPINCOUNT or OMP_WAIT_POLICY.
//
// glibc.malloc.hugetlb=1 in GLIBC_TUNABLES: malloc asks for transparent huge pages
// (madvise) on the memory it takes from the system, where the kernel's THP mode is
// "madvise" (Debian's default) and so would otherwise give none. With 4 KiB pages the
// transformer block's weights and activations land on physical pages that collide in the
// caches differently in every process: its batch-1 step took 6.9 or 7.5 ms depending on the
// run; with huge pages 6.8-6.9 ms every time (two threads: 4.3 -> 3.9 ms). CNNs and peak
// memory are unchanged. `run` turns them off again for itself (page_policy.h: a one-shot run
// is mostly first touches of memory, which huge pages make slower on some VMs). Appended to a
// GLIBC_TUNABLES the user set, unless it already names glibc.malloc.hugetlb.
//
// libgomp reads its environment in its own initializer and malloc its tunables while the
// program loads, and a setenv() from the executable's .preinit_array is undone by libc's own
// start-up; hence the second exec. Programs that link Sluice as a library may set both
// themselves.
#ifndef SLUICE_TOOLS_CLI_STARTUP_ENVIRONMENT_H_
#define SLUICE_TOOLS_CLI_STARTUP_ENVIRONMENT_H_

namespace sluice {
namespace cli {

// The spin count the sluice programs run with unless the user chose one.
inline constexpr char kDefaultGompSpinCount[] = "10000";
// The tunable that asks malloc for transparent huge pages.
inline constexpr char kHugePageTunable[] = "glibc.malloc.hugetlb=1";

// Sets what is missing of the two settings above and, if it set anything, executes
// /proc/self/exe again with `argv` (which then finds both set and returns). Returns when there
// was nothing to do, or when the exec failed (the program then runs with the runtimes' own
// defaults).
void ApplyStartupEnvironment(char** argv);

}  // namespace cli
}  // namespace sluice

#endif  // SLUICE_TOOLS_CLI_STARTUP_ENVIRONMENT_H_
