// Writing TFRecord files, the container of TensorBoard's event files (and of tf.data's
// TFRecordDataset), uncompressed. Each record is framed as TensorFlow frames it:
//
//   uint64 length                    little-endian
//   uint32 Mask(crc32c(length))      over the 8 length bytes (io/crc32c.h)
//   byte   data[length]
//   uint32 Mask(crc32c(data))
//
// so TensorFlow's readers (tf.data.TFRecordDataset, tf.compat.v1.train.summary_iterator,
// TensorBoard) read what this writes, and RecordReader (io/record_reader.h) reads theirs.
//
// Writes are buffered; Flush hands them to the operating system (no fsync). Every failure of the
// file system comes back as the errno's status (absl::ErrnoToStatus: ENOSPC is
// RESOURCE_EXHAUSTED, EACCES PERMISSION_DENIED, ENOTDIR FAILED_PRECONDITION, ...) naming the
// file, and sticks: after one, every later call returns it, since the file no longer holds
// a clean sequence of records. Calls after Close are FAILED_PRECONDITION.
//
// Not thread-safe: one writer per thread, or a lock around it.
#ifndef SLUICE_IO_RECORD_WRITER_H_
#define SLUICE_IO_RECORD_WRITER_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace sluice {

// The framing's sizes around the data.
constexpr size_t kRecordHeaderBytes = 12;
constexpr size_t kRecordFooterBytes = 4;

// Appends `data` framed as one record to `out`.
void AppendRecord(absl::string_view data, std::string* out);

class RecordWriter {
 public:
  // Creates `path` or truncates it (mode 0644 before the umask).
  static absl::StatusOr<std::unique_ptr<RecordWriter>> Create(const std::string& path);
  // Writes to `fd`, an open file descriptor the writer then owns and closes; `path` names it in
  // errors.
  static std::unique_ptr<RecordWriter> FromFileDescriptor(int fd, std::string path);

  RecordWriter(const RecordWriter&) = delete;
  RecordWriter& operator=(const RecordWriter&) = delete;
  // Closes the file if Close was not called; what was still buffered is written, but errors
  // are lost then. Call Close to see them.
  ~RecordWriter();

  absl::Status WriteRecord(absl::string_view data);
  absl::Status Flush();
  // Flushes and closes the file.
  absl::Status Close();

  const std::string& path() const { return path_; }
  // Bytes of framed records accepted so far (written or buffered).
  uint64_t bytes_written() const { return bytes_written_; }

 private:
  RecordWriter(int fd, std::string path);
  absl::Status WriteBuffer();

  int fd_;
  std::string path_;
  std::string buffer_;
  uint64_t bytes_written_ = 0;
  absl::Status status_;  // the first failure, returned from then on
};

}  // namespace sluice

#endif  // SLUICE_IO_RECORD_WRITER_H_
