#include "kernels/cuda/linalg/einsum_pass.h"

#include "graph/core/errors.h"

namespace sluice {
namespace cuda {

absl::Status ToPassShape(const einsum::StridedPass& pass, PassShape* shape) {
  if (pass.dims.size() > kMaxPassDims || pass.reduce_dims.size() > kMaxPassDims) {
    return errors::Unimplemented("Einsum on GPUs: a pass over ", pass.dims.size(), " and ",
                                 pass.reduce_dims.size(), " dims is past the ", kMaxPassDims,
                                 " each it takes");
  }
  *shape = PassShape();
  shape->kept_dims = static_cast<int>(pass.dims.size());
  shape->reduce_dims = static_cast<int>(pass.reduce_dims.size());
  for (int d = 0; d < shape->kept_dims; ++d) {
    shape->dims[d] = pass.dims[d];
    shape->src_strides[d] = pass.src_strides[d];
    shape->dst_strides[d] = pass.dst_strides[d];
  }
  for (int d = 0; d < shape->reduce_dims; ++d) {
    shape->reduce[d] = pass.reduce_dims[d];
    shape->reduce_strides[d] = pass.reduce_strides[d];
  }
  shape->kept = pass.NumKept();
  shape->reduced = pass.NumReduced();
  return absl::OkStatus();
}

MatMulPlan ProductOf(const einsum::Plan& plan) {
  MatMulPlan product;
  product.m = plan.m;
  product.k = plan.k;
  product.n = plan.n;
  // heap-ok: one per merged batch dim of the equation (rank <= 254)
  product.batch.assign(plan.batch.begin(), plan.batch.end());
  // heap-ok: as batch
  product.x_batch.assign(plan.x_batch.begin(), plan.x_batch.end());
  // heap-ok: as batch
  product.y_batch.assign(plan.y_batch.begin(), plan.y_batch.end());
  product.adj_x = plan.x.transposed;
  product.adj_y = plan.y.transposed;
  return product;
}

}  // namespace cuda
}  // namespace sluice
