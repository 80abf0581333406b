// ResizeNearestNeighbor and ResizeBilinear on the GPU: one thread per output element, the
// source offsets and weights computed on the host (see resize_launch.h).
#include <cstdint>

#include "kernels/cuda/half_bits.h"
#include "kernels/cuda/launch_util.cu.h"
#include "kernels/cuda/resize_launch.h"

namespace sluice {
namespace cuda {
namespace {

struct alignas(16) Bytes16 {
  uint64_t lo, hi;
};

template <typename U>
__global__ void ResizeNearestKernel(const U* in, const int64_t* offsets, U* out,
                                    ResizeShape shape) {
  for (int64_t i = GridStart(); i < shape.num_elements; i += GridStride()) {
    const int64_t c = i % shape.channels;
    const int64_t pixel = i / shape.channels;
    const int64_t x = pixel % shape.out_width;
    const int64_t row = pixel / shape.out_width;  // b * out_height + y
    const int64_t y = row % shape.out_height;
    const int64_t b = row / shape.out_height;
    out[i] = in[b * shape.in_image + offsets[y] + offsets[shape.out_height + x] + c];
  }
}

template <typename U>
void ResizeNearest(const void* in, const int64_t* offsets, void* out, const ResizeShape& shape,
                   CUstream_st* stream) {
  ResizeNearestKernel<U><<<BlocksFor(shape.num_elements), kBlockThreads, 0, stream>>>(
      static_cast<const U*>(in), offsets, static_cast<U*>(out), shape);
}

__device__ inline float AsFloat(float v) { return v; }
__device__ inline float AsFloat(Half v) { return HalfToFloat(v); }
__device__ inline float AsFloat(BFloat16 v) { return BFloat16ToFloat(v); }

// a + (b - a) * t, rounded after each operation as the CPU computes it.
__device__ inline float Lerp(float a, float b, float t) {
  return __fadd_rn(a, __fmul_rn(__fsub_rn(b, a), t));
}

template <typename T>
__global__ void ResizeBilinearKernel(const T* in, const int64_t* offsets, const float* lerps,
                                     float* out, ResizeShape shape, bool same_size) {
  for (int64_t i = GridStart(); i < shape.num_elements; i += GridStride()) {
    if (same_size) {
      out[i] = AsFloat(in[i]);
      continue;
    }
    const int64_t c = i % shape.channels;
    const int64_t pixel = i / shape.channels;
    const int64_t x = pixel % shape.out_width;
    const int64_t row = pixel / shape.out_width;
    const int64_t y = row % shape.out_height;
    const T* image = in + (row / shape.out_height) * shape.in_image;
    const T* top = image + offsets[2 * y];
    const T* bottom = image + offsets[2 * y + 1];
    const int64_t* xo = offsets + 2 * shape.out_height + 2 * x;
    const float x_lerp = lerps[shape.out_height + x];
    const float top_value = Lerp(AsFloat(top[xo[0] + c]), AsFloat(top[xo[1] + c]), x_lerp);
    const float bottom_value = Lerp(AsFloat(bottom[xo[0] + c]), AsFloat(bottom[xo[1] + c]), x_lerp);
    out[i] = Lerp(top_value, bottom_value, lerps[y]);
  }
}

}  // namespace

bool LaunchResizeNearest(int element_bytes, const void* in, const int64_t* offsets, void* out,
                         const ResizeShape& shape, CUstream_st* stream) {
  switch (element_bytes) {
    case 1:
      ResizeNearest<uint8_t>(in, offsets, out, shape, stream);
      return true;
    case 2:
      ResizeNearest<uint16_t>(in, offsets, out, shape, stream);
      return true;
    case 4:
      ResizeNearest<uint32_t>(in, offsets, out, shape, stream);
      return true;
    case 8:
      ResizeNearest<uint64_t>(in, offsets, out, shape, stream);
      return true;
    case 16:
      ResizeNearest<Bytes16>(in, offsets, out, shape, stream);
      return true;
    default:
      return false;
  }
}

bool LaunchResizeBilinear(ElementType type, const void* in, const int64_t* offsets,
                          const float* lerps, float* out, const ResizeShape& shape, bool same_size,
                          CUstream_st* stream) {
  return VisitFloatType(type, [&](auto tag) {
    using T = decltype(tag);
    ResizeBilinearKernel<T><<<BlocksFor(shape.num_elements), kBlockThreads, 0, stream>>>(
        static_cast<const T*>(in), offsets, lerps, out, shape, same_size);
  });
}

}  // namespace cuda
}  // namespace sluice
