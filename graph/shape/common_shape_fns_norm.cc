// Shape functions of bias addition and fused batch normalization.
#include <string>

#include "graph/core/errors.h"
#include "graph/shape/common_shape_fns.h"

namespace sluice {
namespace shape_inference {

absl::Status BiasAddShape(InferenceContext* c) {
  std::string format;
  const bool nchw = c->GetAttr("data_format", &format).ok() && format == "NCHW";
  ShapeHandle input;
  RETURN_IF_ERROR(c->WithRankAtLeast(c->input(0), nchw ? 3 : 2, &input));
  ShapeHandle bias;
  RETURN_IF_ERROR(c->WithRank(c->input(1), 1, &bias));
  if (!c->RankKnown(input)) {
    c->set_output(0, c->UnknownShape());
    return absl::OkStatus();
  }
  const int64_t bias_index = nchw ? 1 : c->Rank(input) - 1;
  DimensionHandle merged;
  RETURN_IF_ERROR(c->Merge(c->Dim(input, bias_index), c->Dim(bias, 0), &merged));
  ShapeHandle out;
  RETURN_IF_ERROR(c->ReplaceDim(input, bias_index, merged, &out));
  c->set_output(0, out);
  return absl::OkStatus();
}

absl::Status BiasAddGradShape(InferenceContext* c) {
  std::string format;
  const bool nchw = c->GetAttr("data_format", &format).ok() && format == "NCHW";
  ShapeHandle input;
  RETURN_IF_ERROR(c->WithRankAtLeast(c->input(0), nchw ? 3 : 2, &input));
  c->set_output(0, c->Vector(c->Dim(input, nchw ? 1 : -1)));
  return absl::OkStatus();
}

// ---- Fused batch normalization ---------------------------------------------------------

namespace {

// data_format of a batch norm (4-D, or 5-D for NDHWC/NCDHW): its rank and feature index.
absl::Status BatchNormLayout(InferenceContext* c, int* rank, int* channel_index) {
  std::string format_str;
  RETURN_IF_ERROR(c->GetAttr("data_format", &format_str));
  TensorFormat format;
  if (!FormatFromString(format_str, &format)) {
    return errors::InvalidArgument("Invalid data format string: ", format_str);
  }
  *rank = format_str == "NDHWC" || format_str == "NCDHW" ? 5 : 4;
  *channel_index = GetTensorFeatureDimIndex(*rank, format);
  return absl::OkStatus();
}

}  // namespace

absl::Status FusedBatchNormShape(InferenceContext* c) {
  int rank;
  int channel_index;
  RETURN_IF_ERROR(BatchNormLayout(c, &rank, &channel_index));
  ShapeHandle x;
  RETURN_IF_ERROR(c->WithRank(c->input(0), rank, &x));
  bool is_training;
  RETURN_IF_ERROR(c->GetAttr("is_training", &is_training));
  float exponential_avg_factor;
  if (!c->GetAttr("exponential_avg_factor", &exponential_avg_factor).ok()) {
    exponential_avg_factor = 1.0f;
  }
  // scale and offset, plus mean and variance when they are read.
  const int num_vectors = is_training && exponential_avg_factor == 1.0f ? 3 : 5;
  DimensionHandle channels = c->Dim(x, channel_index);
  for (int i = 1; i < num_vectors && i < c->num_inputs(); ++i) {
    ShapeHandle vec;
    RETURN_IF_ERROR(c->WithRank(c->input(i), 1, &vec));
    RETURN_IF_ERROR(c->Merge(channels, c->Dim(vec, 0), &channels));
  }
  ShapeHandle y;
  RETURN_IF_ERROR(c->ReplaceDim(x, channel_index, channels, &y));
  c->set_output(0, y);
  const ShapeHandle vector = c->Vector(channels);
  for (int i = 1; i <= 4; ++i) c->set_output(i, vector);
  return absl::OkStatus();
}

absl::Status FusedBatchNormV3Shape(InferenceContext* c) {
  RETURN_IF_ERROR(FusedBatchNormShape(c));
  c->set_output(5, c->UnknownShape());
  return absl::OkStatus();
}

absl::Status FusedBatchNormGradShape(InferenceContext* c) {
  int rank;
  int channel_index;
  RETURN_IF_ERROR(BatchNormLayout(c, &rank, &channel_index));
  ShapeHandle y_backprop;
  ShapeHandle x;
  RETURN_IF_ERROR(c->WithRank(c->input(0), rank, &y_backprop));
  RETURN_IF_ERROR(c->WithRank(c->input(1), rank, &x));
  bool is_training;
  RETURN_IF_ERROR(c->GetAttr("is_training", &is_training));
  DimensionHandle channels;
  RETURN_IF_ERROR(c->Merge(c->Dim(y_backprop, channel_index), c->Dim(x, channel_index), &channels));
  // scale, reserve_space_1 (mean), reserve_space_2 (variance).
  for (int i = 2; i < 5; ++i) {
    ShapeHandle vec;
    RETURN_IF_ERROR(c->WithRank(c->input(i), 1, &vec));
    RETURN_IF_ERROR(c->Merge(channels, c->Dim(vec, 0), &channels));
  }
  ShapeHandle x_backprop;
  RETURN_IF_ERROR(c->ReplaceDim(y_backprop, channel_index, channels, &x_backprop));
  c->set_output(0, x_backprop);
  c->set_output(1, c->Vector(channels));
  c->set_output(2, c->Vector(channels));
  c->set_output(3, c->Vector(0));
  c->set_output(4, c->Vector(0));
  return absl::OkStatus();
}

}  // namespace shape_inference
}  // namespace sluice
