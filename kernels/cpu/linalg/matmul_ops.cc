// MatMul, BatchMatMul, BatchMatMulV2 and BatchMatMulV3 on the CPU: out = op(x) * op(y) per batch
// entry, where op transposes when transpose_a/transpose_b (adj_x/adj_y) say so; for complex
// types the batch ops' adj_x/adj_y take the adjoint (conjugate transpose), MatMul's transposes
// do not conjugate. BatchMatMulV3 casts x and y to Tout first (uint8/int8 with bfloat16 or
// each other, as TensorFlow registers it) and then multiplies as V2 does.
//
// Algorithm:
//  1. Validate as TensorFlow does (MatMul: both inputs matrices; BatchMatMul: equal ranks and
//     batch dims; V2: numpy broadcasting of the batch dims), then build a plan: M, K, N and
//     the batch dims with neighbours that broadcast alike merged, so any rank becomes a short
//     list of dims that oneDNN (at most 12 dims) or the plain loop can walk. When y is the
//     same for every batch entry and x is not transposed, the batches fold into M: one
//     matrix product.
//  2. float and bfloat16 run one oneDNN matmul primitive over all batches (transposes are
//     strides, broadcast batch dims have size 1 in that operand); half is widened to float
//     for it and rounded back, as TensorFlow's CPU kernels compute half in float. Primitives
//     are cached per kernel, keyed by the plan. A read-only float y (a Const) whose rows are
//     a multiple of 4 KiB long is multiplied as a copy with padded rows (padded_rows.h).
//  3. double, complex and the integer types use a plain row loop split over the intra-op
//     pool; integer products wrap on overflow as in TensorFlow (computed unsigned, so
//     defined).
// K == 0 gives zeros; an empty output returns at once.
#include <algorithm>
#include <complex>
#include <cstdint>
#include <memory>
#include <type_traits>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/container/inlined_vector.h"
#include "absl/strings/str_cat.h"
#include "absl/synchronization/mutex.h"
#include "graph/core/errors.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_shape.h"
#include "graph/core/tensor_types.h"
#include "graph/core/types.h"
#include "kernels/cpu/linalg/matmul_plan.h"
#include "kernels/cpu/linalg/onednn_args.h"
#include "kernels/cpu/linalg/onednn_util.h"
#include "kernels/cpu/linalg/padded_rows.h"
#include "kernels/cpu/parallel_for.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace {

// One cached oneDNN matmul.
struct MatMulPrimitive {
  dnnl::matmul::primitive_desc pd;
  dnnl::matmul primitive;
  std::unique_ptr<OneDnnArgPool> args;
};

// y_row_stride: 0 for y as stored, else the elements between rows of a padded copy of y (a
// single k x n matrix, not transposed).
std::shared_ptr<MatMulPrimitive> CreateMatMul(const MatMulPlan& p, dnnl::memory::data_type type,
                                              int64_t y_row_stride) {
  const dnnl::memory::dims y_strides =
      y_row_stride != 0
          ? BatchedMatrixStrides(p.y_batch, p.k, y_row_stride, false)
          : BatchedMatrixStrides(p.y_batch, p.adj_y ? p.n : p.k, p.adj_y ? p.k : p.n, p.adj_y);
  auto prim = std::make_shared<MatMulPrimitive>();
  prim->pd = BatchedMatMulDesc(
      type, p.x_batch, p.y_batch, p.batch, p.m, p.k, p.n,
      BatchedMatrixStrides(p.x_batch, p.adj_x ? p.k : p.m, p.adj_x ? p.m : p.k, p.adj_x),
      y_strides);
  prim->primitive = dnnl::matmul(prim->pd);
  prim->args = OneDnnArgPool::ForMatMul(prim->pd, /*with_bias=*/false);
  return prim;
}

bool PadsRowsOf(const MatMulPlan& p, const Tensor& y) {
  const bool single_matrix =
      std::all_of(p.y_batch.begin(), p.y_batch.end(), [](int64_t d) { return d == 1; });
  return !p.adj_y && single_matrix && PaddedRowsCopy::Applies(y, p.k, p.n);
}

