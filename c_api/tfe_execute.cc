// TFE_Execute (tensorflow/c/eager/c_api.h): checks an eager operation as TensorFlow does, then
// runs it through the context's session (see tfe_internal.h for how).
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "c_api/c_api_internal.h"
#include "c_api/tfe_internal.h"
#include "google/protobuf/io/coded_stream.h"
#include "google/protobuf/io/zero_copy_stream_impl_lite.h"
#include "graph/core/errors.h"
#include "graph/core/types.h"
#include "graph/op/graph_def_util.h"
#include "graph/op/node_def_util.h"
#include "graph/op/op_def_util.h"
#include "proto/graph.pb.h"

using sluice::c_api::SetStatus;

namespace sluice {
namespace eager {
namespace {

// Where the nodes the context adds to its session's graph are named from.
constexpr char kNodePrefix[] = "eager_op_";

// The node of `op` as it is checked and run: the undeclared attrs dropped (TensorFlow ignores
// them), defaults added, named after its type as TensorFlow names an eager op's node, which
// error messages show. Its input and output types go to *inputs and *outputs.
absl::Status BuildNode(const TFE_Op& op, NodeDef* node, DataTypeVector* inputs,
                       DataTypeVector* outputs) {
  *node = op.node;
  node->set_name(op.type);
  if (!op.is_function) {
    auto* attrs = node->mutable_attr();
    for (auto it = attrs->begin(); it != attrs->end();) {
      bool declared = it->first.empty() || it->first[0] == '_';
      for (const OpDef::AttrDef& attr : op.op_def.attr()) declared |= attr.name() == it->first;
      it = declared ? std::next(it) : attrs->erase(it);
    }
    AddDefaultsToNodeDef(op.op_def, node);
  }
  // Attr values come first, in ValidateNodeDef's words: TensorFlow reports AddN of no inputs by
  // its N, not by the T nothing could be inferred from.
  for (const OpDef::AttrDef& attr : op.op_def.attr()) {
    auto it = node->attr().find(attr.name());
    if (it != node->attr().end() && !ValidateAttrValue(it->second, attr).ok()) {
      RETURN_IF_ERROR(ValidateNodeDef(*node, op.op_def));
    }
  }
  // An attr that an argument's type or length comes from and that is neither set nor inferred
  // is NOT_FOUND, as TensorFlow reports it.
  const AttrSlice attrs(*node);
  for (const auto* args : {&op.op_def.input_arg(), &op.op_def.output_arg()}) {
    for (const OpDef::ArgDef& arg : *args) {
      for (const std::string* name :
           {&arg.type_attr(), &arg.number_attr(), &arg.type_list_attr()}) {
        const AttrValue* value = nullptr;
        if (!name->empty()) RETURN_IF_ERROR(attrs.Find(*name, &value));
      }
    }
  }
  return InOutTypesForNode(*node, op.op_def, inputs, outputs);
}

absl::Status CheckInputs(const TFE_Op& op, const DataTypeVector& types) {
  if (op.inputs.size() != types.size()) {
    return absl::InvalidArgumentError(
        absl::StrCat("expected ", types.size(), " inputs, got ", op.inputs.size()));
  }
  for (size_t i = 0; i < types.size(); ++i) {
    const DataType given = op.inputs[i]->tensor.dtype();
    if (given != types[i]) {
      return absl::InvalidArgumentError(absl::StrCat(
          "cannot compute ", op.type, " as input #", i, "(zero-based) was expected to be a ",
          DataTypeString(types[i]), " tensor but is a ", DataTypeString(given), " tensor"));
    }
  }
  return absl::OkStatus();
}

// What identifies a prepared operation: the node (type, resolved device, attrs) and whether
// its runs are traced.
std::string PrepareKey(const NodeDef& node, bool traced) {
  std::string key;
  {
    google::protobuf::io::StringOutputStream stream(&key);
    google::protobuf::io::CodedOutputStream coded(&stream);
    coded.SetSerializationDeterministic(true);
    node.SerializeToCodedStream(&coded);
  }
  key.push_back(traced ? 'T' : 'U');
  return key;
}

// Adds `node` with a Placeholder per input to the session's graph, with the context's
// functions the session does not hold yet, and makes the callable that runs it.
absl::Status Prepare(TFE_Context* ctx, const NodeDef& node, const DataTypeVector& input_types,
                     int num_outputs, bool traced, PreparedOp* prepared)
    ABSL_EXCLUSIVE_LOCKS_REQUIRED(ctx->mu) {
  const std::string name = absl::StrCat(kNodePrefix, ctx->next_node++);
  GraphDef graph;
  graph.mutable_versions()->set_producer(kGraphDefVersion);
  graph.mutable_versions()->set_min_consumer(kGraphDefVersionMinConsumer);
  CallableOptions options;
  for (size_t i = 0; i < input_types.size(); ++i) {
    NodeDef* placeholder = graph.add_node();
    placeholder->set_name(absl::StrCat(name, "/input_", i));
    placeholder->set_op("Placeholder");
    AddNodeAttr("dtype", input_types[i], placeholder);
    options.add_feed(absl::StrCat(placeholder->name(), ":0"));
  }
  NodeDef* op_node = graph.add_node();
  *op_node = node;
  op_node->set_name(name);
  op_node->clear_input();
  for (size_t i = 0; i < input_types.size(); ++i) {
    op_node->add_input(absl::StrCat(name, "/input_", i));
  }
  for (int i = 0; i < num_outputs; ++i) options.add_fetch(absl::StrCat(name, ":", i));
  if (num_outputs == 0) options.add_target(name);
  if (traced) options.mutable_run_options()->set_trace_level(RunOptions::FULL_TRACE);

  std::vector<std::pair<std::string, std::string>> sent;
  for (const auto& [function_name, function] : ctx->functions) {
    if (ctx->functions_in_session.count(function_name) > 0) continue;
    *graph.mutable_library()->add_function() = function;
    sent.emplace_back(function_name, function.SerializeAsString());
  }
  RETURN_IF_ERROR(ctx->session->Extend(graph));
  for (auto& [function_name, bytes] : sent) {
    ctx->functions_in_session[function_name] = std::move(bytes);
  }
  RETURN_IF_ERROR(ctx->session->MakeCallable(options, &prepared->callable));
  prepared->device = node.device();
  prepared->num_outputs = num_outputs;
  return absl::OkStatus();
}

// A session error without the " [Op:type]\n\t [[{{node eager_op_N}}]]" the executor adds for
// the internal node, which the caller never named: TensorFlow's eager errors carry neither.
absl::Status WithoutInternalNode(const absl::Status& status, const std::string& type) {
  if (status.ok()) return status;
  std::string message(status.message());
  // The node is attached as "{{node name}}", or by plain name when the message names it already.
  size_t at = message.find(absl::StrCat("\n\t [[{{node ", kNodePrefix));
  if (at == std::string::npos) at = message.find(absl::StrCat("\n\t [[", kNodePrefix));
  if (at != std::string::npos) message.resize(at);
  // Elsewhere in the message the internal node goes by the op's name, as TensorFlow names an
  // eager op's node.
  const std::string internal = absl::StrCat("{{node ", kNodePrefix);
  for (size_t pos = message.find(internal); pos != std::string::npos;
       pos = message.find(internal, pos)) {
    const size_t end = message.find("}}", pos);
    if (end == std::string::npos) break;
    const std::string named = absl::StrCat("{{node ", type, "}}");
    message.replace(pos, end + 2 - pos, named);
    pos += named.size();
  }
  while (!message.empty() && message.back() == '\n') message.pop_back();
  const std::string op_suffix = absl::StrCat(" [Op:", type, "]");
  if (absl::EndsWith(message, op_suffix)) message.resize(message.size() - op_suffix.size());
  return absl::Status(status.code(), message);
}

absl::Status Execute(TFE_Op* op, std::vector<Tensor>* outputs, std::string* device, int capacity) {
  RETURN_IF_ERROR(op->status);
  TFE_Context* ctx = op->ctx;
  NodeDef node;
  DataTypeVector input_types;
  DataTypeVector output_types;
  RETURN_IF_ERROR(BuildNode(*op, &node, &input_types, &output_types));
  RETURN_IF_ERROR(CheckInputs(*op, input_types));
  if (!op->is_function) {
    // Validated as a node with its inputs; Prepare names the real ones.
    for (size_t i = 0; i < input_types.size(); ++i) node.add_input(absl::StrCat("input_", i));
    RETURN_IF_ERROR(ValidateNodeDef(node, op->op_def));
  }
  if (static_cast<int>(output_types.size()) > capacity) {
    return absl::InvalidArgumentError(absl::StrCat("Expecting ", output_types.size(),
                                                   " outputs, but *num_retvals is ", capacity));
  }
  std::string resolved = ctx->host_device;
  if (!node.device().empty()) RETURN_IF_ERROR(ResolveDevice(*ctx, node.device(), &resolved));
  node.set_device(resolved);

  PreparedOp prepared;
  bool traced;
  {
    absl::MutexLock lock(&ctx->mu);
    traced = ctx->run_metadata;
    const std::string key = PrepareKey(node, traced);
    auto it = ctx->prepared.find(key);
    if (it == ctx->prepared.end()) {
      const int num_outputs = static_cast<int>(output_types.size());
      RETURN_IF_ERROR(WithoutInternalNode(
          Prepare(ctx, node, input_types, num_outputs, traced, &prepared), op->type));
      ctx->prepared.emplace(key, prepared);
    } else {
      prepared = it->second;
    }
  }

  std::vector<Tensor> feeds;
  feeds.reserve(op->inputs.size());
  for (const auto& input : op->inputs) feeds.push_back(input->tensor);
  RunMetadata metadata;
  RETURN_IF_ERROR(WithoutInternalNode(
      ctx->session->RunCallable(prepared.callable, feeds, outputs, traced ? &metadata : nullptr),
      op->type));
  if (traced) {
    absl::MutexLock lock(&ctx->mu);
    ctx->metadata.mutable_step_stats()->MergeFrom(metadata.step_stats());
  }
  if (static_cast<int>(outputs->size()) != prepared.num_outputs) {
    return absl::InternalError(absl::StrCat("The session returned ", outputs->size(),
                                            " outputs for ", prepared.num_outputs, " fetches"));
  }
  *device = prepared.device;
  return absl::OkStatus();
}

}  // namespace
}  // namespace eager
}  // namespace sluice

extern "C" {

void TFE_Execute(TFE_Op* op, TFE_TensorHandle** retvals, int* num_retvals, TF_Status* status) {
  if (op == nullptr || num_retvals == nullptr) {
    return SetStatus(status, absl::InvalidArgumentError("TFE_Execute: null op or num_retvals"));
  }
  std::vector<sluice::Tensor> outputs;
  std::string device;
  absl::Status executed = sluice::eager::Execute(op, &outputs, &device, *num_retvals);
  if (executed.ok() && !outputs.empty() && retvals == nullptr) {
    executed = absl::InvalidArgumentError("TFE_Execute: retvals is null");
  }
  if (!executed.ok()) return SetStatus(status, executed);
  for (size_t i = 0; i < outputs.size(); ++i) {
    retvals[i] = sluice::eager::NewHandle(std::move(outputs[i]), device);
  }
  *num_retvals = static_cast<int>(outputs.size());
  SetStatus(status, absl::OkStatus());
}

}  // extern "C"
