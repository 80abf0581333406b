#include "kernels/cpu/compiled/cluster_unary.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>

#include "compiler/cluster_codegen.h"
#include "numerics/erf_float.h"
#include "numerics/erfc_float.h"
#include "numerics/exp_float.h"
#include "numerics/log_float.h"
#include "numerics/reciprocal.h"
#include "numerics/rsqrt.h"
#include "numerics/sigmoid_tanh_float.h"
#include "numerics/sqrt.h"
#include "unsupported/Eigen/CXX11/Tensor"
#include "unsupported/Eigen/SpecialFunctions"

namespace sluice {
namespace {

namespace ei = Eigen::internal;

using Packet = ei::packet_traits<float>::type;
constexpr int64_t kPacket = ei::unpacket_traits<Packet>::size;

// Eigen's functor `Op` as its kernel's evaluation applies it: packet by packet where the
// functor has a packet form and the element is not in the tensor's last total % P, otherwise
// one element at a time. Each packet lane is computed on its own, so a group of elements may
// go through a packet at any position.
template <typename Op>
void ApplyEigen(float* x, int64_t n, int64_t flat, int64_t total) {
  const Op op;
  int64_t i = 0;
  if constexpr (ei::functor_traits<Op>::PacketAccess) {
    const int64_t vector_end = total - total % kPacket;
    const int64_t packed = std::clamp<int64_t>(vector_end - flat, 0, n);
    for (; i + kPacket <= packed; i += kPacket) {
      ei::pstoreu(x + i, op.packetOp(ei::ploadu<Packet>(x + i)));
    }
    if (i < packed) {
      alignas(64) float lanes[kPacket] = {};
      std::copy(x + i, x + packed, lanes);
      ei::pstore(lanes, op.packetOp(ei::pload<Packet>(lanes)));
      std::copy(lanes, lanes + (packed - i), x + i);
      i = packed;
    }
  }
  for (; i < n; ++i) x[i] = op(x[i]);
}

// Log's kernel (numerics/log_float.h) takes the scalar form for the tensor's last total % 8.
void ApplyLog(float* x, int64_t n, int64_t flat, int64_t total) {
  numerics::LogFloat(x, x, n, flat, total);
}

// Relu and Relu6 are Eigen's cwiseMax(0) and cwiseMin(6): both forms keep the first operand
// when the second is not greater (smaller) or either is NaN, so one formula serves.
void ApplyRelu(float* x, int64_t n, int64_t, int64_t) {
  for (int64_t i = 0; i < n; ++i) x[i] = x[i] < 0.0f ? 0.0f : x[i];
}
void ApplyRelu6(float* x, int64_t n, int64_t, int64_t) {
  for (int64_t i = 0; i < n; ++i) {
    const float r = x[i] < 0.0f ? 0.0f : x[i];
    x[i] = 6.0f < r ? 6.0f : r;
  }
}

void ApplyErfc(float* x, int64_t n, int64_t, int64_t) { numerics::ErfcFloat(x, x, n); }
void ApplyErf(float* x, int64_t n, int64_t, int64_t) { numerics::ErfFloat(x, x, n); }

// Sqrt's kernel is correctly rounded in every position (unary_functors.h, numerics/sqrt.h).
void ApplySqrt(float* x, int64_t n, int64_t, int64_t) { numerics::SqrtFloat(x, x, n); }

// Rsqrt's kernel (numerics/rsqrt.h) takes the scalar form for the tensor's last total % 8.
void ApplyRsqrt(float* x, int64_t n, int64_t flat, int64_t total) {
  numerics::RsqrtFloat(x, x, n, flat, total);
}

// Exp's kernel (numerics/exp_float.h) takes std::exp for the tensor's last total % 8.
void ApplyExp(float* x, int64_t n, int64_t flat, int64_t total) {
  numerics::ExpFloat(x, x, n, flat, total);
}

// Tanh's kernel (numerics/sigmoid_tanh_float.h) has one form; Sigmoid's takes the scalar form
// for the tensor's last total % 8.
void ApplyTanh(float* x, int64_t n, int64_t, int64_t) { numerics::TanhFloat(x, x, n); }
void ApplySigmoid(float* x, int64_t n, int64_t flat, int64_t total) {
  numerics::SigmoidFloat(x, x, n, flat, total);
}

// Reciprocal's kernel (numerics/reciprocal.h) takes the scalar form for the tensor's last
// total % 8.
void ApplyReciprocal(float* x, int64_t n, int64_t flat, int64_t total) {
  numerics::ReciprocalFloat(x, x, n, flat, total);
}

// By callback id (ClusterCallbackOp).
ClusterUnaryFunction CallbackFunction(int64_t id) {
  static const ClusterUnaryFunction* const kTable = [] {
    // heap-ok: one entry per callback op, once per process
    auto* table = new ClusterUnaryFunction[kNumClusterCallbacks];
    for (int i = 0; i < kNumClusterCallbacks; ++i)
      table[i] = FindClusterUnary(ClusterCallbackOp(i));
    return table;
  }();
  return kTable[id];
}

}  // namespace

ClusterUnaryFunction FindClusterUnary(absl::string_view op) {
  if (op == "Neg") return ApplyEigen<ei::scalar_opposite_op<float>>;
  if (op == "Abs") return ApplyEigen<ei::scalar_abs_op<float>>;
  if (op == "Square") return ApplyEigen<ei::scalar_square_op<float>>;
  if (op == "Reciprocal") return ApplyReciprocal;
  if (op == "Sqrt") return ApplySqrt;
  if (op == "Rsqrt") return ApplyRsqrt;
  if (op == "Exp") return ApplyExp;
  if (op == "Log") return ApplyLog;
  if (op == "Tanh") return ApplyTanh;
  if (op == "Sigmoid") return ApplySigmoid;
  if (op == "Erf") return ApplyErf;
  if (op == "Erfc") return ApplyErfc;
  if (op == "Relu") return ApplyRelu;
  if (op == "Relu6") return ApplyRelu6;
  return nullptr;
}

ClusterCodegenOptions ClusterCodegenOptionsHere() {
  ClusterCodegenOptions options;
  // The JIT compiles for this CPU (compiler/mlir_jit.h), so its vector width can follow it.
  options.vector_width = __builtin_cpu_supports("avx512f") ? 16 : 8;
  options.avx_estimates = __builtin_cpu_supports("avx");
  return options;
}

void ClusterUnaryCallback(int64_t id, int64_t address, int64_t n, int64_t flat, int64_t total) {
  CallbackFunction(id)(reinterpret_cast<float*>(address), n, flat, total);
}

}  // namespace sluice
