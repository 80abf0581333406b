// Reads TensorFlow's V2 checkpoints (tensor bundles, io/tensor_bundle_files.h), as
// TensorFlow's BundleReader does: tensors by name, with their dtype and shape.
//
// The files are user input. Everything is checked before it is used: the index table
// (io/table_reader.h), the header's version, each entry (parseable, a valid shape, a shard
// that exists, a size that matches the dtype and shape and lies inside the data file), and
// the checksum of the bytes read. Nothing in the files can crash the reader, make it read
// outside a file or allocate more than the data file holds. Errors, with TensorFlow's codes:
//   NOT_FOUND         no PREFIX.index, no data file for a shard, or "Key K not found in
//                     checkpoint";
//   OUT_OF_RANGE      an entry whose bytes run past the end of its data file (a truncated
//                     data file), as TensorFlow's "Read less bytes than requested";
//   DATA_LOSS         a corrupt or truncated index or data file, an entry that does not parse,
//                     an invalid shape, a size or offset that does not fit, a checksum
//                     mismatch;
//   INTERNAL          an index without entries (no header), as TensorFlow;
//   INVALID_ARGUMENT  a header whose versions this reader does not accept;
//   UNIMPLEMENTED     big-endian bundles, DT_VARIANT tensors, partitioned (sliced) entries,
//                     Snappy-compressed index blocks.
//
// Usage:
//   ASSIGN_OR_RETURN(std::unique_ptr<BundleReader> reader, BundleReader::Open(prefix));
//   ASSIGN_OR_RETURN(Tensor t, reader->Lookup("dense/kernel/.ATTRIBUTES/VARIABLE_VALUE"));
// or, to read into a tensor allocated elsewhere (an op's output):
//   DataType dtype; TensorShape shape;
//   RETURN_IF_ERROR(reader->LookupDtypeAndShape(key, &dtype, &shape));
//   ... allocate `out` with dtype and shape ...
//   RETURN_IF_ERROR(reader->ReadInto(key, out));
//
// Not thread-safe (it caches open data files): one reader per thread.
#ifndef SLUICE_IO_TENSOR_BUNDLE_READER_H_
#define SLUICE_IO_TENSOR_BUNDLE_READER_H_

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "graph/core/allocator.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_shape.h"
#include "io/table_reader.h"
#include "proto/tensor_bundle.pb.h"
#include "proto/types.pb.h"

namespace sluice {

class BundleReader {
 public:
  // Opens PREFIX.index and checks its header. Data files are opened when first read.
  static absl::StatusOr<std::unique_ptr<BundleReader>> Open(const std::string& prefix);

  BundleReader(const BundleReader&) = delete;
  BundleReader& operator=(const BundleReader&) = delete;
  ~BundleReader();

  const std::string& prefix() const { return prefix_; }
  const BundleHeaderProto& header() const { return header_; }

  // The entry stored under `key`, checked as described above (for an entry with bytes: its
  // shard exists and [offset, offset + size) lies inside the shard's data file, which is
  // opened for that).
  absl::Status LookupEntry(absl::string_view key, BundleEntryProto* entry);
  bool Contains(absl::string_view key);
  absl::Status LookupDtypeAndShape(absl::string_view key, DataType* dtype, TensorShape* shape);

  // Reads the tensor stored under `key` into `*out`, which must already have its dtype and
  // shape (INVALID_ARGUMENT otherwise); its elements are replaced.
  absl::Status ReadInto(absl::string_view key, Tensor* out);
  // Allocates the tensor from `allocator` and reads it.
  absl::StatusOr<Tensor> Lookup(absl::string_view key,
                                Allocator* allocator = DefaultCpuAllocator());

  // Every key but the header's, in order (slices of partitioned tensors included).
  absl::StatusOr<std::vector<std::string>> ListKeys() const;
  // Calls fn(key, entry) for every entry but the header, in key order; stops at fn's first
  // error. An entry that does not parse is DATA_LOSS.
  absl::Status ForEachEntry(
      const std::function<absl::Status(absl::string_view, const BundleEntryProto&)>& fn) const;

 private:
  struct DataFile {
    int fd = -1;
    uint64_t size = 0;
  };

  BundleReader(std::string prefix, std::unique_ptr<table::TableReader> table)
      : prefix_(std::move(prefix)), table_(std::move(table)) {}

  absl::Status ReadHeader();
  absl::Status OpenDataFile(int shard, DataFile** file);
  // Reads exactly [offset, offset + n) of the shard's file.
  absl::Status ReadBytes(const DataFile& file, uint64_t offset, uint64_t n, char* out) const;
  absl::Status ReadStrings(absl::string_view key, const BundleEntryProto& entry,
                           const DataFile& file, Tensor* out, uint32_t* crc);

  std::string prefix_;
  std::unique_ptr<table::TableReader> table_;
  BundleHeaderProto header_;
  std::map<int, DataFile> data_files_;
};

}  // namespace sluice

#endif  // SLUICE_IO_TENSOR_BUNDLE_READER_H_
