#include "io/tensor_bundle_test_util.h"

#include <stdlib.h>
#include <sys/stat.h>

#include <atomic>
#include <fstream>
#include <sstream>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "google/protobuf/text_format.h"
#include "graph/core/tensor_proto.h"
#include "gtest/gtest.h"
#include "proto/tensor.pb.h"

namespace sluice {
namespace test {

std::string BundleTestdata(const std::string& name) { return "io/testdata/bundles/" + name; }

std::string NewTempDir() {
  static std::atomic<int> counter{0};
  const char* base = getenv("TEST_TMPDIR");
  std::string dir = absl::StrCat(base != nullptr ? base : "/tmp", "/bundle_", getpid(), "_",
                                 counter.fetch_add(1));
  mkdir(dir.c_str(), 0755);
  return dir;
}

std::string ReadFileBytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  EXPECT_TRUE(in.good()) << "cannot read " << path;
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

void WriteBytes(const std::string& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  ASSERT_TRUE(out.good()) << "cannot write " << path;
}

void CopyFile(const std::string& from, const std::string& to) {
  WriteBytes(to, ReadFileBytes(from));
}

bool PathExists(const std::string& path) {
  struct stat st;
  return stat(path.c_str(), &st) == 0;
}

std::vector<std::pair<std::string, Tensor>> ReadExpectedTensors(const std::string& path) {
  std::vector<std::pair<std::string, Tensor>> out;
  std::ifstream in(path);
  EXPECT_TRUE(in.good()) << "cannot read " << path;
  std::string line;
  while (std::getline(in, line)) {
    const size_t tab = line.find('\t');
    EXPECT_NE(tab, std::string::npos) << line;
    if (tab == std::string::npos) continue;
    TensorProto proto;
    EXPECT_TRUE(google::protobuf::TextFormat::ParseFromString(line.substr(tab + 1), &proto))
        << line;
    Tensor t;
    const absl::Status s = TensorFromProto(proto, &t);
    EXPECT_TRUE(s.ok()) << s << " for " << line.substr(0, tab);
    out.emplace_back(line.substr(0, tab), t);
  }
  return out;
}

std::vector<std::pair<std::string, std::string>> ReadErrorCases(const std::string& path) {
  std::vector<std::pair<std::string, std::string>> out;
  std::ifstream in(path);
  EXPECT_TRUE(in.good()) << "cannot read " << path;
  std::string line;
  while (std::getline(in, line)) {
    std::vector<std::string> parts = absl::StrSplit(line, '\t');
    EXPECT_EQ(parts.size(), 2u) << line;
    if (parts.size() == 2) out.emplace_back(parts[0], parts[1]);
  }
  return out;
}

std::string ManyKeysKey(int i) {
  char head[16];
  snprintf(head, sizeof(head), "k%05d_", i);
  return std::string(head) + std::string(200, static_cast<char>('a' + i % 26));
}

int32_t ManyKeysValue(int i) { return i * 7 - 3; }

void ExpectIdentical(const Tensor& expected, const Tensor& actual, const std::string& what) {
  ASSERT_EQ(expected.dtype(), actual.dtype()) << what;
  ASSERT_EQ(expected.shape(), actual.shape()) << what;
  if (expected.dtype() == DT_STRING) {
    for (int64_t i = 0; i < expected.NumElements(); ++i) {
      EXPECT_EQ(expected.base<std::string>()[i], actual.base<std::string>()[i])
          << what << " element " << i;
    }
  } else {
    EXPECT_EQ(expected.tensor_data(), actual.tensor_data()) << what;
  }
}

}  // namespace test
}  // namespace sluice
