#include "kernels/cpu/array/element_copy.h"

#include <cstring>
#include <type_traits>

namespace sluice {
namespace array_internal {

void CopyElements(DataType dtype, const void* src, void* dst, int64_t n) {
  if (n <= 0) return;
  VisitElementUnit(dtype, [&](auto unit) {
    using U = typename decltype(unit)::type;
    CopyUnits(static_cast<const U*>(src), static_cast<U*>(dst), n);
  });
}

void FillElements(DataType dtype, const void* value, void* dst, int64_t n) {
  if (n <= 0) return;
  VisitElementUnit(dtype, [&](auto unit) {
    using U = typename decltype(unit)::type;
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

}  // namespace array_internal
}  // namespace sluice
