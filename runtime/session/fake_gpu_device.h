// A fake "GPU" device for tests of GPU placement, partitioning and copies on machines without
// a GPU. Linking this library (alwayslink) registers its factory above the real one, so every
// session of the test process gets fake GPUs (as many as device_count["GPU"] asks for).
//
// The fake GPU's "device memory" is host memory from a BfcAllocator of its own (64 MiB, as a
// small GPU), and its GpuDeviceContext copies with memcpy and counts each copy. Kernels that
// only forward buffers or copy through the context (Const, Identity, Reshape, control flow,
// the list ops, int32 ops in host memory) run on it as on a real GPU; a kernel that would
// launch CUDA work, or ask for the CUDA libraries, must not be placed on it.
#ifndef SLUICE_RUNTIME_SESSION_FAKE_GPU_DEVICE_H_
#define SLUICE_RUNTIME_SESSION_FAKE_GPU_DEVICE_H_

#include <cstdint>

namespace sluice {
namespace fake_gpu {

// How many copies the fake GPUs have made since the process started, by direction. Tests
// compare counts before and after a step.
int64_t HostToDeviceCopies();
int64_t DeviceToHostCopies();
int64_t DeviceToDeviceCopies();

}  // namespace fake_gpu
}  // namespace sluice

#endif  // SLUICE_RUNTIME_SESSION_FAKE_GPU_DEVICE_H_
