// SaveV2, RestoreV2 and MergeV2Checkpoints against the files and error codes TensorFlow
// produced (io/testdata/gen_bundles.py): SaveV2 writes TensorFlow's bytes, MergeV2Checkpoints
// makes TensorFlow's merged bundle, RestoreV2 reads TensorFlow's checkpoints and reports
// TensorFlow's codes on damaged ones.
#include <sys/stat.h>

#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "graph/core/tensor.h"
#include "gtest/gtest.h"
#include "io/tensor_bundle_files.h"
#include "io/tensor_bundle_test_util.h"
#include "kernels/kernel_test_util.h"

namespace sluice {
namespace test {
namespace {

Tensor Strings(const std::vector<std::string>& values) {
  Tensor t(DT_STRING, TensorShape({static_cast<int64_t>(values.size())}));
  for (size_t i = 0; i < values.size(); ++i) t.base<std::string>()[i] = values[i];
  return t;
}

Tensor ScalarString(const std::string& value) {
  Tensor t(DT_STRING, TensorShape({}));
  *t.base<std::string>() = value;
  return t;
}

class CheckpointKernelsTest : public KernelTest {
 protected:
  absl::Status Save(const std::string& prefix,
                    const std::vector<std::pair<std::string, Tensor>>& tensors) {
    DataTypeVector dtypes;
    std::vector<std::string> names;
    NodeDefBuilder b("save", "SaveV2");
    b.Input("prefix").Input("names").Input("specs");
    for (size_t i = 0; i < tensors.size(); ++i) {
      dtypes.push_back(tensors[i].second.dtype());
      names.push_back(tensors[i].first);
      b.Input(absl::StrCat("t", i));
    }
    b.Attr("dtypes", dtypes);
    RETURN_IF_ERROR(InitOp(b.Build()));
    AddInput(ScalarString(prefix));
    AddInput(Strings(names));
    AddInput(Strings(std::vector<std::string>(names.size())));
    for (const auto& t : tensors) AddInput(t.second);
    return RunOpKernel();
  }

  // Restores `names` (whole tensors) as `dtypes`; the outputs stay in GetOutput(i).
  absl::Status Restore(const std::string& prefix, const std::vector<std::string>& names,
                       const DataTypeVector& dtypes) {
    RETURN_IF_ERROR(InitOp(NodeDefBuilder("restore", "RestoreV2")
                               .Input("prefix")
                               .Input("names")
                               .Input("specs")
                               .Attr("dtypes", dtypes)
                               .Build()));
    AddInput(ScalarString(prefix));
    AddInput(Strings(names));
    AddInput(Strings(std::vector<std::string>(names.size())));
    return RunOpKernel();
  }

  absl::Status Merge(const std::vector<std::string>& prefixes, const std::string& destination,
                     bool delete_old_dirs = true, bool allow_missing_files = false) {
    RETURN_IF_ERROR(InitOp(NodeDefBuilder("merge", "MergeV2Checkpoints")
                               .Input("prefixes")
                               .Input("destination")
                               .Attr("delete_old_dirs", delete_old_dirs)
                               .Attr("allow_missing_files", allow_missing_files)
                               .Build()));
    AddInput(Strings(prefixes));
    AddInput(ScalarString(destination));
    return RunOpKernel();
  }

