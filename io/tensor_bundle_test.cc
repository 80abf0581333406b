#include <sys/stat.h>

#include <algorithm>
#include <functional>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "absl/strings/str_cat.h"
#include "graph/core/tensor.h"
#include "gtest/gtest.h"
#include "io/crc32c.h"
#include "io/table_builder.h"
#include "io/table_format.h"
#include "io/table_reader.h"
#include "io/tensor_bundle_files.h"
#include "io/tensor_bundle_merge.h"
#include "io/tensor_bundle_reader.h"
#include "io/tensor_bundle_test_util.h"
#include "io/tensor_bundle_writer.h"

namespace sluice {
namespace {

using test::BundleTestdata;
using test::ReadFileBytes;

std::unique_ptr<BundleReader> OpenOrDie(const std::string& prefix) {
  auto reader = BundleReader::Open(prefix);
  EXPECT_TRUE(reader.ok()) << reader.status();
  return reader.ok() ? *std::move(reader) : nullptr;
}

void ExpectReads(const std::string& name, const std::string& expected_file) {
  auto reader = OpenOrDie(BundleTestdata(name));
  ASSERT_NE(reader, nullptr);
  const auto expected = test::ReadExpectedTensors(BundleTestdata(expected_file));
  ASSERT_FALSE(expected.empty());
  std::vector<std::string> keys;
  for (const auto& [key, value] : expected) {
    keys.push_back(key);
    DataType dtype;
    TensorShape shape;
    ASSERT_TRUE(reader->LookupDtypeAndShape(key, &dtype, &shape).ok()) << key;
    EXPECT_EQ(dtype, value.dtype()) << key;
    EXPECT_EQ(shape, value.shape()) << key;
    auto t = reader->Lookup(key);
    ASSERT_TRUE(t.ok()) << key << ": " << t.status();
    test::ExpectIdentical(value, *t, key);
    EXPECT_TRUE(reader->Contains(key));
  }
  std::sort(keys.begin(), keys.end());
  auto listed = reader->ListKeys();
  ASSERT_TRUE(listed.ok()) << listed.status();
  EXPECT_EQ(*listed, keys);
}

TEST(BundleReaderTest, ReadsEveryDtypeTensorFlowSaved) {
  ExpectReads("all_dtypes", "all_dtypes.txt");
}

TEST(BundleReaderTest, ReadsATensorFlow2ObjectCheckpoint) {
  ExpectReads("tf_checkpoint-1", "tf_checkpoint.txt");
}

TEST(BundleReaderTest, ReadsManyKeysOverSeveralBlocks) {
  auto reader = OpenOrDie(BundleTestdata("many_keys"));
  ASSERT_NE(reader, nullptr);
  for (int i = 0; i < test::kManyKeysCount; ++i) {
    auto t = reader->Lookup(test::ManyKeysKey(i));
    ASSERT_TRUE(t.ok()) << i << t.status();
    ASSERT_EQ(t->dtype(), DT_INT32);
    EXPECT_EQ(t->dims(), 0);
    EXPECT_EQ(*t->base<int32_t>(), test::ManyKeysValue(i));
  }
  // Keys between and beyond the stored ones.
  EXPECT_EQ(reader->Lookup("k00000_").status().code(), absl::StatusCode::kNotFound);
  EXPECT_EQ(reader->Lookup("zzz").status().code(), absl::StatusCode::kNotFound);
  EXPECT_FALSE(reader->Contains(""));
}

TEST(BundleReaderTest, Errors) {
  EXPECT_EQ(BundleReader::Open(BundleTestdata("nothing_here")).status().code(),
            absl::StatusCode::kNotFound);
  auto reader = OpenOrDie(BundleTestdata("all_dtypes"));
  ASSERT_NE(reader, nullptr);
  auto missing = reader->Lookup("no_such_key");
  EXPECT_EQ(missing.status().code(), absl::StatusCode::kNotFound);
  EXPECT_EQ(missing.status().message(), "Key no_such_key not found in checkpoint");
  // The header is no tensor.
  EXPECT_EQ(reader->Lookup("").status().code(), absl::StatusCode::kDataLoss);
  // A tensor of another dtype or shape to read into.
  Tensor wrong(DT_DOUBLE, TensorShape({2, 3}));
  EXPECT_EQ(reader->ReadInto("float", &wrong).code(), absl::StatusCode::kInvalidArgument);
  Tensor wrong_shape(DT_FLOAT, TensorShape({3, 2}));
  EXPECT_EQ(reader->ReadInto("float", &wrong_shape).code(), absl::StatusCode::kInvalidArgument);
}

// Writes `tensors` in order, as SaveV2 does, and compares both files with TensorFlow's.
void ExpectWritesTensorFlowsBytes(const std::string& name,
                                  const std::vector<std::pair<std::string, Tensor>>& tensors) {
  const std::string prefix = test::NewTempDir() + "/sub/" + name;
  BundleWriter writer(prefix);
  for (const auto& [key, value] : tensors) ASSERT_TRUE(writer.Add(key, value).ok()) << key;
  ASSERT_TRUE(writer.Finish().ok()) << writer.status();
  EXPECT_EQ(ReadFileBytes(MetaFilename(prefix)), ReadFileBytes(MetaFilename(BundleTestdata(name))))
      << name;
  EXPECT_EQ(ReadFileBytes(DataFilename(prefix, 0, 1)),
            ReadFileBytes(DataFilename(BundleTestdata(name), 0, 1)))
      << name;
  // Nothing else (no temporary file) is left.
  EXPECT_EQ(writer.Add("more", tensors[0].second).code(), absl::StatusCode::kInternal);
}

TEST(BundleWriterTest, WritesTensorFlowsBytesForEveryDtype) {
  ExpectWritesTensorFlowsBytes("all_dtypes",
                               test::ReadExpectedTensors(BundleTestdata("all_dtypes.txt")));
}

TEST(BundleWriterTest, WritesTensorFlowsBytesForManyKeys) {
  std::vector<std::pair<std::string, Tensor>> tensors;
  for (int i = 0; i < test::kManyKeysCount; ++i) {
    tensors.emplace_back(test::ManyKeysKey(i), Tensor(test::ManyKeysValue(i)));
  }
  ExpectWritesTensorFlowsBytes("many_keys", tensors);
}

// TensorFlow saved the object checkpoint's tensors in an order of its own: the data file's
// order, which the entries' offsets give (an empty tensor before the one at its offset).
TEST(BundleWriterTest, WritesTensorFlowsBytesForAnObjectCheckpoint) {
  auto reader = OpenOrDie(BundleTestdata("tf_checkpoint-1"));
  ASSERT_NE(reader, nullptr);
  std::vector<std::tuple<int64_t, int64_t, std::string>> order;
  ASSERT_TRUE(reader
                  ->ForEachEntry([&](absl::string_view key, const BundleEntryProto& e) {
                    order.emplace_back(e.offset(), e.size(), std::string(key));
                    return absl::OkStatus();
                  })
                  .ok());
  std::sort(order.begin(), order.end());
  std::vector<std::pair<std::string, Tensor>> tensors;
  for (const auto& o : order) {
    auto t = reader->Lookup(std::get<2>(o));
    ASSERT_TRUE(t.ok());
    tensors.emplace_back(std::get<2>(o), *t);
  }
  ExpectWritesTensorFlowsBytes("tf_checkpoint-1", tensors);
}

TEST(BundleWriterTest, Errors) {
  const std::string prefix = test::NewTempDir() + "/w";
  BundleWriter writer(prefix);
  ASSERT_TRUE(writer.Add("a", Tensor(1.0f)).ok());
  EXPECT_EQ(writer.Add("", Tensor(1.0f)).code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(writer.Add("a", Tensor(2.0f)).code(), absl::StatusCode::kInvalidArgument);
  // The duplicate sticks.
  EXPECT_EQ(writer.Finish().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_FALSE(test::PathExists(MetaFilename(prefix)));

  // As TensorFlow, the prefix's folder is created but not its parents.
  BundleWriter unwritable(test::NewTempDir() + "/no/such/x");
  EXPECT_EQ(unwritable.status().code(), absl::StatusCode::kNotFound);
  EXPECT_EQ(unwritable.Add("a", Tensor(1.0f)).code(), absl::StatusCode::kNotFound);
}

TEST(BundleWriterTest, RoundTripsAtTheEdges) {
  const std::string prefix = test::NewTempDir() + "/edges";
  Tensor strings(DT_STRING, TensorShape({3}));
  strings.base<std::string>()[0] = std::string(70000, 'q');  // a 3-byte varint length
  strings.base<std::string>()[1] = "";
  strings.base<std::string>()[2] = std::string("\0\1", 2);
  Tensor empty_strings(DT_STRING, TensorShape({0}));
  Tensor big(DT_DOUBLE, TensorShape({1000}));
  for (int i = 0; i < 1000; ++i) big.base<double>()[i] = i * 0.5;
  BundleWriter writer(prefix);
  ASSERT_TRUE(writer.Add("s", strings).ok());
  ASSERT_TRUE(writer.Add("e", empty_strings).ok());
  ASSERT_TRUE(writer.Add("big", big).ok());
  ASSERT_TRUE(writer.Finish().ok());
  auto reader = OpenOrDie(prefix);
  ASSERT_NE(reader, nullptr);
  for (const auto& [key, value] : std::vector<std::pair<std::string, Tensor>>{
           {"s", strings}, {"e", empty_strings}, {"big", big}}) {
    auto t = reader->Lookup(key);
    ASSERT_TRUE(t.ok()) << t.status();
    test::ExpectIdentical(value, *t, key);
  }
}

// MergeV2Checkpoints' merge of two SaveV2 shards: the same index and data files.
TEST(MergeBundlesTest, MergesAsTensorFlow) {
  const std::string dir = test::NewTempDir();
  mkdir((dir + "/in").c_str(), 0755);
  std::vector<std::string> prefixes;
  for (const char* part : {"part-00000-of-00002", "part-00001-of-00002"}) {
    for (const char* suffix : {".index", ".data-00000-of-00001"}) {
      test::CopyFile(BundleTestdata(absl::StrCat("merge_in/", part, suffix)),
                     absl::StrCat(dir, "/in/", part, suffix));
    }
    prefixes.push_back(absl::StrCat(dir, "/in/", part));
  }
  const std::string merged = dir + "/out/merged";
  ASSERT_TRUE(MergeBundles(prefixes, merged, /*allow_missing_files=*/false).ok());
  EXPECT_EQ(ReadFileBytes(MetaFilename(merged)),
            ReadFileBytes(MetaFilename(BundleTestdata("merged"))));
  for (int shard = 0; shard < 2; ++shard) {
    EXPECT_EQ(ReadFileBytes(DataFilename(merged, shard, 2)),
              ReadFileBytes(DataFilename(BundleTestdata("merged"), shard, 2)));
  }
  for (const std::string& p : prefixes) {
    EXPECT_FALSE(test::PathExists(MetaFilename(p)));
    EXPECT_FALSE(test::PathExists(DataFilename(p, 0, 1)));
  }
  auto reader = OpenOrDie(merged);
  ASSERT_NE(reader, nullptr);
  auto b = reader->Lookup("b");
  ASSERT_TRUE(b.ok()) << b.status();
  EXPECT_EQ(b->base<float>()[1], 2.0f);
  auto a = reader->Lookup("a");
  ASSERT_TRUE(a.ok()) << a.status();
  EXPECT_EQ(a->base<int64_t>()[1], 4);
}

TEST(MergeBundlesTest, Errors) {
  const std::string dir = test::NewTempDir();
  const std::vector<std::string> missing = {dir + "/nope"};
  EXPECT_EQ(MergeBundles(missing, dir + "/m", false).code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(MergeBundles(missing, dir + "/m", true).code(), absl::StatusCode::kInvalidArgument);
  // A key in two inputs.
  for (const char* name : {"x", "y"}) {
    BundleWriter w(dir + "/" + name);
    ASSERT_TRUE(w.Add("same", Tensor(1.0f)).ok());
    ASSERT_TRUE(w.Finish().ok());
  }
  const std::vector<std::string> both = {dir + "/x", dir + "/y"};
  EXPECT_EQ(MergeBundles(both, dir + "/m", false).code(), absl::StatusCode::kInvalidArgument);
  // A missing input is skipped when allowed.
  const std::vector<std::string> one = {dir + "/x", dir + "/nope"};
  ASSERT_TRUE(MergeBundles(one, dir + "/m", true).ok());
  auto reader = OpenOrDie(dir + "/m");
  ASSERT_NE(reader, nullptr);
  EXPECT_TRUE(reader->Contains("same"));
}

// Damaged copies of all_dtypes: (index, data) bytes -> (index, data) bytes.
struct Damage {
  std::string index;
  std::string data;
};

Damage AllDtypes() {
  return {ReadFileBytes(MetaFilename(BundleTestdata("all_dtypes"))),
          ReadFileBytes(DataFilename(BundleTestdata("all_dtypes"), 0, 1))};
}

// Opens the damaged bundle and reads every tensor; returns the first error.
absl::Status ReadAll(const Damage& d, const std::vector<std::string>& keys) {
  const std::string prefix = test::NewTempDir() + "/b";
  test::WriteBytes(MetaFilename(prefix), d.index);
  test::WriteBytes(DataFilename(prefix, 0, 1), d.data);
  auto reader = BundleReader::Open(prefix);
  if (!reader.ok()) return reader.status();
  for (const std::string& key : keys) {
    auto t = (*reader)->Lookup(key);
    if (!t.ok()) return t.status();
  }
  auto listed = (*reader)->ListKeys();
  return listed.status();
}

std::vector<std::string> AllDtypesKeys() {
  std::vector<std::string> keys;
  for (const auto& kv : test::ReadExpectedTensors(BundleTestdata("all_dtypes.txt"))) {
    keys.push_back(kv.first);
  }
  std::sort(keys.begin(), keys.end());
  return keys;
}

// Every truncation of the index and of the data file, every flipped bit of the data file and
// a flip of each index byte: never a crash (checked under ASan); damage to bytes a tensor
// reads is reported.
TEST(BundleFuzzTest, TruncationsAndFlips) {
  const Damage good = AllDtypes();
  const std::vector<std::string> keys = AllDtypesKeys();
  ASSERT_TRUE(ReadAll(good, keys).ok());
  for (size_t n = 0; n < good.index.size(); ++n) {
    Damage d = good;
    d.index.resize(n);
    EXPECT_EQ(ReadAll(d, keys).code(), absl::StatusCode::kDataLoss) << n;
  }
  for (size_t n = 0; n < good.data.size(); ++n) {
    Damage d = good;
    d.data.resize(n);
    const absl::StatusCode code = ReadAll(d, keys).code();
    // A cut inside a string tensor's lengths is caught by its checks, elsewhere the size.
    EXPECT_TRUE(code == absl::StatusCode::kOutOfRange || code == absl::StatusCode::kDataLoss)
        << n << " " << code;
  }
  for (size_t pos = 0; pos < good.data.size(); ++pos) {
    for (int bit = 0; bit < 8; ++bit) {
      Damage d = good;
      d.data[pos] ^= static_cast<char>(1 << bit);
      EXPECT_EQ(ReadAll(d, keys).code(), absl::StatusCode::kDataLoss) << pos << " " << bit;
    }
  }
  // The metaindex block, the metaindex handle and the footer's padding are never read (by
  // TensorFlow either); every other index byte matters.
  const char* footer = good.index.data() + good.index.size() - table::kFooterLength;
  absl::string_view handles(footer, 2 * table::kMaxEncodedHandleLength);
  table::BlockHandle metaindex, index;
  ASSERT_TRUE(metaindex.DecodeFrom(&handles));
  const size_t index_handle_start = 2 * table::kMaxEncodedHandleLength - handles.size();
  ASSERT_TRUE(index.DecodeFrom(&handles));
  const size_t index_handle_end = 2 * table::kMaxEncodedHandleLength - handles.size();
  const size_t footer_start = good.index.size() - table::kFooterLength;
  for (size_t pos = 0; pos < good.index.size(); ++pos) {
    Damage d = good;
    d.index[pos] ^= 0x20;
    const bool unread =
        (pos >= metaindex.offset && pos < metaindex.offset + metaindex.size + 5) ||
        (pos >= footer_start && pos < footer_start + 2 * table::kMaxEncodedHandleLength &&
         !(pos >= footer_start + index_handle_start && pos < footer_start + index_handle_end));
    EXPECT_EQ(ReadAll(d, keys).ok(), unread) << pos;
  }
}

// Entries that parse but lie: rebuilt indexes (valid checksums) with bad offsets, sizes,
// shapes, dtypes and shards.
TEST(BundleFuzzTest, LyingEntries) {
  auto reader = OpenOrDie(BundleTestdata("all_dtypes"));
  ASSERT_NE(reader, nullptr);
  BundleEntryProto good;
  ASSERT_TRUE(reader->LookupEntry("float", &good).ok());
  const std::string data = ReadFileBytes(DataFilename(BundleTestdata("all_dtypes"), 0, 1));
  struct Case {
    std::string name;
    std::function<void(BundleEntryProto*)> lie;
    absl::StatusCode code;
  };
  const std::vector<Case> cases = {
      {"offset past the end", [](BundleEntryProto* e) { e->set_offset(1 << 20); },
       absl::StatusCode::kOutOfRange},
      {"huge offset", [](BundleEntryProto* e) { e->set_offset(INT64_MAX - 2); },
       absl::StatusCode::kOutOfRange},
      {"negative offset", [](BundleEntryProto* e) { e->set_offset(-8); },
       absl::StatusCode::kDataLoss},
      {"size too small", [](BundleEntryProto* e) { e->set_size(4); }, absl::StatusCode::kDataLoss},
      {"negative dim",
       [](BundleEntryProto* e) { e->mutable_shape()->mutable_dim(0)->set_size(-2); },
       absl::StatusCode::kDataLoss},
      {"huge shape",
       [](BundleEntryProto* e) {
         e->mutable_shape()->mutable_dim(0)->set_size(int64_t{1} << 40);
         e->mutable_shape()->mutable_dim(1)->set_size(int64_t{1} << 40);
       },
       absl::StatusCode::kDataLoss},
      {"elements overflow the size",
       [](BundleEntryProto* e) {
         e->mutable_shape()->mutable_dim(0)->set_size(int64_t{1} << 61);
         e->mutable_shape()->mutable_dim(1)->set_size(1);
       },
       absl::StatusCode::kDataLoss},
      {"unknown rank", [](BundleEntryProto* e) { e->mutable_shape()->set_unknown_rank(true); },
       absl::StatusCode::kDataLoss},
      {"bad dtype", [](BundleEntryProto* e) { e->set_dtype(static_cast<DataType>(999)); },
       absl::StatusCode::kDataLoss},
      {"resource dtype", [](BundleEntryProto* e) { e->set_dtype(DT_RESOURCE); },
       absl::StatusCode::kDataLoss},
      {"variant dtype", [](BundleEntryProto* e) { e->set_dtype(DT_VARIANT); },
       absl::StatusCode::kUnimplemented},
      {"shard beyond", [](BundleEntryProto* e) { e->set_shard_id(3); },
       absl::StatusCode::kDataLoss},
      {"wrong crc", [](BundleEntryProto* e) { e->set_crc32c(e->crc32c() ^ 1); },
       absl::StatusCode::kDataLoss},
      {"many strings in few bytes",
       [](BundleEntryProto* e) {
         e->set_dtype(DT_STRING);
         e->mutable_shape()->mutable_dim(0)->set_size(int64_t{1} << 40);
       },
       absl::StatusCode::kDataLoss},
      {"strings from float bytes", [](BundleEntryProto* e) { e->set_dtype(DT_STRING); },
       absl::StatusCode::kDataLoss},
      {"sliced", [](BundleEntryProto* e) { e->add_slices(); }, absl::StatusCode::kUnimplemented},
  };
  for (const Case& c : cases) {
    BundleEntryProto entry = good;
    c.lie(&entry);
    BundleHeaderProto header;
    header.set_num_shards(1);
    header.mutable_version()->set_producer(1);
    const std::string prefix = test::NewTempDir() + "/lie";
    test::WriteBytes(MetaFilename(prefix), BuildBundleIndex(header, {{"float", entry}}));
    test::WriteBytes(DataFilename(prefix, 0, 1), data);
    auto r = BundleReader::Open(prefix);
    ASSERT_TRUE(r.ok()) << c.name << r.status();
    EXPECT_EQ((*r)->Lookup("float").status().code(), c.code) << c.name;
  }
}

TEST(BundleReaderTest, HeaderChecks) {
  const std::string dir = test::NewTempDir();
  auto open_with = [&](const std::string& header_bytes, bool with_header) {
    table::TableBuilder builder;
    if (with_header) builder.Add("", header_bytes);
    test::WriteBytes(MetaFilename(dir + "/h"), builder.Finish());
    return BundleReader::Open(dir + "/h").status();
  };
  // No entries at all: TensorFlow's "failed to seek to header entry", INTERNAL.
  EXPECT_EQ(open_with("", false).code(), absl::StatusCode::kInternal);
  EXPECT_EQ(open_with("\xff\xff", true).code(), absl::StatusCode::kDataLoss);
  BundleHeaderProto header;
  header.set_num_shards(1);
  header.mutable_version()->set_producer(1);
  header.mutable_version()->set_min_consumer(2);
  EXPECT_EQ(open_with(header.SerializeAsString(), true).code(), absl::StatusCode::kInvalidArgument);
  header.mutable_version()->set_min_consumer(0);
  header.mutable_version()->add_bad_consumers(1);
  EXPECT_EQ(open_with(header.SerializeAsString(), true).code(), absl::StatusCode::kInvalidArgument);
  header.mutable_version()->clear_bad_consumers();
  header.set_endianness(BundleHeaderProto::BIG);
  EXPECT_EQ(open_with(header.SerializeAsString(), true).code(), absl::StatusCode::kUnimplemented);
  header.set_endianness(BundleHeaderProto::LITTLE);
  EXPECT_TRUE(open_with(header.SerializeAsString(), true).ok());
}

}  // namespace
}  // namespace sluice
