// noise_floor: the latency percentiles of a fixed, pure computation on this machine, the
// floor under any runtime's tail.
//
// A step here is a loop of dependent floating-point operations, calibrated to take --us
// microseconds, with no memory traffic, allocation, system call or second thread. Whatever
// spread its steps show (timer interrupts, a hypervisor's preemption, frequency changes,
// neighbours on shared caches) is the machine's, and a runtime's step of the same length
// cannot be steadier. bench/models/run_latency_bench.py runs it beside each idle
// configuration so "p99 within 2x of p50" can be read against what the machine allows.
//
// Usage: noise_floor --us 7.5 [--runs 5000] [--warmup 50]
// Prints one JSON line: {"us": ..., "runs": ..., "p50_ms": ..., "p99_ms": ..., "p999_ms": ...}.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;

// Dependent multiply-adds: `iterations` of them take a fixed number of cycles.
double Spin(int64_t iterations, double seed) {
  double x = seed;
  for (int64_t i = 0; i < iterations; ++i) x = x * 0.999999 + 1e-9;
  return x;
}

// The result is kept in *sink so the loop is not optimised away; it converges, never overflows.
double TimeMicros(int64_t iterations, double* sink) {
  const Clock::time_point start = Clock::now();
  *sink = Spin(iterations, *sink);
  return std::chrono::duration<double, std::micro>(Clock::now() - start).count();
}

// Nearest-rank percentile of sorted samples.
double Percentile(const std::vector<double>& sorted, double q) {
  const size_t rank = static_cast<size_t>(std::ceil(q / 100.0 * sorted.size() - 1e-9));
  return sorted[std::min(sorted.size() - 1, rank == 0 ? 0 : rank - 1)];
}

bool ParseFlag(int argc, char** argv, int* i, const char* name, double* value) {
  if (std::strcmp(argv[*i], name) != 0 || *i + 1 >= argc) return false;
  char* end = nullptr;
  *value = std::strtod(argv[++*i], &end);
  return end != nullptr && *end == '\0';
}

}  // namespace

int main(int argc, char** argv) {
  double us = 0, runs = 5000, warmup = 50;
  for (int i = 1; i < argc; ++i) {
    if (!ParseFlag(argc, argv, &i, "--us", &us) && !ParseFlag(argc, argv, &i, "--runs", &runs) &&
        !ParseFlag(argc, argv, &i, "--warmup", &warmup)) {
      std::fprintf(stderr, "usage: noise_floor --us MICROSECONDS [--runs N] [--warmup N]\n");
      return 2;
    }
  }
  if (!(us > 0 && us <= 1e6) || !(runs >= 1 && runs <= 1e7) || !(warmup >= 0 && warmup <= 1e7)) {
    std::fprintf(stderr, "noise_floor: --us must be in (0, 1e6], --runs in [1, 1e7]\n");
    return 2;
  }
  double sink = 1.0;
  // Calibrate: the median of a few timings of a known count, scaled to the target.
  const int64_t probe = 100000;
  std::vector<double> probes;
  for (int i = 0; i < 21; ++i) probes.push_back(TimeMicros(probe, &sink));
  std::sort(probes.begin(), probes.end());
  const int64_t iterations =
      std::max<int64_t>(1, static_cast<int64_t>(probe * us / probes[probes.size() / 2]));

  for (int i = 0; i < static_cast<int>(warmup); ++i) TimeMicros(iterations, &sink);
  std::vector<double> samples(static_cast<size_t>(runs));
  for (double& sample : samples) sample = TimeMicros(iterations, &sink);
  std::sort(samples.begin(), samples.end());
  std::printf(
      "{\"us\": %.3f, \"runs\": %zu, \"p50_ms\": %.6f, \"p99_ms\": %.6f, \"p999_ms\": %.6f}\n", us,
      samples.size(), Percentile(samples, 50) / 1e3, Percentile(samples, 99) / 1e3,
      Percentile(samples, 99.9) / 1e3);
  // Keeps the result observable.
  if (!std::isfinite(sink)) std::fprintf(stderr, "noise_floor: the loop diverged\n");
  return 0;
}
