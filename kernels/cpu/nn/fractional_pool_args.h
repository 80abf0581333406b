// The attrs and input checks FractionalMaxPool and FractionalAvgPool share, and the windows
// they pool over: both read pooling_ratio, pseudo_random, overlapping, deterministic, seed and
// seed2 alike, refuse the same inputs with TensorFlow's messages, and return their row and
// column sequences as outputs 1 and 2, drawn here.
//
// Seeds follow TensorFlow: a deterministic node draws from (seed, seed2), random seeds fixed
// when the node is built if both are 0, so every run pools the same windows; a node that is
// not deterministic must leave both seeds 0 and draws new windows on every run.
#ifndef SLUICE_KERNELS_CPU_NN_FRACTIONAL_POOL_ARGS_H_
#define SLUICE_KERNELS_CPU_NN_FRACTIONAL_POOL_ARGS_H_

#include <algorithm>
#include <cstdint>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "graph/core/tensor.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {

// An NHWC input, the pooled output's rows and columns, and their boundaries.
struct FractionalPoolWindows {
  int64_t batch = 0;
  int64_t in_rows = 0;
  int64_t in_cols = 0;
  int64_t depth = 0;
  int64_t out_rows = 0;
  int64_t out_cols = 0;
  const int64_t* rows = nullptr;  // out_rows + 1 boundaries
  const int64_t* cols = nullptr;  // out_cols + 1 boundaries
  bool overlapping = false;
};

// Window i of the boundaries `seq` over `size` elements as [*first, *last] (empty when
// *last < *first): from seq[i] to the next boundary, which an overlapping window includes,
// clipped to the last element.
inline void FractionalWindow(const int64_t* seq, int64_t i, bool overlapping, int64_t size,
                             int64_t* first, int64_t* last) {
  *first = seq[i];
  *last = std::min(overlapping ? seq[i + 1] : seq[i + 1] - 1, size - 1);
}

class FractionalPoolArgs {
 public:
  // Reads and checks the attrs; `pooling` ("max", "average") names the op in the message
  // refusing a ratio on the batch or depth.
  absl::Status Init(OpKernelConstruction* ctx, absl::string_view pooling);

  // Checks `input`, draws the windows into outputs 1 and 2 and allocates output 0.
  absl::Status Prepare(OpKernelContext* ctx, const Tensor& input, FractionalPoolWindows* windows,
                       Tensor** output) const;

 private:
  std::vector<float> ratio_;
  bool pseudo_random_ = false;
  bool overlapping_ = false;
  bool deterministic_ = false;
  int64_t seed_ = 0;
  int64_t seed2_ = 0;
};

}  // namespace sluice

#endif  // SLUICE_KERNELS_CPU_NN_FRACTIONAL_POOL_ARGS_H_
