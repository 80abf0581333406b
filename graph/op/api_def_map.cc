#include "graph/op/api_def_map.h"

#include <algorithm>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/string_view.h"
#include "google/protobuf/io/tokenizer.h"
#include "google/protobuf/text_format.h"
#include "graph/op/multiline_pbtxt.h"

namespace sluice {
namespace {

ApiDef FromOpDef(const OpDef& op) {
  ApiDef api;
  api.set_graph_op_name(op.name());
  api.set_visibility(ApiDef::VISIBLE);
  ApiDef::Endpoint* endpoint = api.add_endpoint();
  endpoint->set_name(op.name());
  if (op.has_deprecation()) endpoint->set_deprecation_version(op.deprecation().version());
  for (const OpDef::ArgDef& in : op.input_arg()) {
    ApiDef::Arg* arg = api.add_in_arg();
    arg->set_name(in.name());
    arg->set_rename_to(in.name());
    arg->set_description(in.description());
    api.add_arg_order(in.name());
  }
  for (const OpDef::ArgDef& out : op.output_arg()) {
    ApiDef::Arg* arg = api.add_out_arg();
    arg->set_name(out.name());
    arg->set_rename_to(out.name());
    arg->set_description(out.description());
  }
  for (const OpDef::AttrDef& op_attr : op.attr()) {
    ApiDef::Attr* attr = api.add_attr();
    attr->set_name(op_attr.name());
    attr->set_rename_to(op_attr.name());
    if (op_attr.has_default_value()) *attr->mutable_default_value() = op_attr.default_value();
    attr->set_description(op_attr.description());
  }
  api.set_summary(op.summary());
  api.set_description(op.description());
  return api;
}

// The entry of `entries` named `name`, or null.
template <typename Entries>
auto* Named(Entries* entries, const std::string& name) {
  auto it = std::find_if(entries->begin(), entries->end(),
                         [&](const auto& candidate) { return candidate.name() == name; });
  return it == entries->end() ? nullptr : &*it;
}

absl::Status UnknownName(const char* what, const std::string& name, const ApiDef& base) {
  return absl::FailedPreconditionError(
      absl::StrCat(what, " ", name, " not defined in base api for ", base.graph_op_name()));
}

void MergeArg(const ApiDef::Arg& update, ApiDef::Arg* base) {
  if (!update.rename_to().empty()) base->set_rename_to(update.rename_to());
  if (!update.description().empty()) base->set_description(update.description());
}

absl::Status MergeArgs(const google::protobuf::RepeatedPtrField<ApiDef::Arg>& updates,
                       google::protobuf::RepeatedPtrField<ApiDef::Arg>* base_args,
                       const ApiDef& base) {
  for (const ApiDef::Arg& update : updates) {
    ApiDef::Arg* arg = Named(base_args, update.name());
    if (arg == nullptr) return UnknownName("Argument", update.name(), base);
    MergeArg(update, arg);
  }
  return absl::OkStatus();
}

absl::Status MergeArgOrder(const ApiDef& update, ApiDef* base) {
  if (update.arg_order_size() == 0) return absl::OkStatus();
  if (update.arg_order_size() != base->arg_order_size()) {
    return absl::FailedPreconditionError(
        absl::StrCat("Invalid number of arguments ", update.arg_order_size(), " for ",
                     base->graph_op_name(), ". Expected: ", base->arg_order_size()));
  }
  if (!std::is_permutation(update.arg_order().begin(), update.arg_order().end(),
                           base->arg_order().begin())) {
    return absl::FailedPreconditionError(absl::StrCat(
        "Invalid arg_order: ", absl::StrJoin(update.arg_order(), ", "), " for ",
        base->graph_op_name(), ". All elements in arg_order override must match base arg_order: ",
        absl::StrJoin(base->arg_order(), ", ")));
  }
  *base->mutable_arg_order() = update.arg_order();
  return absl::OkStatus();
}

// Merges `update` into `base` field by field, in TensorFlow's order (which decides what a
// failing ApiDef leaves merged).
absl::Status Merge(const ApiDef& update, ApiDef* base) {
  if (update.visibility() != ApiDef::DEFAULT_VISIBILITY) base->set_visibility(update.visibility());
  if (update.endpoint_size() > 0) *base->mutable_endpoint() = update.endpoint();
  if (absl::Status s = MergeArgs(update.in_arg(), base->mutable_in_arg(), *base); !s.ok()) {
    return s;
  }
  if (absl::Status s = MergeArgs(update.out_arg(), base->mutable_out_arg(), *base); !s.ok()) {
    return s;
  }
  if (absl::Status s = MergeArgOrder(update, base); !s.ok()) return s;
  for (const ApiDef::Attr& attr_update : update.attr()) {
    ApiDef::Attr* attr = Named(base->mutable_attr(), attr_update.name());
    if (attr == nullptr) return UnknownName("Attribute", attr_update.name(), *base);
    if (!attr_update.rename_to().empty()) attr->set_rename_to(attr_update.rename_to());
    if (attr_update.has_default_value()) {
      *attr->mutable_default_value() = attr_update.default_value();
    }
    if (!attr_update.description().empty()) attr->set_description(attr_update.description());
  }
  if (!update.summary().empty()) base->set_summary(update.summary());
  std::string description =
      update.description().empty() ? base->description() : update.description();
  if (!update.description_prefix().empty()) {
    description = absl::StrCat(update.description_prefix(), "\n", description);
  }
  if (!update.description_suffix().empty()) {
    description = absl::StrCat(description, "\n", update.description_suffix());
  }
  base->set_description(description);
  return absl::OkStatus();
}

// Collects the text parser's errors as "line(column): message\n", both counted from 1.
class ErrorText : public google::protobuf::io::ErrorCollector {
 public:
  void AddError(int line, google::protobuf::io::ColumnNumber column,
                const std::string& message) override {
    absl::StrAppend(&text_, line + 1, "(", column + 1, "): ", message, "\n");
  }
  const std::string& text() const { return text_; }

