#include "tests/fixture_manifest.h"

#include <string>
#include <utility>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "graph/core/errors.h"
#include "graph/import/graph_def_io.h"

namespace sluice {
namespace fixtures {
namespace {

absl::Status ParseShape(absl::string_view text, std::vector<int64_t>* shape) {
  if (!absl::ConsumePrefix(&text, "[") || !absl::ConsumeSuffix(&text, "]")) {
    return errors::InvalidArgument("shape '", text, "' is not in brackets");
  }
  shape->clear();
  if (text.empty()) return absl::OkStatus();
  for (absl::string_view dim : absl::StrSplit(text, ',')) {
    int64_t size = 0;
    if (!absl::SimpleAtoi(dim, &size)) {
      return errors::InvalidArgument("bad dimension '", dim, "'");
    }
    shape->push_back(size);
  }
  return absl::OkStatus();
}

absl::Status ParseLine(const std::string& dir, const std::vector<absl::string_view>& words,
                       std::vector<FixtureModel>* models) {
  if (words[0] == "model") {
    FixtureModel model;
    if (words.size() != 5 || !absl::SimpleAtod(words[4], &model.tolerance)) {
      return errors::InvalidArgument("expected 'model NAME PB PBTXT TOLERANCE'");
    }
    model.name = std::string(words[1]);
    model.pb_path = absl::StrCat(dir, "/", words[2]);
    model.pbtxt_path = absl::StrCat(dir, "/", words[3]);
    models->push_back(std::move(model));
    return absl::OkStatus();
  }
  if (words[0] != "feed" && words[0] != "fetch") {
    return errors::InvalidArgument("unknown entry '", words[0], "'");
  }
  if (models->empty()) return errors::InvalidArgument(words[0], " before any model");
  if (words.size() != 5) return errors::InvalidArgument("expected 'KIND NODE DTYPE SHAPE NPY'");
  FixtureTensor tensor;
  tensor.node = std::string(words[1]);
  tensor.dtype = std::string(words[2]);
  RETURN_IF_ERROR(ParseShape(words[3], &tensor.shape));
  tensor.npy_path = absl::StrCat(dir, "/", words[4]);
  FixtureModel& model = models->back();
  (words[0] == "feed" ? model.feeds : model.fetches).push_back(std::move(tensor));
  return absl::OkStatus();
}

}  // namespace

std::string FixturesDir() { return "tests/fixtures"; }

absl::Status ReadFixtureManifest(const std::string& dir, std::vector<FixtureModel>* models) {
  std::string text;
  const std::string path = absl::StrCat(dir, "/manifest.txt");
  RETURN_IF_ERROR(ReadFileToString(path, &text));
  models->clear();
  int line_number = 0;
  for (absl::string_view line : absl::StrSplit(text, '\n')) {
    ++line_number;
    line = absl::StripAsciiWhitespace(line);
    if (line.empty() || line[0] == '#') continue;
    std::vector<absl::string_view> words = absl::StrSplit(line, ' ', absl::SkipEmpty());
    RETURN_IF_ERROR(
        errors::PrependToMessage(ParseLine(dir, words, models), path, ":", line_number, ": "));
  }
  return absl::OkStatus();
}

absl::Status DataTypeFromNumpyName(absl::string_view name, DataType* dtype) {
  static const std::pair<const char*, DataType> kTypes[] = {
      {"float16", DT_HALF},        {"float32", DT_FLOAT},         {"float64", DT_DOUBLE},
      {"int8", DT_INT8},           {"int16", DT_INT16},           {"int32", DT_INT32},
      {"int64", DT_INT64},         {"uint8", DT_UINT8},           {"uint16", DT_UINT16},
      {"uint32", DT_UINT32},       {"uint64", DT_UINT64},         {"bool", DT_BOOL},
      {"complex64", DT_COMPLEX64}, {"complex128", DT_COMPLEX128},
  };
  for (const auto& entry : kTypes) {
    if (name == entry.first) {
      *dtype = entry.second;
      return absl::OkStatus();
    }
  }
  return errors::InvalidArgument("no DataType for numpy dtype '", name, "'");
}

}  // namespace fixtures
}  // namespace sluice
