// Checks numerics::ErfcFloat on every float against the correctly rounded erfc (the C
// library's double erfc, rounded once) and does the same for the C library's erfcf, the
// function Sluice's kernels called before. Prints how many differ and by how much.
//
//   bazel run -c opt //numerics:erfc_float_sweep
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <thread>
#include <vector>

#include "numerics/erfc_float.h"
#include "numerics/float_bits.h"

namespace {

using sluice::numerics::FloatFromBits;
using sluice::numerics::UlpDistance;

struct Counts {
  int64_t checked = 0, off = 0, worst = 0, libc_off = 0, libc_worst = 0;
};

void Sweep(uint64_t begin, uint64_t end, Counts* counts) {
  constexpr int kBlock = 4096;
  std::vector<float> x(kBlock), y(kBlock);
  for (uint64_t b = begin; b < end; b += kBlock) {
    const int n = static_cast<int>(std::min<uint64_t>(kBlock, end - b));
    for (int i = 0; i < n; ++i) x[i] = FloatFromBits(static_cast<uint32_t>(b + i));
    sluice::numerics::ErfcFloat(x.data(), y.data(), n);
    for (int i = 0; i < n; ++i) {
      if (std::isnan(x[i])) continue;
      const float expected = static_cast<float>(std::erfc(static_cast<double>(x[i])));
      const int64_t d = UlpDistance(y[i], expected);
      const int64_t libc = UlpDistance(erfcf(x[i]), expected);
      counts->off += d != 0;
      counts->worst = std::max(counts->worst, d);
      counts->libc_off += libc != 0;
      counts->libc_worst = std::max(counts->libc_worst, libc);
      ++counts->checked;
    }
  }
}

}  // namespace

int main() {
  const unsigned threads = std::max(1u, std::thread::hardware_concurrency());
  const uint64_t total = uint64_t{1} << 32;
  std::vector<Counts> counts(threads);
  std::vector<std::thread> workers;
  for (unsigned t = 0; t < threads; ++t) {
    workers.emplace_back(Sweep, total * t / threads, total * (t + 1) / threads, &counts[t]);
  }
  for (auto& w : workers) w.join();
  Counts sum;
  for (const Counts& c : counts) {
    sum.checked += c.checked;
    sum.off += c.off;
    sum.worst = std::max(sum.worst, c.worst);
    sum.libc_off += c.libc_off;
    sum.libc_worst = std::max(sum.libc_worst, c.libc_worst);
  }
  std::printf("floats checked (not NaN): %lld\n", static_cast<long long>(sum.checked));
  std::printf("ErfcFloat: %lld differ from the correctly rounded value, by at most %lld ulp\n",
              static_cast<long long>(sum.off), static_cast<long long>(sum.worst));
  std::printf("erfcf:     %lld differ from the correctly rounded value, by at most %lld ulp\n",
              static_cast<long long>(sum.libc_off), static_cast<long long>(sum.libc_worst));
  return sum.worst <= 1 ? 0 : 1;
}
