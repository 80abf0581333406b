// Einsum on the CPU for float, double, half, bfloat16, int32, int64, complex64 and
// complex128 (the types TensorFlow registers on CPU).
//
// The equation is parsed once, when the kernel is built; each run plans the computation for
// the inputs' shapes (einsum_plan.h) and runs the plan:
//  - strided passes for the transposes, diagonals, sums over labels and inflations, split
//    over the intra-op pool: StridedCopy (kernels/cpu/array/strided_copy.h) for the plain
//    gathers, RunPass for sums, conversions and scatters;
//  - one batched matrix product: a oneDNN matmul primitive for float (cached per shape;
//    transposed operands are strides, broadcast batch dims size 1), plain loops split over
//    the pool for the other types.
// half and bfloat16 are computed in float (their passes widen the inputs, products accumulate
// in float, and the result is rounded once), as TensorFlow's CPU kernels compute them; sums
// over labels accumulate in double precision (float, half, bfloat16, complex64 included).
// Integer sums and products wrap around on overflow, as in TensorFlow. An empty output
// returns at once; an empty input with a non-empty output gives zeros.
#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <type_traits>
#include <unordered_map>
#include <utility>
#include <vector>

#include "absl/container/inlined_vector.h"
#include "graph/core/errors.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_shape.h"
#include "graph/core/tensor_types.h"
#include "graph/core/types.h"
#include "kernels/cpu/array/strided_copy.h"
#include "kernels/cpu/linalg/einsum_plan.h"
#include "kernels/cpu/linalg/onednn_args.h"
#include "kernels/cpu/linalg/onednn_util.h"
#include "kernels/cpu/parallel_for.h"
#include "kernels/cpu/wrapping_arithmetic.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace {

using einsum::Plan;
using einsum::StridedPass;

// The type sums and products are computed in: float for half and bfloat16.
template <typename T>
struct ComputeTypeOf {
  using type = T;
};
template <>
struct ComputeTypeOf<half> {
  using type = float;
};
template <>
struct ComputeTypeOf<bfloat16> {
  using type = float;
};
template <typename T>
using ComputeType = typename ComputeTypeOf<T>::type;

template <typename T>
constexpr bool kIsComplex = std::is_same_v<T, complex64> || std::is_same_v<T, complex128>;

// a * b. Complex products by the textbook formula, as Eigen computes them (std::complex's
// operator* also handles infinities specially, and slowly).
template <typename T>
T Mul(T a, T b) {
  if constexpr (kIsComplex<T>) {
    return T(a.real() * b.real() - a.imag() * b.imag(), a.real() * b.imag() + a.imag() * b.real());
  } else {
    return WrappingMul(a, b);
  }
}

template <typename T>
const T* Data(const Tensor& t) {
  return reinterpret_cast<const T*>(t.raw_data());
}
template <typename T>
T* MutableData(const Tensor& t) {
  return reinterpret_cast<T*>(t.raw_data());
}

// An amount of work for ParallelFor's size test, saturated rather than overflowing.
int64_t WorkCount(double elements) {
  return elements >= 9e18 ? int64_t{9000000000000000000} : static_cast<int64_t>(elements);
}

// Sums over labels accumulate float and complex64 in double precision: a long sum then
// stays as close to the exact one as TensorFlow's tree-shaped reductions.
template <typename T>
struct SumTypeOf {
  using type = T;
};
template <>
struct SumTypeOf<float> {
  using type = double;
};
template <>
struct SumTypeOf<complex64> {
  using type = complex128;
};

// Sum of the elements of `base` that the reduce dims of `p` select.
template <typename Src, typename Acc>
Acc SumReduced(const StridedPass& p, const Src* base) {
  using S = typename SumTypeOf<Acc>::type;
  const int nr = static_cast<int>(p.reduce_dims.size());
  const int64_t inner = p.reduce_dims[nr - 1];
  const int64_t inner_stride = p.reduce_strides[nr - 1];
  const int64_t outer = p.NumReduced() / inner;
  // heap-ok: one per dim of an operand (rank <= 254)
  absl::InlinedVector<int64_t, 8> idx(nr, 0);
  S acc(0);
  int64_t offset = 0;
  for (int64_t o = 0; o < outer; ++o) {
    const Src* s = base + offset;
    for (int64_t j = 0; j < inner; ++j) {
      acc = WrappingAdd(acc, static_cast<S>(static_cast<Acc>(s[j * inner_stride])));
    }
    for (int d = nr - 2; d >= 0; --d) {
      offset += p.reduce_strides[d];
      if (++idx[d] < p.reduce_dims[d]) break;
      offset -= p.reduce_strides[d] * p.reduce_dims[d];
      idx[d] = 0;
    }
  }
  return static_cast<Acc>(acc);
}

