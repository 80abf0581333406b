// Reading a SavedModel directory's saved_model.pb (or saved_model.pbtxt) and choosing the
// MetaGraphDef of a tag set, as TensorFlow's tensorflow/cc/saved_model/reader.h does.
//
// Errors, with TensorFlow's codes and texts: a directory with neither file is NOT_FOUND
// ("Could not find SavedModel .pb or .pbtxt at supplied export directory path: ..."); a file
// that does not parse is DATA_LOSS (binary) or INVALID_ARGUMENT (text), naming the file; no
// MetaGraphDef whose tags are exactly the set asked for is NOT_FOUND ("Could not find meta
// graph def matching supplied tags: { serve }. ..."), listing the tag sets there are.
#ifndef SLUICE_SAVED_MODEL_READER_H_
#define SLUICE_SAVED_MODEL_READER_H_

#include <string>
#include <unordered_set>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "proto/meta_graph.pb.h"
#include "proto/saved_model.pb.h"

namespace sluice {

// Reads `export_dir`/saved_model.pb, or saved_model.pbtxt when there is no .pb.
absl::Status ReadSavedModel(absl::string_view export_dir, SavedModel* saved_model);

// Moves out of `saved_model` the first MetaGraphDef whose tags, as a set, equal `tags`.
absl::Status FindMetaGraphDef(const std::unordered_set<std::string>& tags, SavedModel* saved_model,
                              MetaGraphDef* meta_graph_def);

// ReadSavedModel, then FindMetaGraphDef.
absl::Status ReadMetaGraphDefFromSavedModel(absl::string_view export_dir,
                                            const std::unordered_set<std::string>& tags,
                                            MetaGraphDef* meta_graph_def);

// Whether `path` names something that is not a directory (a file the loader may read).
bool IsExistingFile(const std::string& path);

// export_dir/a/b..., joined with single slashes (TensorFlow's io::JoinPath).
std::string JoinExportPath(absl::string_view export_dir, absl::string_view a,
                           absl::string_view b = "");

}  // namespace sluice

#endif  // SLUICE_SAVED_MODEL_READER_H_
