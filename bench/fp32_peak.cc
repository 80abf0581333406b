// Measures one core's fp32 multiply-add throughput: independent chains of vector FMAs, as wide
// as the CPU has them (AVX-512, AVX2 + FMA, or SSE2 multiply and add), timed for about half a
// second. Prints one JSON line: {"gflops": ..., "isa": ...}, counting a multiply-add as two
// operations. run_model_bench.py divides a model's contraction FLOPs by this figure; it
// replaces a peak assumed from a nominal FLOP/cycle figure and a clock.
//
//   bazel run -c opt //bench:fp32_peak
#include <chrono>
#include <cstdio>

namespace {

typedef float Vec16 __attribute__((vector_size(64)));
typedef float Vec8 __attribute__((vector_size(32)));
typedef float Vec4 __attribute__((vector_size(16)));

// Ten or more independent chains cover an FMA latency of 4-5 cycles at two FMAs per cycle;
// each chain stays in a register (16 of them on AVX2, 32 on AVX-512).
template <typename V, int kChains>
__attribute__((always_inline)) inline float Chains(long iterations) {
  V acc[kChains];
  for (int i = 0; i < kChains; ++i) acc[i] = V{} + (1.0f + i * 1e-3f);
  const V mul = V{} + 0.9999999f, add = V{} + 1e-7f;
  for (long n = 0; n < iterations; ++n) {
    // Unrolled, so that the chains live in registers rather than in the array.
#pragma GCC unroll 16
    for (int i = 0; i < kChains; ++i) acc[i] = acc[i] * mul + add;
  }
  float sum = 0;
  for (int i = 0; i < kChains; ++i) sum += acc[i][0];
  return sum;
}

// Multiply-adds per iteration are chains x lanes.
struct Kernel {
  const char* isa;
  int lanes, chains;
  float (*run)(long);
};

__attribute__((target("avx512f"), noinline)) float Avx512(long n) { return Chains<Vec16, 12>(n); }
__attribute__((target("avx2,fma"), noinline)) float Avx2Fma(long n) { return Chains<Vec8, 10>(n); }
__attribute__((noinline)) float Sse2(long n) { return Chains<Vec4, 10>(n); }

Kernel Pick() {
  if (__builtin_cpu_supports("avx512f")) return {"avx512f", 16, 12, Avx512};
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) {
    return {"avx2+fma", 8, 10, Avx2Fma};
  }
  return {"sse2 (separate multiply and add)", 4, 10, Sse2};
}

double Seconds(const Kernel& kernel, long iterations, float* sink) {
  const auto start = std::chrono::steady_clock::now();
  *sink += kernel.run(iterations);
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

int main() {
  const Kernel kernel = Pick();
  float sink = 0;
  long iterations = 1 << 20;
  // Grow the run until it takes about half a second, then take the best of three.
  while (Seconds(kernel, iterations, &sink) < 0.5) iterations *= 2;
  double best = 1e30;
  for (int run = 0; run < 3; ++run) {
    const double s = Seconds(kernel, iterations, &sink);
    if (s < best) best = s;
  }
  const double flops = 2.0 * kernel.lanes * kernel.chains * static_cast<double>(iterations);
  std::printf("{\"gflops\": %.2f, \"isa\": \"%s\", \"sink\": %g}\n", flops / best / 1e9, kernel.isa,
              sink);
  return 0;
}
