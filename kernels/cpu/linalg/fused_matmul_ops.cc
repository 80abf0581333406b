// _FusedMatMul on the CPU: out = act(op(a) * op(b) + bias), op transposing where transpose_a /
// transpose_b say so, as the remapper (passes/remapper.h) writes MatMul → BiasAdd → act.
//
// One oneDNN matmul primitive per shape does it all: the bias is the primitive's bias
// argument (broadcast over rows) and the activation an eltwise post-op, so the product is
// written once. Primitives are cached per kernel, keyed by shape, transposes and type. A
// read-only float b whose rows are a multiple of 4 KiB long is multiplied as a copy with
// padded rows (padded_rows.h).
// float and bfloat16 run natively (bfloat16 in float where the CPU has no bfloat16 matmul);
// half is widened to float and rounded once, as TensorFlow's CPU kernels compute it, and
// does not take the Gelu activations (TensorFlow has none for half on the CPU).
#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <type_traits>
#include <unordered_map>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/synchronization/mutex.h"
#include "graph/core/errors.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_shape.h"
#include "graph/core/tensor_types.h"
#include "graph/core/types.h"
#include "kernels/cpu/linalg/fused_args.h"
#include "kernels/cpu/linalg/fused_epilogue.h"
#include "kernels/cpu/linalg/onednn_args.h"
#include "kernels/cpu/linalg/onednn_util.h"
#include "kernels/cpu/linalg/padded_rows.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace {

using dnnl::memory;

struct Shape {
  int64_t m = 0, k = 0, n = 0;
  bool ta = false, tb = false;
};

struct MatMulPrimitive {
  dnnl::matmul::primitive_desc pd;
  dnnl::matmul primitive;
  std::unique_ptr<OneDnnArgPool> args;
};

// b_row_stride: 0 for b as stored, else the elements between rows of a padded copy of b.
std::shared_ptr<MatMulPrimitive> CreatePrimitive(const Shape& s, memory::data_type type,
                                                 const Eltwise& act, int64_t b_row_stride) {
  // A transposed operand is the same buffer read through swapped strides.
  const memory::desc a({s.m, s.k}, type, s.ta ? memory::dims{1, s.m} : memory::dims{s.k, 1});
  const memory::desc b({s.k, s.n}, type,
                       b_row_stride != 0 ? memory::dims{b_row_stride, 1}
                                         : (s.tb ? memory::dims{1, s.k} : memory::dims{s.n, 1}));
  const memory::desc bias({1, s.n}, type, memory::dims{s.n, 1});
  const memory::desc out({s.m, s.n}, type, memory::dims{s.n, 1});
  dnnl::primitive_attr attr = ScratchpadAttr();
  if (act.algorithm != dnnl::algorithm::undef) {
    dnnl::post_ops ops;
    ops.append_eltwise(1.0f, act.algorithm, act.alpha, act.beta);
    attr.set_post_ops(ops);
  }
  auto p = std::make_shared<MatMulPrimitive>();
  p->pd = dnnl::matmul::primitive_desc(dnnl::matmul::desc(a, b, bias, out), attr, OneDnnEngine());
  p->primitive = dnnl::matmul(p->pd);
  p->args = OneDnnArgPool::ForMatMul(p->pd, /*with_bias=*/true);
  return p;
}

