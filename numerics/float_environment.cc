// ScopedFlushDenormals on x86-64 (MXCSR) and AArch64 (FPCR); see the header.
#include "numerics/float_environment.h"

#include <cfenv>

#if defined(__x86_64__) || defined(__i386__)
#include <xmmintrin.h>
#define SLUICE_MXCSR 1
#elif defined(__aarch64__)
#define SLUICE_FPCR 1
#endif

namespace sluice {
namespace numerics {
namespace {

#if defined(SLUICE_MXCSR)
// MXCSR's flush-to-zero (results, bit 15) and denormals-are-zero (operands, bit 6).
constexpr uint64_t kFlushBits = 0x8000 | 0x0040;
uint64_t ReadControl() { return _mm_getcsr(); }
void WriteControl(uint64_t value) { _mm_setcsr(static_cast<unsigned int>(value)); }
#elif defined(SLUICE_FPCR)
// FPCR.FZ (bit 24) flushes both results and operands of single and double precision.
constexpr uint64_t kFlushBits = uint64_t{1} << 24;
uint64_t ReadControl() {
  uint64_t value;
  asm volatile("mrs %0, fpcr" : "=r"(value));
  return value;
}
void WriteControl(uint64_t value) { asm volatile("msr fpcr, %0" : : "r"(value)); }
#else
constexpr uint64_t kFlushBits = 0;
uint64_t ReadControl() { return 0; }
void WriteControl(uint64_t) {}
#endif

}  // namespace

ScopedFlushDenormals::ScopedFlushDenormals() {
  const uint64_t control = ReadControl();
  if ((control & kFlushBits) != kFlushBits) {
    saved_control_ = control;
    restore_control_ = true;
    WriteControl(control | kFlushBits);
  }
  const int rounding = std::fegetround();
  if (rounding != FE_TONEAREST) {
    saved_rounding_ = rounding;
    restore_rounding_ = true;
    std::fesetround(FE_TONEAREST);
  }
}

ScopedFlushDenormals::~ScopedFlushDenormals() {
  if (restore_rounding_) std::fesetround(saved_rounding_);
  // Only the flush bits go back: a kernel may not change the rest, and the exception flags
  // raised meanwhile stay raised, as they would have without this scope.
  if (restore_control_) {
    WriteControl((ReadControl() & ~kFlushBits) | (saved_control_ & kFlushBits));
  }
}

const uint64_t kFlushDenormalsMode = kFlushBits;

uint64_t DenormalMode() { return ReadControl() & kFlushBits; }

void SetDenormalMode(uint64_t mode) {
  const uint64_t control = ReadControl();
  const uint64_t wanted = (control & ~kFlushBits) | (mode & kFlushBits);
  if (wanted != control) WriteControl(wanted);
}

bool FlushingDenormals() { return kFlushBits != 0 && DenormalMode() == kFlushBits; }

}  // namespace numerics
}  // namespace sluice
