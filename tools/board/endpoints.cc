#include "tools/board/endpoints.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

#include "absl/strings/match.h"
#include "graph/core/errors.h"
#include "graph/core/tensor_types.h"
#include "graph/core/types.h"
#include "tools/board/histograms.h"
#include "tools/board/json_number.h"
#include "tools/board/tensor_table.h"
#include "tools/cli/json_writer.h"

namespace sluice {
namespace board {
namespace {

using cli::JsonWriter;

void WriteShape(const std::vector<int64_t>& shape, JsonWriter* json) {
  json->BeginArray();
  for (int64_t size : shape) json->Int(size);
  json->EndArray();
}

void BeginTagDocument(const TagSnapshot& snapshot, JsonWriter* json) {
  json->BeginObject();
  json->Key("run").String(snapshot.run);
  json->Key("tag").String(snapshot.series.tag);
}

// A statistic of the finite elements: null when there are none.
void WriteFiniteStatistic(const char* key, double value, int64_t finite, JsonWriter* json) {
  json->Key(key);
  if (finite > 0) {
    json->Raw(JsonNumber(value));
  } else {
    json->Raw("null");
  }
}

void WriteStatistics(int64_t step, const cli::TensorStatistics& s, bool from_index,
                     JsonWriter* json) {
  json->BeginObject();
  json->Key("step").Int(step);
  json->Key("source").String(from_index ? "index.json" : "tensor");
  json->Key("shape");
  WriteShape(std::vector<int64_t>(s.shape.dim_sizes().begin(), s.shape.dim_sizes().end()), json);
  json->Key("elements").Int(s.elements);
  if (s.has_values) {
    json->Key("finite").Int(s.finite);
    json->Key("nan").Int(s.nans);
    json->Key("pos_inf").Int(s.positive_infinities);
    json->Key("neg_inf").Int(s.negative_infinities);
    json->Key("zeros").Int(s.zeros);
    WriteFiniteStatistic("min", s.min, s.finite, json);
    WriteFiniteStatistic("max", s.max, s.finite, json);
    WriteFiniteStatistic("mean", s.mean, s.finite, json);
    WriteFiniteStatistic("std", s.std, s.finite, json);
  }
  json->EndObject();
}

std::string Finish(JsonWriter& json) {
  json.EndObject();
  return json.str();
}

void WriteCounts(const std::vector<double>& counts, JsonWriter* json) {
  json->Key("counts").BeginArray();
  for (double count : counts) json->Raw(JsonNumber(count));
  json->EndArray();
}

// Histogram summaries (HistogramProto or TensorFlow 2's tensors): every step's buckets,
// re-bucketed over their common range.
absl::StatusOr<std::string> SummaryHistograms(const TagSnapshot& snapshot, int buckets) {
  std::vector<std::vector<Bucket>> per_step;
  double lo = HUGE_VAL, hi = -HUGE_VAL;
  for (size_t at = 0; at < snapshot.series.steps.size(); ++at) {
    std::vector<Bucket> step_buckets;
    if (snapshot.series.value_case == Summary::Value::kHisto) {
      ASSIGN_OR_RETURN(Summary::Value value, ReadSummaryValue(snapshot, at));
      step_buckets = BucketsOf(value.histo());
    } else {
      ASSIGN_OR_RETURN(Tensor tensor, ReadTensor(snapshot, at));
      ASSIGN_OR_RETURN(step_buckets, BucketsOfTensor(tensor));
    }
    for (const Bucket& bucket : step_buckets) {
      lo = std::min(lo, bucket.left);
      hi = std::max(hi, bucket.right);
    }
    per_step.push_back(std::move(step_buckets));
  }
  if (lo > hi) lo = hi = 0;  // no step has a value
  const std::vector<double> edges = BucketEdges(lo, hi, buckets);
  JsonWriter json;
  BeginTagDocument(snapshot, &json);
  json.Key("kind").String(TagKindName(snapshot.series.kind));
  json.Key("source").String("histograms");
  json.Key("edges").BeginArray();
  for (double edge : edges) json.Raw(JsonNumber(edge));
  json.EndArray();
  json.Key("steps").BeginArray();
  for (size_t at = 0; at < per_step.size(); ++at) {
    json.BeginObject().Key("step").Int(snapshot.series.steps[at].step);
    WriteCounts(Rebucket(per_step[at], edges), &json);
    json.EndObject();
  }
  json.EndArray();
  return Finish(json);
}

// Tensor tags: the finite values of every step counted over the range of all of them.
absl::StatusOr<std::string> TensorHistograms(const TagSnapshot& snapshot, int buckets) {
  std::vector<cli::TensorStatistics> stats;
  double lo = HUGE_VAL, hi = -HUGE_VAL;
  for (size_t at = 0; at < snapshot.series.steps.size(); ++at) {
    bool from_index;
    ASSIGN_OR_RETURN(cli::TensorStatistics s, StatisticsAt(snapshot, at, &from_index));
    if (!s.has_values) {
      return errors::InvalidArgument("tag '", snapshot.series.tag, "' holds ",
                                     DataTypeString(s.dtype), " values, which have no histogram");
    }
    if (s.finite > 0) {
      lo = std::min(lo, s.min);
      hi = std::max(hi, s.max);
    }
    stats.push_back(std::move(s));
  }
  if (lo > hi) lo = hi = 0;  // no finite value in any step
  const std::vector<double> edges = BucketEdges(lo, hi, buckets);
  JsonWriter json;
  BeginTagDocument(snapshot, &json);
  json.Key("kind").String(TagKindName(snapshot.series.kind));
  json.Key("source").String("values");
  json.Key("edges").BeginArray();
  for (double edge : edges) json.Raw(JsonNumber(edge));
  json.EndArray();
  json.Key("steps").BeginArray();
  for (size_t at = 0; at < stats.size(); ++at) {
    std::vector<double> counts(buckets, 0);
    if (stats[at].finite > 0) {
      ASSIGN_OR_RETURN(Tensor tensor, ReadTensor(snapshot, at));
      counts = CountValues(tensor, edges);
    }
    json.BeginObject().Key("step").Int(snapshot.series.steps[at].step);
    WriteCounts(counts, &json);
    json.Key("nan").Int(stats[at].nans);
    json.Key("pos_inf").Int(stats[at].positive_infinities);
    json.Key("neg_inf").Int(stats[at].negative_infinities);
    json.EndObject();
  }
  json.EndArray();
  return Finish(json);
}

// The content type of an encoded image, from its signature; empty when it is none of these.
std::string ImageType(absl::string_view bytes) {
  if (absl::StartsWith(bytes, "\x89PNG\r\n\x1a\n")) return "image/png";
  if (absl::StartsWith(bytes, "\xff\xd8\xff")) return "image/jpeg";
  if (absl::StartsWith(bytes, "GIF87a") || absl::StartsWith(bytes, "GIF89a")) return "image/gif";
  return "";
}

}  // namespace

std::string RunsJson(const std::vector<RunFiles>& runs) {
  JsonWriter json;
  json.BeginObject().Key("runs").BeginArray();
  for (const RunFiles& run : runs) {
    json.BeginObject();
    json.Key("name").String(run.name);
    json.Key("event_files").Int(static_cast<int64_t>(run.event_files.size()));
    json.EndObject();
  }
  json.EndArray();
  return Finish(json);
}

std::string TagsJson(const std::string& run, const RunIndex& index) {
  JsonWriter json;
  json.BeginObject();
  json.Key("run").String(run);
  json.Key("tags").BeginArray();
  for (const TagSeries& series : index.series()) {
    if (series.steps.empty()) continue;  // its values were all of another form
    json.BeginObject();
    json.Key("tag").String(series.tag);
    json.Key("kind").String(TagKindName(series.kind));
    json.Key("steps").Int(static_cast<int64_t>(series.steps.size()));
    json.Key("first_step").Int(series.steps.front().step);
    json.Key("last_step").Int(series.steps.back().step);
    json.Key("plugin").String(series.plugin);
    if (series.value_case == Summary::Value::kTensor) {
      json.Key("dtype").String(DataTypeString(series.dtype));
      json.Key("shape");
      WriteShape(series.steps.back().shape, &json);
    }
    if (series.output >= 0) {
      json.Key("node").String(series.node);
      json.Key("op").String(series.op);
      json.Key("output").Int(series.output);
    }
    json.EndObject();
  }
  json.EndArray();
  json.Key("warnings").StringArray(index.warnings());
  return Finish(json);
}

std::string StepsJson(const TagSnapshot& snapshot) {
  JsonWriter json;
  BeginTagDocument(snapshot, &json);
  json.Key("kind").String(TagKindName(snapshot.series.kind));
  json.Key("steps").BeginArray();
  for (const StepEntry& entry : snapshot.series.steps) {
    json.BeginObject();
    json.Key("step").Int(entry.step);
    json.Key("wall_time").Raw(JsonNumber(entry.wall_time));
    if (snapshot.series.value_case == Summary::Value::kTensor) {
      json.Key("shape");
      WriteShape(entry.shape, &json);
    }
    json.EndObject();
  }
  json.EndArray();
  return Finish(json);
}

absl::StatusOr<std::string> ScalarsJson(const TagSnapshot& snapshot) {
  if (snapshot.series.kind != TagKind::kScalar) {
    return errors::InvalidArgument("tag '", snapshot.series.tag, "' is a ",
                                   TagKindName(snapshot.series.kind), ", not a scalar");
  }
  JsonWriter json;
  BeginTagDocument(snapshot, &json);
  json.Key("points").BeginArray();
  for (const StepEntry& entry : snapshot.series.steps) {
    json.BeginObject();
    json.Key("step").Int(entry.step);
    json.Key("wall_time").Raw(JsonNumber(entry.wall_time));
    json.Key("value").Raw(JsonNumber(entry.scalar));
    json.EndObject();
  }
  json.EndArray();
  return Finish(json);
}

absl::StatusOr<std::string> StatisticsJson(const TagSnapshot& snapshot, const Query& query) {
  RETURN_IF_ERROR(NeedTensors(snapshot, "statistics"));
  std::vector<size_t> positions;
  if (query.count("step") > 0) {
    ASSIGN_OR_RETURN(size_t at, FindStep(snapshot, query));
    positions.push_back(at);
  } else {
    for (size_t at = 0; at < snapshot.series.steps.size(); ++at) positions.push_back(at);
  }
  JsonWriter json;
  BeginTagDocument(snapshot, &json);
  json.Key("dtype").String(DataTypeString(snapshot.series.dtype));
  json.Key("steps").BeginArray();
  for (size_t at : positions) {
    bool from_index;
    ASSIGN_OR_RETURN(cli::TensorStatistics s, StatisticsAt(snapshot, at, &from_index));
    WriteStatistics(snapshot.series.steps[at].step, s, from_index, &json);
  }
  json.EndArray();
  return Finish(json);
}

absl::StatusOr<std::string> SliceJson(const TagSnapshot& snapshot, const Query& query) {
  RETURN_IF_ERROR(NeedTensors(snapshot, "table"));
  ASSIGN_OR_RETURN(size_t at, FindStep(snapshot, query));
  auto index = query.find("index");
  const std::string text = index == query.end() ? "" : index->second;
  ASSIGN_OR_RETURN(Tensor tensor, ReadTensor(snapshot, at));
  JsonWriter json;
  BeginTagDocument(snapshot, &json);
  json.Key("step").Int(snapshot.series.steps[at].step);
  json.Key("dtype").String(DataTypeString(tensor.dtype()));
  json.Key("tensor_shape");
  const auto dims = tensor.shape().dim_sizes();
  WriteShape(std::vector<int64_t>(dims.begin(), dims.end()), &json);
  RETURN_IF_ERROR(WriteTable(tensor, text, &json));
  return Finish(json);
}

absl::StatusOr<std::string> HistogramsJson(const TagSnapshot& snapshot, const Query& query) {
  ASSIGN_OR_RETURN(int64_t buckets, IntParam(query, "buckets", 1, kMaxBuckets, kDefaultBuckets));
  if (snapshot.series.kind == TagKind::kHistogram) {
    return SummaryHistograms(snapshot, static_cast<int>(buckets));
  }
  if (snapshot.series.kind == TagKind::kTensor) {
    return TensorHistograms(snapshot, static_cast<int>(buckets));
  }
  return errors::InvalidArgument("tag '", snapshot.series.tag, "' is a ",
                                 TagKindName(snapshot.series.kind), ", which has no histograms");
}

absl::StatusOr<EncodedImage> ImageOf(const TagSnapshot& snapshot, const Query& query) {
  if (snapshot.series.kind != TagKind::kImage) {
    return errors::InvalidArgument("tag '", snapshot.series.tag, "' is a ",
                                   TagKindName(snapshot.series.kind), ", not an image");
  }
  ASSIGN_OR_RETURN(size_t at, FindStep(snapshot, query));
  ASSIGN_OR_RETURN(int64_t sample,
                   IntParam(query, "sample", 0, std::numeric_limits<int32_t>::max(), 0));
  EncodedImage image;
  if (snapshot.series.value_case == Summary::Value::kImage) {
    if (sample != 0) return errors::NotFound("an image summary holds one image, sample 0");
    ASSIGN_OR_RETURN(Summary::Value value, ReadSummaryValue(snapshot, at));
    image.bytes = value.image().encoded_image_string();
  } else {
    // TensorFlow 2: a string vector of width, height and the encoded images.
    ASSIGN_OR_RETURN(Tensor tensor, ReadTensor(snapshot, at));
    if (tensor.dtype() != DT_STRING || tensor.dims() != 1 || tensor.dim_size(0) < 2) {
      return errors::InvalidArgument("tag '", snapshot.series.tag, "' holds no encoded images");
    }
    if (sample >= tensor.dim_size(0) - 2) {
      return errors::NotFound("step ", snapshot.series.steps[at].step, " of '", snapshot.series.tag,
                              "' has ", tensor.dim_size(0) - 2, " images, no sample ", sample);
    }
    image.bytes = tensor.flat<std::string>()(2 + sample);
  }
  image.content_type = ImageType(image.bytes);
  if (image.content_type.empty()) {
    return errors::InvalidArgument("the image of '", snapshot.series.tag,
                                   "' is not a PNG, JPEG or GIF");
  }
  return image;
}

}  // namespace board
}  // namespace sluice
