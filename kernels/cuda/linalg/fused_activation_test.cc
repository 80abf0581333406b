// The GPU epilogue's activations, compiled for the host, against the CPU kernels' Activate.
#include "kernels/cuda/linalg/fused_activation.h"

#include <cmath>
#include <limits>
#include <vector>

#include "gtest/gtest.h"
#include "kernels/cpu/linalg/fused_args.h"

namespace sluice {
namespace {

TEST(FusedActivationTest, MatchesTheCpuKernelsBitForBit) {
  const float inf = std::numeric_limits<float>::infinity();
  std::vector<float> xs = {0.0f,  -0.0f, 1e-30f, -1e-30f, 0.5f,   -0.5f, 5.99f,  6.0f, 6.01f,
                           -3.0f, 20.0f, -20.0f, 88.0f,   -88.0f, 1e30f, -1e30f, inf,  -inf};
  for (int i = -400; i <= 400; ++i) xs.push_back(i * 0.037f);
  for (int act = 0; act <= gpu_fused::kGeluExact; ++act) {
    for (float x : xs) {
      const float cpu = Activate<float>(static_cast<FusedActivation>(act), 0.3f, x);
      const float gpu = gpu_fused::Activate<float>(act, 0.3f, x);
      if (std::isnan(cpu)) {
        EXPECT_TRUE(std::isnan(gpu)) << "activation " << act << " at " << x;
      } else {
        EXPECT_EQ(cpu, gpu) << "activation " << act << " at " << x;
      }
      const double cpu_d = Activate<double>(static_cast<FusedActivation>(act), 0.3f, x);
      const double gpu_d = gpu_fused::Activate<double>(act, 0.3f, x);
      if (!std::isnan(cpu_d)) EXPECT_EQ(cpu_d, gpu_d) << "activation " << act << " at " << x;
    }
  }
}

TEST(FusedActivationTest, NoneIsTheIdentity) {
  EXPECT_EQ(gpu_fused::Activate<float>(gpu_fused::kNone, 0.2f, -7.5f), -7.5f);
}

}  // namespace
}  // namespace sluice