  // Restores every tensor of `expected` (a gen_bundles.py listing) from `prefix`.
  absl::Status RestoreAll(const std::string& prefix,
                          const std::vector<std::pair<std::string, Tensor>>& expected) {
    std::vector<std::string> names;
    DataTypeVector dtypes;
    for (const auto& e : expected) {
      names.push_back(e.first);
      dtypes.push_back(e.second.dtype());
    }
    return Restore(prefix, names, dtypes);
  }
};

TEST_F(CheckpointKernelsTest, SaveV2WritesTensorFlowsBytes) {
  const auto tensors = ReadExpectedTensors(BundleTestdata("all_dtypes.txt"));
  const std::string prefix = NewTempDir() + "/new/all_dtypes";
  ASSERT_TRUE(Save(prefix, tensors).ok());
  EXPECT_EQ(ReadFileBytes(MetaFilename(prefix)),
            ReadFileBytes(MetaFilename(BundleTestdata("all_dtypes"))));
  EXPECT_EQ(ReadFileBytes(DataFilename(prefix, 0, 1)),
            ReadFileBytes(DataFilename(BundleTestdata("all_dtypes"), 0, 1)));
}

TEST_F(CheckpointKernelsTest, RestoreV2ReadsTensorFlowsCheckpoints) {
  for (const char* name : {"all_dtypes", "tf_checkpoint-1"}) {
    const std::string listing =
        std::string(name) == "all_dtypes" ? "all_dtypes.txt" : "tf_checkpoint.txt";
    const auto expected = ReadExpectedTensors(BundleTestdata(listing));
    ASSERT_TRUE(RestoreAll(BundleTestdata(name), expected).ok()) << name;
    for (size_t i = 0; i < expected.size(); ++i) {
      ExpectIdentical(expected[i].second, *GetOutput(static_cast<int>(i)), expected[i].first);
    }
  }
}

TEST_F(CheckpointKernelsTest, SaveThenRestore) {
  const std::string prefix = NewTempDir() + "/round";
  Tensor big(DT_FLOAT, TensorShape({300, 70}));
  for (int64_t i = 0; i < big.NumElements(); ++i) big.base<float>()[i] = i * 0.25f;
  const std::vector<std::pair<std::string, Tensor>> tensors = {
      {"z", big}, {"a", Strings({"x", std::string(200, 'y'), ""})}, {"m", Tensor(int64_t{-9})}};
  ASSERT_TRUE(Save(prefix, tensors).ok());
  ASSERT_TRUE(RestoreAll(prefix, tensors).ok());
  for (size_t i = 0; i < tensors.size(); ++i) {
    ExpectIdentical(tensors[i].second, *GetOutput(static_cast<int>(i)), tensors[i].first);
  }
}

// The damage gen_bundles.py did to copies of all_dtypes, and TensorFlow's codes for it.
TEST_F(CheckpointKernelsTest, RestoreV2ErrorCodesAsTensorFlow) {
  const auto expected = ReadExpectedTensors(BundleTestdata("all_dtypes.txt"));
  const std::string index = ReadFileBytes(MetaFilename(BundleTestdata("all_dtypes")));
  const std::string data = ReadFileBytes(DataFilename(BundleTestdata("all_dtypes"), 0, 1));
  const std::string dir = NewTempDir();
  auto flip = [](std::string b, size_t pos) {
    b[pos] ^= 0x01;
    return b;
  };
  // Writes a damaged copy; `index_bytes` or `data_bytes` absent (nullptr) leaves the file out.
  auto damaged = [&](const std::string& name, const std::string* index_bytes,
                     const std::string* data_bytes) {
    const std::string prefix = dir + "/" + name;
    if (index_bytes != nullptr) WriteBytes(MetaFilename(prefix), *index_bytes);
    if (data_bytes != nullptr) WriteBytes(DataFilename(prefix, 0, 1), *data_bytes);
    return prefix;
  };
  const std::vector<std::pair<std::string, std::string>> cases =
      ReadErrorCases(BundleTestdata("errors.txt"));
  ASSERT_EQ(cases.size(), 19u);
  int checked = 0;
  for (const auto& [name, code] : cases) {
    absl::Status s;
    if (name == "missing_prefix") {
      s = RestoreAll(dir + "/nothing_here", expected);
    } else if (name == "missing_key") {
      s = Restore(BundleTestdata("all_dtypes"), {"float", "no_such_key"}, {DT_FLOAT, DT_FLOAT});
    } else if (name == "dtype_mismatch") {
      s = Restore(BundleTestdata("all_dtypes"), {"float", "int32"}, {DT_DOUBLE, DT_INT32});
    } else if (name == "empty_index") {
      const std::string empty;
      s = RestoreAll(damaged(name, &empty, &data), expected);
    } else if (name.rfind("truncate_index_", 0) == 0) {
      const size_t n = std::stoul(name.substr(15));
      const std::string cut = index.substr(0, n);
      s = RestoreAll(damaged(name, &cut, &data), expected);
    } else if (name == "bad_magic") {
      const std::string b = flip(index, index.size() - 1);
      s = RestoreAll(damaged(name, &b, &data), expected);
    } else if (name == "index_block_crc") {
      const std::string b = flip(index, 10);
      s = RestoreAll(damaged(name, &b, &data), expected);
    } else if (name == "data_flip_0") {
      const std::string b = flip(data, 0);
      s = RestoreAll(damaged(name, &index, &b), expected);
    } else if (name == "data_flip_last") {
      const std::string b = flip(data, data.size() - 1);
      s = RestoreAll(damaged(name, &index, &b), expected);
    } else if (name == "data_truncated") {
      const std::string b = data.substr(0, data.size() / 2);
      s = RestoreAll(damaged(name, &index, &b), expected);
    } else if (name == "data_missing") {
      s = RestoreAll(damaged(name, &index, nullptr), expected);
    } else if (name == "merge_missing_input") {
      s = Merge({dir + "/nope"}, dir + "/m1");
    } else if (name == "merge_all_missing_allowed") {
      s = Merge({dir + "/nope"}, dir + "/m2", true, true);
    } else if (name == "merge_prefixes_not_vector" || name == "merge_destination_not_scalar") {
      continue;  // in the conformance fixture
    } else {
      ADD_FAILURE() << "unknown case " << name;
      continue;
    }
    EXPECT_EQ(absl::StatusCodeToString(s.code()), code) << name << ": " << s;
    ++checked;
  }
  EXPECT_EQ(checked, 17);
}

TEST_F(CheckpointKernelsTest, MergeV2CheckpointsAsTensorFlow) {
  const std::string dir = NewTempDir();
  mkdir((dir + "/in").c_str(), 0755);
  std::vector<std::string> prefixes;
  for (const char* part : {"part-00000-of-00002", "part-00001-of-00002"}) {
    for (const char* suffix : {".index", ".data-00000-of-00001"}) {
      CopyFile(BundleTestdata(absl::StrCat("merge_in/", part, suffix)),
               absl::StrCat(dir, "/in/", part, suffix));
    }
    prefixes.push_back(absl::StrCat(dir, "/in/", part));
  }
  mkdir((dir + "/out").c_str(), 0755);
  const std::string merged = dir + "/out/merged";
  ASSERT_TRUE(Merge(prefixes, merged).ok());
  EXPECT_EQ(ReadFileBytes(MetaFilename(merged)),
            ReadFileBytes(MetaFilename(BundleTestdata("merged"))));
  for (int shard = 0; shard < 2; ++shard) {
    EXPECT_EQ(ReadFileBytes(DataFilename(merged, shard, 2)),
              ReadFileBytes(DataFilename(BundleTestdata("merged"), shard, 2)));
  }
  // delete_old_dirs removed the emptied input folder, as TensorFlow did.
  EXPECT_FALSE(PathExists(dir + "/in"));
  ASSERT_TRUE(Restore(merged, {"a", "d"}, {DT_INT64, DT_STRING}).ok());
  EXPECT_EQ(GetOutput(0)->base<int64_t>()[0], 3);
  EXPECT_EQ(GetOutput(1)->base<std::string>()[1], "yz");
}

TEST_F(CheckpointKernelsTest, MergeKeepsOldDirsWhenAsked) {
  const std::string dir = NewTempDir();
  mkdir((dir + "/in").c_str(), 0755);
  ASSERT_TRUE(Save(dir + "/in/p", {{"v", Tensor(1.5f)}}).ok());
  ASSERT_TRUE(Merge({dir + "/in/p"}, dir + "/merged", /*delete_old_dirs=*/false).ok());
  EXPECT_TRUE(PathExists(dir + "/in"));
  ASSERT_TRUE(Restore(dir + "/merged", {"v"}, {DT_FLOAT}).ok());
  EXPECT_EQ(*GetOutput(0)->base<float>(), 1.5f);
}

TEST_F(CheckpointKernelsTest, SavingASliceIsUnimplemented) {
  ASSERT_TRUE(InitOp(NodeDefBuilder("save", "SaveV2")
                         .Input("prefix")
                         .Input("names")
                         .Input("specs")
                         .Input("t")
                         .Attr("dtypes", DataTypeVector{DT_FLOAT})
                         .Build())
                  .ok());
  AddInput(ScalarString(NewTempDir() + "/s"));
  AddInput(Strings({"v"}));
  AddInput(Strings({"4 1,2"}));
  AddInputFromArray<float>(TensorShape({2}), {1, 2});
  EXPECT_EQ(RunOpKernel().code(), absl::StatusCode::kUnimplemented);
}

}  // namespace
}  // namespace test
}  // namespace sluice
