#include "tools/cli/capture.h"

#include <filesystem>
#include <limits>
#include <utility>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "graph/core/errors.h"
#include "graph/core/tensor_proto.h"
#include "graph/import/graph_def_io.h"
#include "proto/summary.pb.h"
#include "tools/cli/json_writer.h"

namespace sluice {
namespace cli {
namespace {

constexpr char kPluginName[] = "sluice.capture";

// Call-frame and transfer nodes carry feeds and fetches under internal names.
bool IsPlumbing(const Node& node) {
  const std::string& op = node.type_string();
  return op == "_Arg" || op == "_Retval" || op == "_Send" || op == "_Recv" || op == "_HostSend" ||
         op == "_HostRecv" || op == "_DeviceArg" || op == "_DeviceRetval";
}

std::string PluginContent(const Node& node, int output) {
  JsonWriter json;
  json.BeginObject()
      .Key("node")
      .String(node.name())
      .Key("op")
      .String(node.type_string())
      .Key("output")
      .Int(output)
      .EndObject();
  std::string text = json.str();
  if (!text.empty() && text.back() == '\n') text.pop_back();
  return text;
}

}  // namespace

absl::StatusOr<std::unique_ptr<TensorCapture>> TensorCapture::Create(
    const CaptureOptions& options) {
  if (options.every < 1) {
    return errors::InvalidArgument("--capture-every must be at least 1, got ", options.every);
  }
  std::unique_ptr<RE2> nodes;
  if (!options.nodes.empty()) {
    RE2::Options re2_options;
    re2_options.set_log_errors(false);
    nodes = std::make_unique<RE2>(options.nodes, re2_options);
    if (!nodes->ok()) {
      return errors::InvalidArgument("--capture-nodes: '", options.nodes,
                                     "' is not a regular expression: ", nodes->error());
    }
  }
  absl::StatusOr<std::unique_ptr<EventWriter>> writer = EventWriter::Create(options.dir);
  if (!writer.ok()) return errors::PrependToMessage(writer.status(), "--capture: ");
  return std::unique_ptr<TensorCapture>(
      new TensorCapture(options, *std::move(writer), std::move(nodes)));
}

TensorCapture::TensorCapture(const CaptureOptions& options, std::unique_ptr<EventWriter> writer,
                             std::unique_ptr<RE2> nodes)
    : options_(options), nodes_(std::move(nodes)), writer_(std::move(writer)) {}

void TensorCapture::BeginStep(int64_t step) {
  absl::MutexLock lock(&mu_);
  step_ = step;
  recording_ = step % options_.every == 0;
  if (recording_) steps_.push_back(step);
}

bool TensorCapture::Wanted(const Node& node) {
  auto [it, added] = wanted_.try_emplace(node.name(), false);
  if (added) {
    it->second =
        !IsPlumbing(node) && (nodes_ == nullptr || RE2::PartialMatch(node.name(), *nodes_));
  }
  return it->second;
}

absl::Status TensorCapture::OnOutput(const Node& node, int output, const Tensor& value) {
  if (value.dtype() == DT_RESOURCE || value.dtype() == DT_VARIANT) return absl::OkStatus();
  {
    absl::MutexLock lock(&mu_);
    if (!recording_ || !Wanted(node)) return absl::OkStatus();
  }
  // The costly parts run outside the lock: statistics and serialisation.
  TensorStatistics stats = ComputeTensorStatistics(value);
  Summary summary;
  Summary::Value* entry = summary.add_value();
  const std::string tag = absl::StrCat(node.name(), ":", output);
  entry->set_tag(tag);
  SummaryMetadata::PluginData* plugin = entry->mutable_metadata()->mutable_plugin_data();
  plugin->set_plugin_name(kPluginName);
  plugin->set_content(PluginContent(node, output));
  TensorToProtoContent(value, entry->mutable_tensor());

  absl::MutexLock lock(&mu_);
  RETURN_IF_ERROR(writer_->WriteSummary(step_, summary));
  auto [it, added] = by_tag_.try_emplace(tag, recorded_.size());
  if (added) {
    Recorded fresh;
    fresh.tag = tag;
    fresh.node = node.name();
    fresh.op = node.type_string();
    fresh.output = output;
    fresh.dtype = value.dtype();
    recorded_.push_back(std::move(fresh));
  }
  recorded_[it->second].steps.push_back({step_, std::move(stats)});
  ++values_;
  return absl::OkStatus();
}

absl::Status TensorCapture::EndStep() {
  absl::MutexLock lock(&mu_);
  return writer_->Flush();
}

std::string TensorCapture::IndexJson() const {
  JsonWriter json;
  json.BeginObject();
  json.Key("event_file").String(std::filesystem::path(writer_->path()).filename().string());
  json.Key("steps").BeginArray();
  for (int64_t step : steps_) json.Int(step);
  json.EndArray();
  json.Key("tensors").BeginArray();
  for (const Recorded& r : recorded_) {
    json.BeginObject();
    json.Key("tag").String(r.tag);
    json.Key("node").String(r.node);
    json.Key("op").String(r.op);
    json.Key("output").Int(r.output);
    json.Key("dtype").String(DataTypeString(r.dtype));
    json.Key("steps").BeginArray();
    for (const StepStatistics& s : r.steps) {
      json.BeginObject();
      json.Key("step").Int(s.step);
      json.Key("shape").BeginArray();
      for (int64_t d : s.stats.shape.dim_sizes()) json.Int(d);
      json.EndArray();
      json.Key("elements").Int(s.stats.elements);
      if (s.stats.has_values) {
        const bool any = s.stats.finite > 0;
        const double none = std::numeric_limits<double>::quiet_NaN();  // written as null
        json.Key("min").Double(any ? s.stats.min : none);
        json.Key("max").Double(any ? s.stats.max : none);
        json.Key("mean").Double(any ? s.stats.mean : none);
        json.Key("std").Double(any ? s.stats.std : none);
        json.Key("nan").Int(s.stats.nans);
        json.Key("pos_inf").Int(s.stats.positive_infinities);
        json.Key("neg_inf").Int(s.stats.negative_infinities);
        json.Key("zeros").Int(s.stats.zeros);
      }
      json.EndObject();
    }
    json.EndArray();
    json.EndObject();
  }
  json.EndArray();
  json.EndObject();
  return json.str();
}

absl::Status TensorCapture::Finish() {
  absl::MutexLock lock(&mu_);
  RETURN_IF_ERROR(writer_->Close());
  return errors::PrependToMessage(
      WriteStringToFile(absl::StrCat(options_.dir, "/index.json"), IndexJson()), "--capture: ");
}

std::string TensorCapture::event_file() const {
  absl::MutexLock lock(&mu_);
  return writer_->path();
}

int64_t TensorCapture::recorded() const {
  absl::MutexLock lock(&mu_);
  return values_;
}

}  // namespace cli
}  // namespace sluice
