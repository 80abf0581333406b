// Decoding encoded images: DecodeJpeg, DecodeAndCropJpeg, DecodePng, DecodeBmp, DecodeGif,
// DecodeImage and ExtractJpegShape. The output's height and width come from the data, so shape
// functions know only the channels (from the attr; unknown when 0; 3 for GIF's frames) and, for
// a crop, the window's size.
#include <cstdint>

#include "graph/core/errors.h"
#include "graph/core/integer_tensor.h"
#include "graph/op/op_registry.h"
#include "graph/shape/common_shape_fns.h"

namespace sluice {

using shape_inference::DimensionHandle;
using shape_inference::InferenceContext;
using shape_inference::ShapeHandle;

namespace {

absl::Status ChannelsDim(InferenceContext* c, DimensionHandle* dim) {
  int64_t channels = 0;
  RETURN_IF_ERROR(c->GetAttr("channels", &channels));
  if (channels < 0) return errors::InvalidArgument("channels must be non-negative, got ", channels);
  *dim = channels == 0 ? c->UnknownDim() : c->MakeDim(channels);
  return absl::OkStatus();
}

absl::Status DecodeImageShape(InferenceContext* c) {
  ShapeHandle unused;
  RETURN_IF_ERROR(c->WithRank(c->input(0), 0, &unused));
  DimensionHandle channels;
  RETURN_IF_ERROR(ChannelsDim(c, &channels));
  c->set_output(0, c->MakeShape({c->UnknownDim(), c->UnknownDim(), channels}));
  return absl::OkStatus();
}

}  // namespace

#define SLUICE_JPEG_ATTRS                          \
  Attr("channels: int = 0")                        \
      .Attr("ratio: int = 1")                      \
      .Attr("fancy_upscaling: bool = true")        \
      .Attr("try_recover_truncated: bool = false") \
      .Attr("acceptable_fraction: float = 1.0")    \
      .Attr("dct_method: string = ''")

REGISTER_OP("DecodeJpeg")
    .Input("contents: string")
    .SLUICE_JPEG_ATTRS.Output("image: uint8")
    .SetShapeFn(DecodeImageShape);

REGISTER_OP("DecodeAndCropJpeg")
    .Input("contents: string")
    .Input("crop_window: int32")
    .SLUICE_JPEG_ATTRS.Output("image: uint8")
    .SetShapeFn([](InferenceContext* c) {
      ShapeHandle unused;
      RETURN_IF_ERROR(c->WithRank(c->input(0), 0, &unused));
      DimensionHandle channels;
      RETURN_IF_ERROR(ChannelsDim(c, &channels));
      DimensionHandle height = c->UnknownDim(), width = c->UnknownDim();
      if (const Tensor* window = c->input_tensor(1); window != nullptr) {
        IntegerValues values;
        RETURN_IF_ERROR(IntegerTensorValues(*window, &values));
        if (values.size() != 4) {
          return errors::InvalidArgument("crop_window must have four elements, got ",
                                         values.size());
        }
        height = c->MakeDim(values[2]);
        width = c->MakeDim(values[3]);
      }
      c->set_output(0, c->MakeShape({height, width, channels}));
      return absl::OkStatus();
    });
#undef SLUICE_JPEG_ATTRS

REGISTER_OP("DecodePng")
    .Input("contents: string")
    .Attr("channels: int = 0")
    .Attr("dtype: {uint8, uint16} = DT_UINT8")
    .Output("image: dtype")
    .SetShapeFn(DecodeImageShape);

REGISTER_OP("DecodeBmp")
    .Input("contents: string")
    .Output("image: uint8")
    .Attr("channels: int = 0")
    .SetShapeFn(DecodeImageShape);

REGISTER_OP("DecodeGif")
    .Input("contents: string")
    .Output("image: uint8")
    .SetShapeFn([](InferenceContext* c) {
      ShapeHandle unused;
      RETURN_IF_ERROR(c->WithRank(c->input(0), 0, &unused));
      c->set_output(0, c->MakeShape({c->UnknownDim(), c->UnknownDim(), c->UnknownDim(), 3}));
      return absl::OkStatus();
    });

REGISTER_OP("DecodeImage")
    .Input("contents: string")
    .Attr("channels: int = 0")
    .Attr("dtype: {uint8, uint16, float} = DT_UINT8")
    .Output("image: dtype")
    .Attr("expand_animations: bool = true")
    .SetShapeFn([](InferenceContext* c) {
      bool expand_animations = true;
      RETURN_IF_ERROR(c->GetAttr("expand_animations", &expand_animations));
      if (expand_animations) {
        ShapeHandle unused;
        RETURN_IF_ERROR(c->WithRank(c->input(0), 0, &unused));
        DimensionHandle channels;
        RETURN_IF_ERROR(ChannelsDim(c, &channels));
        c->set_output(0, c->UnknownShape());
        return absl::OkStatus();
      }
      return DecodeImageShape(c);
    });

REGISTER_OP("ExtractJpegShape")
    .Input("contents: string")
    .Output("image_shape: output_type")
    .Attr("output_type: {int32, int64} = DT_INT32")
    .SetShapeFn([](InferenceContext* c) {
      ShapeHandle unused;
      RETURN_IF_ERROR(c->WithRank(c->input(0), 0, &unused));
      c->set_output(0, c->Vector(3));
      return absl::OkStatus();
    });

}  // namespace sluice
