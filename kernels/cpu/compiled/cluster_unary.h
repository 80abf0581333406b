// The unary ops of a compiled cluster, element by element, exactly as their own CPU kernels
// compute them (kernels/cpu/unary/unary_functors.h).
//
// An op's kernel applies Eigen's functor to the whole tensor: every element goes through the
// functor's vector (packet) form, except the tensor's last total % P elements (P: Eigen's
// packet size for float in this build), which take its scalar form; ranges split over threads
// start at multiples of P, so the split changes nothing (unary_op.h). The two forms may round
// differently, so a function here is told where its elements sit in the tensor: n elements
// starting at flat index `flat` of a tensor of `total` elements.
#ifndef SLUICE_KERNELS_CPU_COMPILED_CLUSTER_UNARY_H_
#define SLUICE_KERNELS_CPU_COMPILED_CLUSTER_UNARY_H_

#include <cstdint>

#include "absl/strings/string_view.h"
#include "compiler/cluster_codegen.h"

namespace sluice {

// Applies the op in place to x[0, n).
using ClusterUnaryFunction = void (*)(float* x, int64_t n, int64_t flat, int64_t total);

// The function of unary op `op` (one of FusedElementwiseArity's unary ops); nullptr for
// any other op.
ClusterUnaryFunction FindClusterUnary(absl::string_view op);

// The code generator's options for this CPU: vectors of 16 columns where it has AVX-512, and
// Rsqrt and Reciprocal written out from its estimates where it has AVX.
ClusterCodegenOptions ClusterCodegenOptionsHere();

// What compiled clusters call (compiler/cluster_codegen.h, kClusterCallback): applies the op
// with callback id `id` (ClusterCallbackId) in place to n floats at `address`.
void ClusterUnaryCallback(int64_t id, int64_t address, int64_t n, int64_t flat, int64_t total);

}  // namespace sluice

#endif  // SLUICE_KERNELS_CPU_COMPILED_CLUSTER_UNARY_H_
