#include "io/event_reader.h"

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "graph/core/errors.h"

namespace sluice {

absl::StatusOr<std::unique_ptr<EventReader>> EventReader::Open(const std::string& path) {
  auto records = RecordReader::Open(path);
  if (!records.ok()) return records.status();
  return std::unique_ptr<EventReader>(new EventReader(std::move(*records)));
}

EventReader::EventReader(std::unique_ptr<RecordReader> records) : records_(std::move(records)) {}

absl::Status EventReader::ReadEvent(Event* event) {
  const uint64_t offset = records_->offset();
  std::string record;
  RETURN_IF_ERROR(records_->ReadRecord(&record));
  if (!event->ParseFromString(record)) {
    // The record was consumed; put the reader back on it, as for every other error.
    records_->Seek(offset);
    return errors::DataLoss("record at ", offset, " is not an Event");
  }
  return absl::OkStatus();
}

absl::Status ReadEventFile(const std::string& path, std::vector<Event>* events) {
  auto reader = EventReader::Open(path);
  if (!reader.ok()) return reader.status();
  while (true) {
    Event event;
    const absl::Status status = (*reader)->ReadEvent(&event);
    if (absl::IsOutOfRange(status)) return absl::OkStatus();
    RETURN_IF_ERROR(status);
    events->push_back(std::move(event));
  }
}

}  // namespace sluice
