// event_file_fuzzer: bytes -> a file -> EventReader (io/event_reader.h), the reader behind
// `sluice board`, the capture index's checks and the summary tests.
//
// Properties: reading never crashes and never allocates more than the file holds; every
// result is one the reader documents (OK, OUT_OF_RANGE at a clean end, DATA_LOSS for a
// truncated, corrupt or unparsable record); a failed read leaves offset() where it was; a
// successful one moves it forward by exactly one framed record; a clean end is at the end of
// the file; and the records read, framed again by AppendRecord, are the bytes they came from.
#include <sys/mman.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "fuzz/fuzz_check.h"
#include "io/event_reader.h"
#include "io/record_reader.h"
#include "io/record_writer.h"
#include "proto/event.pb.h"

namespace sluice {
namespace fuzz {
namespace {

// An anonymous in-memory file holding `bytes`, named through /proc/self/fd; closed on
// destruction. The readers take paths, and a memfd keeps the fuzzer off the disk.
class MemoryFile {
 public:
  explicit MemoryFile(const uint8_t* bytes, size_t size) : fd_(memfd_create("event_file", 0)) {
    size_t written = 0;
    while (fd_ >= 0 && written < size) {
      const ssize_t n = write(fd_, bytes + written, size - written);
      if (n <= 0) break;
      written += static_cast<size_t>(n);
    }
    ok_ = fd_ >= 0 && written == size;
  }
  ~MemoryFile() {
    if (fd_ >= 0) close(fd_);
  }
  bool ok() const { return ok_; }
  std::string path() const { return absl::StrCat("/proc/self/fd/", fd_); }

 private:
  int fd_;
  bool ok_ = false;
};

void CheckRecords(const MemoryFile& file, const uint8_t* bytes, size_t size) {
  absl::StatusOr<std::unique_ptr<RecordReader>> opened = RecordReader::Open(file.path());
  FuzzCheck(opened.ok(), "a memory file opens", opened.status().ToString());
  RecordReader& reader = **opened;
  const std::string whole(reinterpret_cast<const char*>(bytes), size);
  std::string record;
  while (true) {
    const uint64_t before = reader.offset();
    const absl::Status status = reader.ReadRecord(&record);
    if (!status.ok()) {
      FuzzCheck(status.code() == absl::StatusCode::kOutOfRange ||
                    status.code() == absl::StatusCode::kDataLoss,
                "ReadRecord fails with OUT_OF_RANGE or DATA_LOSS", status.ToString());
      FuzzCheck(reader.offset() == before, "a failed read does not move the offset");
      if (status.code() == absl::StatusCode::kOutOfRange) {
        FuzzCheck(before == size, "a clean end is the end of the file",
                  absl::StrCat("at ", before, " of ", size));
      }
      return;
    }
    std::string framed;
    AppendRecord(record, &framed);
    FuzzCheck(reader.offset() == before + framed.size(), "a read moves past one framed record",
              absl::StrCat(before, " -> ", reader.offset(), ", record of ", record.size()));
    FuzzCheck(whole.compare(before, framed.size(), framed) == 0,
              "a record framed again is the bytes it was read from");
  }
}

void CheckEvents(const MemoryFile& file) {
  absl::StatusOr<std::unique_ptr<EventReader>> opened = EventReader::Open(file.path());
  FuzzCheck(opened.ok(), "a memory file opens", opened.status().ToString());
  EventReader& reader = **opened;
  Event event;
  while (true) {
    const uint64_t before = reader.offset();
    const absl::Status status = reader.ReadEvent(&event);
    if (status.ok()) continue;
    FuzzCheck(status.code() == absl::StatusCode::kOutOfRange ||
                  status.code() == absl::StatusCode::kDataLoss,
              "ReadEvent fails with OUT_OF_RANGE or DATA_LOSS", status.ToString());
    FuzzCheck(reader.offset() == before, "a failed ReadEvent does not move the offset");
    return;
  }
}

}  // namespace
}  // namespace fuzz
}  // namespace sluice

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace sluice::fuzz;  // NOLINT: the entry point is outside the namespace by contract
  const MemoryFile file(data, size);
  if (!file.ok()) return 0;  // the system refused the file, not the reader's concern
  CheckRecords(file, data, size);
  CheckEvents(file);
  return 0;
}
