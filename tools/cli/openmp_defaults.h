// OpenMP defaults for the sluice command line: a shorter spin of idle OpenMP threads.
//
// Debian's oneDNN runs on OpenMP, while Sluice's own element-wise kernels run on Eigen's
// thread pool. After a oneDNN primitive, libgomp's idle threads spin for about 300,000
// iterations (some milliseconds) before they sleep, and with as many threads as cores they
// take a core away from the Eigen pool's threads: at two threads, the transformer block's
// element-wise ops ran slower than at one. GOMP_SPINCOUNT=10000 keeps the OpenMP threads
// ready across back-to-back convolutions (CNNs at batch 1 are unchanged) and lets them go
// well within an element-wise op on a batch (the transformer block at batch 32 and two
// threads: about 10% faster). OMP_WAIT_POLICY=passive lets them go at once, but makes
// MobileNetV2 at batch 1 and two threads about 50% slower.
//
// libgomp reads its environment in its own initializer, before main(), and a setenv() from
// the executable's .preinit_array is undone by libc's own start-up; so the program sets the
// variable and executes itself again. Programs that link Sluice as a library may set
// GOMP_SPINCOUNT themselves.
#ifndef SLUICE_TOOLS_CLI_OPENMP_DEFAULTS_H_
#define SLUICE_TOOLS_CLI_OPENMP_DEFAULTS_H_

namespace sluice {
namespace cli {

// The spin count the sluice programs run with unless the user chose one.
inline constexpr char kDefaultGompSpinCount[] = "10000";

// Unless GOMP_SPINCOUNT or OMP_WAIT_POLICY is set, sets GOMP_SPINCOUNT to
// kDefaultGompSpinCount and executes /proc/self/exe again with `argv`, so that the OpenMP
// runtime starts with it. Returns when there was nothing to do, or when the exec failed (the
// program then runs with OpenMP's own defaults).
void ApplyOpenMpDefaults(char** argv);

}  // namespace cli
}  // namespace sluice

#endif  // SLUICE_TOOLS_CLI_OPENMP_DEFAULTS_H_
