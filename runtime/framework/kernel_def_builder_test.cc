#include "runtime/framework/kernel_def_builder.h"

#include "gmock/gmock.h"
#include "google/protobuf/text_format.h"
#include "google/protobuf/util/message_differencer.h"
#include "gtest/gtest.h"
#include "proto/kernel_def.pb.h"

namespace sluice {
namespace {

using ::testing::HasSubstr;

KernelDef ParseKernelDef(const char* text) {
  KernelDef def;
  EXPECT_TRUE(google::protobuf::TextFormat::ParseFromString(text, &def)) << text;
  return def;
}

void ExpectKernelDef(const KernelDefBuilder& builder, const char* expected) {
  EXPECT_TRUE(builder.status().ok()) << builder.status();
  EXPECT_TRUE(google::protobuf::util::MessageDifferencer::Equals(builder.kernel_def(),
                                                                 ParseKernelDef(expected)))
      << builder.kernel_def().DebugString();
}

TEST(KernelDefBuilderTest, OpAndDevice) {
  KernelDefBuilder builder("Identity");
  builder.Device("CPU");
  ExpectKernelDef(builder, "op: 'Identity' device_type: 'CPU'");
}

TEST(KernelDefBuilderTest, TypeConstraints) {
  KernelDefBuilder builder("Cast");
  builder.Device("GPU")
      .TypeConstraint<float>("SrcT")
      .TypeConstraint("DstT", {DT_INT32, DT_INT64})
      .TypeConstraint("Extra", DT_BOOL);
  ExpectKernelDef(builder, R"pb(
    op: 'Cast'
    device_type: 'GPU'
    constraint {
      name: 'SrcT'
      allowed_values { list { type: DT_FLOAT } }
    }
    constraint {
      name: 'DstT'
      allowed_values { list { type: [ DT_INT32, DT_INT64 ] } }
    }
    constraint {
      name: 'Extra'
      allowed_values { list { type: DT_BOOL } }
    }
  )pb");
}

TEST(KernelDefBuilderTest, HostMemoryLabelPriority) {
  KernelDefBuilder builder("Reshape");
  builder.Device("CPU").HostMemory("shape").HostMemory("output").Label("fast").Priority(3);
  ExpectKernelDef(builder, R"pb(
    op: 'Reshape'
    device_type: 'CPU'
    host_memory_arg: [ 'shape', 'output' ]
    label: 'fast'
    priority: 3
  )pb");
}

TEST(KernelDefBuilderTest, LabelTwiceIsAnError) {
  KernelDefBuilder builder("Foo");
  builder.Device("CPU").Label("a").Label("b");
  EXPECT_EQ(builder.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(builder.status().message(), HasSubstr("Label() called twice ('a' then 'b')"));
  EXPECT_EQ(builder.kernel_def().label(), "a");
}

TEST(KernelDefBuilderTest, EmptyTypeConstraintIsAnError) {
  KernelDefBuilder builder("Foo");
  builder.Device("CPU").TypeConstraint("T", absl::Span<const DataType>());
  EXPECT_EQ(builder.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(builder.status().message(), HasSubstr("attr 'T' allows no types"));
  EXPECT_EQ(builder.kernel_def().constraint_size(), 0);
}

TEST(KernelDefBuilderTest, KeepsTheFirstError) {
  KernelDefBuilder builder("Foo");
  builder.TypeConstraint("T", absl::Span<const DataType>()).Label("a").Label("b");
  EXPECT_THAT(builder.status().message(), HasSubstr("allows no types"));
}

}  // namespace
}  // namespace sluice
