#include "io/event_writer.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "graph/core/errors.h"

namespace sluice {
namespace {

std::string Hostname() {
  char name[HOST_NAME_MAX + 1] = {0};
  if (gethostname(name, sizeof(name) - 1) != 0 || name[0] == '\0') return "localhost";
  return name;
}

// mkdir that accepts an existing folder.
absl::Status MakeOneDir(const std::string& path) {
  if (mkdir(path.c_str(), 0755) == 0) return absl::OkStatus();
  const int error = errno;
  struct stat info;
  if (error == EEXIST && stat(path.c_str(), &info) == 0) {
    if (S_ISDIR(info.st_mode)) return absl::OkStatus();
    return absl::ErrnoToStatus(ENOTDIR, absl::StrCat("cannot create folder ", path));
  }
  return absl::ErrnoToStatus(error, absl::StrCat("cannot create folder ", path));
}

}  // namespace

constexpr char EventWriter::kFileVersion[];
constexpr char EventWriter::kWriterName[];

absl::Status RecursivelyCreateDir(const std::string& dir) {
  if (dir.empty()) return errors::InvalidArgument("no folder given for the event file");
  // Each prefix ending before a '/', then the whole path; the root and repeated slashes are
  // skipped.
  for (size_t slash = dir.find('/', 1); slash != std::string::npos;
       slash = dir.find('/', slash + 1)) {
    if (dir[slash - 1] == '/') continue;
    RETURN_IF_ERROR(MakeOneDir(dir.substr(0, slash)));
  }
  return MakeOneDir(dir);
}

double EventWriter::NowSeconds() { return absl::ToUnixMicros(absl::Now()) / 1.0e6; }

absl::StatusOr<std::unique_ptr<EventWriter>> EventWriter::Create(
    const std::string& dir, const EventWriterOptions& options) {
  RETURN_IF_ERROR(RecursivelyCreateDir(dir));
  // One clock reading, in whole seconds, names the file and stamps its first event, as in
  // TensorFlow.
  const int64_t now = absl::ToUnixSeconds(absl::Now());
  const std::string path = absl::StrFormat("%s/events.out.tfevents.%010d.%s%s", dir, now,
                                           Hostname(), options.filename_suffix);
  const int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0) {
    const int error = errno;
    if (error == EEXIST) {
      return errors::AlreadyExists(path,
                                   " exists: another event writer started in this folder within "
                                   "the same second; give each its own filename_suffix");
    }
    return absl::ErrnoToStatus(error, absl::StrCat("cannot create ", path));
  }
  std::unique_ptr<EventWriter> writer(new EventWriter(RecordWriter::FromFileDescriptor(fd, path)));
  Event first;
  first.set_wall_time(static_cast<double>(now));
  first.set_file_version(kFileVersion);
  first.mutable_source_metadata()->set_writer(kWriterName);
  RETURN_IF_ERROR(writer->WriteEvent(first));
  RETURN_IF_ERROR(writer->Flush());
  return writer;
}

EventWriter::EventWriter(std::unique_ptr<RecordWriter> records) : records_(std::move(records)) {}

absl::Status EventWriter::WriteEvent(const Event& event) {
  std::string serialized;
  if (!event.SerializeToString(&serialized)) {
    return errors::InvalidArgument("cannot serialize an Event of ", event.ByteSizeLong(), " bytes");
  }
  return records_->WriteRecord(serialized);
}

absl::Status EventWriter::WriteSummary(int64_t step, const Summary& summary) {
  Event event;
  event.set_wall_time(NowSeconds());
  event.set_step(step);
  *event.mutable_summary() = summary;
  return WriteEvent(event);
}

absl::Status EventWriter::WriteSerializedSummary(int64_t step, absl::string_view serialized) {
  Event event;
  event.set_wall_time(NowSeconds());
  event.set_step(step);
  if (serialized.size() > static_cast<size_t>(INT_MAX) ||
      !event.mutable_summary()->ParseFromArray(serialized.data(),
                                               static_cast<int>(serialized.size()))) {
    return errors::InvalidArgument("not a serialized Summary (", serialized.size(), " bytes)");
  }
  return WriteEvent(event);
}

absl::Status EventWriter::Flush() { return records_->Flush(); }

absl::Status EventWriter::Close() { return records_->Close(); }

}  // namespace sluice
