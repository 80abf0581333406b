// Reading event files (TensorFlow's, TensorBoard's, or io/event_writer.h's): each record of the
// TFRecord file (io/record_reader.h) parsed as an Event.
//
// ReadEvent's results are RecordReader's (OK, OUT_OF_RANGE at a clean end, DATA_LOSS naming
// the byte offset of a truncated or corrupt record, the errno's status) plus DATA_LOSS
// "record at <offset> is not an Event" for a record whose checksums match but whose bytes do
// not parse. Unknown fields (from a newer event.proto) are kept, not an error. On any error
// offset() does not move (see RecordReader), so a caller may skip, retry or stop.
//
// Not thread-safe: one reader per thread.
#ifndef SLUICE_IO_EVENT_READER_H_
#define SLUICE_IO_EVENT_READER_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "io/record_reader.h"
#include "proto/event.pb.h"

namespace sluice {

class EventReader {
 public:
  static absl::StatusOr<std::unique_ptr<EventReader>> Open(const std::string& path);

  absl::Status ReadEvent(Event* event);

  uint64_t offset() const { return records_->offset(); }
  const std::string& path() const { return records_->path(); }

 private:
  explicit EventReader(std::unique_ptr<RecordReader> records);

  std::unique_ptr<RecordReader> records_;
};

// Every event of `path`, in order, appended to `events`; OK when the file ends cleanly, the
// first error otherwise (the events before it are still appended).
absl::Status ReadEventFile(const std::string& path, std::vector<Event>* events);

}  // namespace sluice

#endif  // SLUICE_IO_EVENT_READER_H_
