#include "io/table_builder.h"

#include <algorithm>

#include "io/crc32c.h"

namespace sluice {
namespace table {

BlockBuilder::BlockBuilder(int restart_interval) : restart_interval_(restart_interval) {
  restarts_.push_back(0);
}

void BlockBuilder::Reset() {
  buffer_.clear();
  restarts_.clear();
  restarts_.push_back(0);
  counter_ = 0;
  last_key_.clear();
  finished_ = false;
}

size_t BlockBuilder::CurrentSizeEstimate() const {
  return buffer_.size() + restarts_.size() * sizeof(uint32_t) + sizeof(uint32_t);
}

absl::string_view BlockBuilder::Finish() {
  for (const uint32_t restart : restarts_) PutFixed32(&buffer_, restart);
  PutFixed32(&buffer_, static_cast<uint32_t>(restarts_.size()));
  finished_ = true;
  return buffer_;
}

void BlockBuilder::Add(absl::string_view key, absl::string_view value) {
  size_t shared = 0;
  if (counter_ < restart_interval_) {
    const size_t limit = std::min(last_key_.size(), key.size());
    while (shared < limit && last_key_[shared] == key[shared]) ++shared;
  } else {
    restarts_.push_back(static_cast<uint32_t>(buffer_.size()));
    counter_ = 0;
  }
  const size_t non_shared = key.size() - shared;
  PutVarint32(&buffer_, static_cast<uint32_t>(shared));
  PutVarint32(&buffer_, static_cast<uint32_t>(non_shared));
  PutVarint32(&buffer_, static_cast<uint32_t>(value.size()));
  buffer_.append(key.data() + shared, non_shared);
  buffer_.append(value.data(), value.size());
  last_key_.resize(shared);
  last_key_.append(key.data() + shared, non_shared);
  ++counter_;
}

void FindShortestSeparator(std::string* start, absl::string_view limit) {
  const size_t min_length = std::min(start->size(), limit.size());
  size_t diff = 0;
  while (diff < min_length && (*start)[diff] == limit[diff]) ++diff;
  if (diff >= min_length) return;  // one is a prefix of the other
  const uint8_t byte = static_cast<uint8_t>((*start)[diff]);
  if (byte < 0xff && byte + 1 < static_cast<uint8_t>(limit[diff])) {
    (*start)[diff] = static_cast<char>(byte + 1);
    start->resize(diff + 1);
  }
}

void FindShortSuccessor(std::string* key) {
  for (size_t i = 0; i < key->size(); ++i) {
    const uint8_t byte = static_cast<uint8_t>((*key)[i]);
    if (byte != 0xff) {
      (*key)[i] = static_cast<char>(byte + 1);
      key->resize(i + 1);
      return;
    }
  }
}

TableBuilder::TableBuilder(size_t block_size, int restart_interval)
    : block_size_(block_size), data_block_(restart_interval), index_block_(1) {}

void TableBuilder::Add(absl::string_view key, absl::string_view value) {
  if (pending_index_entry_) {
    FindShortestSeparator(&last_key_, key);
    std::string handle;
    pending_handle_.EncodeTo(&handle);
    index_block_.Add(last_key_, handle);
    pending_index_entry_ = false;
  }
  last_key_.assign(key.data(), key.size());
  ++num_entries_;
  data_block_.Add(key, value);
  if (data_block_.CurrentSizeEstimate() >= block_size_) Flush();
}

void TableBuilder::Flush() {
  if (data_block_.empty()) return;
  WriteBlock(&data_block_, &pending_handle_);
  pending_index_entry_ = true;
}

void TableBuilder::WriteBlock(BlockBuilder* block, BlockHandle* handle) {
  const absl::string_view contents = block->Finish();
  handle->offset = out_.size();
  handle->size = contents.size();
  out_.append(contents.data(), contents.size());
  const char type = static_cast<char>(kNoCompression);
  uint32_t crc = crc32c::Value(contents.data(), contents.size());
  crc = crc32c::Extend(crc, &type, 1);
  out_.push_back(type);
  PutFixed32(&out_, crc32c::Mask(crc));
  block->Reset();
}

std::string TableBuilder::Finish() {
  Flush();
  BlockHandle metaindex_handle, index_handle;
  BlockBuilder metaindex_block(kDefaultRestartInterval);
  WriteBlock(&metaindex_block, &metaindex_handle);
  if (pending_index_entry_) {
    FindShortSuccessor(&last_key_);
    std::string handle;
    pending_handle_.EncodeTo(&handle);
    index_block_.Add(last_key_, handle);
    pending_index_entry_ = false;
  }
  WriteBlock(&index_block_, &index_handle);
  std::string footer;
  metaindex_handle.EncodeTo(&footer);
  index_handle.EncodeTo(&footer);
  footer.resize(2 * kMaxEncodedHandleLength, '\0');
  PutFixed64(&footer, kTableMagicNumber);
  out_ += footer;
  return std::move(out_);
}

}  // namespace table
}  // namespace sluice
