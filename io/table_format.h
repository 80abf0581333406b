// The on-disk pieces of TensorFlow's table format (LevelDB's SSTable, as TensorFlow's
// tsl/lib/io/table writes it), shared by io/table_builder.h and io/table_reader.h. A table is
//
//   data block 0 .. data block N-1, metaindex block, index block, footer
//
// Every block is followed by a 5-byte trailer: a compression byte (0 none, 1 Snappy) and the
// masked CRC-32C (io/crc32c.h) of the block's bytes and that compression byte. A block holds
// entries sorted by key, each `varint32 shared, varint32 non_shared, varint32 value_size,
// key[shared..], value`, where `shared` bytes of the key repeat the previous key's; every
// `restart interval` entries (16 in data blocks, 1 in the index block) an entry shares nothing
// and its offset is listed in the block's restart array (fixed32 each), which ends the block
// followed by its length (fixed32). The index block maps, for each data block, a key >= its
// last key and < the next block's first key to the block's handle (varint64 offset, varint64
// size). The 48-byte footer holds the metaindex and index handles, zero-padded to 40 bytes,
// and the magic number 0xdb4775248b80fb57 (fixed64).
//
// All integers are little-endian. Thread-safe: pure functions.
#ifndef SLUICE_IO_TABLE_FORMAT_H_
#define SLUICE_IO_TABLE_FORMAT_H_

#include <cstddef>
#include <cstdint>
#include <string>

#include "absl/strings/string_view.h"

namespace sluice {
namespace table {

constexpr uint64_t kTableMagicNumber = 0xdb4775248b80fb57ull;
constexpr size_t kBlockTrailerSize = 5;
// Two block handles of at most 10 + 10 bytes, then the magic number.
constexpr size_t kMaxEncodedHandleLength = 20;
constexpr size_t kFooterLength = 2 * kMaxEncodedHandleLength + 8;
// TensorFlow's table::Options defaults, which tensor bundles use.
constexpr size_t kDefaultBlockSize = 262144;
constexpr int kDefaultRestartInterval = 16;

enum CompressionType : uint8_t { kNoCompression = 0, kSnappyCompression = 1 };

void PutFixed32(std::string* out, uint32_t value);
void PutFixed64(std::string* out, uint64_t value);
void PutVarint32(std::string* out, uint32_t value);
void PutVarint64(std::string* out, uint64_t value);
uint32_t DecodeFixed32(const char* p);
uint64_t DecodeFixed64(const char* p);

// Parse a varint from the front of `*in` and drop its bytes. False (and `*in` unchanged) when
// `*in` ends inside it or it is longer than its type allows (5 or 10 bytes, or a value that
// does not fit).
bool GetVarint32(absl::string_view* in, uint32_t* value);
bool GetVarint64(absl::string_view* in, uint64_t* value);

// Where a block lies in the file: its bytes are [offset, offset + size), its trailer follows.
struct BlockHandle {
  uint64_t offset = 0;
  uint64_t size = 0;

  void EncodeTo(std::string* out) const;
  // False when `*in` does not start with two varint64s.
  bool DecodeFrom(absl::string_view* in);
};

}  // namespace table
}  // namespace sluice

#endif  // SLUICE_IO_TABLE_FORMAT_H_
