#include "kernels/cpu/indexing/index_coordinates.h"

#include <cstdint>
#include <string>

#include "absl/container/inlined_vector.h"
#include "absl/strings/str_cat.h"

namespace sluice {

std::string SliceDebugString(const TensorShape& shape, int64_t flat) {
  const int dims = shape.dims();
  if (dims == 0) return "";
  if (dims == 1) return absl::StrCat("[", flat, "]");
  // heap-ok: one per dim of the shape (rank <= 254)
  absl::InlinedVector<int64_t, 8> strides(dims);
  strides[dims - 1] = 1;
  for (int i = dims - 2; i >= 0; --i) strides[i] = strides[i + 1] * shape.dim_size(i + 1);
  std::string result;
  int64_t left = flat;
  for (int i = 0; i < dims; ++i) {
    // A zero stride only arises after a zero dim, where no element (and no error) exists.
    const int64_t coord = strides[i] == 0 ? 0 : left / strides[i];
    absl::StrAppend(&result, i == 0 ? "[" : ",", coord);
    if (strides[i] != 0) left %= strides[i];
  }
  absl::StrAppend(&result, "]");
  return result;
}

}  // namespace sluice
