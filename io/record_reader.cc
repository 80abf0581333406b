#include "io/record_reader.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "graph/core/errors.h"
#include "io/crc32c.h"
#include "io/record_writer.h"

namespace sluice {
namespace {

// Reads of at most this many bytes go through the buffer, which is filled this much at a time:
// most records of an event file are far smaller.
constexpr size_t kBufferBytes = 256 * 1024;

uint64_t DecodeLittleEndian(const char* p, int bytes) {
  uint64_t value = 0;
  for (int i = bytes - 1; i >= 0; --i) value = (value << 8) | static_cast<uint8_t>(p[i]);
  return value;
}

}  // namespace

absl::StatusOr<std::unique_ptr<RecordReader>> RecordReader::Open(const std::string& path) {
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return absl::ErrnoToStatus(errno, absl::StrCat("cannot open ", path));
  return std::unique_ptr<RecordReader>(new RecordReader(fd, path));
}

RecordReader::RecordReader(int fd, std::string path) : fd_(fd), path_(std::move(path)) {}

RecordReader::~RecordReader() { close(fd_); }

absl::Status RecordReader::ReadRecord(std::string* record) {
  std::string header;
  RETURN_IF_ERROR(ReadAt(offset_, kRecordHeaderBytes, &header));
  if (header.empty()) return errors::OutOfRange("end of ", path_, " at ", offset_);
  if (header.size() < kRecordHeaderBytes) {
    return errors::DataLoss("truncated record at ", offset_, ": ", header.size(), " of ",
                            kRecordHeaderBytes, " header bytes in ", path_);
  }
  const uint64_t length = DecodeLittleEndian(header.data(), 8);
  const uint32_t length_crc = static_cast<uint32_t>(DecodeLittleEndian(header.data() + 8, 4));
  if (crc32c::Unmask(length_crc) != crc32c::Value(header.data(), 8)) {
    return errors::DataLoss("corrupted record at ", offset_, ": length checksum mismatch in ",
                            path_);
  }
  // The length is now known not to be garbage, but it is trusted only as far as the file goes:
  // a record still being written, or a file cut short, must not make us allocate the length.
  uint64_t size;
  RETURN_IF_ERROR(FileSize(&size));
  const uint64_t start = offset_ + kRecordHeaderBytes;
  const uint64_t left = size > start ? size - start : 0;
  if (length > left || left - length < kRecordFooterBytes) {
    return errors::DataLoss("truncated record at ", offset_, ": ", length,
                            " data bytes and a checksum announced, ", left, " bytes left in ",
                            path_);
  }
  std::string body;
  RETURN_IF_ERROR(ReadAt(start, length + kRecordFooterBytes, &body));
  if (body.size() < length + kRecordFooterBytes) {
    return errors::DataLoss("truncated record at ", offset_, ": the file ended at ",
                            start + body.size(), " while reading ", path_);
  }
  const uint32_t data_crc = static_cast<uint32_t>(DecodeLittleEndian(body.data() + length, 4));
  if (crc32c::Unmask(data_crc) != crc32c::Value(body.data(), length)) {
    return errors::DataLoss("corrupted record at ", offset_, ": data checksum mismatch in ", path_);
  }
  body.resize(length);
  *record = std::move(body);
  offset_ = start + length + kRecordFooterBytes;
  return absl::OkStatus();
}

absl::Status RecordReader::ReadAt(uint64_t offset, size_t n, std::string* out) {
  if (n > kBufferBytes) return ReadFromFile(offset, n, out);
  const bool buffered = offset >= buffer_start_ && offset - buffer_start_ + n <= buffer_.size();
  if (!buffered) {
    RETURN_IF_ERROR(ReadFromFile(offset, kBufferBytes, &buffer_));
    buffer_start_ = offset;
  }
  const size_t from = offset - buffer_start_;
  out->assign(buffer_, from, std::min(n, buffer_.size() - from));
  return absl::OkStatus();
}

absl::Status RecordReader::ReadFromFile(uint64_t offset, size_t n, std::string* out) {
  out->resize(n);
  size_t got = 0;
  while (got < n) {
    const ssize_t read = pread(fd_, &(*out)[got], n - got, static_cast<off_t>(offset + got));
    if (read < 0 && errno == EINTR) continue;
    if (read < 0) {
      const int error = errno;
      out->clear();
      return absl::ErrnoToStatus(error, absl::StrCat("cannot read ", path_));
    }
    if (read == 0) break;  // the end of the file
    got += static_cast<size_t>(read);
  }
  out->resize(got);
  return absl::OkStatus();
}

absl::Status RecordReader::FileSize(uint64_t* size) {
  struct stat info;
  if (fstat(fd_, &info) != 0)
    return absl::ErrnoToStatus(errno, absl::StrCat("cannot stat ", path_));
  *size = static_cast<uint64_t>(info.st_size);
  return absl::OkStatus();
}

}  // namespace sluice
