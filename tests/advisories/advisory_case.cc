#include "tests/advisories/advisory_case.h"

#include <memory>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "graph/core/partial_tensor_shape.h"
#include "graph/core/tensor_proto.h"
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
  return *this;
}

AdvisoryCase& AdvisoryCase::InputList(std::vector<Tensor> values) {
  inputs_.push_back(std::move(values));
  is_list_.push_back(true);
  return *this;
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
    for (size_t j = 0; j < inputs_[i].size(); ++j) {
      const Tensor& value = inputs_[i][j];
      NodeDef* node = graph.add_node();
      node->set_name(InputName(i, j, is_list_[i]));
      AddNodeAttr("dtype", value.dtype(), node);
      if (feed == Feed::kConst) {
        node->set_op("Const");
        TensorProto proto;
        TensorToProtoContent(value, &proto);
        AddNodeAttr("value", proto, node);
      } else {
        node->set_op("Placeholder");
        AddNodeAttr("shape", PartialTensorShape(), node);
      }
      names.push_back(node->name());
    }
  }
  NodeDef* op = graph.add_node();
  op->set_name("op");
  op->set_op(op_);
  for (const std::string& name : names) op->add_input(name);
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
  return CreateAndRun(Graph(feed), feeds, {absl::StrCat("op:", output)}, outputs);
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