 private:
  std::string text_;
};

void RenameInDocs(const std::string& from, const std::string& to, ApiDef* api) {
  const std::string quoted_from = absl::StrCat("`", from, "`");
  const std::string quoted_to = absl::StrCat("`", to, "`");
  auto rename = [&](std::string* doc) {
    if (!doc->empty()) *doc = absl::StrReplaceAll(*doc, {{quoted_from, quoted_to}});
  };
  for (ApiDef::Arg& arg : *api->mutable_in_arg()) rename(arg.mutable_description());
  for (ApiDef::Arg& arg : *api->mutable_out_arg()) rename(arg.mutable_description());
  for (ApiDef::Attr& attr : *api->mutable_attr()) rename(attr.mutable_description());
  rename(api->mutable_summary());
  rename(api->mutable_description());
}

}  // namespace

ApiDefMap::ApiDefMap(const OpList& ops) {
  for (const OpDef& op : ops.op()) api_defs_[op.name()] = FromOpDef(op);
}

absl::Status ApiDefMap::Load(absl::string_view text) {
  ApiDefs updates;
  ErrorText errors;
  google::protobuf::TextFormat::Parser parser;
  parser.RecordErrorsTo(&errors);
  if (!parser.ParseFromString(ExpandMultilineStrings(text), &updates)) {
    return absl::InvalidArgumentError(errors.text());
  }
  for (const ApiDef& update : updates.op()) {
    auto it = api_defs_.find(update.graph_op_name());
    if (it == api_defs_.end()) continue;
    if (absl::Status merged = Merge(update, &it->second); !merged.ok()) return merged;
  }
  return absl::OkStatus();
}

void ApiDefMap::UpdateDocs() {
  for (auto& [name, api] : api_defs_) {
    if (api.endpoint_size() > 0 && api.endpoint(0).name() != api.graph_op_name()) {
      RenameInDocs(api.graph_op_name(), api.endpoint(0).name(), &api);
    }
    // RenameInDocs rewrites descriptions only, never the names being iterated over.
    for (const ApiDef::Arg& arg : api.in_arg()) {
      if (arg.name() != arg.rename_to()) RenameInDocs(arg.name(), arg.rename_to(), &api);
    }
    for (const ApiDef::Arg& arg : api.out_arg()) {
      if (arg.name() != arg.rename_to()) RenameInDocs(arg.name(), arg.rename_to(), &api);
    }
    for (const ApiDef::Attr& attr : api.attr()) {
      if (attr.name() != attr.rename_to()) RenameInDocs(attr.name(), attr.rename_to(), &api);
    }
  }
}

const ApiDef* ApiDefMap::Find(absl::string_view op_name) const {
  auto it = api_defs_.find(op_name);
  return it == api_defs_.end() ? nullptr : &it->second;
}

}  // namespace sluice
