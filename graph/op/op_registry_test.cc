#include "graph/op/op_registry.h"

#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace sluice {

// Static registrations, as op libraries write them.
REGISTER_OP("RegistryTestStaticOp")
    .Input("x: T")
    .Output("y: T")
    .Attr("T: {float, int32} = DT_FLOAT")
    .SetShapeFn([](shape_inference::InferenceContext*) {
      return absl::UnimplementedError("static shape fn");
    });

REGISTER_OP("RegistryTestBadOp").Attr("bogus");

REGISTER_OP("RegistryTestStaticOp").Output("z: float");  // a duplicate: kept as an error

namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

TEST(RegisterOpMacroTest, RegistersIntoGlobal) {
  const OpRegistrationData* data = nullptr;
  ASSERT_TRUE(OpRegistry::Global()->LookUp("RegistryTestStaticOp", &data).ok());
  EXPECT_EQ(data->op_def.input_arg(0).type_attr(), "T");
  EXPECT_EQ(data->op_def.attr(0).default_value().type(), DT_FLOAT);
  ASSERT_NE(data->shape_inference_fn, nullptr);
  EXPECT_EQ(data->shape_inference_fn(nullptr).message(), "static shape fn");
}

TEST(RegisterOpMacroTest, FailuresAreKeptNotFatal) {
  const OpDef* op_def = nullptr;
  EXPECT_EQ(OpRegistry::Global()->LookUpOpDef("RegistryTestBadOp", &op_def).code(),
            absl::StatusCode::kNotFound);
  std::vector<std::string> messages;
  for (const absl::Status& s : OpRegistry::Global()->registration_errors()) {
    messages.push_back(absl::StrCat(absl::StatusCodeToString(s.code()), ": ", s.message()));
  }
  EXPECT_THAT(messages,
              ElementsAre("INVALID_ARGUMENT: Trouble parsing '<name>:' from Attr(\"bogus\") for "
                          "Op RegistryTestBadOp",
                          "ALREADY_EXISTS: Op with name RegistryTestStaticOp"));
}

OpDefBuilder Unary(const std::string& name) {
  return std::move(OpDefBuilder(name).Input("x: T").Output("y: T").Attr("T: type"));
}

TEST(OpRegistryTest, RegisterAndLookUp) {
  OpRegistry registry;
  ASSERT_TRUE(registry.Register(Unary("Foo")).ok());
  const OpRegistrationData* data = nullptr;
  ASSERT_TRUE(registry.LookUp("Foo", &data).ok());
  EXPECT_EQ(data->op_def.name(), "Foo");
  const OpDef* op_def = nullptr;
  ASSERT_TRUE(registry.LookUpOpDef("Foo", &op_def).ok());
  EXPECT_EQ(op_def, &data->op_def);
}

TEST(OpRegistryTest, NotFound) {
  OpRegistry registry;
  const OpRegistrationData* data = reinterpret_cast<const OpRegistrationData*>(&registry);
  const absl::Status s = registry.LookUp("Missing", &data);
  EXPECT_EQ(s.code(), absl::StatusCode::kNotFound);
  EXPECT_EQ(s.message(),
            "Op type not registered 'Missing' in binary running on this host. Make sure the Op "
            "and Kernel are registered in the binary running in this process.");
  EXPECT_EQ(data, nullptr);
  const OpDef* op_def = reinterpret_cast<const OpDef*>(&registry);
  EXPECT_EQ(registry.LookUpOpDef("Missing", &op_def).code(), absl::StatusCode::kNotFound);
  EXPECT_EQ(op_def, nullptr);
}

TEST(OpRegistryTest, Duplicate) {
  OpRegistry registry;
  ASSERT_TRUE(registry.Register(Unary("Foo")).ok());
  const absl::Status s = registry.Register(OpDefBuilder("Foo").Output("z: float"));
  EXPECT_EQ(s.code(), absl::StatusCode::kAlreadyExists);
  EXPECT_EQ(s.message(), "Op with name Foo");
  const OpDef* op_def = nullptr;
  ASSERT_TRUE(registry.LookUpOpDef("Foo", &op_def).ok());
  EXPECT_EQ(op_def->output_arg(0).name(), "y");  // the first registration stays
}

TEST(OpRegistryTest, MalformedSpecIsNotAdded) {
  OpRegistry registry;
  const absl::Status s = registry.Register(OpDefBuilder("Bad").Input("x: U"));
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(s.message(), "Reference to unknown attr 'U' from Input(\"x: U\") for Op Bad");
  EXPECT_TRUE(registry.ListOpNames().empty());
  EXPECT_TRUE(registry.registration_errors().empty());  // only static registrations are kept
}

TEST(OpRegistryTest, RegisterDataValidates) {
  OpRegistry registry;
  OpRegistrationData data;
  data.op_def.set_name("lowercase");
  const absl::Status s = registry.Register(data);
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(s.message()), HasSubstr("Invalid name: lowercase"));

  data.op_def.set_name("Good");
  data.shape_inference_fn = [](shape_inference::InferenceContext*) { return absl::OkStatus(); };
  ASSERT_TRUE(registry.Register(data).ok());
  const OpRegistrationData* found = nullptr;
  ASSERT_TRUE(registry.LookUp("Good", &found).ok());
  EXPECT_NE(found->shape_inference_fn, nullptr);
}

