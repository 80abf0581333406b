// Launch functions of the GPU's ResizeNearestNeighbor and ResizeBilinear (resize_ops.cu), with
// cwise_launch.h's contract. Both read NHWC images [batch, in_height, in_width, channels] and
// write [batch, out_height, out_width, channels]; the per-coordinate transforms are the CPU
// kernels', computed on the host (kernels/cpu/image/image_resizer_state.h) and handed over in
// device memory, so that both devices read the same pixels.
#ifndef SLUICE_KERNELS_CUDA_RESIZE_LAUNCH_H_
#define SLUICE_KERNELS_CUDA_RESIZE_LAUNCH_H_

#include <cstdint>

#include "kernels/cuda/cwise_launch.h"

struct CUstream_st;

namespace sluice {
namespace cuda {

struct ResizeShape {
  int64_t batch = 0;
  int64_t out_height = 0;
  int64_t out_width = 0;
  int64_t channels = 0;
  int64_t in_image = 0;      // elements of one input image
  int64_t num_elements = 0;  // of the output (> 0)
};

// out[((b * out_height + y) * out_width + x) * channels + c] =
//   in[b * in_image + offsets[y] + offsets[out_height + x] + c], offsets being each output
// row's and column's source element offset. False for an element size other than 1, 2, 4, 8
// or 16.
bool LaunchResizeNearest(int element_bytes, const void* in, const int64_t* offsets, void* out,
                         const ResizeShape& shape, CUstream_st* stream);

// ResizeBilinear into float: for output row y and column x, the source rows are
// offsets[2y] and offsets[2y + 1] (lower, upper; element offsets), with weight lerps[y], and
// the source columns offsets[2 * out_height + 2x] and [... + 1] with weight lerps[out_height +
// x]; each value is the CPU's top = tl + (tr - tl) * xl, bottom = bl + (br - bl) * xl,
// out = top + (bottom - top) * yl, every operation rounded to float on its own (no fused
// multiply-add). same_size: a plain conversion to float instead (TensorFlow's, which keeps
// infinities). type is kFloat, kHalf or kBFloat16 (false otherwise).
bool LaunchResizeBilinear(ElementType type, const void* in, const int64_t* offsets,
                          const float* lerps, float* out, const ResizeShape& shape, bool same_size,
                          CUstream_st* stream);

}  // namespace cuda
}  // namespace sluice

#endif  // SLUICE_KERNELS_CUDA_RESIZE_LAUNCH_H_