// Integers accumulate in uint64_t: overflow then wraps (defined behaviour), and truncating
// to T gives TensorFlow's wrapped result.
template <typename T>
using AccumType = std::conditional_t<std::is_integral_v<T>, uint64_t, T>;

template <typename T>
constexpr bool kIsComplex = std::is_same_v<T, complex64> || std::is_same_v<T, complex128>;

// v, conjugated when `conjugate` is set and T is complex.
template <typename T>
inline T MaybeConj(T v, bool conjugate) {
  if constexpr (kIsComplex<T>) {
    return conjugate ? std::conj(v) : v;
  } else {
    return v;
  }
}

// Rows [first, last) of the flattened (batch, m) output, one product per row. `acc` is
// scratch of p.n accumulators. A transposed operand is conjugated too when `adjoint` is set.
template <typename T>
void ReferenceRows(const MatMulPlan& p, bool adjoint, const T* x, const T* y, T* out, int64_t first,
                   int64_t last, AccumType<T>* acc) {
  const bool conj_x = adjoint && p.adj_x;
  const bool conj_y = adjoint && p.adj_y;
  using A = AccumType<T>;
  const size_t nb = p.batch.size();
  for (int64_t row = first; row < last; ++row) {
    const int64_t b = row / p.m;
    const int64_t i = row % p.m;
    // Batch offsets of x and y: walk the merged batch dims from the innermost.
    int64_t x_off = 0, y_off = 0, x_step = 1, y_step = 1;
    for (int64_t d = static_cast<int64_t>(nb) - 1, rest = b; d >= 0; --d) {
      const int64_t idx = rest % p.batch[d];
      rest /= p.batch[d];
      if (p.x_batch[d] != 1) x_off += idx * x_step;
      if (p.y_batch[d] != 1) y_off += idx * y_step;
      x_step *= p.x_batch[d];
      y_step *= p.y_batch[d];
    }
    const T* xm = x + x_off * p.m * p.k;
    const T* ym = y + y_off * p.k * p.n;
    std::fill(acc, acc + p.n, A(0));
    for (int64_t kk = 0; kk < p.k; ++kk) {
      const A a = static_cast<A>(MaybeConj(p.adj_x ? xm[kk * p.m + i] : xm[i * p.k + kk], conj_x));
      if (p.adj_y) {
        for (int64_t j = 0; j < p.n; ++j) {
          acc[j] += a * static_cast<A>(MaybeConj(ym[j * p.k + kk], conj_y));
        }
      } else {
        const T* yr = ym + kk * p.n;
        for (int64_t j = 0; j < p.n; ++j) acc[j] += a * static_cast<A>(yr[j]);
      }
    }
    T* o = out + row * p.n;
    for (int64_t j = 0; j < p.n; ++j) o[j] = static_cast<T>(acc[j]);
  }
}

template <typename T>
constexpr bool kRunsOnOneDnn =
    std::is_same_v<T, float> || std::is_same_v<T, bfloat16> || std::is_same_v<T, half>;

template <typename T>
class MatMulOp : public OpKernel {
 public:
  MatMulOp(OpKernelConstruction* ctx, Flavor flavor) : OpKernel(ctx), flavor_(flavor) {
    const bool matmul = flavor == Flavor::kMatMul;
    OP_REQUIRES_OK(ctx, ctx->GetAttr(matmul ? "transpose_a" : "adj_x", &adj_x_));
    OP_REQUIRES_OK(ctx, ctx->GetAttr(matmul ? "transpose_b" : "adj_y", &adj_y_));
  }

  void Compute(OpKernelContext* ctx) override { ComputeProduct(ctx, ctx->input(0), ctx->input(1)); }

