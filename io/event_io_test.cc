// EventWriter and EventReader: event files written by TensorFlow 2.21 itself
// (io/testdata/gen_event_files.py: tf.compat.v1.summary.FileWriter and TensorFlow 2's
// tf.summary writers) read event for event, re-serialized byte for byte; Sluice's own files
// read back; errors as statuses.
#include <sys/stat.h>

#include <cstdint>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "gmock/gmock.h"
#include "google/protobuf/text_format.h"
#include "google/protobuf/util/message_differencer.h"
#include "gtest/gtest.h"
#include "io/event_reader.h"
#include "io/event_writer.h"
#include "io/record_reader.h"
#include "io/record_writer.h"
#include "proto/event.pb.h"
#include "proto/summary.pb.h"

namespace sluice {
namespace {

using ::google::protobuf::util::MessageDifferencer;
using ::testing::HasSubstr;
using ::testing::MatchesRegex;

std::string ReadFile(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  std::stringstream bytes;
  bytes << file.rdbuf();
  return bytes.str();
}

// The events of a <name>.pbtxt fixture: "event {" ... "}" blocks, each an Event in text format.
std::vector<Event> TextEvents(const std::string& path) {
  std::vector<Event> events;
  std::string block;
  bool inside = false;
  for (const absl::string_view line : absl::StrSplit(ReadFile(path), '\n')) {
    if (!inside && line == "event {") {
      inside = true;
      block.clear();
    } else if (inside && line == "}") {
      inside = false;
      Event event;
      EXPECT_TRUE(google::protobuf::TextFormat::ParseFromString(block, &event)) << block;
      events.push_back(event);
    } else if (inside) {
      absl::StrAppend(&block, line, "\n");
    }
  }
  return events;
}

void ExpectSameEvents(const std::vector<Event>& got, const std::vector<Event>& want) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i) {
    EXPECT_TRUE(MessageDifferencer::Equals(got[i], want[i]))
        << "event " << i << ":\n"
        << got[i].DebugString() << "TensorFlow:\n"
        << want[i].DebugString();
  }
}

TEST(EventIoTest, ReadsTensorFlow1FileWriterEvents) {
  std::vector<Event> events;
  ASSERT_TRUE(ReadEventFile("io/testdata/tf1.tfevents", &events).ok());
  ExpectSameEvents(events, TextEvents("io/testdata/tf1.pbtxt"));
  // One file_version event, then one merged summary per step (gen_event_files.py).
  ASSERT_EQ(events.size(), 4u);
  EXPECT_EQ(events[0].file_version(), "brain.Event:2");
  for (int step = 0; step < 3; ++step) {
    const Summary& summary = events[step + 1].summary();
    EXPECT_EQ(events[step + 1].step(), step);
    ASSERT_EQ(summary.value_size(), 4);
    EXPECT_EQ(summary.value(0).tag(), "loss");
    EXPECT_EQ(summary.value(0).simple_value(), 0.5f * step + 0.25f);
    EXPECT_EQ(summary.value(1).tag(), "weights");
    EXPECT_EQ(summary.value(1).histo().num(), 11);
    EXPECT_DOUBLE_EQ(summary.value(1).histo().min(), step - 1.0);
    EXPECT_EQ(summary.value(2).tag(), "inputs/image/0");
    EXPECT_EQ(summary.value(2).image().width(), 3);
    EXPECT_EQ(summary.value(2).image().height(), 2);
    EXPECT_EQ(summary.value(2).image().colorspace(), 3);
    EXPECT_TRUE(absl::StartsWith(summary.value(2).image().encoded_image_string(), "\x89PNG"));
    EXPECT_EQ(summary.value(3).tag(), "inputs/image/1");
  }
}

