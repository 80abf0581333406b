#include "graph/core/element_bytes.h"

#include <cstring>
#include <type_traits>

#include "glog/logging.h"

namespace sluice {

bool CopyElements(DataType dtype, const void* src, void* dst, int64_t n) {
  return VisitByElementSize(dtype, [&](auto tag) {
    using U = typename decltype(tag)::type;
    CopyUnits(static_cast<const U*>(src), static_cast<U*>(dst), n);
  });
}

bool FillElements(DataType dtype, const void* value, void* dst, int64_t n) {
  return VisitByElementSize(dtype, [&](auto tag) {
    using U = typename decltype(tag)::type;
    U v;
    if constexpr (std::is_trivially_copyable_v<U>) {
      std::memcpy(&v, value, sizeof(U));
    } else {
      v = *static_cast<const U*>(value);
    }
    U* d = static_cast<U*>(dst);
    for (int64_t i = 0; i < n; ++i) d[i] = v;
  });
}

void CopyTensorElements(const Tensor& from, Tensor* to) {
  CHECK_EQ(from.dtype(), to->dtype());
  CHECK_EQ(from.NumElements(), to->NumElements());
  if (from.NumElements() == 0) return;
  CHECK(CopyElements(from.dtype(), from.raw_data(), to->raw_data(), from.NumElements()))
      << "no element type for " << DataTypeString(from.dtype());
}

}  // namespace sluice
