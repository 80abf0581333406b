// Advisories of the resource-variable ops ResourceGather, ResourceScatterUpdate and
// ResourceScatterDiv. Each case assigns the variable first, in the same run (the op waits on the
// assignment through a control input); for the scatter ops, which output nothing, the variable's
// value after the op is fetched. Expectations are TensorFlow 2.21's, from
// check_with_tensorflow.py (on_variable).
#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "gtest/gtest.h"
#include "tests/advisories/advisory_case.h"

namespace sluice {
namespace advisories {
namespace {

constexpr absl::StatusCode kInvalid = absl::StatusCode::kInvalidArgument;

// A case of `op` whose first input is a resource variable holding `init`: the variable, its
// initial value and the assignment are made by the graph; the op runs after the assignment.
// For an op without outputs (`reads_back`), the variable is read after the op and fetched.
AdvisoryCase OnVariable(const std::string& op, const Tensor& init, bool reads_back) {
  const DataType dtype = init.dtype();
  AdvisoryCase c(op);
  c.InputFrom([init, dtype](GraphDef* graph) {
    NodeDef* var = AddNode(graph, "var", "VarHandleOp", {});
    AddNodeAttr("dtype", dtype, var);
    AddNodeAttr("shape", init.shape(), var);
    AddNodeAttr("shared_name", std::string("v"), var);
    AddConst(graph, "init", init);
    AddNodeAttr("dtype", dtype, AddNode(graph, "assign", "AssignVariableOp", {"var", "init"}));
    return std::string("var");
  });
  c.FetchThrough([dtype, reads_back](GraphDef* graph, const std::string& output) {
    for (NodeDef& node : *graph->mutable_node()) {
      if (node.name() == "op") node.add_input("^assign");
    }
    if (!reads_back) return output;
    AddNodeAttr("dtype", dtype, AddNode(graph, "read", "ReadVariableOp", {"var", "^op"}));
    return std::string("read:0");
  });
  return c;
}

TEST(Advisories, Tfsa2021_127_ResourceGatherBatchDimsOfEmptyVariable) {
  // batch_dims 1 over a [0, 1] variable divided by a batch size of 0. TensorFlow's
  // ResourceGather reports that batch size; Sluice's (GatherV2's checks) reports the batch
  // dimension first: params.shape[0] of 0 against indices.shape[0] of 1.
  AdvisoryCase c = OnVariable("ResourceGather", Zeros(DT_UINT32, {0, 1}), false);
  c.Input(Values<int32_t>({0}));
  c.Attr("dtype", DT_UINT32).Attr("Tindices", DT_INT32).Attr("batch_dims", int64_t{1});
  ExpectFailsBothWays(c, kInvalid);
}

TEST(Advisories, Tfsa2021_128_ResourceGatherBatchDimsBeyondRank) {
  // batch_dims 10 on a rank-2 variable read dimensions it does not have.
  AdvisoryCase c =
      OnVariable("ResourceGather", Values<uint32_t>({1, 2, 3, 4, 5, 6}, {3, 2}), false);
  c.Input(Values<int32_t>({0}));
  c.Attr("dtype", DT_UINT32).Attr("Tindices", DT_INT32).Attr("batch_dims", int64_t{10});
  ExpectFailsBothWays(c, kInvalid);
}

TEST(Advisories, Tfsa2021_129_ResourceScatterUpdateMoreUpdatesThanIndices) {
  // Five updates for one index passed a divisibility check and were read past the variable.
  AdvisoryCase c = OnVariable("ResourceScatterUpdate", Values<std::string>({"vvv"}), true);
  c.Input(Values<int32_t>({0})).Input(Values<std::string>({"1", "2", "3", "4", "5"}));
  c.Attr("dtype", DT_STRING).Attr("Tindices", DT_INT32);
  ExpectFailsBothWays(c, kInvalid);
}

TEST(Advisories, Tfsa2021_115_ResourceScatterDivIntegerByZero) {
  // An integer update of 0 divided by zero.
  AdvisoryCase c = OnVariable("ResourceScatterDiv", Values<int32_t>({1, 2, 3}), true);
  c.Input(Values<int32_t>({1})).Input(Values<int32_t>({0}));
  c.Attr("dtype", DT_INT32).Attr("Tindices", DT_INT32);
  ExpectFailsBothWays(c, kInvalid, "updates must not contain 0");
}

}  // namespace
}  // namespace advisories
}  // namespace sluice
