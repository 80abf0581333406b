// The JSON documents of `sluice board`'s API, one function per endpoint (board.h routes
// requests to them and lists the URLs). Each returns the document or the error the request
// gets (tag_snapshot.h says which code means what).
//
// Shared conventions: numbers follow json_number.h (non-finite values as the strings "NaN",
// "Infinity", "-Infinity"; statistics that do not exist, such as the minimum of a tensor
// without finite values, as null); steps are integers; "wall_time" is seconds since the Unix
// epoch; shapes are lists of dimension sizes.
#ifndef SLUICE_TOOLS_BOARD_ENDPOINTS_H_
#define SLUICE_TOOLS_BOARD_ENDPOINTS_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "tools/board/log_folder.h"
#include "tools/board/run_index.h"
#include "tools/board/tag_snapshot.h"

namespace sluice {
namespace board {

// {"runs": [{"name": ".", "event_files": 1}, ...]}
std::string RunsJson(const std::vector<RunFiles>& runs);

// {"run", "tags": [{"tag", "kind", "steps" (how many), "first_step", "last_step", "plugin",
//   and for tensors "dtype" and "shape" (of the last step), for captured values "node",
//   "op", "output"}], "warnings": [lines]}
std::string TagsJson(const std::string& run, const RunIndex& index);

// {"run", "tag", "kind", "steps": [{"step", "wall_time", "shape" (tensors)}]}
std::string StepsJson(const TagSnapshot& snapshot);

// Scalar tags: {"run", "tag", "points": [{"step", "wall_time", "value"}]}
absl::StatusOr<std::string> ScalarsJson(const TagSnapshot& snapshot);

// Tensor tags, one step (query "step") or all: {"run", "tag", "dtype", "steps": [{"step",
// "source" ("index.json" or "tensor"), "shape", "elements", and for numeric dtypes "finite",
// "nan", "pos_inf", "neg_inf", "zeros", "min", "max", "mean", "std"}]}
absl::StatusOr<std::string> StatisticsJson(const TagSnapshot& snapshot, const Query& query);

// Tensor tags, query "step" and "index" (a Python-style index, tensor_table.h; default: all):
// {"run", "tag", "step", "dtype", "tensor_shape", then tensor_table.h's members}
absl::StatusOr<std::string> SliceJson(const TagSnapshot& snapshot, const Query& query);

// Histogram and tensor tags, every step over shared buckets (query "buckets", default
// kDefaultBuckets): {"run", "tag", "kind", "source" ("values" counted from tensors, or
// "histograms" re-bucketed), "edges": [buckets + 1], "steps": [{"step", "counts",
// and for tensors "nan", "pos_inf", "neg_inf"}]}
absl::StatusOr<std::string> HistogramsJson(const TagSnapshot& snapshot, const Query& query);

// Image tags, query "step" and "sample" (default 0): the encoded image, and its content type
// from its first bytes (PNG, JPEG, GIF; anything else is refused).
struct EncodedImage {
  std::string content_type;
  std::string bytes;
};
absl::StatusOr<EncodedImage> ImageOf(const TagSnapshot& snapshot, const Query& query);

}  // namespace board
}  // namespace sluice

#endif  // SLUICE_TOOLS_BOARD_ENDPOINTS_H_