TEST(EventIoTest, ReadsTensorFlow2SummaryWriterEvents) {
  std::vector<Event> events;
  ASSERT_TRUE(ReadEventFile("io/testdata/tf2.tfevents", &events).ok());
  ExpectSameEvents(events, TextEvents("io/testdata/tf2.pbtxt"));
  // TensorFlow 2 writes tensors named by their plugin: three events per step.
  ASSERT_EQ(events.size(), 10u);
  for (int step = 0; step < 3; ++step) {
    const Summary::Value& loss = events[1 + 3 * step].summary().value(0);
    EXPECT_EQ(loss.tag(), "loss");
    EXPECT_EQ(loss.metadata().plugin_data().plugin_name(), "scalars");
    EXPECT_EQ(loss.tensor().dtype(), DT_FLOAT);
    EXPECT_EQ(loss.tensor().tensor_content().size(), 4u);
    EXPECT_EQ(events[2 + 3 * step].summary().value(0).metadata().plugin_data().plugin_name(),
              "histograms");
    EXPECT_EQ(events[3 + 3 * step].summary().value(0).metadata().plugin_data().plugin_name(),
              "images");
    EXPECT_EQ(events[3 + 3 * step].step(), step);
  }
}

TEST(EventIoTest, TensorFlowsEventsReserializeToTheSameBytes) {
  // Sluice's event.proto and summary.proto carry every field TensorFlow wrote: parsing and
  // serializing again gives the same records, and framing them again the same file.
  for (const std::string name : {"io/testdata/tf1.tfevents", "io/testdata/tf2.tfevents"}) {
    SCOPED_TRACE(name);
    auto reader = RecordReader::Open(name);
    ASSERT_TRUE(reader.ok());
    std::string file;
    std::string record;
    while ((*reader)->ReadRecord(&record).ok()) {
      Event event;
      ASSERT_TRUE(event.ParseFromString(record));
      std::string again;
      ASSERT_TRUE(event.SerializeToString(&again));
      EXPECT_EQ(again, record);
      AppendRecord(again, &file);
    }
    EXPECT_EQ(file, ReadFile(name));
  }
}

TEST(EventIoTest, WriterMakesTensorBoardsFileAndReadsBack) {
  const std::string dir = ::testing::TempDir() + "/writer/nested/logs";
  const int64_t before = absl::ToUnixSeconds(absl::Now());
  auto writer = EventWriter::Create(dir);
  ASSERT_TRUE(writer.ok()) << writer.status();
  const int64_t after = absl::ToUnixSeconds(absl::Now());
  const std::string path = (*writer)->path();
  EXPECT_THAT(path, MatchesRegex(".*/writer/nested/logs/events\\.out\\.tfevents\\.[0-9]{10}\\..+"));

  // The first event is already on disk.
  std::vector<Event> events;
  ASSERT_TRUE(ReadEventFile(path, &events).ok());
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].file_version(), "brain.Event:2");
  EXPECT_EQ(events[0].source_metadata().writer(), "sluice.io.EventWriter");
  const double wall_time = events[0].wall_time();
  EXPECT_EQ(wall_time, static_cast<double>(static_cast<int64_t>(wall_time)));
  EXPECT_GE(wall_time, before);
  EXPECT_LE(wall_time, after);
  EXPECT_THAT(path, HasSubstr(absl::StrCat(".", static_cast<int64_t>(wall_time), ".")));

  Summary summary;
  Summary::Value* value = summary.add_value();
  value->set_tag("loss");
  value->set_simple_value(0.5f);
  ASSERT_TRUE((*writer)->WriteSummary(7, summary).ok());
  std::string serialized;
  value->set_simple_value(0.25f);
  summary.SerializeToString(&serialized);
  ASSERT_TRUE((*writer)->WriteSerializedSummary(8, serialized).ok());
  Event custom;
  custom.set_wall_time(123.5);
  custom.set_step(9);
  custom.mutable_session_log()->set_status(SessionLog::STOP);
  ASSERT_TRUE((*writer)->WriteEvent(custom).ok());
  EXPECT_EQ((*writer)->WriteSerializedSummary(10, "\xff\xff").code(),
            absl::StatusCode::kInvalidArgument);
  ASSERT_TRUE((*writer)->Flush().ok());

  events.clear();
  ASSERT_TRUE(ReadEventFile(path, &events).ok());
  ASSERT_EQ(events.size(), 4u);
  EXPECT_EQ(events[1].step(), 7);
  EXPECT_EQ(events[1].summary().value(0).simple_value(), 0.5f);
  EXPECT_GE(events[1].wall_time(), before);
  EXPECT_EQ(events[2].step(), 8);
  EXPECT_EQ(events[2].summary().value(0).simple_value(), 0.25f);
  EXPECT_TRUE(MessageDifferencer::Equals(events[3], custom));
  ASSERT_TRUE((*writer)->Close().ok());
}

