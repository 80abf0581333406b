#include "io/record_writer.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "graph/core/errors.h"
#include "io/crc32c.h"

namespace sluice {
namespace {

// Records are gathered up to this many bytes before a write(2): event files get many small
// records (a scalar summary is some 40 bytes).
constexpr size_t kBufferBytes = 256 * 1024;

void AppendLittleEndian(uint64_t value, int bytes, std::string* out) {
  for (int i = 0; i < bytes; ++i) out->push_back(static_cast<char>((value >> (8 * i)) & 0xFF));
}

}  // namespace

void AppendRecord(absl::string_view data, std::string* out) {
  const size_t start = out->size();
  AppendLittleEndian(data.size(), 8, out);
  AppendLittleEndian(crc32c::Mask(crc32c::Value(out->data() + start, 8)), 4, out);
  out->append(data.data(), data.size());
  AppendLittleEndian(crc32c::Mask(crc32c::Value(data.data(), data.size())), 4, out);
}

absl::StatusOr<std::unique_ptr<RecordWriter>> RecordWriter::Create(const std::string& path) {
  const int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return absl::ErrnoToStatus(errno, absl::StrCat("cannot create ", path));
  return FromFileDescriptor(fd, path);
}

std::unique_ptr<RecordWriter> RecordWriter::FromFileDescriptor(int fd, std::string path) {
  return std::unique_ptr<RecordWriter>(new RecordWriter(fd, std::move(path)));
}

RecordWriter::RecordWriter(int fd, std::string path) : fd_(fd), path_(std::move(path)) {}

RecordWriter::~RecordWriter() { Close().IgnoreError(); }

absl::Status RecordWriter::WriteRecord(absl::string_view data) {
  RETURN_IF_ERROR(status_);
  if (fd_ < 0) return errors::FailedPrecondition(path_, " is closed");
  const size_t before = buffer_.size();
  AppendRecord(data, &buffer_);
  bytes_written_ += buffer_.size() - before;
  if (buffer_.size() >= kBufferBytes) return WriteBuffer();
  return absl::OkStatus();
}

absl::Status RecordWriter::Flush() {
  RETURN_IF_ERROR(status_);
  if (fd_ < 0) return errors::FailedPrecondition(path_, " is closed");
  return WriteBuffer();
}

absl::Status RecordWriter::WriteBuffer() {
  const char* data = buffer_.data();
  size_t left = buffer_.size();
  while (left > 0) {
    const ssize_t written = write(fd_, data, left);
    if (written < 0 && errno == EINTR) continue;
    if (written < 0) {
      status_ = absl::ErrnoToStatus(errno, absl::StrCat("cannot write ", path_));
      return status_;
    }
    data += written;
    left -= static_cast<size_t>(written);
  }
  buffer_.clear();
  return absl::OkStatus();
}

absl::Status RecordWriter::Close() {
  if (fd_ < 0) return status_.ok() ? errors::FailedPrecondition(path_, " is closed") : status_;
  absl::Status status = status_.ok() ? WriteBuffer() : status_;
  // close(2) reports delayed write errors (NFS, quota); the descriptor is gone either way.
  if (close(fd_) != 0 && status.ok()) {
    status = absl::ErrnoToStatus(errno, absl::StrCat("cannot write ", path_));
  }
  fd_ = -1;
  buffer_.clear();
  status_ = status;
  return status;
}

}  // namespace sluice
