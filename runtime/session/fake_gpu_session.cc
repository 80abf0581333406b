#include "runtime/session/fake_gpu_session.h"

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "google/protobuf/text_format.h"
#include "gtest/gtest.h"
#include "runtime/device/session_options.h"

namespace sluice {
namespace fake_gpu {

GraphDef ParseGraph(const std::string& text) {
  GraphDef graph;
  EXPECT_TRUE(google::protobuf::TextFormat::ParseFromString(text, &graph)) << text;
  return graph;
}

std::unique_ptr<Session> MakeSession(int num_gpus, bool soft_placement, bool cuda_graphs) {
  SessionOptions options;
  options.cuda_graphs = cuda_graphs;
  (*options.config.mutable_device_count())["GPU"] = num_gpus;
  options.config.set_allow_soft_placement(soft_placement);
  // No constant folding: the test graphs are chains of constants.
  options.config.mutable_graph_options()->mutable_optimizer_options()->set_opt_level(
      OptimizerOptions::L0);
  std::unique_ptr<Session> session;
  absl::Status s = NewSession(options, &session);
  EXPECT_TRUE(s.ok()) << s;
  return session;
}

std::map<std::string, std::string> Placement(const RunMetadata& metadata) {
  std::map<std::string, std::string> placed;
  for (const GraphDef& partition : metadata.partition_graphs()) {
    for (const NodeDef& node : partition.node()) placed[node.name()] = node.device();
  }
  return placed;
}

std::string LoopNode(const std::string& name, const std::string& op,
                     const std::vector<std::string>& inputs, const std::string& type,
                     const std::string& more_attrs) {
  std::string text = absl::StrCat("node { name: '", name, "' op: '", op, "'");
  for (const std::string& input : inputs) absl::StrAppend(&text, " input: '", input, "'");
  if (!type.empty()) absl::StrAppend(&text, " attr { key: 'T' value { type: ", type, " } }");
  return absl::StrCat(text, " ", more_attrs, " }\n");
}

std::string IntConst(const std::string& name, int value) {
  return absl::StrCat("node { name: '", name,
                      "' op: 'Const' attr { key: 'dtype' value { type: DT_INT32 } } "
                      "attr { key: 'value' value { tensor { dtype: DT_INT32 tensor_shape {} "
                      "int_val: ",
                      value, " } } } }\n");
}

std::string IntVector(const std::string& name, const std::vector<int>& values) {
  std::string text = absl::StrCat(
      "node { name: '", name,
      "' op: 'Const' attr { key: 'dtype' value { type: DT_INT32 } } attr { key: 'value' value { "
      "tensor { dtype: DT_INT32 tensor_shape { dim { size: ",
      values.size(), " } }");
  for (int v : values) absl::StrAppend(&text, " int_val: ", v);
  return absl::StrCat(text, " } } } }\n");
}

}  // namespace fake_gpu
}  // namespace sluice
