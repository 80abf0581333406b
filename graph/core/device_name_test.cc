#include "graph/core/device_name.h"

#include <string>

#include "gtest/gtest.h"

namespace sluice {
namespace {

// Parses `s`, expecting success, and returns the canonical spelling.
std::string Canon(const std::string& s) {
  ParsedDeviceName p;
  EXPECT_TRUE(ParseFullName(s, &p)) << s;
  return ParsedNameToString(p);
}

ParsedDeviceName Parse(const std::string& s) {
  ParsedDeviceName p;
  EXPECT_TRUE(ParseFullOrLocalName(s, &p)) << s;
  return p;
}

TEST(DeviceNameTest, ParsesFullName) {
  ParsedDeviceName p;
  ASSERT_TRUE(ParseFullName("/job:localhost/replica:0/task:1/device:GPU:2", &p));
  EXPECT_TRUE(IsFullySpecified(p));
  EXPECT_EQ(p.job, "localhost");
  EXPECT_EQ(p.replica, 0);
  EXPECT_EQ(p.task, 1);
  EXPECT_EQ(p.type, "GPU");
  EXPECT_EQ(p.id, 2);
}

TEST(DeviceNameTest, ParseTable) {
  struct Case {
    const char* in;
    const char* canonical;
  };
  const Case cases[] = {
      {"", ""},
      {"/", ""},
      {"/cpu:0", "/device:CPU:0"},
      {"/CPU:1", "/device:CPU:1"},
      {"/gpu:1", "/device:GPU:1"},
      {"/GPU:*", "/device:GPU:*"},
      {"/device:GPU:*", "/device:GPU:*"},
      {"/device:GPU", "/device:GPU:*"},
      {"/device:cpu:0", "/device:cpu:0"},
      {"/device:XLA_CPU:3", "/device:XLA_CPU:3"},
      {"/job:localhost/task:0", "/job:localhost/task:0"},
      {"/job:*/replica:*/task:*/device:*", ""},
      {"/job:w_1/replica:2", "/job:w_1/replica:2"},
      {"/task:3/job:ps", "/job:ps/task:3"},
      {"/job:localhost/replica:0/task:0/cpu:0", "/job:localhost/replica:0/task:0/device:CPU:0"},
      {"/job:localhost/replica:0/task:0/device:CPU:0",
       "/job:localhost/replica:0/task:0/device:CPU:0"},
      {"/replica:2147483647", "/replica:2147483647"},
  };
  for (const Case& c : cases) EXPECT_EQ(Canon(c.in), c.canonical) << c.in;
}

TEST(DeviceNameTest, WildcardTypeWithId) {
  ParsedDeviceName p;
  ASSERT_TRUE(ParseFullName("/device:*:2", &p));
  EXPECT_FALSE(p.has_type);
  EXPECT_TRUE(p.has_id);
  EXPECT_EQ(p.id, 2);
  // An id without a type is not printed, as in TensorFlow.
  EXPECT_EQ(ParsedNameToString(p), "");
}

TEST(DeviceNameTest, RejectsMalformed) {
  const char* bad[] = {
      "CPU:0",
      "cpu:0",
      "/job:",
      "/job:1abc",
      "/job:lo-cal",
      "/job:a/",
      "/replica:",
      "/replica:x",
      "/task:-1",
      "/device:",
      "/device:1GPU",
      "/device:GPU:x",
      "/device:GPU:0x",
      "/gpu:",
      "/gpu:a",
      "/tpu:0",
      "/Cpu:0",
      "//cpu:0",
      "/cpu:0 ",
      "/replica:2147483648",
      "/task:99999999999999999999",
      "job:localhost",
      "/device:G.PU:0",
  };
  for (const char* s : bad) {
    ParsedDeviceName p;
    EXPECT_FALSE(ParseFullName(s, &p)) << s;
  }
}

TEST(DeviceNameTest, ParseClearsPrevious) {
  ParsedDeviceName p;
  ASSERT_TRUE(ParseFullName("/job:a/device:GPU:1", &p));
  ASSERT_TRUE(ParseFullName("/task:2", &p));
  EXPECT_FALSE(p.has_job);
  EXPECT_FALSE(p.has_type);
  EXPECT_FALSE(p.has_id);
  EXPECT_TRUE(p.has_task);
}

TEST(DeviceNameTest, LocalNames) {
  ParsedDeviceName p;
  ASSERT_TRUE(ParseLocalName("CPU:0", &p));
  EXPECT_EQ(ParsedNameToString(p), "/device:CPU:0");
  for (const char* s : {"CPU", "CPU:*", "/device:CPU:0", "CPU:0/", ":0", "CPU:"}) {
    ParsedDeviceName q;
    EXPECT_FALSE(ParseLocalName(s, &q)) << s;
  }
  EXPECT_EQ(ParsedNameToString(Parse("GPU:3")), "/device:GPU:3");
  EXPECT_EQ(ParsedNameToString(Parse("/gpu:3")), "/device:GPU:3");
  ParsedDeviceName q;
  EXPECT_FALSE(ParseFullOrLocalName("GPU:x", &q));
  EXPECT_EQ(LocalName("GPU", 1), "/device:GPU:1");
}

TEST(DeviceNameTest, FullNameAndEquality) {
  EXPECT_EQ(FullName("localhost", 0, 0, "CPU", 1), "/job:localhost/replica:0/task:0/device:CPU:1");
  EXPECT_EQ(Parse("/cpu:0"), Parse("/device:CPU:0"));
  EXPECT_NE(Parse("/cpu:0"), Parse("/device:CPU:*"));
  EXPECT_NE(Parse("/job:a"), Parse("/job:b"));
  EXPECT_NE(Parse("/job:a"), Parse(""));
  // Values of unset fields do not matter.
  ParsedDeviceName a, b;
  a.job = "x";
  EXPECT_EQ(a, b);
  EXPECT_FALSE(HasSomeDetails(a));
  EXPECT_TRUE(HasSomeDetails(Parse("/device:*:0")));
}

TEST(DeviceNameTest, SpecificationTable) {
  struct Case {
    const char* less;
    const char* more;
    bool is_spec;
    bool compatible;
  };
  const Case cases[] = {
      {"", "/job:a/replica:0/task:0/device:CPU:0", true, true},
      {"/cpu:0", "/job:a/replica:0/task:0/device:CPU:0", true, true},
      {"/device:CPU:*", "/job:a/replica:0/task:0/device:CPU:1", true, true},
      {"/gpu:0", "/job:a/replica:0/task:0/device:CPU:0", false, false},
      {"/cpu:1", "/job:a/replica:0/task:0/device:CPU:0", false, false},
      {"/job:b", "/job:a/replica:0/task:0/device:CPU:0", false, false},
      {"/job:a/task:1", "/job:a/task:0", false, false},
      {"/replica:1", "/replica:0", false, false},
      {"/job:a", "/device:CPU:0", false, true},
      {"/device:CPU:0", "/device:CPU:*", false, true},
  };
  for (const Case& c : cases) {
    ParsedDeviceName less = Parse(c.less), more = Parse(c.more);
    EXPECT_EQ(IsSpecification(less, more), c.is_spec) << c.less << " vs " << c.more;
    EXPECT_EQ(AreCompatibleDevNames(less, more), c.compatible) << c.less << " vs " << c.more;
    EXPECT_EQ(AreCompatibleDevNames(more, less), c.compatible) << c.more << " vs " << c.less;
  }
}

TEST(DeviceNameTest, CompleteSpecification) {
  ParsedDeviceName full = Parse("/job:a/replica:0/task:0/device:CPU:1");
  EXPECT_TRUE(IsCompleteSpecification(Parse("/cpu:1"), full));
  EXPECT_TRUE(IsCompleteSpecification(Parse(""), full));
  EXPECT_FALSE(IsCompleteSpecification(Parse("/cpu:0"), full));
  EXPECT_FALSE(IsCompleteSpecification(Parse("/job:b"), full));
  // An incomplete name never matches (TensorFlow would CHECK-fail).
  EXPECT_FALSE(IsCompleteSpecification(Parse(""), Parse("/cpu:1")));
}

TEST(DeviceNameTest, EnsureSpecification) {
  ParsedDeviceName more = Parse("/job:a/device:GPU:1");
  EnsureSpecification(&more, Parse("/task:2/device:CPU:*"));
  EXPECT_EQ(ParsedNameToString(more), "/job:a/task:2/device:CPU:1");
  EnsureSpecification(&more, Parse("/job:b/replica:3/gpu:0"));
  EXPECT_EQ(ParsedNameToString(more), "/job:b/replica:3/task:2/device:GPU:0");
}

TEST(DeviceNameTest, MergeCompatible) {
  ParsedDeviceName t = Parse("/job:a");
  ASSERT_TRUE(MergeDevNames(&t, Parse("/replica:0/task:1/gpu:0")).ok());
  EXPECT_EQ(ParsedNameToString(t), "/job:a/replica:0/task:1/device:GPU:0");
  ASSERT_TRUE(MergeDevNames(&t, Parse("")).ok());
  ASSERT_TRUE(MergeDevNames(&t, Parse("/job:a/gpu:0")).ok());
  EXPECT_EQ(ParsedNameToString(t), "/job:a/replica:0/task:1/device:GPU:0");
}

TEST(DeviceNameTest, MergeConflictMessages) {
  struct Case {
    const char* target;
    const char* other;
    const char* message;
  };
  const Case cases[] = {
      {"/job:a", "/job:b", "Cannot merge devices with incompatible jobs: '/job:a' and '/job:b'"},
      {"/replica:0", "/replica:1",
       "Cannot merge devices with incompatible replicas: '/replica:0' and '/replica:1'"},
      {"/task:0", "/task:1",
       "Cannot merge devices with incompatible tasks: '/task:0' and '/task:1'"},
      {"/cpu:0", "/gpu:0",
       "Cannot merge devices with incompatible types: '/device:CPU:0' and '/device:GPU:0'"},
      {"/cpu:0", "/cpu:1",
       "Cannot merge devices with incompatible ids: '/device:CPU:0' and '/device:CPU:1'"},
  };
  for (const Case& c : cases) {
    ParsedDeviceName t = Parse(c.target);
    absl::Status s = MergeDevNames(&t, Parse(c.other));
    EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << c.target;
    EXPECT_EQ(s.message(), c.message);
  }
}

TEST(DeviceNameTest, MergeSoftPlacement) {
  ParsedDeviceName t = Parse("/job:a/cpu:0");
  ASSERT_TRUE(MergeDevNames(&t, Parse("/gpu:1"), /*allow_soft_placement=*/true).ok());
  EXPECT_EQ(ParsedNameToString(t), "/job:a");
  EXPECT_FALSE(t.has_id);

  t = Parse("/cpu:0");
  ASSERT_TRUE(MergeDevNames(&t, Parse("/cpu:1"), true).ok());
  EXPECT_EQ(ParsedNameToString(t), "/device:CPU:*");

  // Soft placement never resolves a job, replica or task conflict.
  t = Parse("/job:a");
  EXPECT_FALSE(MergeDevNames(&t, Parse("/job:b"), true).ok());
  t = Parse("/task:0");
  EXPECT_FALSE(MergeDevNames(&t, Parse("/task:1"), true).ok());
}

TEST(DeviceNameTest, MergeOverrideAndUnset) {
  ParsedDeviceName t = Parse("/job:a/cpu:0");
  ASSERT_TRUE(MergeOverrideDevNames(&t, Parse("/gpu:1")).ok());
  EXPECT_EQ(ParsedNameToString(t), "/job:a/device:GPU:1");
  ASSERT_TRUE(MergeOverrideDevNames(&t, Parse("/gpu:2")).ok());
  EXPECT_EQ(ParsedNameToString(t), "/job:a/device:GPU:2");
  EXPECT_FALSE(MergeOverrideDevNames(&t, Parse("/job:b")).ok());

  t = Parse("/job:a/gpu:0");
  MergeUnsetDevNames(&t, Parse("/job:b/replica:1/task:2/cpu:3"));
  EXPECT_EQ(ParsedNameToString(t), "/job:a/replica:1/task:2/device:GPU:0");
}

TEST(DeviceNameTest, AddressSpace) {
  EXPECT_TRUE(
      IsSameAddressSpace("/job:a/replica:0/task:0/cpu:0", "/job:a/replica:0/task:0/device:GPU:3"));
  EXPECT_FALSE(
      IsSameAddressSpace("/job:a/replica:0/task:0/cpu:0", "/job:a/replica:0/task:1/cpu:0"));
  EXPECT_FALSE(IsSameAddressSpace("/job:a/replica:0/cpu:0", "/job:a/replica:0/cpu:0"));
  EXPECT_FALSE(IsSameAddressSpace("bad", "/job:a/replica:0/task:0"));
  EXPECT_EQ(ParsedNameToString(AddressSpace(Parse("/job:a/replica:0/task:0/cpu:0"))),
            "/job:a/replica:0/task:0");
}

TEST(DeviceNameTest, Canonicalize) {
  const std::string base = "/job:localhost/replica:0/task:0/device:CPU:0";
  std::string out;
  ASSERT_TRUE(CanonicalizeDeviceName("/gpu:1", base, &out).ok());
  EXPECT_EQ(out, "/job:localhost/replica:0/task:0/device:GPU:1");
  ASSERT_TRUE(CanonicalizeDeviceName("GPU:2", base, &out).ok());
  EXPECT_EQ(out, "/job:localhost/replica:0/task:0/device:GPU:2");
  ASSERT_TRUE(CanonicalizeDeviceName("", base, &out).ok());
  EXPECT_EQ(out, base);
  ASSERT_TRUE(CanonicalizeDeviceName("/job:w/task:3", base, &out).ok());
  EXPECT_EQ(out, "/job:w/replica:0/task:3/device:CPU:0");

  absl::Status s = CanonicalizeDeviceName("/gpu:x", base, &out);
  EXPECT_EQ(s.message(), "Could not parse /gpu:x into a device specification.");
  EXPECT_EQ(out, "");
  s = CanonicalizeDeviceName("/gpu:0", "nonsense", &out);
  EXPECT_EQ(s.message(), "Could not parse basename: nonsense into a device specification.");
  s = CanonicalizeDeviceName("/gpu:0", "/job:a/cpu:0", &out);
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(s.message(), "Basename: /job:a/cpu:0 should be fully specified.");
}

}  // namespace
}  // namespace sluice
