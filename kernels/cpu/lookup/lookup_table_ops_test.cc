// What the recorded graphs (tests/lookup/) cannot show: cases where TensorFlow's own kernel
// crashes, and the table resources themselves.
#include <string>
#include <vector>

#include "graph/core/tensor.h"
#include "graph/core/types.h"
#include "gtest/gtest.h"
#include "kernels/cpu/lookup/dense_hash_table.h"
#include "kernels/cpu/lookup/lookup_table.h"
#include "kernels/kernel_test_util.h"
#include "runtime/framework/op_kernel_test_util.h"

namespace sluice {
namespace lookup {
namespace {

using test::KernelTest;
using test::MakeTensor;
using test::Values;

class LookupTableOpsTest : public KernelTest {
 protected:
  // Runs HashTableV2 (string -> int64, shared name "t") and returns its handle.
  Tensor MakeHashTable() {
    EXPECT_TRUE(InitOp(test::NodeDefBuilder("table", "HashTableV2")
                           .Attr("key_dtype", DT_STRING)
                           .Attr("value_dtype", DT_INT64)
                           .Attr("shared_name", std::string("t"))
                           .Build())
                    .ok());
    EXPECT_TRUE(RunOpKernel().ok());
    return *GetOutput(0);
  }

  absl::Status Initialize(const Tensor& handle, const std::vector<std::string>& keys,
                          const std::vector<int64_t>& values) {
    EXPECT_TRUE(InitOp(test::NodeDefBuilder("init", "InitializeTableV2")
                           .Input("table")
                           .Input("keys")
                           .Input("values")
                           .Attr("Tkey", DT_STRING)
                           .Attr("Tval", DT_INT64)
                           .Build())
                    .ok());
    AddInput(handle);
    AddInputFromArray<std::string>(TensorShape({static_cast<int64_t>(keys.size())}), keys);
    AddInputFromArray<int64_t>(TensorShape({static_cast<int64_t>(values.size())}), values);
    return RunOpKernel();
  }

  absl::Status Find(const Tensor& handle, const Tensor& keys, const Tensor& default_value) {
    EXPECT_TRUE(InitOp(test::NodeDefBuilder("find", "LookupTableFindV2")
                           .Input("table")
                           .Input("keys")
                           .Input("default")
                           .Attr("Tin", keys.dtype())
                           .Attr("Tout", default_value.dtype())
                           .Build())
                    .ok());
    AddInput(handle);
    AddInput(keys);
    AddInput(default_value);
    return RunOpKernel();
  }
};

// TensorFlow's HashTable reads the default's first element even when there are no keys, and
// with an empty default (of the output's size) the process dies; Sluice returns no values.
TEST_F(LookupTableOpsTest, NoKeysWithAnEmptyDefaultFindNothing) {
  const Tensor handle = MakeHashTable();
  ASSERT_TRUE(Initialize(handle, {"a", "b"}, {1, 2}).ok());
  ASSERT_TRUE(Find(handle, MakeTensor<std::string>(TensorShape({0}), {}),
                   MakeTensor<int64_t>(TensorShape({0}), {}))
                  .ok());
  EXPECT_EQ(GetOutput(0)->shape(), TensorShape({0}));
  ASSERT_TRUE(Find(handle, MakeTensor<std::string>(TensorShape({2}), {"b", "z"}),
                   MakeTensor<int64_t>(TensorShape({}), {-1}))
                  .ok());
  EXPECT_EQ(Values<int64_t>(*GetOutput(0)), (std::vector<int64_t>{2, -1}));
}

// The table lives in the session's resources under the shared name, and one table op's
// runs all return the same handle.
TEST_F(LookupTableOpsTest, TheTableIsAResourceOfItsSharedName) {
  const Tensor handle = MakeHashTable();
  EXPECT_EQ(handle.flat<ResourceHandleProto>()(0).name(), "t");
  ASSERT_TRUE(Initialize(handle, {"a"}, {7}).ok());
  LookupTable* table = nullptr;
  ASSERT_TRUE(resource_manager()->Lookup<LookupTable>("localhost", "t", &table).ok());
  EXPECT_EQ(table->size(), 1);
  EXPECT_EQ(table->key_dtype(), DT_STRING);
  table->Unref();
}

// A handle to something else than a table (a variable's) is refused by type.
TEST_F(LookupTableOpsTest, AVariableHandleIsNotATable) {
  ASSERT_TRUE(InitOp(test::NodeDefBuilder("size", "LookupTableSizeV2").Input("t").Build()).ok());
  AddInput(Tensor(MakeHandle("localhost", "v", ResourceTypeIndex::Make<ResourceBase>())));
  const absl::Status s = RunOpKernel();
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << s;
}

// TensorFlow's Hash64 of strings (the dense table's bucket layouts in tests/lookup check it
// end to end): the empty string is the seed mixed alone, and each length class (a tail
// only, one block, a block and a tail) hashes differently from its neighbours.
TEST(TfHash64Test, LengthClassesDiffer) {
  const uint64_t empty = TfHash64("");
  EXPECT_NE(empty, TfHash64(std::string(1, '\0')));
  EXPECT_NE(TfHash64("abcdefg"), TfHash64("abcdefgh"));
  EXPECT_NE(TfHash64("abcdefgh"), TfHash64("abcdefghi"));
  EXPECT_EQ(TfHash64("k1"), TfHash64(std::string("k1")));
  EXPECT_EQ(TfHash64Combine(0, 0), 0x9e3779b97f4a7800ULL);
}

}  // namespace
}  // namespace lookup
}  // namespace sluice