 protected:
  // The product of x and y (the inputs, or BatchMatMulV3's inputs cast to T).
  void ComputeProduct(OpKernelContext* ctx, const Tensor& x, const Tensor& y) {
    OP_REQUIRES_OK(ctx, Validate(flavor_, x.shape(), y.shape()));
    MatMulPlan plan;
    OP_REQUIRES_OK(ctx, MakePlan(flavor_, x.shape(), y.shape(), adj_x_, adj_y_, &plan));
    Tensor* out = nullptr;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, plan.out_shape, &out));
    if (out->NumElements() == 0) return;
    if (plan.k == 0) {
      std::fill_n(out->flat<T>().data(), out->NumElements(), T(0));
      return;
    }
    if constexpr (std::is_same_v<T, half>) {
      ComputeWidened(ctx, plan, x, y, out);
    } else if constexpr (std::is_same_v<T, float>) {
      if (PadsRowsOf(plan, y)) {
        Tensor padded;
        OP_REQUIRES_OK(ctx, padded_y_.Get(ctx, y, plan.k, plan.n, &padded));
        OP_REQUIRES_OK(ctx,
                       RunOneDnn(ctx, plan, OneDnnType<T>::value, x.raw_data(), padded.raw_data(),
                                 out->raw_data(), plan.n + PaddedRowsCopy::kPadding));
      } else {
        OP_REQUIRES_OK(ctx, RunOneDnn(ctx, plan, OneDnnType<T>::value, x.raw_data(), y.raw_data(),
                                      out->raw_data()));
      }
    } else if constexpr (kRunsOnOneDnn<T>) {
      const absl::Status native =
          RunOneDnn(ctx, plan, OneDnnType<T>::value, x.raw_data(), y.raw_data(), out->raw_data());
      // CPUs without AVX-512 have no oneDNN bfloat16 matmul: compute it in float instead.
      if (std::is_same_v<T, bfloat16> && !native.ok()) {
        ComputeWidened(ctx, plan, x, y, out);
      } else {
        OP_REQUIRES_OK(ctx, native);
      }
    } else {
      const T* xp = x.flat<T>().data();
      const T* yp = y.flat<T>().data();
      T* op = out->flat<T>().data();
      const bool adjoint = flavor_ != Flavor::kMatMul;
      const int64_t rows = out->NumElements() / plan.n;
      const Eigen::TensorOpCost row_cost(sizeof(T) * (plan.k + plan.k * plan.n), sizeof(T) * plan.n,
                                         2.0 * plan.k * plan.n);
      OP_REQUIRES_OK(ctx, ParallelForWithScratch<AccumType<T>>(
                              ctx, rows, out->NumElements() * plan.k, row_cost, plan.n,
                              [&](int64_t first, int64_t last, AccumType<T>* acc) {
                                ReferenceRows<T>(plan, adjoint, xp, yp, op, first, last, acc);
                              }));
    }
  }

 private:
  // Widens to float, multiplies there and rounds back.
  void ComputeWidened(OpKernelContext* ctx, const MatMulPlan& plan, const Tensor& x,
                      const Tensor& y, Tensor* out) {
    Tensor xf, yf, of;
    OP_REQUIRES_OK(ctx, ctx->allocate_temp(DT_FLOAT, x.shape(), &xf));
    OP_REQUIRES_OK(ctx, ctx->allocate_temp(DT_FLOAT, y.shape(), &yf));
    OP_REQUIRES_OK(ctx, ctx->allocate_temp(DT_FLOAT, out->shape(), &of));
    xf.flat<float>() = x.flat<T>().template cast<float>();
    yf.flat<float>() = y.flat<T>().template cast<float>();
    OP_REQUIRES_OK(ctx, RunOneDnn(ctx, plan, dnnl::memory::data_type::f32, xf.raw_data(),
                                  yf.raw_data(), of.raw_data()));
    out->flat<T>() = of.flat<float>().cast<T>();
  }

  absl::Status RunOneDnn(OpKernelContext* ctx, const MatMulPlan& plan, dnnl::memory::data_type type,
                         const void* x, const void* y, void* out, int64_t y_row_stride = 0) {
    if (plan.batch.size() + 2 > DNNL_MAX_NDIMS) {
      return errors::Unimplemented("MatMul with more than ", DNNL_MAX_NDIMS - 2,
                                   " non-broadcast batch dimension groups");
    }
    std::shared_ptr<MatMulPrimitive> prim;
    RETURN_IF_ERROR(GetPrimitive(plan, type, y_row_stride, &prim));
    Tensor scratch;
    OneDnnArgPool::Lease args;
    RETURN_IF_ERROR(prim->args->Acquire(&args));
    RETURN_IF_ERROR(args->SetScratchpad(ctx, &scratch));
    return OneDnnCall("matmul", [&] {
      args->Set(DNNL_ARG_SRC, x);
      args->Set(DNNL_ARG_WEIGHTS, y);
      args->Set(DNNL_ARG_DST, out);
      dnnl::stream& stream = OneDnnStream();
      prim->primitive.execute(stream, args->map());
      stream.wait();
    });
  }

  absl::Status GetPrimitive(const MatMulPlan& plan, dnnl::memory::data_type type,
                            int64_t y_row_stride, std::shared_ptr<MatMulPrimitive>* prim) {
    std::vector<int64_t> key = {
        plan.m, plan.k, plan.n, plan.adj_x, plan.adj_y, static_cast<int64_t>(type), y_row_stride};
    // heap-ok: the cache key holds one entry per batch dim (rank <= 254)
    key.insert(key.end(), plan.x_batch.begin(), plan.x_batch.end());
    // heap-ok: the cache key holds one entry per batch dim (rank <= 254)
    key.insert(key.end(), plan.y_batch.begin(), plan.y_batch.end());
    key.push_back(OneDnnThreads());
    const bool caching = OneDnnCachingEnabled();
    if (caching) {
      absl::MutexLock lock(&mu_);
      auto it = cache_.find(key);
      if (it != cache_.end()) {
        *prim = it->second;
        return absl::OkStatus();
      }
    }
    RETURN_IF_ERROR(
        OneDnnCall("matmul creation", [&] { *prim = CreateMatMul(plan, type, y_row_stride); }));
    if (caching) {
      absl::MutexLock lock(&mu_);
      // Shapes that change every step would grow the cache without bound; start over.
      if (cache_.size() >= kMaxCachedShapes) cache_.clear();
      cache_.emplace(std::move(key), *prim);
    }
    return absl::OkStatus();
  }

  static constexpr size_t kMaxCachedShapes = 32;

  // Constant after construction.
  const Flavor flavor_;
  bool adj_x_ = false;
  bool adj_y_ = false;

  absl::Mutex mu_;
  absl::flat_hash_map<std::vector<int64_t>, std::shared_ptr<MatMulPrimitive>> cache_
      ABSL_GUARDED_BY(mu_);
  PaddedRowsCopy padded_y_;
};

