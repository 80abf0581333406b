#include "runtime/framework/resource_mgr.h"

#include <atomic>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "absl/status/status.h"
#include "gmock/gmock.h"
#include "graph/core/tensor_types.h"
#include "graph/op/node_def_util.h"
#include "graph/op/op_registry.h"
#include "gtest/gtest.h"
#include "runtime/framework/create_op_kernel.h"
#include "runtime/framework/op_kernel.h"
#include "runtime/framework/op_kernel_test_util.h"
#include "runtime/framework/resource_var.h"

namespace sluice {
namespace {

using ::testing::HasSubstr;

// Counts live instances, so tests can see exactly when the last reference goes.
class Counter : public ResourceBase {
 public:
  explicit Counter(int value = 0) : value(value) { ++live; }
  std::string DebugString() const override { return "Counter " + std::to_string(value); }
  int value;
  static std::atomic<int> live;

 protected:
  ~Counter() override { --live; }
};
std::atomic<int> Counter::live{0};

class Other : public ResourceBase {
 public:
  std::string DebugString() const override { return "Other"; }
};

class ResourceMgrTest : public ::testing::Test {
 protected:
  void SetUp() override { Counter::live = 0; }
  void TearDown() override { EXPECT_EQ(Counter::live, 0); }
};

TEST_F(ResourceMgrTest, CreateLookupDelete) {
  {
    ResourceMgr rm;
    EXPECT_EQ(rm.default_container(), "localhost");
    ASSERT_TRUE(rm.Create("c", "x", new Counter(3)).ok());

    Counter* found = nullptr;
    ASSERT_TRUE(rm.Lookup("c", "x", &found).ok());
    EXPECT_EQ(found->value, 3);
    EXPECT_FALSE(found->RefCountIsOne());  // the manager holds one, we hold one

    ASSERT_TRUE(rm.Delete<Counter>("c", "x").ok());
    EXPECT_TRUE(found->RefCountIsOne());  // still alive through our reference
    EXPECT_EQ(Counter::live, 1);
    EXPECT_TRUE(found->Unref());
    EXPECT_EQ(Counter::live, 0);

    absl::Status s = rm.Lookup("c", "x", &found);
    EXPECT_EQ(s.code(), absl::StatusCode::kNotFound);
    EXPECT_THAT(std::string(s.message()), HasSubstr("Resource c/x/"));
    EXPECT_THAT(std::string(s.message()), HasSubstr("Counter"));
    EXPECT_THAT(std::string(s.message()), HasSubstr(" does not exist."));
  }
}

TEST_F(ResourceMgrTest, CreateTwiceIsAlreadyExistsAndDropsTheNewOne) {
  ResourceMgr rm;
  ASSERT_TRUE(rm.Create("c", "x", new Counter(1)).ok());
  absl::Status s = rm.Create("c", "x", new Counter(2));
  EXPECT_EQ(s.code(), absl::StatusCode::kAlreadyExists);
  EXPECT_EQ(s.message(), "Resource c/x/" + std::string(typeid(Counter).name()));
  EXPECT_EQ(Counter::live, 1);
  // The same name may hold one resource per type.
  EXPECT_TRUE(rm.Create("c", "x", new Other()).ok());
}

TEST_F(ResourceMgrTest, LookupErrors) {
  ResourceMgr rm;
  Counter* found = nullptr;
  absl::Status s = rm.Lookup("nope", "x", &found);
  EXPECT_EQ(s.code(), absl::StatusCode::kNotFound);
  EXPECT_EQ(s.message(), "Container nope does not exist. (Could not find resource: nope/x)");
  ASSERT_TRUE(rm.Create("c", "x", new Other()).ok());
  // Another type under the same name is not a match.
  EXPECT_EQ(rm.Lookup("c", "x", &found).code(), absl::StatusCode::kNotFound);
}

TEST_F(ResourceMgrTest, DeleteErrors) {
  ResourceMgr rm;
  absl::Status s = rm.Delete<Counter>("c", "x");
  EXPECT_EQ(s.code(), absl::StatusCode::kNotFound);
  EXPECT_EQ(s.message(), "Container c does not exist.");
  ASSERT_TRUE(rm.Create("c", "y", new Counter()).ok());
  s = rm.Delete<Counter>("c", "x");
  EXPECT_EQ(s.code(), absl::StatusCode::kNotFound);
  EXPECT_THAT(std::string(s.message()), HasSubstr("does not exist."));
}

TEST_F(ResourceMgrTest, CleanupDropsTheContainer) {
  ResourceMgr rm;
  ASSERT_TRUE(rm.Create("a", "x", new Counter()).ok());
  ASSERT_TRUE(rm.Create("a", "y", new Counter()).ok());
  ASSERT_TRUE(rm.Create("b", "x", new Counter()).ok());
  EXPECT_EQ(Counter::live, 3);
  ASSERT_TRUE(rm.Cleanup("a").ok());
  EXPECT_EQ(Counter::live, 1);
  EXPECT_TRUE(rm.Cleanup("a").ok());  // nothing left: still OK
  Counter* found = nullptr;
  EXPECT_EQ(rm.Lookup("a", "x", &found).code(), absl::StatusCode::kNotFound);
  ASSERT_TRUE(rm.Lookup("b", "x", &found).ok());
  found->Unref();
}

TEST_F(ResourceMgrTest, DestructorReleasesEverything) {
  auto rm = std::make_unique<ResourceMgr>("mine");
  EXPECT_EQ(rm->default_container(), "mine");
  ASSERT_TRUE(rm->Create("a", "x", new Counter()).ok());
  ASSERT_TRUE(rm->Create("b", "x", new Counter()).ok());
  rm.reset();
  EXPECT_EQ(Counter::live, 0);
}

TEST_F(ResourceMgrTest, LookupOrCreate) {
  ResourceMgr rm;
  int created = 0;
  auto creator = [&created](Counter** out) {
    ++created;
    *out = new Counter(9);
    return absl::OkStatus();
  };
  Counter* first = nullptr;
  ASSERT_TRUE(rm.LookupOrCreate<Counter>("c", "x", &first, creator).ok());
  Counter* second = nullptr;
  ASSERT_TRUE(rm.LookupOrCreate<Counter>("c", "x", &second, creator).ok());
  EXPECT_EQ(first, second);
  EXPECT_EQ(created, 1);
  first->Unref();
  second->Unref();
  EXPECT_EQ(Counter::live, 1);

  Counter* failed = nullptr;
  absl::Status s = rm.LookupOrCreate<Counter>(
      "c", "y", &failed, [](Counter**) { return absl::ResourceExhaustedError("no room"); });
  EXPECT_EQ(s.code(), absl::StatusCode::kResourceExhausted);
  EXPECT_EQ(rm.Lookup("c", "y", &failed).code(), absl::StatusCode::kNotFound);
}

TEST_F(ResourceMgrTest, ConcurrentLookupOrCreateMakesOne) {
  ResourceMgr rm;
  std::atomic<int> created{0};
  std::vector<std::thread> threads;
  std::vector<Counter*> got(8, nullptr);
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([&, t] {
      EXPECT_TRUE(rm.LookupOrCreate<Counter>("c", "x", &got[t], [&created](Counter** out) {
                      ++created;
                      *out = new Counter();
                      return absl::OkStatus();
                    }).ok());
    });
  }
  for (std::thread& t : threads) t.join();
  EXPECT_EQ(created, 1);
  for (Counter* c : got) {
    EXPECT_EQ(c, got[0]);
    c->Unref();
  }
}

TEST_F(ResourceMgrTest, DebugString) {
  ResourceMgr rm;
  ASSERT_TRUE(rm.Create("c", "x", new Counter(5)).ok());
  EXPECT_THAT(rm.DebugString(), HasSubstr("Counter 5"));
  EXPECT_THAT(rm.DebugString(), HasSubstr("c "));
}

TEST(ResolveContainerAndNameTest, AttrsAndDefaults) {
  ResourceMgr rm("default");
  NodeDef node = test::MakeNodeDef("v", "VarLike");
  AddNodeAttr("container", "", &node);
  AddNodeAttr("shared_name", "", &node);
  std::string container, name;
  ASSERT_TRUE(ResolveContainerAndName(rm, node, true, &container, &name).ok());
  EXPECT_EQ(container, "default");
  EXPECT_EQ(name, "v");
  EXPECT_EQ(ResolveContainerAndName(rm, node, false, &container, &name).code(),
            absl::StatusCode::kInvalidArgument);

  AddNodeAttr("container", "box.1/a-b_c", &node);
  AddNodeAttr("shared_name", "shared", &node);
  ASSERT_TRUE(ResolveContainerAndName(rm, node, true, &container, &name).ok());
  EXPECT_EQ(container, "box.1/a-b_c");
  EXPECT_EQ(name, "shared");

  AddNodeAttr("container", "_bad", &node);
  absl::Status s = ResolveContainerAndName(rm, node, true, &container, &name);
  EXPECT_EQ(s.message(), "container contains invalid characters: _bad");
  AddNodeAttr("container", "", &node);
  AddNodeAttr("shared_name", "_hidden", &node);
  s = ResolveContainerAndName(rm, node, true, &container, &name);
  EXPECT_EQ(s.message(), "shared_name cannot start with '_':_hidden");

  NodeDef bare = test::MakeNodeDef("v", "VarLike");
  EXPECT_EQ(ResolveContainerAndName(rm, bare, true, &container, &name).code(),
            absl::StatusCode::kNotFound);
}

// ---- Handle helpers, through a kernel context --------------------------------------------

REGISTER_OP("ResourceMgrTestHandleOp").Input("h: resource");

class NothingOp : public OpKernel {
 public:
  using OpKernel::OpKernel;
  void Compute(OpKernelContext*) override {}
};
REGISTER_KERNEL_BUILDER(Name("ResourceMgrTestHandleOp").Device(DEVICE_CPU), NothingOp);

class HandleHelpersTest : public ResourceMgrTest {
 protected:
  void SetUp() override {
    ResourceMgrTest::SetUp();
    ASSERT_TRUE(CreateOpKernel(DEVICE_CPU, &device_, DefaultCpuAllocator(),
                               test::MakeNodeDef("h", "ResourceMgrTestHandleOp", {"x"}), &kernel_)
                    .ok());
  }