TEST(OpRegistryTest, ExportAndListAreSorted) {
  OpRegistry registry;
  for (const char* name : {"Zeta", "_Hidden", "Alpha", "Mid"}) {
    ASSERT_TRUE(registry.Register(Unary(name)).ok()) << name;
  }
  EXPECT_THAT(registry.ListOpNames(), ElementsAre("Alpha", "Mid", "Zeta", "_Hidden"));

  OpList ops;
  ops.add_op()->set_name("Stale");
  registry.Export(false, &ops);
  std::vector<std::string> names;
  for (const OpDef& op : ops.op()) names.push_back(op.name());
  EXPECT_THAT(names, ElementsAre("Alpha", "Mid", "Zeta"));

  registry.Export(true, &ops);
  names.clear();
  for (const OpDef& op : ops.op()) names.push_back(op.name());
  EXPECT_THAT(names, ElementsAre("Alpha", "Mid", "Zeta", "_Hidden"));
  EXPECT_EQ(ops.op(0).input_arg(0).type_attr(), "T");
}

TEST(OpRegistryTest, WatcherSeesEveryAttempt) {
  OpRegistry registry;
  std::vector<std::string> seen;
  ASSERT_TRUE(registry
                  .SetWatcher([&seen](const absl::Status& s, const OpDef& op_def) {
                    seen.push_back(
                        absl::StrCat(op_def.name(), ":", absl::StatusCodeToString(s.code())));
                  })
                  .ok());
  EXPECT_TRUE(registry.Register(Unary("One")).ok());
  EXPECT_FALSE(registry.Register(Unary("One")).ok());
  EXPECT_FALSE(registry.Register(OpDefBuilder("Two").Attr("x")).ok());
  EXPECT_THAT(seen, ElementsAre("One:OK", "One:ALREADY_EXISTS", "Two:INVALID_ARGUMENT"));

  const absl::Status again = registry.SetWatcher([](const absl::Status&, const OpDef&) {});
  EXPECT_EQ(again.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(again.message(), "Cannot over-write a valid watcher with another.");

  ASSERT_TRUE(registry.SetWatcher(nullptr).ok());
  EXPECT_TRUE(registry.Register(Unary("Three")).ok());
  EXPECT_EQ(seen.size(), 3u);
  EXPECT_TRUE(registry.SetWatcher([](const absl::Status&, const OpDef&) {}).ok());
}

TEST(OpRegistryTest, WatcherMayCallBackIntoTheRegistry) {
  OpRegistry registry;
  bool found = false;
  ASSERT_TRUE(registry
                  .SetWatcher([&](const absl::Status&, const OpDef& op_def) {
                    const OpDef* registered = nullptr;
                    found = registry.LookUpOpDef(op_def.name(), &registered).ok();
                  })
                  .ok());
  ASSERT_TRUE(registry.Register(Unary("Reentrant")).ok());
  EXPECT_TRUE(found);
}

TEST(OpRegistryTest, StaticStyleFailuresGoToWatcherInsteadOfErrors) {
  OpRegistry registry;
  int watched_failures = 0;
  ASSERT_TRUE(registry
                  .SetWatcher([&](const absl::Status& s, const OpDef&) {
                    if (!s.ok()) ++watched_failures;
                  })
                  .ok());
  registry.RegisterFromStaticInitializer(OpDefBuilder("Broken").Attr("x"));
  EXPECT_EQ(watched_failures, 1);
  EXPECT_TRUE(registry.registration_errors().empty());

  ASSERT_TRUE(registry.SetWatcher(nullptr).ok());
  registry.RegisterFromStaticInitializer(OpDefBuilder("Broken").Attr("x"));
  registry.RegisterFromStaticInitializer(Unary("Fine"));
  ASSERT_EQ(registry.registration_errors().size(), 1u);
  EXPECT_EQ(registry.registration_errors()[0].code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(registry.ListOpNames(), ElementsAre("Fine"));
}

TEST(OpRegistryTest, ConcurrentRegistrationAndLookUp) {
  OpRegistry registry;
  constexpr int kThreads = 8;
  constexpr int kOpsPerThread = 50;
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&registry, t] {
      for (int i = 0; i < kOpsPerThread; ++i) {
        const std::string name = absl::StrCat("Op", t, "x", i);
        EXPECT_TRUE(registry.Register(Unary(name)).ok());
        const OpDef* op_def = nullptr;
        EXPECT_TRUE(registry.LookUpOpDef(name, &op_def).ok());
        // Every thread also races to register one shared name; exactly one wins.
        registry.Register(Unary("Shared")).IgnoreError();
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  EXPECT_EQ(registry.ListOpNames().size(), kThreads * kOpsPerThread + 1u);
}

}  // namespace
}  // namespace sluice
