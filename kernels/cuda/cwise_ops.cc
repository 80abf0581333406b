// Elementwise kernels on GPUs for float, half and bfloat16: the activations Relu, Relu6, Elu,
// Selu, Sigmoid, Tanh, Softplus, Softsign and LeakyRelu; the math of one tensor Neg, Abs,
// Square, Floor, Ceil, Sqrt, Rsqrt, Reciprocal, Exp, Expm1, Log, Log1p, Erf, Erfc, Sin, Cos; the
// binary ops AddV2 (and Add), Sub, Mul, RealDiv (and Div), Maximum, Minimum, SquaredDifference and
// Pow with numpy broadcasting; and BiasAdd.
//
// Validation and outputs are those of the CPU kernels (kernels/cpu/cwise/binary_op.h,
// bias_add_op.cc), with their error messages; the math is cwise_functors.h's, launched on
// the device's compute stream (cwise_ops.cu). Outputs take an input's buffer when it is not
// shared, as on the CPU. Empty outputs launch nothing.
//
// One kernel class per op serves every dtype: the element type is read from the node when
// the kernel is built, and only the launchers are templates.
#include <algorithm>
#include <cstdint>

#include "absl/container/inlined_vector.h"
#include "absl/types/span.h"
#include "graph/core/errors.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_shape.h"
#include "graph/core/types.h"
#include "kernels/cpu/cwise/bias_add_args.h"
#include "kernels/cuda/broadcast_index.h"
#include "kernels/cuda/cwise_launch.h"
#include "kernels/cuda/gpu_kernel_util.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace cuda {
namespace {

template <UnaryKind kOp>
class GpuUnaryOp : public OpKernel {
 public:
  explicit GpuUnaryOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ToElementType(input_type(0), &type_));
    if (kOp == UnaryKind::kLeakyRelu) OP_REQUIRES_OK(ctx, ctx->GetAttr("alpha", &alpha_));
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& x = ctx->input(0);
    Tensor* y = nullptr;
    OP_REQUIRES_OK(ctx, ctx->forward_input_or_allocate_output({0}, 0, x.shape(), &y));
    if (x.NumElements() == 0) return;
    CUstream_st* stream = ComputeStream(ctx);
    if (stream == nullptr) return;
    const bool launched =
        LaunchUnary(kOp, type_, x.raw_data(), y->raw_data(), x.NumElements(), alpha_, stream);
    OP_REQUIRES_OK(ctx, LaunchStatus(launched, *this));
  }

 private:
  ElementType type_ = ElementType::kFloat;
  float alpha_ = 0.2f;  // LeakyRelu's
};