template <typename T, Flavor F>
class FlavoredMatMulOp : public MatMulOp<T> {
 public:
  explicit FlavoredMatMulOp(OpKernelConstruction* ctx) : MatMulOp<T>(ctx, F) {}
};

// BatchMatMulV3: x (Ta) and y (Tb) cast to Tout where they differ from it, then V2's product.
template <typename Ta, typename Tb, typename Tout>
class BatchMatMulV3Op : public MatMulOp<Tout> {
 public:
  explicit BatchMatMulV3Op(OpKernelConstruction* ctx)
      : MatMulOp<Tout>(ctx, Flavor::kBatchMatMulV2) {}

  void Compute(OpKernelContext* ctx) override {
    Tensor x, y;
    OP_REQUIRES_OK(ctx, AsTout<Ta>(ctx, ctx->input(0), &x));
    OP_REQUIRES_OK(ctx, AsTout<Tb>(ctx, ctx->input(1), &y));
    this->ComputeProduct(ctx, x, y);
  }

 private:
  template <typename T>
  static absl::Status AsTout(OpKernelContext* ctx, const Tensor& in, Tensor* out) {
    if constexpr (std::is_same_v<T, Tout>) {
      *out = in;
    } else {
      RETURN_IF_ERROR(ctx->allocate_temp(DataTypeToEnum<Tout>::value, in.shape(), out));
      out->flat<Tout>() = in.flat<T>().template cast<Tout>();
    }
    return absl::OkStatus();
  }
};

