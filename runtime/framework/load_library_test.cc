#include "runtime/framework/load_library.h"

#include <cstdlib>
#include <fstream>
#include <memory>
#include <string>

#include "gmock/gmock.h"
#include "graph/op/op_registry.h"
#include "gtest/gtest.h"
#include "proto/kernel_def.pb.h"
#include "runtime/framework/create_op_kernel.h"
#include "runtime/framework/kernel_registry.h"
#include "runtime/framework/op_kernel.h"
#include "runtime/framework/op_kernel_test_util.h"

namespace sluice {
namespace {

using test::MakeTensor;
using test::Values;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

// The path of a file built into this test's runfiles.
std::string RunfilePath(const std::string& name) {
  const char* srcdir = std::getenv("TEST_SRCDIR");
  const char* workspace = std::getenv("TEST_WORKSPACE");
  return std::string(srcdir ? srcdir : ".") + "/" + (workspace ? workspace : "sluice") +
         "/runtime/framework/" + name;
}

std::string OpNames(const OpList& ops) {
  std::string names;
  for (const OpDef& op : ops.op()) names += op.name() + ";";
  return names;
}

TEST(LoadLibraryTest, LoadsOpsAndKernelsThatRun) {
  const std::string path = RunfilePath("libsluice_test_custom_op.so");
  void* handle = nullptr;
  OpList ops;
  absl::Status status = LoadLibrary(path.c_str(), &handle, &ops);
  ASSERT_TRUE(status.ok()) << status;
  EXPECT_NE(handle, nullptr);
  EXPECT_EQ(OpNames(ops), "SluiceTestAddOne;");

  const OpDef* op_def = nullptr;
  ASSERT_TRUE(OpRegistry::Global()->LookUpOpDef("SluiceTestAddOne", &op_def).ok());
  EXPECT_EQ(GetRegisteredKernelsForOp("SluiceTestAddOne").kernel_size(), 2);
  // The library's shape function comes from the process (graph/common_shape_fns.h).
  const OpRegistrationData* registration = nullptr;
  ASSERT_TRUE(OpRegistry::Global()->LookUp("SluiceTestAddOne", &registration).ok());
  EXPECT_TRUE(static_cast<bool>(registration->shape_inference_fn));

  NodeDef node = test::MakeNodeDef("add_one", "SluiceTestAddOne", {"x"});
  AddNodeAttr("T", DT_FLOAT, &node);
  test::CpuTestDevice device;
  std::unique_ptr<OpKernel> kernel;
  status = CreateOpKernel(DEVICE_CPU, &device, device.GetAllocator(), node, &kernel);
  ASSERT_TRUE(status.ok()) << status;
  test::TestInvocation call(kernel.get(), &device, {MakeTensor<float>({3}, {1, 2, 3.5})});
  ASSERT_TRUE(call.Compute().ok());
  const Tensor* y = call.context()->mutable_output(0);
  EXPECT_THAT(Values<float>(*y), ElementsAre(2, 3, 4.5));
  EXPECT_TRUE(y->SharesBufferWith(*call.input(0)));  // the kernel forwarded its input
}

TEST(LoadLibraryTest, SecondLoadReturnsTheSameResult) {
  const std::string path = RunfilePath("libsluice_test_custom_op.so");
  void* first = nullptr;
  ASSERT_TRUE(LoadLibrary(path.c_str(), &first, nullptr).ok());
  const int kernels = GetAllRegisteredKernels().kernel_size();
  void* second = nullptr;
  OpList ops;
  ASSERT_TRUE(LoadLibrary(path.c_str(), &second, &ops).ok());
  EXPECT_EQ(second, first);
  EXPECT_EQ(OpNames(ops), "SluiceTestAddOne;");
  EXPECT_EQ(GetAllRegisteredKernels().kernel_size(), kernels);
  EXPECT_TRUE(OpRegistry::Global()->registration_errors().empty());
  EXPECT_TRUE(KernelRegistry::Global()->registration_errors().empty());
}

TEST(LoadLibraryTest, RegistrationErrorsAreReturned) {
  const std::string path = RunfilePath("libsluice_test_bad_custom_op.so");
  void* handle = nullptr;
  OpList ops;
  absl::Status status = LoadLibrary(path.c_str(), &handle, &ops);
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(status.message(), HasSubstr(path));
  EXPECT_THAT(status.message(), HasSubstr("failed 3 registration(s)"));
  EXPECT_THAT(status.message(), HasSubstr("SluiceTestMalformed"));
  EXPECT_THAT(status.message(), HasSubstr("Op with name Identity"));
  EXPECT_THAT(status.message(), HasSubstr("Label() called twice"));
  // The registries are as they were: the valid op and kernel were taken back, and the
  // built-in Identity keeps its definition.
  EXPECT_EQ(OpNames(ops), "");
  const OpRegistrationData* data = nullptr;
  EXPECT_EQ(OpRegistry::Global()->LookUp("SluiceTestBadLibraryGood", &data).code(),
            absl::StatusCode::kNotFound);
  EXPECT_EQ(
      KernelRegistry::Global()->GetRegisteredKernelsForOp("SluiceTestBadLibraryGood").kernel_size(),
      0);
  const OpDef* identity = nullptr;
  ASSERT_TRUE(OpRegistry::Global()->LookUpOpDef("Identity", &identity).ok());
  ASSERT_EQ(identity->attr_size(), 1);
  EXPECT_EQ(identity->attr(0).name(), "T");
  // Loading again gives the same answer without registering again.
  absl::Status again = LoadLibrary(path.c_str(), &handle, &ops);
  EXPECT_EQ(again, status);
  // Errors the watchers took are not left in the registries.
  EXPECT_TRUE(OpRegistry::Global()->registration_errors().empty());
  EXPECT_TRUE(KernelRegistry::Global()->registration_errors().empty());
}

TEST(LoadLibraryTest, MissingFileIsNotFound) {
  void* handle = nullptr;
  const std::string path = RunfilePath("no_such_library.so");
  absl::Status status = LoadLibrary(path.c_str(), &handle, nullptr);
  EXPECT_EQ(status.code(), absl::StatusCode::kNotFound);
  EXPECT_THAT(status.message(), HasSubstr(path));
  EXPECT_EQ(LoadLibrary("libsluice_no_such_library.so", &handle, nullptr).code(),
            absl::StatusCode::kNotFound);
}

TEST(LoadLibraryTest, NotALibraryIsInvalidArgument) {
  const char* tmpdir = std::getenv("TEST_TMPDIR");
  const std::string path = std::string(tmpdir ? tmpdir : "/tmp") + "/not_a_library.so";
  std::ofstream(path) << "this is not an ELF file\n";
  void* handle = nullptr;
  absl::Status status = LoadLibrary(path.c_str(), &handle, nullptr);
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(status.message(), HasSubstr("Could not load library '" + path + "': "));
  EXPECT_THAT(status.message(), HasSubstr(path + ":"));  // dlerror's text names the file
}

}  // namespace
}  // namespace sluice
