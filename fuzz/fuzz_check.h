// FuzzCheck: how a fuzz target states a property beyond "does not crash".
//
// A violated property prints what was expected and aborts, which libFuzzer reports as a
// crash (saving the input) and which fails a corpus-replay test. Use it for the target's own
// invariants (a parsed tensor encodes again; an op returned a status with a known code), not
// for failures the input is allowed to cause.
#ifndef SLUICE_FUZZ_FUZZ_CHECK_H_
#define SLUICE_FUZZ_FUZZ_CHECK_H_

#include <cstdio>
#include <cstdlib>
#include <string>

namespace sluice {
namespace fuzz {

inline void FuzzCheck(bool holds, const char* property, const std::string& detail = "") {
  if (holds) return;
  std::fprintf(stderr, "fuzz property violated: %s\n%s\n", property, detail.c_str());
  std::fflush(stderr);
  std::abort();
}

}  // namespace fuzz
}  // namespace sluice

#endif  // SLUICE_FUZZ_FUZZ_CHECK_H_
