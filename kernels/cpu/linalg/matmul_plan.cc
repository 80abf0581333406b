#include "kernels/cpu/linalg/matmul_plan.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "graph/core/errors.h"

namespace sluice {

absl::Status Validate(Flavor flavor, const TensorShape& x, const TensorShape& y) {
  if (flavor == Flavor::kMatMul) {
    if (x.dims() != 2) {
      return errors::InvalidArgument("In[0] is not a matrix. Instead it has shape ",
                                     x.DebugString());
    }
    if (y.dims() != 2) {
      return errors::InvalidArgument("In[1] is not a matrix. Instead it has shape ",
                                     y.DebugString());
    }
  } else if (flavor == Flavor::kBatchMatMul) {
    if (x.dims() != y.dims()) {
      return errors::InvalidArgument("In[0] and In[1] has different ndims: ", x.DebugString(),
                                     " vs. ", y.DebugString());
    }
    if (x.dims() < 2) {
      return errors::InvalidArgument("In[0] and In[1] ndims must be >= 2: ", x.dims());
    }
    for (int i = 0; i < x.dims() - 2; ++i) {
      if (x.dim_size(i) != y.dim_size(i)) {
        return errors::InvalidArgument("In[0].dim(", i, ") and In[1].dim(", i,
                                       ") must be the same: ", x.DebugString(), " vs ",
                                       y.DebugString());
      }
    }
  } else {
    if (x.dims() < 2) return errors::InvalidArgument("In[0] ndims must be >= 2: ", x.dims());
    if (y.dims() < 2) return errors::InvalidArgument("In[1] ndims must be >= 2: ", y.dims());
  }
  return absl::OkStatus();
}

absl::Status MakePlan(Flavor flavor, const TensorShape& x, const TensorShape& y, bool adj_x,
                      bool adj_y, MatMulPlan* plan) {
  const int xb = x.dims() - 2;
  const int yb = y.dims() - 2;
  const int rank = std::max(xb, yb);
  Dims out_dims;
  char last = 0;  // how the previous kept dim broadcasts: 'b'oth present, 'x' only, 'y' only
  for (int i = 0; i < rank; ++i) {
    const int64_t xd = i - (rank - xb) < 0 ? 1 : x.dim_size(i - (rank - xb));
    const int64_t yd = i - (rank - yb) < 0 ? 1 : y.dim_size(i - (rank - yb));
    if (xd != yd && xd != 1 && yd != 1) {
      return errors::InvalidArgument("In[0] and In[1] must have compatible batch dimensions: ",
                                     x.DebugString(), " vs. ", y.DebugString());
    }
    const int64_t d = xd == 1 ? yd : xd;
    out_dims.push_back(d);
    if (d == 1) continue;
    const char kind = xd == yd ? 'b' : (xd == 1 ? 'y' : 'x');
    if (kind == last) {
      plan->batch.back() *= d;
      if (kind != 'y') plan->x_batch.back() *= d;
      if (kind != 'x') plan->y_batch.back() *= d;
    } else {
      plan->batch.push_back(d);
      plan->x_batch.push_back(kind == 'y' ? 1 : d);
      plan->y_batch.push_back(kind == 'x' ? 1 : d);
    }
    last = kind;
  }
  const int64_t x0 = x.dim_size(xb), x1 = x.dim_size(xb + 1);
  const int64_t y0 = y.dim_size(yb), y1 = y.dim_size(yb + 1);
  plan->m = adj_x ? x1 : x0;
  plan->k = adj_x ? x0 : x1;
  const int64_t ky = adj_y ? y1 : y0;
  plan->n = adj_y ? y0 : y1;
  if (plan->k != ky) {
    // The batch flavors append the adjoint flags, as TensorFlow's messages do.
    return errors::InvalidArgument(
        "Matrix size-incompatible: In[0]: ", x.DebugString(), ", In[1]: ", y.DebugString(),
        flavor == Flavor::kMatMul ? "" : absl::StrCat(" ", adj_x ? 1 : 0, " ", adj_y ? 1 : 0));
  }
  plan->adj_x = adj_x;
  plan->adj_y = adj_y;
  out_dims.push_back(plan->m);
  out_dims.push_back(plan->n);
  RETURN_IF_ERROR(TensorShape::BuildTensorShape(out_dims, &plan->out_shape));
  // y shared by every batch entry and x stored row by row: the batches are rows of one
  // taller product (a Dense layer on [batch, sequence, features] is one matrix product, not
  // `batch` small ones), as TensorFlow's kernel also flattens them.
  const bool y_shared =
      std::all_of(plan->y_batch.begin(), plan->y_batch.end(), [](int64_t d) { return d == 1; });
  if (!adj_x && y_shared && !plan->batch.empty()) {
    for (int64_t d : plan->batch) plan->m *= d;
    plan->batch.clear();
    plan->x_batch.clear();
    plan->y_batch.clear();
  }
  return absl::OkStatus();
}

}  // namespace sluice
