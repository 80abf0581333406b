// Sparse ops: SparseToDense, the crosses of sparse and dense feature columns (Keras's
// HashedCrossing emits SparseCross with hashed output), and the ops on SparseTensors that
// tf.sparse and feature columns build (fill empty rows, reshape, reorder, matmul, add,
// reductions, slice, concat, split, softmax, elementwise ops), with TensorFlow's shape functions.
#include "graph/core/errors.h"
#include "graph/op/op_registry.h"
#include "graph/shape/common_shape_fns.h"

namespace sluice {
namespace {

// The crosses: a [?, 2] index matrix, a vector of values and the 2-element dense shape.
absl::Status SparseCrossShape(shape_inference::InferenceContext* c) {
  c->set_output(0, c->Matrix(c->UnknownDim(), 2));
  c->set_output(1, c->Vector(c->UnknownDim()));
  c->set_output(2, c->Vector(2));
  return absl::OkStatus();
}

using shape_inference::DimensionHandle;
using shape_inference::InferenceContext;
using shape_inference::ShapeHandle;

// Checks input `i` has rank `rank`; the handle is dropped.
absl::Status RequireRank(InferenceContext* c, int i, int64_t rank) {
  ShapeHandle unused;
  return c->WithRank(c->input(i), rank, &unused);
}

absl::Status SparseSparseMinOrMaxShape(InferenceContext* c) {
  for (int i = 0; i < 6; ++i) RETURN_IF_ERROR(RequireRank(c, i, i % 3 == 0 ? 2 : 1));
  c->set_output(0, c->Matrix(c->UnknownDim(), c->UnknownDim()));
  c->set_output(1, c->Vector(c->UnknownDim()));
  return absl::OkStatus();
}

// The sparse-dense elementwise ops: one value per row of sp_indices.
absl::Status SparseDenseCwiseShape(InferenceContext* c) {
  ShapeHandle indices;
  RETURN_IF_ERROR(c->WithRank(c->input(0), 2, &indices));
  c->set_output(0, c->Vector(c->Dim(indices, 0)));
  return absl::OkStatus();
}

// SparseSlice and SparseSplit: [?, rank] indices, [?] values and the input's shape vector.
void SparseSubsetShapes(InferenceContext* c, ShapeHandle input_shape, int copies) {
  const ShapeHandle indices = c->Matrix(c->UnknownDim(), c->NumElements(input_shape));
  const ShapeHandle values = c->Vector(c->UnknownDim());
  for (int i = 0; i < copies; ++i) {
    c->set_output(i, indices);
    c->set_output(copies + i, values);
    c->set_output(2 * copies + i, input_shape);
  }
}

}  // namespace

REGISTER_OP("SparseToDense")
    .Input("sparse_indices: Tindices")
    .Input("output_shape: Tindices")
    .Input("sparse_values: T")
    .Input("default_value: T")
    .Attr("validate_indices: bool = true")
    .Attr("T: type")
    .Output("dense: T")
    .Attr("Tindices: {int32, int64}")
    .SetShapeFn([](shape_inference::InferenceContext* c) {
      shape_inference::ShapeHandle out;
      RETURN_IF_ERROR(c->MakeShapeFromShapeTensor(1, &out));
      c->set_output(0, out);
      return absl::OkStatus();
    });

REGISTER_OP("SparseCross")
    .Input("indices: N * int64")
    .Input("values: sparse_types")
    .Input("shapes: N * int64")
    .Input("dense_inputs: dense_types")
    .Output("output_indices: int64")
    .Output("output_values: out_type")
    .Output("output_shape: int64")
    .Attr("N: int >= 0")
    .Attr("hashed_output: bool")
    .Attr("num_buckets: int >= 0")
    .Attr("hash_key: int")
    .Attr("sparse_types: list({int64, string}) >= 0")
    .Attr("dense_types: list({int64, string}) >= 0")
    .Attr("out_type: {int64, string}")
    .Attr("internal_type: {int64, string}")
    .SetShapeFn(SparseCrossShape);

REGISTER_OP("SparseCrossV2")
    .Input("indices: N * int64")
    .Input("values: sparse_types")
    .Input("shapes: N * int64")
    .Input("dense_inputs: dense_types")
    .Input("sep: string")
    .Output("output_indices: int64")
    .Output("output_values: string")
    .Output("output_shape: int64")
    .Attr("N: int >= 0")
    .Attr("sparse_types: list({int64, string}) >= 0")
    .Attr("dense_types: list({int64, string}) >= 0")
    .SetShapeFn(SparseCrossShape);

REGISTER_OP("SparseCrossHashed")
    .Input("indices: N * int64")
    .Input("values: sparse_types")
    .Input("shapes: N * int64")
    .Input("dense_inputs: dense_types")
    .Input("num_buckets: int64")
    .Input("strong_hash: bool")
    .Input("salt: int64")
    .Output("output_indices: int64")
    .Output("output_values: int64")
    .Output("output_shape: int64")
    .Attr("N: int >= 0")
    .Attr("sparse_types: list({int64, string}) >= 0")
    .Attr("dense_types: list({int64, string}) >= 0")
    .SetShapeFn(SparseCrossShape);

REGISTER_OP("SparseFillEmptyRows")
    .Input("indices: int64")
    .Input("values: T")
    .Input("dense_shape: int64")
    .Input("default_value: T")
    .Output("output_indices: int64")
    .Output("output_values: T")
    .Output("empty_row_indicator: bool")
    .Output("reverse_index_map: int64")
    .Attr("T: type")
    .SetShapeFn([](InferenceContext* c) {
      ShapeHandle indices, values, dense_shape, unused;
      RETURN_IF_ERROR(c->WithRank(c->input(0), 2, &indices));
      RETURN_IF_ERROR(c->WithRank(c->input(1), 1, &values));
      RETURN_IF_ERROR(c->WithRank(c->input(2), 1, &dense_shape));
      RETURN_IF_ERROR(c->WithRank(c->input(3), 0, &unused));
      DimensionHandle n = c->Dim(indices, 0);
      RETURN_IF_ERROR(c->Merge(n, c->Dim(values, 0), &n));
      DimensionHandle unused_dim;
      RETURN_IF_ERROR(c->Merge(c->Dim(indices, 1), c->Dim(dense_shape, 0), &unused_dim));
      ShapeHandle known_shape;
      RETURN_IF_ERROR(c->MakeShapeFromShapeTensor(2, &known_shape));
      c->set_output(0, c->Matrix(c->UnknownDim(), c->NumElements(dense_shape)));
      c->set_output(1, c->Vector(c->UnknownDim()));
      c->set_output(2, c->Vector(c->Dim(known_shape, 0)));
      c->set_output(3, c->Vector(n));
      return absl::OkStatus();
    });

REGISTER_OP("SparseFillEmptyRowsGrad")
    .Input("reverse_index_map: int64")
    .Input("grad_values: T")
    .Output("d_values: T")
    .Output("d_default_value: T")
    .Attr("T: type")
    .SetShapeFn([](InferenceContext* c) {
      ShapeHandle reverse_index_map;
      RETURN_IF_ERROR(c->WithRank(c->input(0), 1, &reverse_index_map));
      RETURN_IF_ERROR(RequireRank(c, 1, 1));
      c->set_output(0, reverse_index_map);
      c->set_output(1, c->Scalar());
      return absl::OkStatus();
    });

REGISTER_OP("SparseReshape")
    .Input("input_indices: int64")
    .Input("input_shape: int64")
    .Input("new_shape: int64")
    .Output("output_indices: int64")
    .Output("output_shape: int64")
    .SetShapeFn([](InferenceContext* c) {
      ShapeHandle indices, new_shape;
      RETURN_IF_ERROR(c->WithRank(c->input(0), 2, &indices));
      RETURN_IF_ERROR(RequireRank(c, 1, 1));
      RETURN_IF_ERROR(c->WithRank(c->input(2), 1, &new_shape));
      c->set_output(0, c->Matrix(c->Dim(indices, 0), c->Dim(new_shape, 0)));
      c->set_output(1, new_shape);
      return absl::OkStatus();
    });

REGISTER_OP("SparseReorder")
    .Input("input_indices: int64")
    .Input("input_values: T")
    .Input("input_shape: int64")
    .Output("output_indices: int64")
    .Output("output_values: T")
    .Attr("T: type")
    .SetShapeFn([](InferenceContext* c) {
      ShapeHandle indices, values;
      RETURN_IF_ERROR(c->WithRank(c->input(0), 2, &indices));
      RETURN_IF_ERROR(c->WithRank(c->input(1), 1, &values));
      RETURN_IF_ERROR(RequireRank(c, 2, 1));
      c->set_output(0, indices);
      c->set_output(1, values);
      return absl::OkStatus();
    });

REGISTER_OP("SparseTensorDenseMatMul")
    .Input("a_indices: Tindices")
    .Input("a_values: T")
    .Input("a_shape: int64")
    .Input("b: T")
    .Output("product: T")
    .Attr("T: type")
    .Attr("Tindices: {int32,int64} = DT_INT64")
    .Attr("adjoint_a: bool = false")
    .Attr("adjoint_b: bool = false")
    .SetShapeFn([](InferenceContext* c) {
      RETURN_IF_ERROR(RequireRank(c, 0, 2));
      RETURN_IF_ERROR(RequireRank(c, 1, 1));
      ShapeHandle a_shape, b;
      RETURN_IF_ERROR(c->MakeShapeFromShapeTensor(2, &a_shape));
      RETURN_IF_ERROR(c->WithRankAtLeast(a_shape, 2, &a_shape));
      RETURN_IF_ERROR(c->WithRankAtLeast(c->input(3), 2, &b));
      ShapeHandle a_batch, b_batch;
      RETURN_IF_ERROR(c->Subshape(a_shape, 0, -2, &a_batch));
      RETURN_IF_ERROR(c->Subshape(b, 0, -2, &b_batch));
      RETURN_IF_ERROR(c->Merge(a_batch, b_batch, &b_batch));
      bool adjoint_a = false;
      bool adjoint_b = false;
      RETURN_IF_ERROR(c->GetAttr("adjoint_a", &adjoint_a));
      RETURN_IF_ERROR(c->GetAttr("adjoint_b", &adjoint_b));
      DimensionHandle unused;
      RETURN_IF_ERROR(
          c->Merge(c->Dim(a_shape, adjoint_a ? -2 : -1), c->Dim(b, adjoint_b ? -1 : -2), &unused));
      ShapeHandle out;
      RETURN_IF_ERROR(c->Concatenate(
          b_batch, c->Matrix(c->Dim(a_shape, adjoint_a ? -1 : -2), c->Dim(b, adjoint_b ? -2 : -1)),
          &out));
      c->set_output(0, out);
      return absl::OkStatus();
    });

REGISTER_OP("SparseAdd")
    .Input("a_indices: int64")
    .Input("a_values: T")
    .Input("a_shape: int64")
    .Input("b_indices: int64")
    .Input("b_values: T")
    .Input("b_shape: int64")
    .Input("thresh: Treal")
    .Output("sum_indices: int64")
    .Output("sum_values: T")
    .Output("sum_shape: int64")
    .Attr("T: numbertype")
    .Attr("Treal: realnumbertype")
    .SetShapeFn([](InferenceContext* c) {
      ShapeHandle a_shape;
      RETURN_IF_ERROR(c->WithRank(c->input(2), 1, &a_shape));
      c->set_output(0, c->Matrix(c->UnknownDim(), c->Dim(a_shape, 0)));
      c->set_output(1, c->Vector(c->UnknownDim()));
      c->set_output(2, a_shape);
      return absl::OkStatus();
    });

REGISTER_OP("SparseAddGrad")
    .Input("backprop_val_grad: T")
    .Input("a_indices: int64")
    .Input("b_indices: int64")
    .Input("sum_indices: int64")
    .Output("a_val_grad: T")
    .Output("b_val_grad: T")
    .Attr("T: numbertype")
    .SetShapeFn([](InferenceContext* c) {
      ShapeHandle a_indices, b_indices;
      RETURN_IF_ERROR(c->WithRank(c->input(1), 2, &a_indices));
      RETURN_IF_ERROR(c->WithRank(c->input(2), 2, &b_indices));
      c->set_output(0, c->Vector(c->Dim(a_indices, 0)));
      c->set_output(1, c->Vector(c->Dim(b_indices, 0)));
      return absl::OkStatus();
    });

REGISTER_OP("SparseTensorDenseAdd")
    .Input("a_indices: Tindices")
    .Input("a_values: T")
    .Input("a_shape: Tindices")
    .Input("b: T")
    .Output("output: T")
    .Attr("T: numbertype")
    .Attr("Tindices: {int32, int64}")
    .SetShapeFn([](InferenceContext* c) {
      c->set_output(0, c->input(3));
      return absl::OkStatus();
    });

#define SLUICE_SPARSE_REDUCE_OP(name, types) \
  REGISTER_OP(name)                          \
      .Input("input_indices: int64")         \
      .Input("input_values: T")              \
      .Input("input_shape: int64")           \
      .Input("reduction_axes: int32")        \
      .Attr("keep_dims: bool = False")       \
      .Output("output: T")                   \
      .Attr("T: " types)                     \
      .SetShapeFn(shape_inference::UnknownShape)
#define SLUICE_SPARSE_REDUCE_SPARSE_OP(name, types) \
  REGISTER_OP(name)                                 \
      .Input("input_indices: int64")                \
      .Input("input_values: T")                     \
      .Input("input_shape: int64")                  \
      .Input("reduction_axes: int32")               \
      .Attr("keep_dims: bool = False")              \
      .Output("output_indices: int64")              \
      .Output("output_values: T")                   \
      .Output("output_shape: int64")                \
      .Attr("T: " types)                            \
      .SetShapeFn(shape_inference::UnknownShape)

SLUICE_SPARSE_REDUCE_OP("SparseReduceSum", "numbertype");
SLUICE_SPARSE_REDUCE_OP("SparseReduceMax", "realnumbertype");
SLUICE_SPARSE_REDUCE_SPARSE_OP("SparseReduceSumSparse", "numbertype");
SLUICE_SPARSE_REDUCE_SPARSE_OP("SparseReduceMaxSparse", "realnumbertype");
#undef SLUICE_SPARSE_REDUCE_OP
#undef SLUICE_SPARSE_REDUCE_SPARSE_OP

REGISTER_OP("SparseSlice")
    .Input("indices: int64")
    .Input("values: T")
    .Input("shape: int64")
    .Input("start: int64")
    .Input("size: int64")
    .Output("output_indices: int64")
    .Output("output_values: T")
    .Output("output_shape: int64")
    .Attr("T: type")
    .SetShapeFn([](InferenceContext* c) {
      SparseSubsetShapes(c, c->input(2), 1);
      return absl::OkStatus();
    });

REGISTER_OP("SparseConcat")
    .Input("indices: N * int64")
    .Input("values: N * T")
    .Input("shapes: N * int64")
    .Output("output_indices: int64")
    .Output("output_values: T")
    .Output("output_shape: int64")
    .Attr("concat_dim: int")
    .Attr("N: int >= 2")
    .Attr("T: type")
    .SetShapeFn([](InferenceContext* c) {
      DimensionHandle rows = c->MakeDim(0);
      DimensionHandle cols = c->UnknownDim();
      ShapeHandle shape = c->UnknownShape();
      const int n = c->num_inputs() / 3;
      for (int i = 0; i < n; ++i) {
        ShapeHandle ind, val, shp;
        RETURN_IF_ERROR(c->WithRank(c->input(i), 2, &ind));
        RETURN_IF_ERROR(c->WithRank(c->input(i + n), 1, &val));
        RETURN_IF_ERROR(c->WithRank(c->input(i + 2 * n), 1, &shp));
        DimensionHandle nnz;
        RETURN_IF_ERROR(c->Merge(c->Dim(ind, 0), c->Dim(val, 0), &nnz));
        RETURN_IF_ERROR(c->Add(rows, nnz, &rows));
        RETURN_IF_ERROR(c->Merge(cols, c->Dim(ind, 1), &cols));
        RETURN_IF_ERROR(c->Merge(shape, shp, &shape));
      }
      c->set_output(0, c->Matrix(rows, cols));
      c->set_output(1, c->Vector(rows));
      c->set_output(2, shape);
      return absl::OkStatus();
    });

REGISTER_OP("SparseSplit")
    .Input("split_dim: int64")
    .Input("indices: int64")
    .Input("values: T")
    .Input("shape: int64")
    .Output("output_indices: num_split * int64")
    .Output("output_values:  num_split * T")
    .Output("output_shape:   num_split * int64")
    .Attr("num_split: int >= 1")
    .Attr("T: type")
    .SetShapeFn([](InferenceContext* c) {
      SparseSubsetShapes(c, c->input(3), c->num_outputs() / 3);
      return absl::OkStatus();
    });

REGISTER_OP("SparseSoftmax")
    .Input("sp_indices: int64")
    .Input("sp_values: T")
    .Input("sp_shape: int64")
    .Output("output: T")
    .Attr("T: {half, float, double}")
    .SetShapeFn([](InferenceContext* c) {
      ShapeHandle values;
      RETURN_IF_ERROR(RequireRank(c, 0, 2));
      RETURN_IF_ERROR(c->WithRank(c->input(1), 1, &values));
      RETURN_IF_ERROR(RequireRank(c, 2, 1));
      c->set_output(0, values);
      return absl::OkStatus();
    });

#define SLUICE_SPARSE_DENSE_CWISE_OP(name) \
  REGISTER_OP(name)                        \
      .Input("sp_indices: int64")          \
      .Input("sp_values: T")               \
      .Input("sp_shape: int64")            \
      .Input("dense: T")                   \
      .Output("output: T")                 \
      .Attr("T: numbertype")               \
      .SetShapeFn(SparseDenseCwiseShape)

SLUICE_SPARSE_DENSE_CWISE_OP("SparseDenseCwiseAdd");
SLUICE_SPARSE_DENSE_CWISE_OP("SparseDenseCwiseMul");
SLUICE_SPARSE_DENSE_CWISE_OP("SparseDenseCwiseDiv");
#undef SLUICE_SPARSE_DENSE_CWISE_OP

#define SLUICE_SPARSE_SPARSE_OP(name, types) \
  REGISTER_OP(name)                          \
      .Input("a_indices: int64")             \
      .Input("a_values: T")                  \
      .Input("a_shape: int64")               \
      .Input("b_indices: int64")             \
      .Input("b_values: T")                  \
      .Input("b_shape: int64")               \
      .Output("output_indices: int64")       \
      .Output("output_values: T")            \
      .Attr("T: " types)                     \
      .SetShapeFn(SparseSparseMinOrMaxShape)

SLUICE_SPARSE_SPARSE_OP("SparseSparseMaximum", "realnumbertype");
SLUICE_SPARSE_SPARSE_OP("SparseSparseMinimum", "numbertype");
#undef SLUICE_SPARSE_SPARSE_OP

}  // namespace sluice
