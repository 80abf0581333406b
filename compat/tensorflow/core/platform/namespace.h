// The compatibility include tree maps TensorFlow's names onto Sluice's: namespace tensorflow
// sees all of namespace sluice (tensorflow::Tensor is sluice::Tensor, tensorflow::ops::MatMul
// is sluice::ops::MatMul, DT_FLOAT is sluice::DT_FLOAT), plus TensorFlow's spellings of
// common types. Client and custom-op source written against TensorFlow compiles with this
// tree on its include path (//compat:tensorflow) and Sluice's libraries linked.
#ifndef SLUICE_COMPAT_TENSORFLOW_CORE_PLATFORM_NAMESPACE_H_
#define SLUICE_COMPAT_TENSORFLOW_CORE_PLATFORM_NAMESPACE_H_

#include <cstdint>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"

namespace sluice {}

namespace tensorflow {

using namespace ::sluice;  // NOLINT(build/namespaces): the point of this tree

using Status = ::absl::Status;
template <typename T>
using StatusOr = ::absl::StatusOr<T>;
using StringPiece = ::absl::string_view;
using tstring = ::std::string;
using int8 = ::std::int8_t;
using int16 = ::std::int16_t;
using int32 = ::std::int32_t;
using int64 = ::std::int64_t;
using uint8 = ::std::uint8_t;
using uint16 = ::std::uint16_t;
using uint32 = ::std::uint32_t;
using uint64 = ::std::uint64_t;

inline Status OkStatus() { return ::absl::OkStatus(); }

namespace gtl {
template <typename T>
using ArraySlice = ::absl::Span<const T>;
}  // namespace gtl

}  // namespace tensorflow

#endif  // SLUICE_COMPAT_TENSORFLOW_CORE_PLATFORM_NAMESPACE_H_
