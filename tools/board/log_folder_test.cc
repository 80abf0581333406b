#include "tools/board/log_folder.h"

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "gtest/gtest.h"

namespace sluice {
namespace board {
namespace {

namespace fs = std::filesystem;

void Touch(const fs::path& path) {
  fs::create_directories(path.parent_path());
  std::ofstream(path) << "x";
}

// A log folder:  ./events.out.tfevents.1  train/events.out.tfevents.2  train/index.json
//   nested/eval/events.out.tfevents.3 (nested itself holds none)  empty/  notes/readme.txt
//   inside -> train (a link within)   escape -> OUTSIDE (a folder with an event file)
//   stray.tfevents.x -> OUTSIDE/events... (a file link leading out)
class LogFolderTest : public testing::Test {
 protected:
  void SetUp() override {
    base_ = fs::path(testing::TempDir()) /
            testing::UnitTest::GetInstance()->current_test_info()->name();
    fs::remove_all(base_);
    root_ = base_ / "logs";
    outside_ = base_ / "outside";
    Touch(root_ / "events.out.tfevents.1");
    Touch(root_ / "train" / "events.out.tfevents.2");
    Touch(root_ / "train" / "index.json");
    Touch(root_ / "nested" / "eval" / "events.out.tfevents.3");
    fs::create_directories(root_ / "empty");
    Touch(root_ / "notes" / "readme.txt");
    Touch(outside_ / "events.out.tfevents.9");
    fs::create_directory_symlink(root_ / "train", root_ / "inside");
    fs::create_directory_symlink(outside_, root_ / "escape");
    fs::create_symlink(outside_ / "events.out.tfevents.9", root_ / "nested" / "x.tfevents.9");
  }

  fs::path base_, root_, outside_;
};

TEST_F(LogFolderTest, ListsEveryFolderHoldingEventFiles) {
  absl::StatusOr<LogFolder> folder = LogFolder::Open(root_.string());
  ASSERT_TRUE(folder.ok()) << folder.status();
  std::vector<std::string> names;
  for (const RunFiles& run : folder->ListRuns()) names.push_back(run.name);
  EXPECT_EQ(names, (std::vector<std::string>{".", "nested/eval", "train"}));
  absl::StatusOr<RunFiles> train = folder->FindRun("train");
  ASSERT_TRUE(train.ok());
  ASSERT_EQ(train->event_files.size(), 1u);
  EXPECT_EQ(folder->Relative(train->event_files[0]), "train/events.out.tfevents.2");
  EXPECT_EQ(folder->Relative(train->index_json), "train/index.json");
  EXPECT_EQ(folder->Relative(train->dir), "train");
  absl::StatusOr<RunFiles> top = folder->FindRun(".");
  ASSERT_TRUE(top.ok());
  EXPECT_EQ(top->event_files.size(), 1u);
  EXPECT_TRUE(top->index_json.empty());
}

TEST_F(LogFolderTest, NothingOutsideTheFolderIsReached) {
  absl::StatusOr<LogFolder> folder = LogFolder::Open(root_.string());
  ASSERT_TRUE(folder.ok());
  const std::string outside = outside_.string();
  for (const std::string& name :
       {std::string("escape"), std::string("../outside"), outside, std::string("train/.."),
        std::string("./train"), std::string("train/"), std::string("train//"), std::string(""),
        std::string("/"), std::string("nested"), std::string("empty"), std::string("absent"),
        std::string("notes"), std::string("train\0x", 7), std::string("..")}) {
    absl::StatusOr<RunFiles> run = folder->FindRun(name);
    EXPECT_EQ(run.status().code(), absl::StatusCode::kNotFound) << name;
  }
  EXPECT_EQ(folder->FindRun("../outside").status().message(),
            "no run '../outside' in the log folder");
  // The link inside the folder leads to a run inside it; the file link leading out is no
  // event file of nested/eval's parent.
  EXPECT_TRUE(folder->FindRun("inside").ok());
  for (const RunFiles& run : folder->ListRuns()) {
    for (const std::string& file : run.event_files) {
      EXPECT_EQ(file.find(outside), std::string::npos) << file;
    }
  }
}

TEST_F(LogFolderTest, OpenNeedsAnExistingFolder) {
  EXPECT_EQ(LogFolder::Open((base_ / "missing").string()).status().code(),
            absl::StatusCode::kNotFound);
  EXPECT_EQ(LogFolder::Open((root_ / "events.out.tfevents.1").string()).status().code(),
            absl::StatusCode::kNotFound);
}

}  // namespace
}  // namespace board
}  // namespace sluice
