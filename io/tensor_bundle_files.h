// The file names and constants of TensorFlow's V2 checkpoint format (a "tensor bundle"): an
// index file PREFIX.index (a table, io/table_format.h, mapping "" to a BundleHeaderProto and
// each tensor's name to its BundleEntryProto, proto/tensor_bundle.proto) and data files
// PREFIX.data-SSSSS-of-NNNNN holding the tensors' bytes: POD elements as they lie in memory
// (little-endian), strings as varint64 lengths, a masked CRC-32C of the lengths (each taken
// as a little-endian uint32, or uint64 when it does not fit), then the strings' bytes.
#ifndef SLUICE_IO_TENSOR_BUNDLE_FILES_H_
#define SLUICE_IO_TENSOR_BUNDLE_FILES_H_

#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/string_view.h"

namespace sluice {

// TensorFlow's kTensorBundleVersion (written as the header's producer version; a reader
// accepts bundles whose min_consumer is at most this), kTensorBundleMinConsumer and
// kTensorBundleMinProducer.
constexpr int kTensorBundleVersion = 1;
constexpr int kTensorBundleMinConsumer = 0;
constexpr int kTensorBundleMinProducer = 0;

// The key of the header entry, the first of every index.
constexpr absl::string_view kHeaderEntryKey = "";

inline std::string MetaFilename(absl::string_view prefix) { return absl::StrCat(prefix, ".index"); }

inline std::string DataFilename(absl::string_view prefix, int shard, int num_shards) {
  return absl::StrFormat("%s.data-%05d-of-%05d", prefix, shard, num_shards);
}

}  // namespace sluice

#endif  // SLUICE_IO_TENSOR_BUNDLE_FILES_H_