// Runs `p` (see StridedPass) from src to dst, converting Src -> Acc -> Dst. The unit of
// work is one run of the innermost kept dim.
template <typename Src, typename Dst, typename Acc>
void RunPass(OpKernelContext* ctx, const StridedPass& p, const Src* src, Dst* dst) {
  const int nd = static_cast<int>(p.dims.size());
  const int outer_dims = nd > 0 ? nd - 1 : 0;
  const int64_t inner = nd > 0 ? p.dims[nd - 1] : 1;
  const int64_t in_stride = nd > 0 ? p.src_strides[nd - 1] : 0;
  const int64_t out_stride = nd > 0 ? p.dst_strides[nd - 1] : 0;
  const int64_t rows = p.NumKept() / inner;
  const int64_t reduced = p.NumReduced();
  const bool reduces = !p.reduce_dims.empty();
  const auto run = [&](int64_t first, int64_t last) {
    // heap-ok: one per outer dim of an operand (rank <= 254)
    absl::InlinedVector<int64_t, 8> idx(outer_dims, 0);
    int64_t s_off = 0, d_off = 0;
    int64_t rest = first;
    for (int d = outer_dims - 1; d >= 0; --d) {
      idx[d] = rest % p.dims[d];
      rest /= p.dims[d];
      s_off += idx[d] * p.src_strides[d];
      d_off += idx[d] * p.dst_strides[d];
    }
    for (int64_t r = first; r < last; ++r) {
      const Src* s = src + s_off;
      Dst* t = dst + d_off;
      if (reduces) {
        for (int64_t j = 0; j < inner; ++j) {
          t[j * out_stride] = static_cast<Dst>(SumReduced<Src, Acc>(p, s + j * in_stride));
        }
      } else if (in_stride == 1 && out_stride == 1) {
        for (int64_t j = 0; j < inner; ++j) t[j] = static_cast<Dst>(static_cast<Acc>(s[j]));
      } else {
        for (int64_t j = 0; j < inner; ++j) {
          t[j * out_stride] = static_cast<Dst>(static_cast<Acc>(s[j * in_stride]));
        }
      }
      for (int d = outer_dims - 1; d >= 0; --d) {
        s_off += p.src_strides[d];
        d_off += p.dst_strides[d];
        if (++idx[d] < p.dims[d]) break;
        s_off -= p.src_strides[d] * p.dims[d];
        d_off -= p.dst_strides[d] * p.dims[d];
        idx[d] = 0;
      }
    }
  };
  const double work = static_cast<double>(inner) * static_cast<double>(reduced);
  const Eigen::TensorOpCost row_cost(work * sizeof(Src), static_cast<double>(inner) * sizeof(Dst),
                                     work);
  ParallelFor(ctx, rows, WorkCount(static_cast<double>(rows) * work), row_cost, run);
}

// Runs `p` from src into dst: a plain gather of one type is StridedCopy's (transposes in
// cache-sized tiles, contiguous rows by memcpy), the rest RunPass.
template <typename Src, typename Dst, typename Acc>
void Run(OpKernelContext* ctx, const StridedPass& p, const Tensor& src, Tensor* dst) {
  if constexpr (std::is_same_v<Src, Dst>) {
    if (p.IsGather()) {
      StridedCopy(ctx, src, 0, p.dims, p.src_strides, dst);
      return;
    }
  }
  RunPass<Src, Dst, Acc>(ctx, p, Data<Src>(src), MutableData<Dst>(*dst));
}

// ---- The batched product -------------------------------------------------------------

// Integers multiply and accumulate in uint64_t, so overflow wraps (defined behaviour) and
// truncating to T gives TensorFlow's wrapped result.
template <typename T>
using ProductAcc = std::conditional_t<std::is_integral_v<T>, uint64_t, T>;

// Offsets (in matrices) of batch entry b in X and Y.
void BatchOffsets(const Plan& p, int64_t b, int64_t* x_off, int64_t* y_off) {
  *x_off = 0;
  *y_off = 0;
  int64_t x_step = 1, y_step = 1;
  for (size_t d = p.batch.size(); d-- > 0;) {
    const int64_t i = b % p.batch[d];
    b /= p.batch[d];
    if (p.x_batch[d] != 1) *x_off += i * x_step;
    if (p.y_batch[d] != 1) *y_off += i * y_step;
    x_step *= p.x_batch[d];
    y_step *= p.y_batch[d];
  }
}

