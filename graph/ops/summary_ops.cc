// TensorFlow's TF1 summary ops: each turns tensors into a serialized `Summary` protocol buffer
// (proto/summary.proto), a scalar string that an event writer (io/event_writer.h) records for
// TensorBoard. Every output is a scalar whatever the inputs, as in TensorFlow: the inputs'
// shapes are checked by the kernels (kernels/cpu/summary/), not here, so a graph that
// TensorFlow builds always builds here too.
#include "graph/op/op_registry.h"
#include "graph/shape/common_shape_fns.h"

namespace sluice {

// One Summary.Value per (tag, value) pair, simple_value = float(value). `tags` and `values`
// must have the same shape.
REGISTER_OP("ScalarSummary")
    .Input("tags: string")
    .Input("values: T")
    .Output("summary: string")
    .Attr("T: realnumbertype")
    .SetShapeFn(shape_inference::ScalarShape);

// One Summary.Value whose histo holds every value of `values` in TensorFlow's default buckets;
// a NaN or infinity fails the step.
REGISTER_OP("HistogramSummary")
    .Input("tag: string")
    .Input("values: T")
    .Output("summary: string")
    .Attr("T: realnumbertype = DT_FLOAT")
    .SetShapeFn(shape_inference::ScalarShape);

// One Summary.Value: the tag, the tensor as a TensorProto and the parsed metadata (which
// names the TensorBoard plugin that reads it: "scalars", "histograms", "images", ...).
REGISTER_OP("TensorSummaryV2")
    .Input("tag: string")
    .Input("tensor: T")
    .Input("serialized_summary_metadata: string")
    .Output("summary: string")
    .Attr("T: type")
    .SetShapeFn(shape_inference::ScalarShape);

// The older form of TensorSummaryV2: no tag (the value carries the node's name) and attrs
// that TensorFlow's kernel ignores.
REGISTER_OP("TensorSummary")
    .Input("tensor: T")
    .Output("summary: string")
    .Attr("T: type")
    .Attr("description: string = ''")
    .Attr("labels: list(string) = []")
    .Attr("display_name: string = ''")
    .SetShapeFn(shape_inference::ScalarShape);

// Up to max_images PNG images from a [batch, height, width, channels] tensor (channels 1, 3 or
// 4); float images are scaled into [0, 255] and non-finite pixels painted bad_color.
// (TensorFlow's spec writes float64, which names the same type as double.)
REGISTER_OP("ImageSummary")
    .Input("tag: string")
    .Input("tensor: T")
    .Output("summary: string")
    .Attr("max_images: int >= 1 = 3")
    .Attr("T: {uint8, float, half, double} = DT_FLOAT")
    .Attr(
        "bad_color: tensor = { dtype: DT_UINT8 tensor_shape: { dim { size: 4 } } "
        "int_val: 255 int_val: 0 int_val: 0 int_val: 255 }")
    .SetShapeFn(shape_inference::ScalarShape);

// Up to max_outputs 16-bit PCM WAV clips from a [batch, frames] or [batch, frames, channels]
// tensor of samples in [-1, 1].
REGISTER_OP("AudioSummaryV2")
    .Input("tag: string")
    .Input("tensor: float")
    .Input("sample_rate: float")
    .Output("summary: string")
    .Attr("max_outputs: int >= 1 = 3")
    .SetShapeFn(shape_inference::ScalarShape);

// AudioSummaryV2 with the sample rate as an attr; deprecated at GraphDef version 15.
REGISTER_OP("AudioSummary")
    .Input("tag: string")
    .Input("tensor: float")
    .Output("summary: string")
    .Attr("sample_rate: float")
    .Attr("max_outputs: int >= 1 = 3")
    .SetShapeFn(shape_inference::ScalarShape)
    .Deprecated(15, "Use AudioSummaryV2.");

// The values of every serialized Summary in every input, in order; a tag seen twice fails the
// step.
REGISTER_OP("MergeSummary")
    .Input("inputs: N * string")
    .Output("summary: string")
    .Attr("N : int >= 1")
    .SetShapeFn(shape_inference::ScalarShape);

}  // namespace sluice
