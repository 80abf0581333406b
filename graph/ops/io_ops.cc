// TensorFlow's checkpoint ops (its io_ops family): V2 checkpoints (tensor bundles) saved,
// restored and merged, and the names of sharded files.
#include <cstdint>
#include <string>

#include "graph/core/errors.h"
#include "graph/core/tensor.h"
#include "graph/op/op_registry.h"
#include "graph/ops/shape_and_slice_spec.h"
#include "graph/shape/common_shape_fns.h"
#include "graph/shape/shape_inference.h"

namespace sluice {
namespace {

using shape_inference::DimensionHandle;
using shape_inference::InferenceContext;
using shape_inference::ShapeHandle;

// A scalar prefix and two vectors of names and specs of one length; each output's shape comes
// from its spec when the specs are known ("" is a whole tensor of unknown shape).
absl::Status RestoreV2Shape(InferenceContext* c) {
  ShapeHandle prefix, names, specs;
  RETURN_IF_ERROR(c->WithRank(c->input(0), 0, &prefix));
  RETURN_IF_ERROR(c->WithRank(c->input(1), 1, &names));
  RETURN_IF_ERROR(c->WithRank(c->input(2), 1, &specs));
  RETURN_IF_ERROR(c->Merge(names, specs, &prefix));
  const Tensor* specs_tensor = c->input_tensor(2);
  if (specs_tensor == nullptr) return shape_inference::UnknownShape(c);
  if (specs_tensor->dtype() != DT_STRING) {
    return errors::InvalidArgument("Expected an input tensor of type string.");
  }
  if (specs_tensor->NumElements() != c->num_outputs()) {
    return errors::InvalidArgument("The number of shape_and_slice doesn't match tensor outputs.");
  }
  const std::string* spec = specs_tensor->base<std::string>();
  for (int i = 0; i < c->num_outputs(); ++i) {
    if (spec[i].empty()) {
      c->set_output(i, c->UnknownShape());
      continue;
    }
    ShapeAndSlice parsed;
    RETURN_IF_ERROR(ParseShapeAndSlice(spec[i], &parsed));
    ShapeHandle out;
    RETURN_IF_ERROR(c->MakeShapeFromTensorShape(parsed.slice_shape, &out));
    c->set_output(i, out);
  }
  return absl::OkStatus();
}

absl::Status SaveV2Shape(InferenceContext* c) {
  ShapeHandle unused;
  RETURN_IF_ERROR(c->WithRank(c->input(0), 0, &unused));
  for (int i = 1; i <= 2; ++i) {
    ShapeHandle s;
    DimensionHandle unused_dim;
    RETURN_IF_ERROR(c->WithRank(c->input(i), 1, &s));
    RETURN_IF_ERROR(c->WithValue(c->Dim(s, 0), c->num_inputs() - 3, &unused_dim));
  }
  return absl::OkStatus();
}

// Every input a scalar, one scalar output.
absl::Status ScalarInputsAndOutputs(InferenceContext* c) {
  ShapeHandle unused;
  for (int i = 0; i < c->num_inputs(); ++i) {
    RETURN_IF_ERROR(c->WithRank(c->input(i), 0, &unused));
  }
  c->set_output(0, c->Scalar());
  return absl::OkStatus();
}

absl::Status MergeV2CheckpointsShape(InferenceContext* c) {
  ShapeHandle unused;
  RETURN_IF_ERROR(c->WithRank(c->input(0), 1, &unused));
  return c->WithRank(c->input(1), 0, &unused);
}

REGISTER_OP("SaveV2")
    .Input("prefix: string")
    .Input("tensor_names: string")
    .Input("shape_and_slices: string")
    .Input("tensors: dtypes")
    .Attr("dtypes: list(type) >= 1")
    .SetIsStateful()
    .SetShapeFn(SaveV2Shape);

REGISTER_OP("RestoreV2")
    .Input("prefix: string")
    .Input("tensor_names: string")
    .Input("shape_and_slices: string")
    .Output("tensors: dtypes")
    .Attr("dtypes: list(type) >= 1")
    .SetIsStateful()
    .SetShapeFn(RestoreV2Shape);

REGISTER_OP("MergeV2Checkpoints")
    .Input("checkpoint_prefixes: string")
    .Input("destination_prefix: string")
    .Attr("delete_old_dirs: bool = true")
    .Attr("allow_missing_files: bool = false")
    .SetIsStateful()
    .SetShapeFn(MergeV2CheckpointsShape);

REGISTER_OP("ShardedFilename")
    .Input("basename: string")
    .Input("shard: int32")
    .Input("num_shards: int32")
    .Output("filename: string")
    .SetShapeFn(ScalarInputsAndOutputs);

REGISTER_OP("ShardedFilespec")
    .Input("basename: string")
    .Input("num_shards: int32")
    .Output("filename: string")
    .SetShapeFn(ScalarInputsAndOutputs);

}  // namespace
}  // namespace sluice
