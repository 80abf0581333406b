#include "tools/board/capture_index.h"

#include <algorithm>
#include <vector>

#include "graph/core/errors.h"
#include "graph/core/tensor_shape.h"
#include "graph/core/types.h"
#include "tools/board/json_value.h"

namespace sluice {
namespace board {
namespace {

// One entry of a tensor's "steps"; false when it cannot be read.
bool ReadStep(const JsonValue& entry, DataType dtype, int64_t* step, cli::TensorStatistics* stats) {
  if (!entry.Find("step").AsInt64(step)) return false;
  std::vector<int64_t> dims;
  for (const JsonValue& dim : entry.Find("shape").elements()) {
    int64_t size;
    if (!dim.AsInt64(&size)) return false;
    dims.push_back(size);
  }
  if (!TensorShape::BuildTensorShape(dims, &stats->shape).ok()) return false;
  stats->dtype = dtype;
  stats->elements = stats->shape.num_elements();
  // Counts are written only for dtypes that have values (tensor_statistics.h).
  stats->has_values = entry.Find("nan").AsInt64(&stats->nans);
  if (!stats->has_values) return true;
  if (!entry.Find("pos_inf").AsInt64(&stats->positive_infinities) ||
      !entry.Find("neg_inf").AsInt64(&stats->negative_infinities) ||
      !entry.Find("zeros").AsInt64(&stats->zeros)) {
    return false;
  }
  const int64_t non_finite = stats->nans + stats->positive_infinities + stats->negative_infinities;
  if (stats->nans < 0 || stats->positive_infinities < 0 || stats->negative_infinities < 0 ||
      non_finite > stats->elements) {
    return false;
  }
  stats->finite = stats->elements - non_finite;
  // min, max, mean and std are null when no element is finite.
  if (stats->finite > 0 &&
      (!entry.Find("min").AsDouble(&stats->min) || !entry.Find("max").AsDouble(&stats->max) ||
       !entry.Find("mean").AsDouble(&stats->mean) || !entry.Find("std").AsDouble(&stats->std))) {
    return false;
  }
  return true;
}

}  // namespace

const cli::TensorStatistics* CaptureIndex::Find(const std::string& tag, int64_t step) const {
  auto tensor = tensors.find(tag);
  if (tensor == tensors.end()) return nullptr;
  auto entry = tensor->second.find(step);
  return entry == tensor->second.end() ? nullptr : &entry->second;
}

absl::StatusOr<CaptureIndex> ParseCaptureIndex(absl::string_view json) {
  ASSIGN_OR_RETURN(JsonValue document, ParseJson(json));
  CaptureIndex index;
  if (!document.Find("event_file").AsString(&index.event_file) ||
      document.Find("tensors").type() != JsonValue::Type::kArray) {
    return errors::InvalidArgument("not a capture index: no \"event_file\" and \"tensors\"");
  }
  for (const JsonValue& tensor : document.Find("tensors").elements()) {
    std::string tag, dtype_name;
    DataType dtype;
    if (!tensor.Find("tag").AsString(&tag) || !tensor.Find("dtype").AsString(&dtype_name) ||
        !DataTypeFromString(dtype_name, &dtype)) {
      continue;
    }
    auto& steps = index.tensors[tag];
    for (const JsonValue& entry : tensor.Find("steps").elements()) {
      int64_t step;
      cli::TensorStatistics stats;
      if (ReadStep(entry, dtype, &step, &stats)) steps[step] = std::move(stats);
    }
  }
  return index;
}

}  // namespace board
}  // namespace sluice
