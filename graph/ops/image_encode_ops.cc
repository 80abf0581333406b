// Encoding images: EncodePng (any number of leading batch dims, one string per image),
// EncodeJpeg and EncodeJpegVariableQuality (one [height, width, channels] image, one string).
#include "graph/core/errors.h"
#include "graph/op/op_registry.h"
#include "graph/shape/common_shape_fns.h"

namespace sluice {

using shape_inference::InferenceContext;
using shape_inference::ShapeHandle;

namespace {

absl::Status OneImageToScalar(InferenceContext* c) {
  ShapeHandle unused;
  RETURN_IF_ERROR(c->WithRank(c->input(0), 3, &unused));
  c->set_output(0, c->Scalar());
  return absl::OkStatus();
}

}  // namespace

REGISTER_OP("EncodePng")
    .Attr("compression: int = -1")
    .Attr("T: {uint8, uint16} = DT_UINT8")
    .Input("image: T")
    .Output("contents: string")
    .SetShapeFn([](InferenceContext* c) {
      ShapeHandle image;
      RETURN_IF_ERROR(c->WithRankAtLeast(c->input(0), 3, &image));
      ShapeHandle batch;
      RETURN_IF_ERROR(c->Subshape(image, 0, -3, &batch));
      c->set_output(0, batch);
      return absl::OkStatus();
    });

REGISTER_OP("EncodeJpeg")
    .Input("image: uint8")
    .Attr("format: {'', 'grayscale', 'rgb'} = ''")
    .Attr("quality: int = 95")
    .Attr("progressive: bool = false")
    .Attr("optimize_size: bool = false")
    .Attr("chroma_downsampling: bool = true")
    .Attr("density_unit: {'in', 'cm'} = 'in'")
    .Attr("x_density: int = 300")
    .Attr("y_density: int = 300")
    .Attr("xmp_metadata: string = ''")
    .Output("contents: string")
    .SetShapeFn(OneImageToScalar);

REGISTER_OP("EncodeJpegVariableQuality")
    .Input("images: uint8")
    .Input("quality: int32")
    .Output("contents: string")
    .SetShapeFn(OneImageToScalar);

}  // namespace sluice