template <BinaryKind kOp>
class GpuBinaryOp : public OpKernel {
 public:
  explicit GpuBinaryOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ToElementType(input_type(0), &type_));
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& x = ctx->input(0);
    const Tensor& y = ctx->input(1);
    // The CPU kernel's cases, in its order (binary_op.h).
    if (x.shape() == y.shape()) {
      ComputeFlat(ctx, x, y, x.shape(), ScalarOperand::kNone);
    } else if (y.NumElements() == 1 && y.dims() <= x.dims()) {
      ComputeFlat(ctx, x, y, x.shape(), ScalarOperand::kY);
    } else if (x.NumElements() == 1 && x.dims() <= y.dims()) {
      ComputeFlat(ctx, x, y, y.shape(), ScalarOperand::kX);
    } else {
      ComputeBroadcast(ctx, x, y);
    }
  }

 private:
  // Output of `shape`, from an unshared input of that shape when there is one.
  Tensor* AllocateOutput(OpKernelContext* ctx, const Tensor& x, const Tensor& y,
                         const TensorShape& shape) {
    int candidates[2] = {0, 0};
    size_t num_candidates = 0;
    if (x.shape() == shape) candidates[num_candidates++] = 0;
    if (y.shape() == shape) candidates[num_candidates++] = 1;
    Tensor* z = nullptr;
    const absl::Status s = ctx->forward_input_or_allocate_output(
        absl::Span<const int>(candidates, num_candidates), 0, shape, &z);
    if (!s.ok()) {
      ctx->SetStatus(s);
      return nullptr;
    }
    return z;
  }

  void ComputeFlat(OpKernelContext* ctx, const Tensor& x, const Tensor& y, const TensorShape& shape,
                   ScalarOperand scalar) {
    Tensor* z = AllocateOutput(ctx, x, y, shape);
    if (z == nullptr || shape.num_elements() == 0) return;
    CUstream_st* stream = ComputeStream(ctx);
    if (stream == nullptr) return;
    const bool launched = LaunchBinaryFlat(kOp, type_, x.raw_data(), y.raw_data(), z->raw_data(),
                                           shape.num_elements(), scalar, stream);
    OP_REQUIRES_OK(ctx, LaunchStatus(launched, *this));
  }

  void ComputeBroadcast(OpKernelContext* ctx, const Tensor& x, const Tensor& y) {
    const absl::Span<const int64_t> x_dims = x.shape().dim_sizes();
    const absl::Span<const int64_t> y_dims = y.shape().dim_sizes();
    // heap-ok: one per dim of the output (rank <= 254)
    absl::InlinedVector<int64_t, 8> out_dims(std::max(x.dims(), y.dims()));
    BroadcastIndex index;
    const BroadcastResult result = MakeBroadcastIndex(x_dims.data(), x.dims(), y_dims.data(),
                                                      y.dims(), out_dims.data(), &index);
    OP_REQUIRES(ctx, result != BroadcastResult::kIncompatible,
                errors::InvalidArgument("Incompatible shapes: ", x.shape().DebugString(), " vs. ",
                                        y.shape().DebugString()));
    TensorShape shape;
    OP_REQUIRES_OK(ctx, TensorShape::BuildTensorShape(out_dims, &shape));
    Tensor* z = AllocateOutput(ctx, x, y, shape);
    if (z == nullptr || shape.num_elements() == 0) return;
    // As TensorFlow's GPU kernels, which broadcast over at most 5 merged dims.
    OP_REQUIRES(ctx, result == BroadcastResult::kOk,
                errors::Unimplemented("Broadcast between ", x.shape().DebugString(), " and ",
                                      y.shape().DebugString(), " is not supported yet."));
    CUstream_st* stream = ComputeStream(ctx);
    if (stream == nullptr) return;
    const bool launched =
        LaunchBinaryBroadcast(kOp, type_, x.raw_data(), y.raw_data(), z->raw_data(), index, stream);
    OP_REQUIRES_OK(ctx, LaunchStatus(launched, *this));
  }

  ElementType type_ = ElementType::kFloat;
};

class GpuBiasAddOp : public OpKernel {
 public:
  explicit GpuBiasAddOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ToElementType(input_type(0), &type_));
    OP_REQUIRES_OK(ctx, ParseBiasAddFormat(ctx, &nchw_));
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& value = ctx->input(0);
    const Tensor& bias = ctx->input(1);
    int channel_dim = 0;
    OP_REQUIRES_OK(ctx, CheckBiasAddArgs(value, bias, nchw_, &channel_dim));
    const int64_t channels = value.dim_size(channel_dim);
    Tensor* out = nullptr;
    OP_REQUIRES_OK(ctx, ctx->forward_input_or_allocate_output({0}, 0, value.shape(), &out));
    const int64_t n = value.NumElements();
    if (n == 0) return;
    int64_t inner = 1;  // elements per channel step: those of the dims after the channel dim
    for (int d = channel_dim + 1; d < value.dims(); ++d) inner *= value.dim_size(d);
    CUstream_st* stream = ComputeStream(ctx);
    if (stream == nullptr) return;
    const bool launched = LaunchBiasAdd(type_, value.raw_data(), bias.raw_data(), out->raw_data(),
                                        n, channels, inner, stream);
    OP_REQUIRES_OK(ctx, LaunchStatus(launched, *this));
  }

 private:
  ElementType type_ = ElementType::kFloat;
  bool nchw_ = false;
};

