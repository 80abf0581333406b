// Builds a table in TensorFlow's format (io/table_format.h) byte for byte as TensorFlow's
// table::TableBuilder does with a tensor bundle's options: uncompressed blocks, data blocks
// closed once their estimated size reaches 256 KiB, restarts every 16 entries (every entry in
// the index block), an empty metaindex block, and index keys shortened as LevelDB's bytewise
// comparator shortens them.
//
// The table is built in memory: tensor bundles' index files hold one short entry per tensor.
//
// Not thread-safe.
#ifndef SLUICE_IO_TABLE_BUILDER_H_
#define SLUICE_IO_TABLE_BUILDER_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "io/table_format.h"

namespace sluice {
namespace table {

// One block's entries, prefix-compressed, and its restart array.
class BlockBuilder {
 public:
  explicit BlockBuilder(int restart_interval);

  // REQUIRES: `key` sorts after every key added since the last Reset().
  void Add(absl::string_view key, absl::string_view value);
  // The block's bytes (entries, restart offsets, their count); valid until Reset().
  absl::string_view Finish();
  void Reset();

  // The block's size if it were finished now.
  size_t CurrentSizeEstimate() const;
  bool empty() const { return buffer_.empty(); }

 private:
  int restart_interval_;
  std::string buffer_;
  std::vector<uint32_t> restarts_;
  int counter_ = 0;
  std::string last_key_;
  bool finished_ = false;
};

class TableBuilder {
 public:
  TableBuilder(size_t block_size = kDefaultBlockSize,
               int restart_interval = kDefaultRestartInterval);

  // REQUIRES: `key` sorts (bytewise) after every key added before, and Finish() not called.
  void Add(absl::string_view key, absl::string_view value);
  // Writes the remaining blocks and the footer; returns the whole table's bytes.
  std::string Finish();

  uint64_t num_entries() const { return num_entries_; }

 private:
  void Flush();
  void WriteBlock(BlockBuilder* block, BlockHandle* handle);

  size_t block_size_;
  std::string out_;
  BlockBuilder data_block_;
  BlockBuilder index_block_;
  std::string last_key_;
  uint64_t num_entries_ = 0;
  // A data block was written whose index entry waits for the next key (to shorten it).
  bool pending_index_entry_ = false;
  BlockHandle pending_handle_;
};

// LevelDB's bytewise comparator's shortenings, which decide the index block's keys.
// Shortens `*start` to a key k with *start <= k < limit, if one is shorter.
void FindShortestSeparator(std::string* start, absl::string_view limit);
// Shortens `*key` to a key k >= *key.
void FindShortSuccessor(std::string* key);

}  // namespace table
}  // namespace sluice

#endif  // SLUICE_IO_TABLE_BUILDER_H_