TEST(EventIoTest, WritersInOneFolderNeverShareAFile) {
  const std::string dir = ::testing::TempDir() + "/two_writers";
  auto first = EventWriter::Create(dir);
  ASSERT_TRUE(first.ok());
  auto second = EventWriter::Create(dir);
  // Within the same second the name is taken; a second later it is another file.
  if (second.ok()) {
    EXPECT_NE((*second)->path(), (*first)->path());
  } else {
    EXPECT_EQ(second.status().code(), absl::StatusCode::kAlreadyExists) << second.status();
  }
  EventWriterOptions options;
  options.filename_suffix = ".eval";
  auto third = EventWriter::Create(dir, options);
  ASSERT_TRUE(third.ok()) << third.status();
  EXPECT_TRUE(absl::EndsWith((*third)->path(), ".eval"));
}

TEST(EventIoTest, FolderErrorsAreStatuses) {
  const std::string file = ::testing::TempDir() + "/not_a_folder";
  std::ofstream(file) << "x";
  auto writer = EventWriter::Create(file + "/logs");
  EXPECT_EQ(writer.status().code(), absl::StatusCode::kFailedPrecondition) << writer.status();
  EXPECT_THAT(std::string(writer.status().message()), HasSubstr(file));
  writer = EventWriter::Create(file);
  EXPECT_EQ(writer.status().code(), absl::StatusCode::kFailedPrecondition) << writer.status();
  EXPECT_EQ(EventWriter::Create("").status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_TRUE(RecursivelyCreateDir(::testing::TempDir() + "//a//b/").ok());
  struct stat info;
  EXPECT_EQ(stat((::testing::TempDir() + "/a/b").c_str(), &info), 0);
}

TEST(EventIoTest, ReaderReportsRecordsThatAreNotEventsAndStaysOnThem) {
  const std::string path = ::testing::TempDir() + "/not_events.tfevents";
  auto records = RecordWriter::Create(path);
  ASSERT_TRUE(records.ok());
  Event event;
  event.set_step(3);
  std::string serialized;
  event.SerializeToString(&serialized);
  ASSERT_TRUE((*records)->WriteRecord(serialized).ok());
  ASSERT_TRUE((*records)->WriteRecord("\xff\xff not a proto").ok());
  ASSERT_TRUE((*records)->Close().ok());

  auto reader = EventReader::Open(path);
  ASSERT_TRUE(reader.ok());
  Event read;
  ASSERT_TRUE((*reader)->ReadEvent(&read).ok());
  EXPECT_EQ(read.step(), 3);
  const uint64_t second = (*reader)->offset();
  const absl::Status status = (*reader)->ReadEvent(&read);
  EXPECT_EQ(status.code(), absl::StatusCode::kDataLoss);
  EXPECT_THAT(std::string(status.message()),
              HasSubstr(absl::StrCat("record at ", second, " is not an Event")));
  EXPECT_EQ((*reader)->offset(), second);

  std::vector<Event> events;
  EXPECT_EQ(ReadEventFile(path, &events).code(), absl::StatusCode::kDataLoss);
  EXPECT_EQ(events.size(), 1u);
  EXPECT_EQ(ReadEventFile(path + ".missing", &events).code(), absl::StatusCode::kNotFound);
}

}  // namespace
}  // namespace sluice
