// RecordWriter and RecordReader: TensorFlow's framing byte for byte (against a file written by
// tf.io.TFRecordWriter, io/testdata/gen_event_files.py), round trips, and every damaged file
// read without a crash as DATA_LOSS at the right offset.
#include <fcntl.h>
#include <unistd.h>

#include <cstdint>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "io/crc32c.h"
#include "io/record_reader.h"
#include "io/record_writer.h"

namespace sluice {
namespace {

using ::testing::HasSubstr;

std::string TempPath(const std::string& name) { return ::testing::TempDir() + "/" + name; }

std::string ReadFile(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  std::stringstream bytes;
  bytes << file.rdbuf();
  return bytes.str();
}

void WriteFile(const std::string& path, const std::string& bytes) {
  std::ofstream file(path, std::ios::binary | std::ios::trunc);
  file << bytes;
}

// The records of tf_records.tfrecord, in order (gen_event_files.py).
std::vector<std::string> TensorFlowRecords() {
  return {"", "a", "hello, record", std::string(1000, 'x'), std::string("\0\xff\n", 3)};
}

// Reads every record of `path`; the status that ended the reading is in *end.
std::vector<std::string> ReadAll(const std::string& path, absl::Status* end) {
  std::vector<std::string> records;
  auto reader = RecordReader::Open(path);
  if (!reader.ok()) {
    *end = reader.status();
    return records;
  }
  std::string record;
  while ((*end = (*reader)->ReadRecord(&record)).ok()) records.push_back(record);
  return records;
}

TEST(RecordIoTest, WritesTensorFlowsBytes) {
  const std::string path = TempPath("same_as_tensorflow.tfrecord");
  auto writer = RecordWriter::Create(path);
  ASSERT_TRUE(writer.ok()) << writer.status();
  for (const std::string& record : TensorFlowRecords()) {
    ASSERT_TRUE((*writer)->WriteRecord(record).ok());
  }
  ASSERT_TRUE((*writer)->Close().ok());
  const std::string tensorflow = ReadFile("io/testdata/tf_records.tfrecord");
  ASSERT_FALSE(tensorflow.empty()) << "missing io/testdata/tf_records.tfrecord";
  EXPECT_EQ(ReadFile(path), tensorflow);
  EXPECT_EQ((*writer)->bytes_written(), tensorflow.size());
}

TEST(RecordIoTest, ReadsTensorFlowsRecords) {
  absl::Status end;
  EXPECT_EQ(ReadAll("io/testdata/tf_records.tfrecord", &end), TensorFlowRecords());
  EXPECT_EQ(end.code(), absl::StatusCode::kOutOfRange) << end;
}

TEST(RecordIoTest, RoundTripsRecordsLargerThanTheBuffers) {
  const std::string path = TempPath("round_trip.tfrecord");
  std::vector<std::string> records = {"", "x", std::string(300000, 'b'), "tail"};
  for (int i = 0; i < 5000; ++i) records.push_back(absl::StrCat("record ", i));
  {
    auto writer = RecordWriter::Create(path);
    ASSERT_TRUE(writer.ok());
    for (const std::string& record : records) ASSERT_TRUE((*writer)->WriteRecord(record).ok());
    // Destroyed without Close: the buffered records still reach the file.
  }
  absl::Status end;
  EXPECT_EQ(ReadAll(path, &end), records);
  EXPECT_EQ(end.code(), absl::StatusCode::kOutOfRange);
}

TEST(RecordIoTest, AppendRecordFraming) {
  std::string framed;
  AppendRecord("hello", &framed);
  ASSERT_EQ(framed.size(), 12u + 5u + 4u);
  EXPECT_EQ(framed.substr(0, 8), std::string("\x05\0\0\0\0\0\0\0", 8));
  const auto le32 = [&](size_t at) {
    uint32_t v = 0;
    for (int i = 3; i >= 0; --i) v = (v << 8) | static_cast<uint8_t>(framed[at + i]);
    return v;
  };
  EXPECT_EQ(le32(8), crc32c::Mask(crc32c::Value(framed.data(), 8)));
  EXPECT_EQ(framed.substr(12, 5), "hello");
  EXPECT_EQ(le32(17), crc32c::Mask(crc32c::Value("hello", 5)));
}

TEST(RecordIoTest, EveryTruncationIsDataLossOrACleanEnd) {
  std::string file;
  const std::vector<std::string> records = {"first", "", "third record"};
  std::vector<size_t> boundaries = {0};
  for (const std::string& record : records) {
    AppendRecord(record, &file);
    boundaries.push_back(file.size());
  }
  const std::string path = TempPath("truncated.tfrecord");
  for (size_t cut = 0; cut <= file.size(); ++cut) {
    SCOPED_TRACE(cut);
    WriteFile(path, file.substr(0, cut));
    absl::Status end;
    const std::vector<std::string> read = ReadAll(path, &end);
    size_t complete = 0;
    while (complete + 1 < boundaries.size() && boundaries[complete + 1] <= cut) ++complete;
    EXPECT_EQ(read, std::vector<std::string>(records.begin(), records.begin() + complete));
    if (cut == boundaries[complete]) {
      EXPECT_EQ(end.code(), absl::StatusCode::kOutOfRange) << end;
    } else {
      EXPECT_EQ(end.code(), absl::StatusCode::kDataLoss) << end;
      EXPECT_THAT(std::string(end.message()),
                  HasSubstr(absl::StrCat("truncated record at ", boundaries[complete])));
    }
  }
}

TEST(RecordIoTest, EveryFlippedByteIsDataLossAtItsRecord) {
  std::string file;
  std::vector<size_t> boundaries = {0};
  for (const std::string& record : {"alpha", "beta", "gamma delta"}) {
    AppendRecord(record, &file);
    boundaries.push_back(file.size());
  }
  const std::string path = TempPath("corrupt.tfrecord");
  for (size_t at = 0; at < file.size(); ++at) {
    SCOPED_TRACE(at);
    std::string damaged = file;
    damaged[at] ^= 0x20;
    WriteFile(path, damaged);
    absl::Status end;
    const std::vector<std::string> read = ReadAll(path, &end);
    size_t record = 0;
    while (boundaries[record + 1] <= at) ++record;
    EXPECT_EQ(read.size(), record);
    EXPECT_EQ(end.code(), absl::StatusCode::kDataLoss) << end;
    EXPECT_THAT(std::string(end.message()), HasSubstr(absl::StrCat(" at ", boundaries[record])));
  }
}

TEST(RecordIoTest, HugeLengthWithAValidChecksumIsRefusedBeforeAllocating) {
  // A header announcing 2^62 bytes, its checksum correct: the reader must compare the length
  // with the file's size, not try to allocate it.
  std::string header(8, '\0');
  header[7] = 0x40;
  const uint32_t crc = crc32c::Mask(crc32c::Value(header.data(), 8));
  for (int i = 0; i < 4; ++i) header.push_back(static_cast<char>((crc >> (8 * i)) & 0xFF));
  const std::string path = TempPath("huge_length.tfrecord");
  WriteFile(path, header + "some bytes");
  absl::Status end;
  EXPECT_TRUE(ReadAll(path, &end).empty());
  EXPECT_EQ(end.code(), absl::StatusCode::kDataLoss);
  EXPECT_THAT(std::string(end.message()),
              HasSubstr("truncated record at 0: 4611686018427387904 data bytes"));
}

TEST(RecordIoTest, ATruncatedRecordCanBeReadOnceComplete) {
  std::string file;
  AppendRecord("complete", &file);
  const size_t first = file.size();
  AppendRecord("written in two parts", &file);
  const std::string path = TempPath("growing.tfrecord");
  WriteFile(path, file.substr(0, first + 7));
  auto reader = RecordReader::Open(path);
  ASSERT_TRUE(reader.ok());
  std::string record;
  ASSERT_TRUE((*reader)->ReadRecord(&record).ok());
  EXPECT_EQ(record, "complete");
  EXPECT_EQ((*reader)->ReadRecord(&record).code(), absl::StatusCode::kDataLoss);
  EXPECT_EQ((*reader)->offset(), first);
  {
    std::ofstream append(path, std::ios::binary | std::ios::app);
    append << file.substr(first + 7);
  }
  ASSERT_TRUE((*reader)->ReadRecord(&record).ok());
  EXPECT_EQ(record, "written in two parts");
  EXPECT_EQ((*reader)->ReadRecord(&record).code(), absl::StatusCode::kOutOfRange);
}

TEST(RecordIoTest, FileSystemErrorsKeepTheirErrno) {
  EXPECT_EQ(RecordReader::Open(TempPath("no_such_file")).status().code(),
            absl::StatusCode::kNotFound);
  EXPECT_EQ(RecordWriter::Create(TempPath("no_such_dir/file")).status().code(),
            absl::StatusCode::kNotFound);
  // A regular file where a folder is expected: ENOTDIR.
  WriteFile(TempPath("plain_file"), "x");
  EXPECT_EQ(RecordWriter::Create(TempPath("plain_file/file")).status().code(),
            absl::StatusCode::kFailedPrecondition);
}

TEST(RecordIoTest, DiskFullIsResourceExhaustedAndSticks) {
  const int fd = open("/dev/full", O_WRONLY | O_CLOEXEC);
  if (fd < 0) GTEST_SKIP() << "no /dev/full";
  auto writer = RecordWriter::FromFileDescriptor(fd, "/dev/full");
  ASSERT_TRUE(writer->WriteRecord("fits in the buffer").ok());
  const absl::Status flushed = writer->Flush();
  EXPECT_EQ(flushed.code(), absl::StatusCode::kResourceExhausted) << flushed;
  EXPECT_THAT(std::string(flushed.message()), HasSubstr("/dev/full"));
  EXPECT_EQ(writer->WriteRecord("more").code(), absl::StatusCode::kResourceExhausted);
  EXPECT_EQ(writer->Close().code(), absl::StatusCode::kResourceExhausted);
}

TEST(RecordIoTest, CallsAfterCloseAreFailedPrecondition) {
  auto writer = RecordWriter::Create(TempPath("closed.tfrecord"));
  ASSERT_TRUE(writer.ok());
  ASSERT_TRUE((*writer)->Close().ok());
  EXPECT_EQ((*writer)->WriteRecord("late").code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ((*writer)->Flush().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ((*writer)->Close().code(), absl::StatusCode::kFailedPrecondition);
}

}  // namespace
}  // namespace sluice