#define REGISTER_GPU(op, Kernel) \
  REGISTER_KERNEL_BUILDER(Name(op).Device(DEVICE_GPU).TypeConstraint("T", FloatTypes()), Kernel);

REGISTER_GPU("Relu", GpuUnaryOp<UnaryKind::kRelu>)
REGISTER_GPU("Relu6", GpuUnaryOp<UnaryKind::kRelu6>)
REGISTER_GPU("Elu", GpuUnaryOp<UnaryKind::kElu>)
REGISTER_GPU("Selu", GpuUnaryOp<UnaryKind::kSelu>)
REGISTER_GPU("Sigmoid", GpuUnaryOp<UnaryKind::kSigmoid>)
REGISTER_GPU("Tanh", GpuUnaryOp<UnaryKind::kTanh>)
REGISTER_GPU("Softplus", GpuUnaryOp<UnaryKind::kSoftplus>)
REGISTER_GPU("Softsign", GpuUnaryOp<UnaryKind::kSoftsign>)
REGISTER_GPU("LeakyRelu", GpuUnaryOp<UnaryKind::kLeakyRelu>)
REGISTER_GPU("Neg", GpuUnaryOp<UnaryKind::kNeg>)
REGISTER_GPU("Abs", GpuUnaryOp<UnaryKind::kAbs>)
REGISTER_GPU("Square", GpuUnaryOp<UnaryKind::kSquare>)
REGISTER_GPU("Floor", GpuUnaryOp<UnaryKind::kFloor>)
REGISTER_GPU("Ceil", GpuUnaryOp<UnaryKind::kCeil>)
REGISTER_GPU("Sqrt", GpuUnaryOp<UnaryKind::kSqrt>)
REGISTER_GPU("Rsqrt", GpuUnaryOp<UnaryKind::kRsqrt>)
REGISTER_GPU("Reciprocal", GpuUnaryOp<UnaryKind::kReciprocal>)
REGISTER_GPU("Inv", GpuUnaryOp<UnaryKind::kReciprocal>)
REGISTER_GPU("Exp", GpuUnaryOp<UnaryKind::kExp>)
REGISTER_GPU("Expm1", GpuUnaryOp<UnaryKind::kExpm1>)
REGISTER_GPU("Log", GpuUnaryOp<UnaryKind::kLog>)
REGISTER_GPU("Log1p", GpuUnaryOp<UnaryKind::kLog1p>)
REGISTER_GPU("Erf", GpuUnaryOp<UnaryKind::kErf>)
REGISTER_GPU("Erfc", GpuUnaryOp<UnaryKind::kErfc>)
REGISTER_GPU("Sin", GpuUnaryOp<UnaryKind::kSin>)
REGISTER_GPU("Cos", GpuUnaryOp<UnaryKind::kCos>)

// Add and AddV2 differ only for strings; Div and RealDiv only for integers.
REGISTER_GPU("Add", GpuBinaryOp<BinaryKind::kAdd>)
REGISTER_GPU("AddV2", GpuBinaryOp<BinaryKind::kAdd>)
REGISTER_GPU("Sub", GpuBinaryOp<BinaryKind::kSub>)
REGISTER_GPU("Mul", GpuBinaryOp<BinaryKind::kMul>)
REGISTER_GPU("Div", GpuBinaryOp<BinaryKind::kRealDiv>)
REGISTER_GPU("RealDiv", GpuBinaryOp<BinaryKind::kRealDiv>)
REGISTER_GPU("Maximum", GpuBinaryOp<BinaryKind::kMaximum>)
REGISTER_GPU("Minimum", GpuBinaryOp<BinaryKind::kMinimum>)
REGISTER_GPU("SquaredDifference", GpuBinaryOp<BinaryKind::kSquaredDifference>)
REGISTER_GPU("Pow", GpuBinaryOp<BinaryKind::kPow>)

REGISTER_GPU("BiasAdd", GpuBiasAddOp)

#undef REGISTER_GPU

}  // namespace
}  // namespace cuda
}  // namespace sluice
