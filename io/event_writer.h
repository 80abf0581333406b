// Event files for TensorBoard: TFRecord files (io/record_writer.h) of serialized Event protos
// (proto/event.proto), written as TensorFlow's EventsWriter writes them.
//
// Create makes the folder (and its missing parents) and the file
//   <dir>/events.out.tfevents.<unix seconds, 10 digits>.<hostname><filename_suffix>
// and writes, and flushes at once, its first event: {wall_time: now in whole seconds,
// file_version: "brain.Event:2", source_metadata: {writer: "sluice.io.EventWriter"}}, from which
// TensorBoard knows the format (TensorFlow's writer names itself there the same way). Each later
// record is one Event as given (WriteEvent) or built from a step and a Summary stamped with the
// current time (WriteSummary, WriteSerializedSummary: the latter takes a summary op's output as it
// is).
//
// Events are buffered; they reach the file on Flush, on Close, or when the buffer fills.
// TensorBoard reads a file as it grows, so flush after each step whose events should show.
//
// Two writers created in the same folder within the same second would name the same file: the
// second Create fails with ALREADY_EXISTS (TensorFlow's writer would truncate the first's file)
// unless their suffixes differ. Errors are the errno's status naming the path (a folder that
// cannot be created: PERMISSION_DENIED, a file in the way: FAILED_PRECONDITION, disk full:
// RESOURCE_EXHAUSTED, ...), and stick once a write failed (RecordWriter).
//
// Not thread-safe: one writer per thread, or a lock around it.
#ifndef SLUICE_IO_EVENT_WRITER_H_
#define SLUICE_IO_EVENT_WRITER_H_

#include <cstdint>
#include <memory>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "io/record_writer.h"
#include "proto/event.pb.h"
#include "proto/summary.pb.h"

namespace sluice {

struct EventWriterOptions {
  // Appended to the file name, e.g. ".v2" (TensorFlow 2's writers) or ".eval".
  std::string filename_suffix;
};

class EventWriter {
 public:
  static absl::StatusOr<std::unique_ptr<EventWriter>> Create(
      const std::string& dir, const EventWriterOptions& options = EventWriterOptions());

  // What the first event of every file says.
  static constexpr char kFileVersion[] = "brain.Event:2";
  // Who wrote the file, in the first event's source_metadata.
  static constexpr char kWriterName[] = "sluice.io.EventWriter";

  EventWriter(const EventWriter&) = delete;
  EventWriter& operator=(const EventWriter&) = delete;
  // Closes the file; errors are lost then (call Close to see them).
  ~EventWriter() = default;

  absl::Status WriteEvent(const Event& event);
  absl::Status WriteSummary(int64_t step, const Summary& summary);
  // `serialized` must parse as a Summary (INVALID_ARGUMENT otherwise), as a summary op's
  // scalar string output does.
  absl::Status WriteSerializedSummary(int64_t step, absl::string_view serialized);
  absl::Status Flush();
  absl::Status Close();

  const std::string& path() const { return records_->path(); }

  // Seconds since the Unix epoch, with microseconds: what wall_time holds.
  static double NowSeconds();

 private:
  explicit EventWriter(std::unique_ptr<RecordWriter> records);

  std::unique_ptr<RecordWriter> records_;
};

// Creates `dir` and every missing parent (mode 0755 before the umask); OK if it exists as a
// folder. The errno's status otherwise, naming the path that failed.
absl::Status RecursivelyCreateDir(const std::string& dir);

}  // namespace sluice

#endif  // SLUICE_IO_EVENT_WRITER_H_
