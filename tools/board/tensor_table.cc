// The selection is resolved first and every limit checked before anything is written, so an
// error leaves the caller's JSON as it was. Elements are then read in place by flat offset:
// the offset of the selection's first element plus, per kept dimension, step * stride.
#include "tools/board/tensor_table.h"

#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "graph/core/errors.h"
#include "graph/core/types.h"
#include "tools/board/json_number.h"
#include "tools/board/slice_index.h"
#include "tools/cli/report.h"
#include "tools/cli/tensor_statistics.h"

namespace sluice {
namespace board {
namespace {

// One dimension written as an index item: "3" for a dropped one, ":" for all of it, else
// start:stop[:step] with the stop just past the last position (left out where that would be
// negative, which Python reads otherwise).
std::string FormatDim(const DimSelection& dim, int64_t size) {
  if (!dim.kept) return absl::StrCat(dim.start);
  if (dim.start == 0 && dim.step == 1 && dim.count == size) return ":";
  const int64_t stop =
      dim.count == 0 ? dim.start : dim.start + (dim.count - 1) * dim.step + (dim.step > 0 ? 1 : -1);
  std::string text = absl::StrCat(dim.start, ":", stop < 0 ? "" : absl::StrCat(stop));
  if (dim.step != 1) absl::StrAppend(&text, ":", dim.step);
  return text;
}

std::string FormatSelection(const std::vector<DimSelection>& selection,
                            absl::Span<const int64_t> shape) {
  std::vector<std::string> items;
  for (size_t d = 0; d < selection.size(); ++d) items.push_back(FormatDim(selection[d], shape[d]));
  return absl::StrCat("[", absl::StrJoin(items, ", "), "]");
}

absl::Status TooManyDims(std::vector<DimSelection> selection, absl::Span<const int64_t> shape) {
  const std::vector<int64_t> selected = SelectedShape(selection);
  const std::string given = FormatSelection(selection, shape);
  // The suggestion: every kept dimension but the last kMaxTableRank fixed at its first position.
  size_t to_fix = selected.size() - kMaxTableRank;
  for (DimSelection& dim : selection) {
    if (to_fix == 0) break;
    if (dim.kept && dim.count > 0) {
      dim.kept = false;
      dim.count = 1;
      --to_fix;
    }
  }
  return errors::InvalidArgument("the selection ", given, " has ", selected.size(),
                                 " dimensions (shape [", absl::StrJoin(selected, ","),
                                 "]); the table shows at most ", kMaxTableRank,
                                 ": pick single positions of the others with integers, e.g. ",
                                 FormatSelection(selection, shape));
}

// Strings, and the real-number and bool dtypes that VisitRealElements reads.
bool CanShow(const Tensor& tensor) {
  return tensor.dtype() == DT_STRING || VisitRealElements(tensor, [](const auto*) {});
}

template <typename T>
std::string FormatElement(T value) {
  return absl::StrCat(value);
}
template <>
std::string FormatElement(bool value) {
  return value ? "true" : "false";
}
template <>
std::string FormatElement(float value) {
  return JsonFloat(value);
}
template <>
std::string FormatElement(half value) {
  return JsonFloat(static_cast<float>(value));
}
template <>
std::string FormatElement(bfloat16 value) {
  return JsonFloat(static_cast<float>(value));
}
template <>
std::string FormatElement(double value) {
  return JsonNumber(value);
}
template <>
std::string FormatElement(int8_t value) {
  return absl::StrCat(static_cast<int>(value));
}
template <>
std::string FormatElement(uint8_t value) {
  return absl::StrCat(static_cast<unsigned>(value));
}

// Calls write(flat_offset) for each selected element, nesting arrays as the shape does.
template <typename Write>
void WriteValues(const std::vector<int64_t>& shape, const std::vector<int64_t>& increments,
                 int64_t base, cli::JsonWriter* json, Write write) {
  if (shape.empty()) {
    write(base);
    return;
  }
  json->BeginArray();
  for (int64_t i = 0; i < shape[0]; ++i) {
    const int64_t offset = base + i * increments[0];
    if (shape.size() == 1) {
      write(offset);
      continue;
    }
    json->BeginArray();
    for (int64_t j = 0; j < shape[1]; ++j) write(offset + j * increments[1]);
    json->EndArray();
  }
  json->EndArray();
}

}  // namespace

absl::Status WriteTable(const Tensor& tensor, absl::string_view index, cli::JsonWriter* json) {
  const absl::Span<const int64_t> dims = tensor.shape().dim_sizes();
  ASSIGN_OR_RETURN(std::vector<IndexItem> items, ParseIndex(index));
  ASSIGN_OR_RETURN(std::vector<DimSelection> selection, ResolveIndex(items, dims));
  const std::vector<int64_t> shape = SelectedShape(selection);
  if (shape.size() > kMaxTableRank) return TooManyDims(selection, dims);
  int64_t count = 1;
  for (int64_t size : shape) count *= size;  // at most the tensor's element count
  if (count > kMaxTableValues) {
    return errors::InvalidArgument("the selection ", FormatSelection(selection, dims), " holds ",
                                   count, " values; the board sends at most ", kMaxTableValues,
                                   " at once: narrow it with integers or shorter slices");
  }
  if (!CanShow(tensor)) {
    return errors::InvalidArgument("values of dtype ", DataTypeString(tensor.dtype()),
                                   " cannot be shown in the table");
  }

  // Row-major strides; the selection's first element and each kept dimension's increment.
  std::vector<int64_t> strides(dims.size(), 1);
  for (int d = static_cast<int>(dims.size()) - 2; d >= 0; --d) {
    strides[d] = strides[d + 1] * dims[d + 1];
  }
  int64_t base = 0;
  std::vector<int64_t> increments;
  std::vector<int64_t> kept_dims;
  for (size_t d = 0; d < selection.size(); ++d) {
    base += selection[d].start * strides[d];
    if (!selection[d].kept) continue;
    increments.push_back(selection[d].step * strides[d]);
    kept_dims.push_back(static_cast<int64_t>(d));
  }

  json->Key("index").String(index);
  json->Key("selection").String(FormatSelection(selection, dims));
  json->Key("shape").BeginArray();
  for (int64_t size : shape) json->Int(size);
  json->EndArray();
  json->Key("dims").BeginArray();
  for (int64_t d : kept_dims) json->Int(d);
  json->EndArray();
  auto positions = [&](int which) {
    json->BeginArray();
    const DimSelection& dim = selection[kept_dims[which]];
    for (int64_t i = 0; i < dim.count; ++i) json->Int(dim.start + i * dim.step);
    json->EndArray();
  };
  json->Key("rows");
  if (shape.size() == 2) {
    positions(0);
  } else {
    json->BeginArray().EndArray();
  }
  json->Key("columns");
  if (!shape.empty()) {
    positions(static_cast<int>(shape.size()) - 1);
  } else {
    json->BeginArray().EndArray();
  }
  json->Key("values");
  if (count == 0) {
    // Nothing to read; the nesting still follows the shape.
    WriteValues(shape, increments, 0, json, [](int64_t) {});
    return absl::OkStatus();
  }
  if (tensor.dtype() == DT_STRING) {
    const std::string* data = tensor.base<std::string>();
    WriteValues(shape, increments, base, json, [&](int64_t i) {
      absl::string_view text = data[i];
      std::string shown = cli::Printable(text.substr(0, kMaxTableStringBytes));
      if (text.size() > kMaxTableStringBytes) shown += "...";
      json->String(shown);
    });
    return absl::OkStatus();
  }
  VisitRealElements(tensor, [&](const auto* data) {
    WriteValues(shape, increments, base, json,
                [&](int64_t i) { json->Raw(FormatElement(data[i])); });
  });
  return absl::OkStatus();
}

}  // namespace board
}  // namespace sluice
