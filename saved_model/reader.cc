#include "saved_model/reader.h"

#include <sys/stat.h>

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "graph/core/errors.h"
#include "graph/import/graph_def_io.h"
#include "saved_model/constants.h"

namespace sluice {
namespace {

std::string SortedTagSet(const std::unordered_set<std::string>& tags) {
  std::vector<std::string> sorted(tags.begin(), tags.end());
  std::sort(sorted.begin(), sorted.end());
  return absl::StrCat("{ ", absl::StrJoin(sorted, " "), sorted.empty() ? "}" : " }");
}

}  // namespace

bool IsExistingFile(const std::string& path) {
  struct stat info;
  return ::stat(path.c_str(), &info) == 0 && !S_ISDIR(info.st_mode);
}

std::string JoinExportPath(absl::string_view export_dir, absl::string_view a, absl::string_view b) {
  std::string path(export_dir);
  for (absl::string_view part : {a, b}) {
    if (part.empty()) continue;
    if (!path.empty() && path.back() != '/') path += '/';
    while (!part.empty() && part.front() == '/') part.remove_prefix(1);
    absl::StrAppend(&path, part);
  }
  return path;
}

absl::Status ReadSavedModel(absl::string_view export_dir, SavedModel* saved_model) {
  saved_model->Clear();
  const std::string pb_path = JoinExportPath(export_dir, kSavedModelFilenamePb);
  if (IsExistingFile(pb_path)) return ReadBinaryProtoFile(pb_path, saved_model);
  const std::string pbtxt_path = JoinExportPath(export_dir, kSavedModelFilenamePbTxt);
  if (IsExistingFile(pbtxt_path)) return ReadTextProtoFile(pbtxt_path, saved_model);
  return errors::NotFound(
      "Could not find SavedModel .pb or .pbtxt at supplied export directory path: ", export_dir,
      ". Check that the directory exists and that you have the right permissions for "
      "accessing it.");
}

absl::Status FindMetaGraphDef(const std::unordered_set<std::string>& tags, SavedModel* saved_model,
                              MetaGraphDef* meta_graph_def) {
  std::vector<std::string> available;
  for (MetaGraphDef& candidate : *saved_model->mutable_meta_graphs()) {
    const auto& candidate_tags = candidate.meta_info_def().tags();
    std::unordered_set<std::string> graph_tags(candidate_tags.begin(), candidate_tags.end());
    if (graph_tags == tags) {
      *meta_graph_def = std::move(candidate);
      return absl::OkStatus();
    }
    available.push_back(SortedTagSet(graph_tags));
  }
  return errors::NotFound(
      "Could not find meta graph def matching supplied tags: ", SortedTagSet(tags),
      ". To inspect available tag-sets in the SavedModel, please use the SavedModel CLI: "
      "`saved_model_cli`",
      available.empty()
          ? std::string(" (the SavedModel has no meta graphs)")
          : absl::StrCat(" (the SavedModel has ", absl::StrJoin(available, ", "), ")"));
}

absl::Status ReadMetaGraphDefFromSavedModel(absl::string_view export_dir,
                                            const std::unordered_set<std::string>& tags,
                                            MetaGraphDef* meta_graph_def) {
  SavedModel saved_model;
  RETURN_IF_ERROR(ReadSavedModel(export_dir, &saved_model));
  return FindMetaGraphDef(tags, &saved_model, meta_graph_def);
}

}  // namespace sluice
