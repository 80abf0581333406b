// npy_fuzzer: bytes -> ParseNpy (io/npy.h), the reader behind every `--input x=file.npy`.
//
// Properties: parsing never crashes, whatever the header claims (shapes that overflow, data
// shorter than the shape, unknown dtypes, versions, byte orders); an error is one of the codes
// npy.h documents; and a tensor that parsed encodes again and parses back to the same dtype,
// shape and bytes (EncodeNpy writes every dtype ParseNpy returns).
#include <cstddef>
#include <cstdint>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "fuzz/fuzz_check.h"
#include "graph/core/tensor.h"
#include "io/npy.h"

namespace sluice {
namespace fuzz {
namespace {

bool DocumentedCode(const absl::Status& status) {
  switch (status.code()) {
    case absl::StatusCode::kInvalidArgument:
    case absl::StatusCode::kUnimplemented:
    case absl::StatusCode::kDataLoss:
    // A shape whose bytes the allocator cannot serve.
    case absl::StatusCode::kResourceExhausted:
      return true;
    default:
      return false;
  }
}

void CheckRoundTrip(const Tensor& parsed) {
  std::string encoded;
  absl::Status status = EncodeNpy(parsed, &encoded);
  FuzzCheck(status.ok(), "a parsed tensor encodes", status.ToString());
  Tensor again;
  status = ParseNpy(encoded, &again);
  FuzzCheck(status.ok(), "an encoded tensor parses", status.ToString());
  FuzzCheck(again.dtype() == parsed.dtype() && again.shape() == parsed.shape(),
            "the round trip keeps dtype and shape",
            absl::StrCat(parsed.DebugString(), " became ", again.DebugString()));
  FuzzCheck(again.tensor_data() == parsed.tensor_data(), "the round trip keeps the values");
}

}  // namespace
}  // namespace fuzz
}  // namespace sluice

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace sluice;  // NOLINT: the entry point is outside the namespace by contract
  Tensor tensor;
  absl::Status status =
      ParseNpy(absl::string_view(reinterpret_cast<const char*>(data), size), &tensor);
  if (!status.ok()) {
    fuzz::FuzzCheck(fuzz::DocumentedCode(status), "ParseNpy fails with a documented code",
                    status.ToString());
    return 0;
  }
  fuzz::CheckRoundTrip(tensor);
  return 0;
}
