// Reads a table in TensorFlow's format (io/table_format.h), such as a tensor bundle's index
// file. The file is user input: nothing in it can crash the reader or make it read outside
// the file. Every block's checksum is verified before its bytes are used (as TensorFlow
// always does). Errors:
//   DATA_LOSS      a file shorter than a footer, a bad magic number, a handle outside the file,
//                  a checksum mismatch, an unknown compression byte, a malformed block or
//                  entry (offsets, varints, restart array), index keys out of order;
//   UNIMPLEMENTED  a Snappy-compressed block (TensorFlow never writes them into bundles);
//   the errno's status (NOT_FOUND, PERMISSION_DENIED, ...) when the file cannot be read.
// The footer and the index block are checked by Open; a data block when a lookup reaches it.
//
// Thread-compatible: const methods may be called concurrently.
#ifndef SLUICE_IO_TABLE_READER_H_
#define SLUICE_IO_TABLE_READER_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "io/table_format.h"

namespace sluice {
namespace table {

class TableReader {
 public:
  // Reads the whole file into memory and checks its footer and index block.
  static absl::StatusOr<std::unique_ptr<TableReader>> Open(const std::string& path);
  // The same over bytes already in memory; `name` names them in errors.
  static absl::StatusOr<std::unique_ptr<TableReader>> FromBytes(std::string bytes,
                                                                std::string name);

  TableReader(const TableReader&) = delete;
  TableReader& operator=(const TableReader&) = delete;

  // The value stored under exactly `key`: NOT_FOUND when there is none.
  absl::Status Get(absl::string_view key, std::string* value) const;
  // The first entry whose key is >= `key` (as TensorFlow's Iterator::Seek): NOT_FOUND when
  // every key is smaller.
  absl::Status Seek(absl::string_view key, std::string* found_key, std::string* value) const;

  // Calls fn(key, value) for every entry in key order; stops at fn's first error and returns
  // it.
  absl::Status ForEach(
      const std::function<absl::Status(absl::string_view, absl::string_view)>& fn) const;

  const std::string& name() const { return name_; }
  size_t num_blocks() const { return index_.size(); }

 private:
  struct Entry {
    std::string key;
    absl::string_view value;  // inside bytes_
  };
  struct IndexEntry {
    std::string key;
    BlockHandle handle;
  };

  TableReader(std::string bytes, std::string name)
      : bytes_(std::move(bytes)), name_(std::move(name)) {}

  absl::Status Init();
  // A checked, uncompressed block's bytes (without its trailer).
  absl::Status ReadBlock(const BlockHandle& handle, absl::string_view* contents) const;
  // Every entry of a block, keys in order.
  absl::Status DecodeBlock(absl::string_view contents, std::vector<Entry>* entries) const;
  absl::Status Corrupt(absl::string_view what) const;

  std::string bytes_;
  std::string name_;
  std::vector<IndexEntry> index_;
};

}  // namespace table
}  // namespace sluice

#endif  // SLUICE_IO_TABLE_READER_H_