// Rows [first, last) of the (batch, m) rows of the result. `acc` is scratch of p.n
// accumulators.
template <typename P>
void ReferenceRows(const Plan& p, const P* x, const P* y, P* out, int64_t first, int64_t last,
                   ProductAcc<P>* acc) {
  using A = ProductAcc<P>;
  const bool xt = p.x.transposed, yt = p.y.transposed;
  for (int64_t row = first; row < last; ++row) {
    const int64_t b = row / p.m, i = row % p.m;
    int64_t xb = 0, yb = 0;
    BatchOffsets(p, b, &xb, &yb);
    const P* xm = x + xb * p.m * p.k;
    const P* ym = y + yb * p.k * p.n;
    P* o = out + row * p.n;
    if (yt && !xt) {
      // Y stored [n, k]: one dot product of two contiguous rows per element.
      const P* xr = xm + i * p.k;
      for (int64_t j = 0; j < p.n; ++j) {
        const P* yr = ym + j * p.k;
        A sum(0);
        for (int64_t l = 0; l < p.k; ++l) sum += Mul(static_cast<A>(xr[l]), static_cast<A>(yr[l]));
        o[j] = static_cast<P>(sum);
      }
      continue;
    }
    std::fill(acc, acc + p.n, A(0));
    for (int64_t l = 0; l < p.k; ++l) {
      const A a = static_cast<A>(xt ? xm[l * p.m + i] : xm[i * p.k + l]);
      if (yt) {
        for (int64_t j = 0; j < p.n; ++j) acc[j] += Mul(a, static_cast<A>(ym[j * p.k + l]));
      } else {
        const P* yr = ym + l * p.n;
        for (int64_t j = 0; j < p.n; ++j) acc[j] += Mul(a, static_cast<A>(yr[j]));
      }
    }
    for (int64_t j = 0; j < p.n; ++j) o[j] = static_cast<P>(acc[j]);
  }
}

int64_t BatchSize(const Plan& p) {
  int64_t b = 1;
  for (int64_t d : p.batch) b *= d;
  return b;
}

template <typename P>
absl::Status ReferenceProduct(OpKernelContext* ctx, const Plan& p, const P* x, const P* y, P* out) {
  const int64_t rows = BatchSize(p) * p.m;
  const Eigen::TensorOpCost row_cost(sizeof(P) * (p.k + p.k * p.n), sizeof(P) * p.n,
                                     2.0 * p.k * p.n);
  const double work = static_cast<double>(rows) * static_cast<double>(p.n) * p.k;
  return ParallelForWithScratch<ProductAcc<P>>(
      ctx, rows, WorkCount(work), row_cost, p.n,
      [&](int64_t first, int64_t last, ProductAcc<P>* acc) {
        ReferenceRows<P>(p, x, y, out, first, last, acc);
      });
}

struct MatMulPrimitive {
  dnnl::matmul::primitive_desc pd;
  dnnl::matmul primitive;
  std::unique_ptr<OneDnnArgPool> args;
};

absl::Status CreateMatMul(const Plan& p, std::shared_ptr<const MatMulPrimitive>* out) {
  return OneDnnCall("einsum matmul creation", [&] {
    const bool xt = p.x.transposed, yt = p.y.transposed;
    auto prim = std::make_shared<MatMulPrimitive>();
    prim->pd =
        BatchedMatMulDesc(dnnl::memory::data_type::f32, p.x_batch, p.y_batch, p.batch, p.m, p.k,
                          p.n, BatchedMatrixStrides(p.x_batch, xt ? p.k : p.m, xt ? p.m : p.k, xt),
                          BatchedMatrixStrides(p.y_batch, yt ? p.n : p.k, yt ? p.k : p.n, yt));
    prim->primitive = dnnl::matmul(prim->pd);
    prim->args = OneDnnArgPool::ForMatMul(prim->pd, /*with_bias=*/false);
    *out = std::move(prim);
  });
}

template <typename T>
class EinsumOp : public OpKernel {
 public:
  // Products and sums run in P.
  using P = ComputeType<T>;

