#include "tests/advisories/advisory_case.h"

#include <memory>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "graph/core/partial_tensor_shape.h"
#include "graph/core/tensor_proto.h"
#include "graph/core/tensor_types.h"
#include "gtest/gtest.h"
#include "runtime/device/session_options.h"
#include "runtime/session/session.h"

namespace sluice {
namespace advisories {
namespace {

template <typename T>
void FillZero(Tensor* t) {
  for (int64_t i = 0; i < t->NumElements(); ++i) t->flat<T>()(i) = T();
}

}  // namespace

Tensor Zeros(DataType dtype, const std::vector<int64_t>& dims) {
  Tensor t(dtype, TensorShape(dims));
  switch (dtype) {
    case DT_FLOAT:
      FillZero<float>(&t);
      break;
    case DT_DOUBLE:
      FillZero<double>(&t);
      break;
    case DT_INT32:
      FillZero<int32_t>(&t);
      break;
    case DT_INT64:
      FillZero<int64_t>(&t);
      break;
    case DT_BOOL:
      FillZero<bool>(&t);
      break;
    case DT_COMPLEX64:
      FillZero<complex64>(&t);
      break;
    default:
      break;
  }
  return t;
}

AdvisoryCase& AdvisoryCase::Input(Tensor value) {
  inputs_.push_back({std::move(value)});
  is_list_.push_back(false);
  makers_.emplace_back();
  return *this;
}

AdvisoryCase& AdvisoryCase::InputList(std::vector<Tensor> values) {
  inputs_.push_back(std::move(values));
  is_list_.push_back(true);
  makers_.emplace_back();
  return *this;
}

AdvisoryCase& AdvisoryCase::InputFrom(std::function<std::string(GraphDef*)> make) {
  inputs_.emplace_back();
  is_list_.push_back(false);
  makers_.push_back(std::move(make));
  return *this;
}

AdvisoryCase& AdvisoryCase::FetchThrough(
    std::function<std::string(GraphDef*, const std::string&)> consume) {
  consume_ = std::move(consume);
  return *this;
}

NodeDef* AddNode(GraphDef* graph, const std::string& name, const std::string& op,
                 const std::vector<std::string>& inputs) {
  NodeDef* node = graph->add_node();
  node->set_name(name);
  node->set_op(op);
  for (const std::string& input : inputs) node->add_input(input);
  return node;
}

NodeDef* AddConst(GraphDef* graph, const std::string& name, const Tensor& value) {
  NodeDef* node = AddNode(graph, name, "Const", {});
  TensorProto proto;
  TensorToProtoContent(value, &proto);
  AddNodeAttr("dtype", value.dtype(), node);
  AddNodeAttr("value", proto, node);
  return node;
}

namespace {

// The name of input `i` (element `j` of a list input).
std::string InputName(size_t i, size_t j, bool is_list) {
  return is_list ? absl::StrCat("in", i, "_", j) : absl::StrCat("in", i);
}

}  // namespace

GraphDef AdvisoryCase::Graph(Feed feed) const {
  GraphDef graph;
  std::vector<std::string> names;
  for (size_t i = 0; i < inputs_.size(); ++i) {
    if (makers_[i]) {
      names.push_back(makers_[i](&graph));
      continue;
    }
    for (size_t j = 0; j < inputs_[i].size(); ++j) {
      const Tensor& value = inputs_[i][j];
      const std::string name = InputName(i, j, is_list_[i]);
      if (feed == Feed::kConst) {
        AddConst(&graph, name, value);
      } else {
        NodeDef* node = AddNode(&graph, name, "Placeholder", {});
        AddNodeAttr("dtype", value.dtype(), node);
        AddNodeAttr("shape", PartialTensorShape(), node);
      }
      names.push_back(name);
    }
  }
  NodeDef* op = AddNode(&graph, "op", op_, names);
  for (const auto& attr : attrs_) attr(op);
  return graph;
}

absl::Status AdvisoryCase::Run(Feed feed, std::vector<Tensor>* outputs, int output) const {
  std::vector<std::pair<std::string, Tensor>> feeds;
  if (feed == Feed::kPlaceholder) {
    for (size_t i = 0; i < inputs_.size(); ++i) {
      for (size_t j = 0; j < inputs_[i].size(); ++j) {
        feeds.emplace_back(InputName(i, j, is_list_[i]), inputs_[i][j]);
      }
    }
  }
  GraphDef graph = Graph(feed);
  std::string fetch = absl::StrCat("op:", output);
  if (consume_) fetch = consume_(&graph, fetch);
  return CreateAndRun(graph, feeds, {fetch}, outputs);
}

void ExpectFailsBothWays(const AdvisoryCase& c, absl::StatusCode code, const std::string& message) {
  for (Feed feed : {Feed::kConst, Feed::kPlaceholder}) {
    const absl::Status s = c.Run(feed);
    const char* how = feed == Feed::kConst ? "Const inputs: " : "fed inputs: ";
    EXPECT_EQ(s.code(), code) << how << s;
    if (!message.empty()) {
      EXPECT_THAT(std::string(s.message()), ::testing::HasSubstr(message)) << how << s;
    }
  }
}

absl::Status CreateAndRun(const GraphDef& graph,
                          const std::vector<std::pair<std::string, Tensor>>& feeds,
                          const std::vector<std::string>& fetches, std::vector<Tensor>* outputs) {
  std::unique_ptr<Session> session;
  absl::Status s = NewSession(SessionOptions(), &session);
  if (!s.ok()) return s;
  s = session->Create(graph);
  if (!s.ok()) return s;
  std::vector<Tensor> local;
  return session->Run(feeds, fetches, {}, outputs != nullptr ? outputs : &local);
}

}  // namespace advisories
}  // namespace sluice
