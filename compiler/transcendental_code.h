// The transcendental functions compiled clusters compute inline, written as MLIR text
// operation for operation as Sluice's kernels compute them, so that a cluster's values are
// the unfused ops' to the bit (docs/compiled_clusters.md says why each matches):
//
//   Erf, Tanh       numerics::ErfFloat and numerics::TanhFloat (TensorFlow 2.21's), one form
//                   for every element;
//   Exp, Log,       numerics::ExpFloat's, LogFloat's and SigmoidFloat's vector forms
//   Sigmoid         (TensorFlow 2.21's) — the caller sends a tensor's last total % 8 through
//                   the kernel's function;
//   Rsqrt,          numerics::RsqrtFloat's and numerics::ReciprocalFloat's vector forms
//   Reciprocal      (TensorFlow 2.21's), from the CPU's estimates — the caller sends a tensor's
//                   last total % 8 through the kernel's function;
//   Erfc            numerics::ErfcFloat, Sluice's own, in f64.
//
// (Sqrt needs nothing here: its kernel is the correctly rounded square root, math.sqrt.)
//
// Each takes f32 lanes `x` (`width` wide) and returns the name of the result.
#ifndef SLUICE_COMPILER_TRANSCENDENTAL_CODE_H_
#define SLUICE_COMPILER_TRANSCENDENTAL_CODE_H_

#include <string>

#include "compiler/mlir_text.h"

namespace sluice {

std::string EmitTensorFlowErf(MlirTextBuilder& mlir, const std::string& x, int width);
// Tanh as numerics::TanhFloat, and Sigmoid as numerics::SigmoidFloat's vector form, on every
// CPU.
std::string EmitTensorFlowTanh(MlirTextBuilder& mlir, const std::string& x, int width);
// Exp as numerics::ExpFloat's vector form, on every CPU.
std::string EmitTensorFlowExp(MlirTextBuilder& mlir, const std::string& x, int width);
std::string EmitTensorFlowSigmoid(MlirTextBuilder& mlir, const std::string& x, int width);
// Log as numerics::LogFloat's vector form, on every CPU.
std::string EmitTensorFlowLog(MlirTextBuilder& mlir, const std::string& x, int width);
std::string EmitErfc(MlirTextBuilder& mlir, const std::string& x, int width);
// Rsqrt as numerics::RsqrtFloat's vector form: from the CPU's rsqrt estimate (AVX's vrsqrtps,
// through MLIR's x86vector dialect, which gives each lane SSE's rsqrtps value) and one Newton
// step.
std::string EmitTensorFlowRsqrt(MlirTextBuilder& mlir, const std::string& x, int width);
// Reciprocal as numerics::ReciprocalFloat's vector form: from the CPU's reciprocal estimate
// (AVX's vrcpps, called as the LLVM intrinsic kAvxReciprocalIntrinsic, which the module must
// declare with kAvxReciprocalDeclaration) and one Newton step.
std::string EmitTensorFlowReciprocal(MlirTextBuilder& mlir, const std::string& x, int width);
inline constexpr char kAvxReciprocalIntrinsic[] = "llvm.x86.avx.rcp.ps.256";
inline constexpr char kAvxReciprocalDeclaration[] =
    "func.func private @llvm.x86.avx.rcp.ps.256(vector<8xf32>) -> vector<8xf32>";

}  // namespace sluice

#endif  // SLUICE_COMPILER_TRANSCENDENTAL_CODE_H_
