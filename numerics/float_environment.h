// The floating-point mode Sluice's CPU kernels compute in: subnormal numbers flushed to zero and
// rounding to nearest, as TensorFlow's.
//
// TensorFlow's CPU kernels run with the processor told to flush subnormal results to zero and
// to read subnormal operands as zero (x86's MXCSR FTZ and DAZ bits, AArch64's FPCR.FZ): its
// thread pools set that mode on every thread they start, and eager ops and constant folding set
// it around each kernel. So in TensorFlow 1e-45f + 1e-45f is 0, a MatMul's subnormal products
// vanish, and ops given a subnormal input see a zero. Sluice sets the same mode on the threads
// that run its kernels (the inter-op, intra-op and constant-folding pools, the OpenMP teams
// their kernels fork, the executor's loop on whichever thread runs it), and the caller's own mode
// is given back when a step returns.
//
// Integer operations on a float's bits (negation and absolute value as sign-bit operations,
// bit casts, comparisons of the bits) are unaffected, as they are in TensorFlow.
#ifndef SLUICE_NUMERICS_FLOAT_ENVIRONMENT_H_
#define SLUICE_NUMERICS_FLOAT_ENVIRONMENT_H_

#include <cstdint>

namespace sluice {
namespace numerics {

// While alive, this thread flushes subnormals to zero (results and operands) and rounds to
// nearest; on destruction the thread's previous mode returns. Costs one read of the control
// register when the mode is already set (a pool thread), a write and a restore otherwise. On a
// processor with neither control (not x86-64 or AArch64), does nothing.
class ScopedFlushDenormals {
 public:
  ScopedFlushDenormals();
  ~ScopedFlushDenormals();
  ScopedFlushDenormals(const ScopedFlushDenormals&) = delete;
  ScopedFlushDenormals& operator=(const ScopedFlushDenormals&) = delete;

 private:
  uint64_t saved_control_ = 0;
  bool restore_control_ = false;
  int saved_rounding_ = 0;
  bool restore_rounding_ = false;
};

// This thread's flush-to-zero state: 0 when it keeps subnormals, kFlushDenormalsMode when it
// flushes them (on a processor without the control, always 0). SetDenormalMode gives a state
// to this thread for good (an OpenMP team's workers take their master's).
uint64_t DenormalMode();
void SetDenormalMode(uint64_t mode);
extern const uint64_t kFlushDenormalsMode;

// True when this thread flushes subnormal results and reads subnormal operands as zero.
bool FlushingDenormals();

}  // namespace numerics
}  // namespace sluice

#endif  // SLUICE_NUMERICS_FLOAT_ENVIRONMENT_H_