template <typename T>
class FusedMatMulOp : public OpKernel {
 public:
  explicit FusedMatMulOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("transpose_a", &ta_));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("transpose_b", &tb_));
    if (!std::is_same_v<T, half>) {
      // TensorFlow's oneDNN matmul (its float and bfloat16 kernel) rejects these fused_ops
      // as invalid before asking whether the fusion is implemented.
      std::vector<std::string> fused_ops;
      OP_REQUIRES_OK(ctx, ctx->GetAttr("fused_ops", &fused_ops));
      OP_REQUIRES(ctx, fused_ops.size() <= 2,
                  errors::InvalidArgument("_FusedMatMul must have 2 post-arguments at most."));
      OP_REQUIRES(
          ctx, fused_ops.empty() || fused_ops[0] == "BiasAdd",
          errors::InvalidArgument("The 1st post-argument of _FusedMatMul must be BiasAdd."));
    }
    OP_REQUIRES_OK(ctx, ParseFusion(ctx, FusedContraction::kMatMul,
                                    /*allow_gelu=*/!std::is_same_v<T, half>, &spec_));
    act_ = ActivationEltwise(spec_);
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& a = ctx->input(0);
    const Tensor& b = ctx->input(1);
    OP_REQUIRES(ctx, a.dims() == 2,
                errors::InvalidArgument("In[0] is not a matrix. Instead it has shape ",
                                        a.shape().DebugString()));
    OP_REQUIRES(ctx, b.dims() == 2,
                errors::InvalidArgument("In[1] is not a matrix. Instead it has shape ",
                                        b.shape().DebugString()));
    Shape s;
    s.ta = ta_;
    s.tb = tb_;
    s.m = a.dim_size(ta_ ? 1 : 0);
    s.k = a.dim_size(ta_ ? 0 : 1);
    s.n = b.dim_size(tb_ ? 0 : 1);
    OP_REQUIRES(
        ctx, s.k == b.dim_size(tb_ ? 1 : 0),
        errors::InvalidArgument("Matrix size-incompatible: In[0]: ", a.shape().DebugString(),
                                ", In[1]: ", b.shape().DebugString()));
    OP_REQUIRES_OK(ctx, CheckFusionArgs(ctx, spec_, s.n));
    // With k == 0 neither input holds an element, so m * n is bounded by nothing: checked.
    TensorShape out_shape;
    OP_REQUIRES_OK(ctx, TensorShape::BuildTensorShape({s.m, s.n}, &out_shape));
    Tensor* out = nullptr;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, out_shape, &out));
    if (out->NumElements() == 0) return;
    if (s.k == 0) {
      std::fill_n(out->flat<T>().data(), out->NumElements(), T(0));
      OP_REQUIRES_OK(ctx, ApplyFusedEpilogue<T>(ctx, spec_, s.n, 1, out->flat<T>().data(),
                                                out->NumElements()));
      return;
    }
    const Tensor& bias = ctx->input(2);
    if constexpr (std::is_same_v<T, half>) {
      RunWidened(ctx, s, a, b, bias, out);
    } else if (std::is_same_v<T, float> && !tb_ && PaddedRowsCopy::Applies(b, s.k, s.n)) {
      Tensor padded;
      OP_REQUIRES_OK(ctx, padded_b_.Get(ctx, b, s.k, s.n, &padded));
      OP_REQUIRES_OK(ctx, Run(ctx, s, OneDnnType<T>::value, a.raw_data(), padded.raw_data(),
                              bias.raw_data(), out->raw_data(), s.n + PaddedRowsCopy::kPadding));
    } else {
      const absl::Status native = Run(ctx, s, OneDnnType<T>::value, a.raw_data(), b.raw_data(),
                                      bias.raw_data(), out->raw_data());
      // CPUs without AVX-512 have no oneDNN bfloat16 matmul: compute it in float instead.
      if (std::is_same_v<T, bfloat16> && !native.ok()) {
        RunWidened(ctx, s, a, b, bias, out);
      } else {
        OP_REQUIRES_OK(ctx, native);
      }
    }
  }

 private:
  void RunWidened(OpKernelContext* ctx, const Shape& s, const Tensor& a, const Tensor& b,
                  const Tensor& bias, Tensor* out) {
    Tensor af, bf, biasf, outf;
    OP_REQUIRES_OK(ctx, ctx->allocate_temp(DT_FLOAT, a.shape(), &af));
    OP_REQUIRES_OK(ctx, ctx->allocate_temp(DT_FLOAT, b.shape(), &bf));
    OP_REQUIRES_OK(ctx, ctx->allocate_temp(DT_FLOAT, bias.shape(), &biasf));
    OP_REQUIRES_OK(ctx, ctx->allocate_temp(DT_FLOAT, out->shape(), &outf));
    af.flat<float>() = a.flat<T>().template cast<float>();
    bf.flat<float>() = b.flat<T>().template cast<float>();
    biasf.flat<float>() = bias.flat<T>().template cast<float>();
    OP_REQUIRES_OK(ctx, Run(ctx, s, memory::data_type::f32, af.raw_data(), bf.raw_data(),
                            biasf.raw_data(), outf.raw_data()));
    out->flat<T>() = outf.flat<float>().template cast<T>();
  }

  absl::Status Run(OpKernelContext* ctx, const Shape& s, memory::data_type type, const void* a,
                   const void* b, const void* bias, void* out, int64_t b_row_stride = 0) {
    std::shared_ptr<MatMulPrimitive> p;
    RETURN_IF_ERROR(GetPrimitive(s, type, b_row_stride, &p));
    Tensor scratch;
    OneDnnArgPool::Lease args;
    RETURN_IF_ERROR(p->args->Acquire(&args));
    RETURN_IF_ERROR(args->SetScratchpad(ctx, &scratch));
    return OneDnnCall("matmul", [&] {
      args->Set(DNNL_ARG_SRC, a);
      args->Set(DNNL_ARG_WEIGHTS, b);
      args->Set(DNNL_ARG_BIAS, bias);
      args->Set(DNNL_ARG_DST, out);
      dnnl::stream& stream = OneDnnStream();
      p->primitive.execute(stream, args->map());
      stream.wait();
    });
  }

  absl::Status GetPrimitive(const Shape& s, memory::data_type type, int64_t b_row_stride,
                            std::shared_ptr<MatMulPrimitive>* p) {
    const std::vector<int64_t> key = {
        s.m, s.k, s.n, s.ta, s.tb, static_cast<int64_t>(type), b_row_stride, OneDnnThreads()};
    const bool caching = OneDnnCachingEnabled();
    if (caching) {
      absl::MutexLock lock(&mu_);
      auto it = cache_.find(key);
      if (it != cache_.end()) {
        *p = it->second;
        return absl::OkStatus();
      }
    }
    RETURN_IF_ERROR(
        OneDnnCall("matmul creation", [&] { *p = CreatePrimitive(s, type, act_, b_row_stride); }));
    if (caching) {
      absl::MutexLock lock(&mu_);
      // Shapes that change every step would grow the cache without bound; start over.
      if (cache_.size() >= kMaxCachedShapes) cache_.clear();
      cache_.emplace(key, *p);
    }
    return absl::OkStatus();
  }

  static constexpr size_t kMaxCachedShapes = 16;

  // Constant after construction.
  bool ta_ = false;
  bool tb_ = false;
  FusionSpec spec_;
  Eltwise act_;

  absl::Mutex mu_;
  absl::flat_hash_map<std::vector<int64_t>, std::shared_ptr<MatMulPrimitive>> cache_
      ABSL_GUARDED_BY(mu_);
  PaddedRowsCopy padded_b_;
};

#define REGISTER_FUSED_MATMUL(T)                                                          \
  REGISTER_KERNEL_BUILDER(Name("_FusedMatMul").Device(DEVICE_CPU).TypeConstraint<T>("T"), \
                          FusedMatMulOp<T>);
SLUICE_CALL_float(REGISTER_FUSED_MATMUL) SLUICE_CALL_bfloat16(REGISTER_FUSED_MATMUL)
    SLUICE_CALL_half(REGISTER_FUSED_MATMUL)
#undef REGISTER_FUSED_MATMUL

}  // namespace
}  // namespace sluice