// TensorFlow's CPU registrations: MatMul, BatchMatMul and BatchMatMulV2 take the floating-point,
// int16, int32, int64 and complex types (V2's OpDef allows more); V3 the same types alike for
// Ta, Tb and Tout (but half), and the 8-bit integers with bfloat16 or, into int32, each other.
#define REGISTER_MATMUL(T)                                                                 \
  REGISTER_KERNEL_BUILDER(Name("MatMul").Device(DEVICE_CPU).TypeConstraint<T>("T"),        \
                          FlavoredMatMulOp<T, Flavor::kMatMul>);                           \
  REGISTER_KERNEL_BUILDER(Name("BatchMatMul").Device(DEVICE_CPU).TypeConstraint<T>("T"),   \
                          FlavoredMatMulOp<T, Flavor::kBatchMatMul>);                      \
  REGISTER_KERNEL_BUILDER(Name("BatchMatMulV2").Device(DEVICE_CPU).TypeConstraint<T>("T"), \
                          FlavoredMatMulOp<T, Flavor::kBatchMatMulV2>);
#define REGISTER_BATCH_MATMUL_V3(Ta, Tb, Tout)               \
  REGISTER_KERNEL_BUILDER(Name("BatchMatMulV3")              \
                              .Device(DEVICE_CPU)            \
                              .TypeConstraint<Ta>("Ta")      \
                              .TypeConstraint<Tb>("Tb")      \
                              .TypeConstraint<Tout>("Tout"), \
                          BatchMatMulV3Op<Ta, Tb, Tout>);
#define REGISTER_BATCH_MATMUL_V3_SAME(T) REGISTER_BATCH_MATMUL_V3(T, T, T)
SLUICE_CALL_FLOAT_TYPES(REGISTER_MATMUL)
SLUICE_CALL_int16(REGISTER_MATMUL) SLUICE_CALL_int32(REGISTER_MATMUL)
    SLUICE_CALL_int64(REGISTER_MATMUL) SLUICE_CALL_COMPLEX_TYPES(REGISTER_MATMUL)
        SLUICE_CALL_bfloat16(REGISTER_BATCH_MATMUL_V3_SAME) SLUICE_CALL_float(
            REGISTER_BATCH_MATMUL_V3_SAME) SLUICE_CALL_double(REGISTER_BATCH_MATMUL_V3_SAME)
            SLUICE_CALL_int16(REGISTER_BATCH_MATMUL_V3_SAME) SLUICE_CALL_int32(
                REGISTER_BATCH_MATMUL_V3_SAME) SLUICE_CALL_int64(REGISTER_BATCH_MATMUL_V3_SAME)
                SLUICE_CALL_COMPLEX_TYPES(REGISTER_BATCH_MATMUL_V3_SAME)
                    REGISTER_BATCH_MATMUL_V3(uint8_t, bfloat16, bfloat16)
                        REGISTER_BATCH_MATMUL_V3(int8_t, bfloat16, bfloat16)
                            REGISTER_BATCH_MATMUL_V3(bfloat16, uint8_t, bfloat16)
                                REGISTER_BATCH_MATMUL_V3(bfloat16, int8_t, bfloat16)
                                    REGISTER_BATCH_MATMUL_V3(uint8_t, uint8_t, int32_t)
                                        REGISTER_BATCH_MATMUL_V3(int8_t, uint8_t, int32_t)
                                            REGISTER_BATCH_MATMUL_V3(uint8_t, int8_t, int32_t)
                                                REGISTER_BATCH_MATMUL_V3(int8_t, int8_t, int32_t)
#undef REGISTER_MATMUL
#undef REGISTER_BATCH_MATMUL_V3_SAME
#undef REGISTER_BATCH_MATMUL_V3

}  // namespace
}  // namespace sluice
