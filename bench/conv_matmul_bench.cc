// oneDNN kernel benchmark: Conv2D (1x224x224x3 -> 32 channels, 3x3 filter, stride 2, SAME)
// and MatMul (1x1024 times 1024x1000), at batch 1, each with the kernels' caches on (the
// primitive and the reordered filter are kept across steps) and off (both are rebuilt every
// step, which is what a kernel without a cache pays).
//
//   bazel run -c opt //bench:conv_matmul_bench
//
// Method: one kernel built once through CreateOpKernel on a CpuDevice with as many intra-op
// threads as the machine has cores, run through CpuDevice::Compute like the executor does
// (so oneDNN's OpenMP thread count is set); Google Benchmark times the steps. Argument 1 is
// "cache on", 0 "cache off"; the ratio of the two is the cache's effect.
#include <cstdint>
#include <memory>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "benchmark/benchmark.h"
#include "glog/logging.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_types.h"
#include "graph/op/node_def_util.h"
#include "kernels/cpu/linalg/onednn_util.h"
#include "proto/node_def.pb.h"
#include "runtime/device/cpu_device.h"
#include "runtime/framework/create_op_kernel.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace {

Tensor RandomTensor(const TensorShape& shape, uint32_t seed) {
  Tensor t(DT_FLOAT, shape);
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> dist(-1, 1);
  float* p = t.flat<float>().data();
  for (int64_t i = 0; i < t.NumElements(); ++i) p[i] = dist(gen);
  return t;
}

// One kernel on one CPU device, run on fixed inputs.
class KernelRunner {
 public:
  KernelRunner(const NodeDef& node, std::vector<Tensor> inputs)
      : device_(MakeDevice()), inputs_(std::move(inputs)) {
    const absl::Status s =
        CreateOpKernel(DEVICE_CPU, device_.get(), device_->GetAllocator(), node, &kernel_);
    CHECK(s.ok()) << s;
    for (Tensor& t : inputs_) values_.emplace_back(&t);
  }

  void Step() {
    OpKernelContext::Params params;
    params.op_kernel = kernel_.get();
    params.device = device_.get();
    params.inputs = values_;
    OpKernelContext ctx(&params);
    device_->Compute(kernel_.get(), &ctx);
    CHECK(ctx.status().ok()) << ctx.status();
  }

 private:
  // A CPU device with as many intra-op threads as the machine has cores.
  static std::unique_ptr<CpuDevice> MakeDevice() {
    absl::StatusOr<std::unique_ptr<CpuDevice>> device = CpuDevice::Create(
        Device::BuildDeviceAttributes("/job:localhost/replica:0/task:0/device:CPU:0", DEVICE_CPU,
                                      CpuDevice::kMemoryLimitBytes, DeviceLocality(), ""),
        static_cast<int>(std::thread::hardware_concurrency()));
    CHECK(device.ok()) << device.status();
    return *std::move(device);
  }

  const std::unique_ptr<CpuDevice> device_;
  std::vector<Tensor> inputs_;
  std::vector<TensorValue> values_;
  std::unique_ptr<OpKernel> kernel_;
};

void RunSteps(benchmark::State& state, KernelRunner* runner) {
  SetOneDnnCachingEnabled(state.range(0) != 0);
  runner->Step();  // warm-up: fills the cache when it is on
  for (auto _ : state) runner->Step();
  SetOneDnnCachingEnabled(true);
}

void BM_Conv2D_224x224x3_to_32_s2(benchmark::State& state) {
  NodeDef node;
  node.set_name("conv");
  node.set_op("Conv2D");
  node.add_input("x");
  node.add_input("w");
  AddNodeAttr("T", DT_FLOAT, &node);
  AddNodeAttr("strides", std::vector<int32_t>{1, 2, 2, 1}, &node);
  AddNodeAttr("padding", "SAME", &node);
  KernelRunner runner(node, {RandomTensor(TensorShape({1, 224, 224, 3}), 1),
                             RandomTensor(TensorShape({3, 3, 3, 32}), 2)});
  RunSteps(state, &runner);
}
BENCHMARK(BM_Conv2D_224x224x3_to_32_s2)->ArgName("cache")->Arg(1)->Arg(0)->UseRealTime();

void BM_MatMul_1x1024_by_1024x1000(benchmark::State& state) {
  NodeDef node;
  node.set_name("matmul");
  node.set_op("MatMul");
  node.add_input("a");
  node.add_input("b");
  AddNodeAttr("T", DT_FLOAT, &node);
  KernelRunner runner(
      node, {RandomTensor(TensorShape({1, 1024}), 3), RandomTensor(TensorShape({1024, 1000}), 4)});
  RunSteps(state, &runner);
}
BENCHMARK(BM_MatMul_1x1024_by_1024x1000)->ArgName("cache")->Arg(1)->Arg(0)->UseRealTime();

}  // namespace
}  // namespace sluice

BENCHMARK_MAIN();
