// Writes TensorFlow's V2 checkpoints (tensor bundles, io/tensor_bundle_files.h) byte for byte
// as TensorFlow's BundleWriter does (one shard, no alignment padding): the data file first
// under a temporary name (PREFIX.data-00000-of-00001.tempstate<random>), renamed once
// complete, then the index, likewise; entries sorted by key after the header
// {num_shards: 1, endianness: LITTLE, version {producer: 1}}.
//
// Usage:
//   BundleWriter writer(prefix);
//   RETURN_IF_ERROR(writer.Add("v", tensor));
//   RETURN_IF_ERROR(writer.Finish());
// The first failure sticks: later calls return it. Errors: INVALID_ARGUMENT for a duplicate
// or empty key; UNIMPLEMENTED for dtypes a bundle cannot hold here (variant, resource); the
// errno's status when a file cannot be created, written or renamed.
//
// Not thread-safe.
#ifndef SLUICE_IO_TENSOR_BUNDLE_WRITER_H_
#define SLUICE_IO_TENSOR_BUNDLE_WRITER_H_

#include <cstdint>
#include <map>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "graph/core/tensor.h"
#include "proto/tensor_bundle.pb.h"

namespace sluice {

class BundleWriter {
 public:
  // Creates the prefix's folder (not its parents, as TensorFlow) and the temporary data file.
  explicit BundleWriter(std::string prefix);
  BundleWriter(const BundleWriter&) = delete;
  BundleWriter& operator=(const BundleWriter&) = delete;
  // Removes the temporary files of an unfinished bundle.
  ~BundleWriter();

  // The first error so far (OK while none).
  absl::Status status() const { return status_; }

  // Appends `tensor`'s bytes to the data file under `key`.
  absl::Status Add(absl::string_view key, const Tensor& tensor);
  // Closes and renames the data file, then writes the index. Later Adds fail (INTERNAL).
  absl::Status Finish();

 private:
  absl::Status Append(absl::string_view bytes);

  std::string prefix_;
  std::string data_path_;  // the temporary name
  std::string index_path_;
  int fd_ = -1;
  uint64_t size_ = 0;
  absl::Status status_;
  bool finished_ = false;
  std::map<std::string, BundleEntryProto> entries_;
};

// TensorFlow's layout of a string tensor's bytes in a data file, and the CRC-32C (unmasked)
// that the entry stores masked.
std::string EncodeStringTensor(const Tensor& tensor, uint32_t* crc);

// Writes the index table: the header then `entries` (sorted by key), as TensorFlow's writer
// and MergeBundles do.
std::string BuildBundleIndex(const BundleHeaderProto& header,
                             const std::map<std::string, BundleEntryProto>& entries);

// Creates `dir` (not its parents, as TensorFlow's Env::CreateDir: a missing parent is
// NOT_FOUND); OK if it exists or is "".
absl::Status CreateDir(const std::string& dir);
// Writes `bytes` to `path` (truncating it).
absl::Status WriteFileBytes(const std::string& path, absl::string_view bytes);
// The folder part of a path, as TensorFlow's io::Dirname ("" when there is no '/').
absl::string_view Dirname(absl::string_view path);

}  // namespace sluice

#endif  // SLUICE_IO_TENSOR_BUNDLE_WRITER_H_
