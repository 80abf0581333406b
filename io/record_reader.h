// Reading uncompressed TFRecord files (the framing is in io/record_writer.h), such as the event
// files TensorFlow and TensorBoard write.
//
// ReadRecord reads the record at offset() and, on success, moves past it. Both checksums are
// verified. Nothing in a file can crash the reader or make it allocate more than the file holds:
// a length is trusted only after its checksum matched and only if the file has that many bytes
// left. Results:
//   OK            `record` holds the data;
//   OUT_OF_RANGE  the file ends cleanly at offset();
//   DATA_LOSS     the record at offset() is truncated (fewer bytes than a header, or than its
//                 length needs) or corrupt (a checksum does not match); the message says which
//                 and names the byte offset, e.g. "corrupted record at 1234: data checksum
//                 mismatch";
//   the errno's status (absl::ErrnoToStatus) when the file cannot be read.
// On any error offset() stays where it was, so a reader following a file that is still being
// written may call ReadRecord again later and get the record once it is complete.
//
// Not thread-safe: one reader per thread.
#ifndef SLUICE_IO_RECORD_READER_H_
#define SLUICE_IO_RECORD_READER_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace sluice {

class RecordReader {
 public:
  // NOT_FOUND, PERMISSION_DENIED, ... when `path` cannot be opened.
  static absl::StatusOr<std::unique_ptr<RecordReader>> Open(const std::string& path);

  RecordReader(const RecordReader&) = delete;
  RecordReader& operator=(const RecordReader&) = delete;
  ~RecordReader();

  absl::Status ReadRecord(std::string* record);

  // The byte offset of the next record.
  uint64_t offset() const { return offset_; }
  // Makes `offset` the next record's (a value offset() returned: to skip a damaged record the
  // caller must know where the next one starts).
  void Seek(uint64_t offset) { offset_ = offset; }
  const std::string& path() const { return path_; }

 private:
  RecordReader(int fd, std::string path);

  // Reads up to `n` bytes at `offset` into `out` (replaced); fewer only at the end of the file.
  // Small reads are served from a buffer of the file.
  absl::Status ReadAt(uint64_t offset, size_t n, std::string* out);
  // Reads exactly what is there, up to `n` bytes, straight from the file.
  absl::Status ReadFromFile(uint64_t offset, size_t n, std::string* out);
  absl::Status FileSize(uint64_t* size);

  int fd_;
  std::string path_;
  uint64_t offset_ = 0;
  std::string buffer_;  // the file's bytes from buffer_start_
  uint64_t buffer_start_ = 0;
};

}  // namespace sluice

#endif  // SLUICE_IO_RECORD_READER_H_