  // A context whose input 0 is `handle`.
  std::unique_ptr<test::TestInvocation> Invoke(const ResourceHandleProto& handle, ResourceMgr* rm) {
    auto inv = std::make_unique<test::TestInvocation>(kernel_.get(), &device_,
                                                      std::vector<Tensor>{Tensor(handle)});
    // TestInvocation builds its context eagerly; rebuild the params' manager through it.
    params_ = std::make_unique<OpKernelContext::Params>();
    values_ = {TensorValue(inv->input(0))};
    params_->op_kernel = kernel_.get();
    params_->device = &device_;
    params_->inputs = values_;
    params_->resource_manager = rm;
    context_ = std::make_unique<OpKernelContext>(params_.get());
    return inv;
  }

  test::CpuTestDevice device_;
  std::unique_ptr<OpKernel> kernel_;
  std::unique_ptr<OpKernelContext::Params> params_;
  std::vector<TensorValue> values_;
  std::unique_ptr<OpKernelContext> context_;
};

TEST_F(HandleHelpersTest, MakeCreateLookupDelete) {
  ResourceMgr rm;
  auto inv = Invoke(ResourceHandleProto(), &rm);
  ResourceHandleProto handle = MakeResourceHandle<Counter>(context_.get(), "c", "x");
  EXPECT_EQ(handle.device(), device_.name());
  EXPECT_EQ(handle.container(), "c");
  EXPECT_EQ(handle.name(), "x");
  EXPECT_EQ(handle.maybe_type_name(), typeid(Counter).name());

  ASSERT_TRUE(CreateResource(context_.get(), handle, new Counter(4)).ok());
  Counter* found = nullptr;
  ASSERT_TRUE(LookupResource(context_.get(), handle, &found).ok());
  EXPECT_EQ(found->value, 4);
  found->Unref();

  Counter* made = nullptr;
  ASSERT_TRUE(LookupOrCreateResource<Counter>(context_.get(), handle, &made, [](Counter**) {
                return absl::InternalError("not called");
              }).ok());
  made->Unref();

  ASSERT_TRUE(DeleteResource(context_.get(), handle).ok());
  EXPECT_EQ(Counter::live, 0);
  EXPECT_EQ(DeleteResource(context_.get(), handle).code(), absl::StatusCode::kNotFound);
}

TEST_F(HandleHelpersTest, HandleFromInput) {
  ResourceMgr rm;
  ResourceHandleProto given;
  given.set_name("abc");
  auto inv = Invoke(given, &rm);
  ResourceHandleProto handle;
  ASSERT_TRUE(HandleFromInput(context_.get(), 0, &handle).ok());
  EXPECT_EQ(handle.name(), "abc");
  EXPECT_EQ(HandleFromInput(context_.get(), 1, &handle).code(), absl::StatusCode::kInvalidArgument);

  *inv->input(0) = Tensor(DT_RESOURCE, TensorShape({0}));
  absl::Status s = HandleFromInput(context_.get(), 0, &handle);
  EXPECT_EQ(s.message(), "Empty resource handle");
  *inv->input(0) = Tensor(1.0f);
  EXPECT_EQ(HandleFromInput(context_.get(), 0, &handle).code(), absl::StatusCode::kInvalidArgument);
}

TEST_F(HandleHelpersTest, WrongDeviceAndWrongType) {
  ResourceMgr rm;
  auto inv = Invoke(ResourceHandleProto(), &rm);
  ResourceHandleProto handle = MakeResourceHandle<Counter>(context_.get(), "c", "x");
  ASSERT_TRUE(CreateResource(context_.get(), handle, new Counter()).ok());

  Other* other = nullptr;
  absl::Status s = LookupResource(context_.get(), handle, &other);
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(s.message(), "Trying to access resource using the wrong type. Expected " +
                             std::string(typeid(Counter).name()) + " got " + typeid(Other).name());

  ResourceHandleProto elsewhere = handle;
  elsewhere.set_device("/job:localhost/replica:0/task:0/device:GPU:0");
  Counter* found = nullptr;
  s = LookupResource(context_.get(), elsewhere, &found);
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(s.message(),
            "Trying to access resource x located in device "
            "/job:localhost/replica:0/task:0/device:GPU:0 from device "
            "/job:localhost/replica:0/task:0/device:CPU:0");
  EXPECT_EQ(DeleteResource(context_.get(), elsewhere).code(), absl::StatusCode::kInvalidArgument);
  // A failed CreateResource still takes the reference it was given.
  EXPECT_EQ(CreateResource(context_.get(), elsewhere, new Counter()).code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(Counter::live, 1);
}

TEST_F(HandleHelpersTest, NoResourceManagerIsInternal) {
  auto inv = Invoke(ResourceHandleProto(), nullptr);
  ResourceHandleProto handle = MakeResourceHandle<Counter>(context_.get(), "c", "x");
  Counter* found = nullptr;
  EXPECT_EQ(LookupResource(context_.get(), handle, &found).code(), absl::StatusCode::kInternal);
  EXPECT_EQ(CreateResource(context_.get(), handle, new Counter()).code(),
            absl::StatusCode::kInternal);
  EXPECT_EQ(Counter::live, 0);
}

// ---- Var ---------------------------------------------------------------------------------

TEST(VarTest, StartsUninitializedWithTheSentinel) {
  Var* var = new Var(DT_FLOAT);
  {
    absl::MutexLock lock(var->mu());
    EXPECT_FALSE(var->is_initialized);
    EXPECT_EQ(var->dtype(), DT_FLOAT);
    EXPECT_FALSE(IsInitializedRef(*var->tensor()));
    EXPECT_EQ(var->tensor()->dtype(), DT_FLOAT);
    var->SetValue(test::MakeTensor<float>(TensorShape({2}), {1, 2}));
    EXPECT_TRUE(var->is_initialized);
    EXPECT_TRUE(IsInitializedRef(*var->tensor()));
  }
  EXPECT_EQ(var->DebugString(), "float/[2]");
  var->Unref();
}

TEST(VarTest, SentinelPerDtype) {
  EXPECT_FALSE(IsInitializedRef(UninitializedRefTensor(DT_STRING)));
  EXPECT_FALSE(IsInitializedRef(UninitializedRefTensor(DT_INT64)));
  EXPECT_TRUE(IsInitializedRef(Tensor(int64_t{0})));
  EXPECT_TRUE(IsInitializedRef(Tensor(DT_FLOAT, TensorShape({0}))));
  // Dtypes a Tensor cannot hold are uninitialized through DT_INVALID.
  EXPECT_EQ(UninitializedRefTensor(DT_FLOAT8_E5M2).dtype(), DT_INVALID);
  EXPECT_FALSE(IsInitializedRef(UninitializedRefTensor(DT_FLOAT8_E5M2)));
  EXPECT_FALSE(IsInitializedRef(UninitializedRefTensor(DT_VARIANT)));
}

TEST(VarTest, ReadRefInput) {
  Var* var = new Var(DT_INT32);
  NodeDef node = test::MakeNodeDef("read", "Identity", {"v"});
  TensorValue ref(var->mu(), var->tensor());
  Tensor value;
  absl::Status s = ReadRefInput(node, 0, ref, &value);
  EXPECT_EQ(s.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(std::string(s.message()), HasSubstr("Attempting to use uninitialized value v"));
  EXPECT_THAT(std::string(s.message()), HasSubstr("{{node read}}"));
  {
    absl::MutexLock lock(var->mu());
    var->SetValue(Tensor(int32_t{5}));
  }
  ASSERT_TRUE(ReadRefInput(node, 0, ref, &value).ok());
  EXPECT_EQ(value.scalar<int32_t>()(), 5);
  var->Unref();
}

}  // namespace
}  // namespace sluice
