#include "kernels/cpu/parsing/example_wire.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "gtest/gtest.h"
#include "proto/example.pb.h"
#include "proto/feature.pb.h"

namespace sluice {
namespace parsing {
namespace {

std::vector<std::pair<std::string, std::string>> Entries(const std::string& serialized, bool* ok) {
  std::vector<std::pair<std::string, std::string>> out;
  *ok = ForEachFeature(serialized,
                       [&](int64_t index, absl::string_view key, absl::string_view feature) {
                         EXPECT_EQ(index, static_cast<int64_t>(out.size()));
                         out.emplace_back(std::string(key), std::string(feature));
                       });
  return out;
}

// The reader sees what protobuf's generated classes wrote (the new example.proto).
TEST(ExampleWireTest, ReadsWhatProtobufWrites) {
  Example example;
  auto& features = *example.mutable_features()->mutable_feature();
  features["f"].mutable_float_list()->add_value(1.5f);
  features["f"].mutable_float_list()->add_value(-2.0f);
  features["i"].mutable_int64_list()->add_value(-7);
  features["i"].mutable_int64_list()->add_value(int64_t{1} << 40);
  features["s"].mutable_bytes_list()->add_value(std::string("a\0b", 3));
  features["e"];  // an empty Feature
  const std::string serialized = example.SerializeAsString();

  bool ok = false;
  auto entries = Entries(serialized, &ok);
  ASSERT_TRUE(ok);
  ASSERT_EQ(entries.size(), 4u);
  for (const auto& [key, feature] : entries) {
    DataType dtype;
    absl::string_view list;
    ASSERT_TRUE(FeatureType(feature, &dtype, &list)) << key;
    std::vector<std::string> values;
    bool list_ok = true;
    if (key == "f") {
      EXPECT_EQ(dtype, DT_FLOAT);
      list_ok = ReadFloatList(list, [&](float v) { values.push_back(std::to_string(v)); });
      EXPECT_EQ(values, (std::vector<std::string>{"1.500000", "-2.000000"}));
    } else if (key == "i") {
      EXPECT_EQ(dtype, DT_INT64);
      list_ok = ReadInt64List(list, [&](int64_t v) { values.push_back(std::to_string(v)); });
      EXPECT_EQ(values, (std::vector<std::string>{"-7", "1099511627776"}));
    } else if (key == "s") {
      EXPECT_EQ(dtype, DT_STRING);
      list_ok = ReadBytesList(list, [&](absl::string_view v) { values.emplace_back(v); });
      EXPECT_EQ(values, (std::vector<std::string>{std::string("a\0b", 3)}));
    } else {
      EXPECT_EQ(key, "e");
      EXPECT_EQ(dtype, DT_INVALID);
    }
    EXPECT_TRUE(list_ok) << key;
  }
}

// A SequenceExample's context is read like an Example's features (same field number).
TEST(ExampleWireTest, SequenceExampleContextReadsAsFeatures) {
  SequenceExample seq;
  (*seq.mutable_context()->mutable_feature())["c"].mutable_int64_list()->add_value(3);
  (*seq.mutable_feature_lists()->mutable_feature_list())["l"].add_feature();
  bool ok = false;
  // feature_lists (field 2) is an unknown length-delimited field to the Example reader.
  auto entries = Entries(seq.SerializeAsString(), &ok);
  ASSERT_TRUE(ok);
  ASSERT_EQ(entries.size(), 1u);
  EXPECT_EQ(entries[0].first, "c");
}

TEST(ExampleWireTest, MalformedRecordsCallNothing) {
  Example example;
  (*example.mutable_features()->mutable_feature())["k"].mutable_int64_list()->add_value(1);
  std::string serialized = example.SerializeAsString();
  int calls = 0;
  auto count = [&](int64_t, absl::string_view, absl::string_view) { ++calls; };
  // Cut inside the key: the entry's string runs past the end.
  EXPECT_FALSE(ForEachFeature(serialized.substr(0, 6), count));
  EXPECT_EQ(calls, 0);
  // A group (wire type 3) at the top level is refused; a varint field is skipped.
  EXPECT_FALSE(ForEachFeature(serialized + "\x13", count));
  EXPECT_TRUE(ForEachFeature(serialized + "\x10\x05", count));
  EXPECT_EQ(calls, 1);
  // A Features length past the end is cut to it.
  EXPECT_TRUE(ForEachFeature(std::string("\x0a\x7f"), count));
  // A varint of 11 bytes is malformed.
  EXPECT_FALSE(ForEachFeature(std::string("\x0a") + std::string(10, '\xff') + "\x01", count));
}

TEST(ExampleWireTest, ListsAsTensorFlowReadsThem) {
  int64_t n = 0;
  // Only the first packed run counts.
  const std::string two_runs("\x06\x0a\x01\x01\x0a\x01\x02", 7);
  std::vector<int64_t> ints;
  EXPECT_TRUE(ReadInt64List(two_runs, [&](int64_t v) { ints.push_back(v); }));
  EXPECT_EQ(ints, std::vector<int64_t>{1});
  // Packed floats: whole elements only; a run longer than the list is malformed.
  EXPECT_TRUE(ReadFloatList(std::string("\x07\x0a\x05\0\0\x80\x3f\x01", 8), [&](float) { ++n; }));
  EXPECT_EQ(n, 1);
  EXPECT_FALSE(ReadFloatList(std::string("\x06\x0a\x08\0\0\x80\x3f", 7), [&](float) {}));
  // A list of another field, or a bytes element with a varint tag.
  EXPECT_FALSE(ReadFloatList(std::string("\x02\x10\x01", 3), [&](float) {}));
  EXPECT_FALSE(ReadBytesList(std::string("\x02\x08\x01", 3), [&](absl::string_view) {}));
  // An empty list.
  EXPECT_TRUE(ReadBytesList(std::string("\x00", 1), [&](absl::string_view) { ++n; }));
  EXPECT_EQ(n, 1);
  DataType dtype;
  absl::string_view list;
  EXPECT_FALSE(FeatureType(std::string("\x22\x00", 2), &dtype, &list));
}

}  // namespace
}  // namespace parsing
}  // namespace sluice
