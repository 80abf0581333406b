// TensorFlow's internal fused ops, which the remapper pass (passes/remapper.h) creates from
// a convolution or matrix product followed by its bias / batch normalization and activation.
// They never appear in user graphs; the names, signatures and attrs are TensorFlow's, so a
// rewritten graph reads as TensorFlow's own remapper would have left it.
#include <string>
#include <vector>

#include "graph/core/errors.h"
#include "graph/core/padding.h"
#include "graph/op/op_registry.h"
#include "graph/ops/fused_elementwise_spec.h"
#include "graph/ops/mlir_cluster_spec.h"
#include "graph/shape/common_shape_fns.h"
#include "graph/shape/shape_inference.h"

namespace sluice {

// conv(input, filter) then fused_ops applied in order with `args`: ["BiasAdd"] takes the
// bias; ["FusedBatchNorm"] takes scale, offset, mean and variance (inference) with epsilon;
// either may be followed by an activation ("Relu", "Relu6", "Elu", "LeakyRelu" with
// leakyrelu_alpha).
REGISTER_OP("_FusedConv2D")
    .Input("input: T")
    .Input("filter: T")
    .Input("args: TArgs")
    .Input("host_args : num_host_args * float")
    .Output("output: T")
    .Attr("T: {half, float, double, int8, qint8}")
    .Attr("TArgs: list(type)")
    .Attr("num_args: int >= 0")
    .Attr("num_host_args: int >= 0 =0")
    .Attr("strides: list(int)")
    .Attr("padding: {'SAME', 'VALID', 'EXPLICIT'}")
    .Attr("explicit_paddings: list(int) = []")
    .Attr("data_format: { 'NHWC', 'NCHW', 'NCHW_VECT_C' } = 'NHWC'")
    .Attr("filter_format: {'HWIO', 'OIHW', 'OIHW_VECT_I'} = 'HWIO'")
    .Attr("dilations: list(int) = [1, 1, 1, 1]")
    .Attr("use_cudnn_on_gpu: bool = true")
    .Attr("fused_ops: list(string) = []")
    .Attr("epsilon: float = 0.0001")
    .Attr("leakyrelu_alpha: float = 0.2")
    .SetShapeFn(shape_inference::Conv2DShapeWithExplicitPadding);

// depthwise_conv(input, filter) then fused_ops with `args`: ["BiasAdd"] and an optional
// activation ("Relu", "Relu6", "Elu", "LeakyRelu").
REGISTER_OP("_FusedDepthwiseConv2dNative")
    .Input("input: T")
    .Input("filter: T")
    .Input("args: num_args * T")
    .Output("output: T")
    .Attr("T: {half, bfloat16, float, double}")
    .Attr("num_args: int >= 0")
    .Attr("strides: list(int)")
    .Attr(GetPaddingAttrString())
    .Attr("data_format: {'NHWC', 'NCHW'} = 'NHWC'")
    .Attr("dilations: list(int) = [1, 1, 1, 1]")
    .Attr("fused_ops: list(string) = []")
    .Attr("epsilon: float = 0.0001")
    .Attr("leakyrelu_alpha: float = 0.2")
    .SetShapeFn(shape_inference::DepthwiseConv2DNativeShapeWithExplicitPadding);

// matmul(a, b) then fused_ops with `args`: ["BiasAdd"] and an optional activation ("Relu",
// "Relu6", "Elu", "LeakyRelu", "Tanh", "Sigmoid", "GeluApproximate", "GeluExact").
REGISTER_OP("_FusedMatMul")
    .Input("a: T")
    .Input("b: T")
    .Input("args: num_args * T")
    .Output("product: T")
    .Attr("transpose_a: bool = false")
    .Attr("transpose_b: bool = false")
    .Attr("T: {bfloat16, half, float}")
    .Attr("num_args: int >= 0")
    .Attr("fused_ops: list(string) = []")
    .Attr("epsilon: float = 0.0001")
    .Attr("leakyrelu_alpha: float = 0.2")
    .SetShapeFn(shape_inference::MatMulShape);

// Sluice's own: a chain of elementwise ops evaluated in one pass (fused_elementwise_spec.h
// describes `ops` and `operands`). The output has the broadcast shape of all inputs, which
// the fusion pass only creates when it is input 0's.
REGISTER_OP("_FusedElementwise")
    .Input("inputs: N * T")
    .Output("output: T")
    .Attr("T: {bfloat16, half, float, double}")
    .Attr("N: int >= 1")
    .Attr("ops: list(string)")
    .Attr("operands: list(int)")
    .SetShapeFn([](shape_inference::InferenceContext* c) -> absl::Status {
      std::vector<std::string> ops;
      std::vector<int64_t> operands;
      RETURN_IF_ERROR(c->GetAttr("ops", &ops));
      RETURN_IF_ERROR(c->GetAttr("operands", &operands));
      RETURN_IF_ERROR(ParseFusedElementwiseProgram(c->num_inputs(), ops, operands).status());
      shape_inference::ShapeHandle out = c->input(0);
      for (int i = 1; i < c->num_inputs(); ++i) {
        RETURN_IF_ERROR(shape_inference::BroadcastBinaryOpOutputShapeFnHelper(
            c, out, c->input(i), /*incompatible_shape_error=*/true, &out));
      }
      c->set_output(0, out);
      return absl::OkStatus();
    });

// A group of elementwise ops and last-axis reductions compiled as one kernel
// (graph/ops/mlir_cluster_spec.h). The output's shape follows the program: inputs broadcast
// through binary ops, and a reduction makes the last dim 1.
REGISTER_OP("_MlirCluster")
    .Input("inputs: N * T")
    .Output("output: T")
    .Attr("T: {float}")
    .Attr("N: int >= 1")
    .Attr("ops: list(string)")
    .Attr("operands: list(int)")
    .SetShapeFn([](shape_inference::InferenceContext* c) -> absl::Status {
      std::vector<std::string> ops;
      std::vector<int64_t> operands;
      RETURN_IF_ERROR(c->GetAttr("ops", &ops));
      RETURN_IF_ERROR(c->GetAttr("operands", &operands));
      ASSIGN_OR_RETURN(std::vector<FusedElementwiseStep> steps,
                       ParseClusterProgram(c->num_inputs(), ops, operands));
      std::vector<shape_inference::ShapeHandle> values;
      for (int i = 0; i < c->num_inputs(); ++i) values.push_back(c->input(i));
      for (const FusedElementwiseStep& step : steps) {
        shape_inference::ShapeHandle out = values[step.operands[0]];
        if (IsClusterReduction(step.op)) {
          if (c->RankKnown(out)) {
            if (c->Rank(out) == 0) {
              return errors::InvalidArgument("_MlirCluster reduces the last axis of a scalar");
            }
            RETURN_IF_ERROR(c->ReplaceDim(out, -1, c->MakeDim(1), &out));
          }
        } else if (step.arity == 2) {
          RETURN_IF_ERROR(shape_inference::BroadcastBinaryOpOutputShapeFnHelper(
              c, out, values[step.operands[1]], /*incompatible_shape_error=*/true, &out));
        }
        values.push_back(out);
      }
      c->set_output(0, values.back());
      return absl::OkStatus();
    });

// Sluice's own: a region of a GPU's graph run as one CUDA graph (passes/cuda_graph_clustering.h,
// kernels/cuda/graph/cuda_graph_op.cc). `body` is a serialized GraphDef of the region's nodes in
// an order that runs them (producers first); an input named "_cuda_graph_input:<i>" is this
// node's input i. Output i is the body's tensor `output_names[i]` ("node:port").
REGISTER_OP("_CudaGraph")
    .Input("inputs: Tin")
    .Output("outputs: Tout")
    .Attr("Tin: list(type) >= 0")
    .Attr("Tout: list(type) >= 1")
    .Attr("body: string")
    .Attr("output_names: list(string)")
    .SetIsStateful()
    .SetShapeFn(shape_inference::UnknownShape);

}  // namespace sluice
