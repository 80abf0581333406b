#include "kernels/cpu/random/stateless_seed.h"

#include <cstdint>

#include "graph/core/errors.h"
#include "graph/core/tensor_types.h"
#include "graph/core/types.h"

namespace sluice {
namespace random {

absl::Status StatelessSeedStream(const Tensor& seed, Philox4x32* stream) {
  if (seed.dims() != 1 || seed.dim_size(0) != 2) {
    return errors::InvalidArgument("seed must have shape [2], not ", seed.shape().DebugString());
  }
  uint64_t seeds[2];
  for (int i = 0; i < 2; ++i) {
    switch (seed.dtype()) {
      case DT_INT32:
        seeds[i] = static_cast<uint64_t>(int64_t{seed.flat<int32_t>()(i)});
        break;
      case DT_INT64:
        seeds[i] = static_cast<uint64_t>(seed.flat<int64_t>()(i));
        break;
      default:  // StatelessRandomUniformFullInt's OpDef allows unsigned seeds; its kernel not
        return errors::InvalidArgument("Invalid seed type: ", DataTypeString(seed.dtype()));
    }
  }
  *stream = StatelessGenerator(seeds[0], seeds[1]);
  return absl::OkStatus();
}

}  // namespace random
}  // namespace sluice