  explicit EinsumOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    std::string equation;
    int64_t n = 0;
    OP_REQUIRES_OK(ctx, ctx->GetAttr("equation", &equation));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("N", &n));
    OP_REQUIRES_OK(ctx, einsum::ParseEquation(equation, static_cast<int>(n), &equation_));
  }

  void Compute(OpKernelContext* ctx) override {
    std::vector<TensorShape> shapes;
    for (int i = 0; i < ctx->num_inputs(); ++i) shapes.push_back(ctx->input(i).shape());
    Plan plan;
    OP_REQUIRES_OK(ctx, einsum::MakePlan(equation_, shapes, &plan));
    if (plan.forward) {
      Tensor out;
      OP_REQUIRES(ctx, out.CopyFrom(ctx->input(0), plan.output_shape),
                  errors::Internal("Einsum could not reshape ", shapes[0].DebugString(), " to ",
                                   plan.output_shape.DebugString()));
      ctx->set_output(0, out);
      return;
    }
    Tensor* out = nullptr;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, plan.output_shape, &out));
    if (plan.output_empty) return;
    T* out_data = MutableData<T>(*out);
    if (plan.zeros || plan.inflate) std::fill_n(out_data, out->NumElements(), T(0));
    if (plan.zeros) return;
    if (plan.num_inputs == 1) {
      Run<T, T, P>(ctx, plan.x.prepare, ctx->input(0), out);
      return;
    }
    Tensor x_buffer, y_buffer, result_buffer;
    const P* x = nullptr;
    const P* y = nullptr;
    OP_REQUIRES_OK(ctx, Prepare(ctx, plan.x, &x_buffer, &x));
    OP_REQUIRES_OK(ctx, Prepare(ctx, plan.y, &y_buffer, &y));
    const bool into_output = plan.result_is_output && std::is_same_v<T, P>;
    P* result = reinterpret_cast<P*>(out_data);
    if (!into_output) {
      // shape-safe: the product of the sizes of distinct output labels, at most the element
      // count of the output, whose shape MakePlan built with BuildTensorShape
      OP_REQUIRES_OK(ctx, ctx->allocate_temp(DataTypeToEnum<P>::value,
                                             TensorShape({plan.finish.NumKept()}), &result_buffer));
      result = MutableData<P>(result_buffer);
    }
    OP_REQUIRES_OK(ctx, Multiply(ctx, plan, x, y, result));
    if (!into_output) Run<P, T, P>(ctx, plan.finish, result_buffer, out);
  }

 private:
  // The operand's matrices in P: the input itself when it is laid out so, else a pass.
  absl::Status Prepare(OpKernelContext* ctx, const einsum::Operand& op, Tensor* buffer,
                       const P** data) {
    const Tensor& in = ctx->input(op.input);
    if (op.direct && std::is_same_v<T, P>) {
      *data = Data<P>(in);
      return absl::OkStatus();
    }
    // shape-safe: the product of the sizes of distinct labels of a non-empty input, at most
    // that input's element count
    RETURN_IF_ERROR(
        ctx->allocate_temp(DataTypeToEnum<P>::value, TensorShape({op.num_elements}), buffer));
    Run<T, P, P>(ctx, op.prepare, in, buffer);
    *data = Data<P>(*buffer);
    return absl::OkStatus();
  }

  absl::Status Multiply(OpKernelContext* ctx, const Plan& p, const P* x, const P* y, P* out) {
    if constexpr (std::is_same_v<P, float>) {
      if (p.batch.size() + 2 <= DNNL_MAX_NDIMS) return RunOneDnn(ctx, p, x, y, out);
    }
    return ReferenceProduct<P>(ctx, p, x, y, out);
  }

  absl::Status RunOneDnn(OpKernelContext* ctx, const Plan& p, const float* x, const float* y,
                         float* out) {
    std::vector<int64_t> key = {p.m, p.k, p.n, p.x.transposed, p.y.transposed};
    // heap-ok: the cache key holds one entry per batch dim (rank <= 254)
    key.insert(key.end(), p.x_batch.begin(), p.x_batch.end());
    key.push_back(-1);
    // heap-ok: the cache key holds one entry per batch dim (rank <= 254)
    key.insert(key.end(), p.y_batch.begin(), p.y_batch.end());
    std::shared_ptr<const MatMulPrimitive> prim;
    if (OneDnnCachingEnabled()) {
      RETURN_IF_ERROR(cache_.Get(
          key, [&](std::shared_ptr<const MatMulPrimitive>* made) { return CreateMatMul(p, made); },
          &prim));
    } else {
      RETURN_IF_ERROR(CreateMatMul(p, &prim));
    }
    Tensor scratch;
    OneDnnArgPool::Lease args;
    RETURN_IF_ERROR(prim->args->Acquire(&args));
    RETURN_IF_ERROR(args->SetScratchpad(ctx, &scratch));
    return OneDnnCall("einsum matmul", [&] {
      args->Set(DNNL_ARG_SRC, x);
      args->Set(DNNL_ARG_WEIGHTS, y);
      args->Set(DNNL_ARG_DST, out);
      dnnl::stream& stream = OneDnnStream();
      prim->primitive.execute(stream, args->map());
      stream.wait();
    });
  }

  einsum::Equation equation_;  // constant after construction
  OneDnnShapeCache<std::vector<int64_t>, MatMulPrimitive> cache_;
};

#define REGISTER_EINSUM(T) \
  REGISTER_KERNEL_BUILDER(Name("Einsum").Device(DEVICE_CPU).TypeConstraint<T>("T"), EinsumOp<T>);
SLUICE_CALL_FLOAT_TYPES(REGISTER_EINSUM)
SLUICE_CALL_int32(REGISTER_EINSUM) SLUICE_CALL_int64(REGISTER_EINSUM)
    SLUICE_CALL_COMPLEX_TYPES(REGISTER_EINSUM)
#undef REGISTER_EINSUM

}  // namespace
}  // namespace sluice
