// `_FusedElementwise` on the CPU: a chain of elementwise ops (graph/ops/fused_elementwise_spec.h)
// evaluated tile by tile, so that intermediate values stay in the L1 cache instead of making
// one round trip to memory per op.
//
// Each op is applied through the functor its own kernel uses (cwise_functors.h for binary
// ops, unary_functors.h for unary ones), element by element, so the result is the unfused
// graph's bit for bit. Unary functors are Eigen expressions whose vectorised and scalar paths
// may round differently; tiles therefore start at multiples of kTile from the start of the
// tensor, and only the tensor's last elements take the scalar path, as in the op's own
// kernel run over the whole tensor.
//
// Inputs broadcast to the output's shape, input 0's, in four forms, decided per step from the
// shapes: the same shape (read in place), one element (a scalar operand), the output's
// trailing dims (a row repeated: a bias) and its leading dims followed by ones (each value
// repeated over a run of elements: a per-row statistic). The last two are copied into a
// tile-sized buffer per tile, except a row shorter than a tile, which is laid out repeated
// once per run and read at an offset. Any other shape is INVALID_ARGUMENT naming the input.
#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "graph/core/errors.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_shape.h"
#include "graph/core/tensor_types.h"
#include "graph/core/types.h"
#include "graph/ops/fused_elementwise_spec.h"
#include "kernels/cpu/cwise/binary_op.h"
#include "kernels/cpu/cwise/cwise_functors.h"
#include "kernels/cpu/cwise/fused_elementwise_plan.h"
#include "kernels/cpu/parallel_for.h"
#include "kernels/cpu/unary/unary_functors.h"
#include "kernels/cpu/unary/unary_op.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace {

// Elements per tile: a multiple of every packet size, and small enough that a chain's live
// buffers stay in L1. The transformer block's Gelu at batch 32 took 6.8 ms per step with
// 1024, 6.3 with 512, 6.4 with 256 and 7.7 with 4096.
constexpr int64_t kTile = 512;

template <typename T>
using UnaryFn = void (*)(const T* x, T* y, int64_t n);
// z = f(x, y) where an operand that does not vary is one element read for every z.
template <typename T>
using BinaryFn = void (*)(const T* x, bool x_varies, const T* y, bool y_varies, T* z, int64_t n);

template <typename F>
void ApplyUnary(const typename F::In* x, typename F::Out* y, int64_t n) {
  const ConstVec<typename F::In> src(x, n);
  Vec<typename F::Out> dst(y, n);
  F()(src, dst);
}

template <typename F>
void ApplyBinary(const typename F::In* x, bool x_varies, const typename F::In* y, bool y_varies,
                 typename F::Out* z, int64_t n) {
  if (x_varies && y_varies) {
    BinaryRow<F, true, true>(x, y, z, n);
  } else if (x_varies) {
    BinaryRow<F, true, false>(x, y, z, n);
  } else if (y_varies) {
    BinaryRow<F, false, true>(x, y, z, n);
  } else {
    BinaryRow<F, false, false>(x, y, z, n);
  }
}

// The functor of each op FusedElementwiseArity accepts; the same types as its registration.
template <typename T>
struct OpTable {
  UnaryFn<T> unary = nullptr;
  BinaryFn<T> binary = nullptr;
  int cycles = 1;
};

template <typename T>
OpTable<T> LookUpOp(const std::string& op) {
  using namespace unary;  // NOLINT(build/namespaces): every unary functor below
  const auto u = [](UnaryFn<T> fn, int cycles) { return OpTable<T>{fn, nullptr, cycles}; };
  const auto b = [](BinaryFn<T> fn, int cycles) { return OpTable<T>{nullptr, fn, cycles}; };
  if (op == "Neg") return u(ApplyUnary<NegFunctor<T>>, NegFunctor<T>::kCycles);
  if (op == "Abs") return u(ApplyUnary<AbsFunctor<T>>, AbsFunctor<T>::kCycles);
  if (op == "Square") return u(ApplyUnary<SquareFunctor<T>>, SquareFunctor<T>::kCycles);
  if (op == "Reciprocal") {
    return u(ApplyUnary<ReciprocalFunctor<T>>, ReciprocalFunctor<T>::kCycles);
  }
  if (op == "Sqrt") return u(ApplyUnary<SqrtFunctor<T>>, SqrtFunctor<T>::kCycles);
  if (op == "Rsqrt") return u(ApplyUnary<RsqrtFunctor<T>>, RsqrtFunctor<T>::kCycles);
  if (op == "Exp") return u(ApplyUnary<ExpFunctor<T>>, ExpFunctor<T>::kCycles);
  if (op == "Log") return u(ApplyUnary<LogFunctor<T>>, LogFunctor<T>::kCycles);
  if (op == "Tanh") return u(ApplyUnary<TanhFunctor<T>>, TanhFunctor<T>::kCycles);
  if (op == "Sigmoid") return u(ApplyUnary<SigmoidFunctor<T>>, SigmoidFunctor<T>::kCycles);
  if (op == "Erf") return u(ApplyUnary<ErfFunctor<T>>, ErfFunctor<T>::kCycles);
  if (op == "Erfc") return u(ApplyUnary<ErfcFunctor<T>>, ErfcFunctor<T>::kCycles);
  if (op == "Relu") return u(ApplyUnary<ReluFunctor<T>>, ReluFunctor<T>::kCycles);
  if (op == "Relu6") return u(ApplyUnary<Relu6Functor<T>>, Relu6Functor<T>::kCycles);
  using cwise::AddFunctor;
  using cwise::DivFunctor;
  using cwise::MaximumFunctor;
  using cwise::MinimumFunctor;
  using cwise::MulFunctor;
  using cwise::SquaredDifferenceFunctor;
  using cwise::SubFunctor;
  if (op == "Add" || op == "AddV2") {
    return b(ApplyBinary<AddFunctor<T>>, AddFunctor<T>::kCycles);
  }
  if (op == "Sub") return b(ApplyBinary<SubFunctor<T>>, SubFunctor<T>::kCycles);
  if (op == "Mul") return b(ApplyBinary<MulFunctor<T>>, MulFunctor<T>::kCycles);
  if (op == "Div" || op == "RealDiv") {
    return b(ApplyBinary<DivFunctor<T>>, DivFunctor<T>::kCycles);
  }
  if (op == "Maximum") return b(ApplyBinary<MaximumFunctor<T>>, MaximumFunctor<T>::kCycles);
  if (op == "Minimum") return b(ApplyBinary<MinimumFunctor<T>>, MinimumFunctor<T>::kCycles);
  if (op == "SquaredDifference") {
    return b(ApplyBinary<SquaredDifferenceFunctor<T>>, SquaredDifferenceFunctor<T>::kCycles);
  }
  return OpTable<T>{};
}

using InputLayout = ElementwiseInputLayout;

// Copies elements [first, first + n) of the broadcast of `src` into dst.
template <typename T>
void Expand(const T* src, const InputLayout& layout, int64_t first, int64_t n, T* dst) {
  if (layout.kind == InputLayout::kRow) {
    int64_t pos = first % layout.period;
    for (int64_t done = 0; done < n;) {
      const int64_t len = std::min(n - done, layout.period - pos);
      std::copy(src + pos, src + pos + len, dst + done);
      done += len;
      pos = 0;
    }
  } else {  // kRun
    int64_t e = first;
    for (int64_t done = 0; done < n;) {
      const int64_t len = std::min(n - done, layout.period - e % layout.period);
      std::fill(dst + done, dst + done + len, src[e / layout.period]);
      done += len;
      e += len;
    }
  }
}

template <typename T>
class FusedElementwiseOp : public OpKernel {
 public:
  explicit FusedElementwiseOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    num_inputs_ = ctx->num_inputs();
    OP_REQUIRES_OK(ctx, ReadFusedElementwiseProgram(ctx, &steps_));
    for (const FusedElementwiseStep& step : steps_) {
      const OpTable<T> table = LookUpOp<T>(step.op);
      OP_REQUIRES(ctx, table.unary != nullptr || table.binary != nullptr,
                  errors::Unimplemented("_FusedElementwise has no ",
                                        DataTypeString(DataTypeToEnum<T>::value),
                                        " kernel for op '", step.op, "'"));
      tables_.push_back(table);
      cycles_ += table.cycles;
    }
    // Each step's result gets a tile buffer that is free again after its last reader.
    ResultSlots slots = AssignResultSlots(steps_, num_inputs_);
    slot_ = std::move(slots.slot);
    num_slots_ = slots.count;
  }

  void Compute(OpKernelContext* ctx) override {
    const int n_in = num_inputs_;
    const TensorShape out_shape = ctx->input(0).shape();
    std::vector<InputLayout> layouts;
    // heap-ok: one per input of the node
    std::vector<const T*> data(n_in);
    std::vector<int> forwardable;
    int expanded = 0;  // inputs needing a tile buffer of their own
    // heap-ok: one per input of the node
    std::vector<int> expand_slot(n_in, -1);
    // A short repeated row (a per-channel constant over a 3-channel image) is laid out once,
    // repeated over kTile + period elements, so that every tile reads it at an offset
    // instead of copying it period by period.
    // heap-ok: one per input of the node
    std::vector<std::vector<T>> patterns(n_in);
    // heap-ok: one per input of the node
    std::vector<const TensorShape*> shapes(n_in);
    for (int i = 0; i < n_in; ++i) shapes[i] = &ctx->input(i).shape();
    OP_REQUIRES_OK(ctx, ElementwiseLayouts(name(), shapes, &layouts));
    for (int i = 0; i < n_in; ++i) {
      const Tensor& in = ctx->input(i);
      data[i] = in.flat<T>().data();
      if (layouts[i].kind == InputLayout::kFull) forwardable.push_back(i);
      if (layouts[i].kind == InputLayout::kRow && layouts[i].period < kTile) {
        const int64_t period = layouts[i].period;
        // heap-ok: at most 2 * kTile elements (period < kTile)
        patterns[i].resize(kTile + period);
        for (int64_t e = 0; e < kTile + period; ++e) patterns[i][e] = data[i][e % period];
      } else if (layouts[i].kind == InputLayout::kRow || layouts[i].kind == InputLayout::kRun) {
        expand_slot[i] = num_slots_ + expanded++;
      }
    }
    OP_REQUIRES_OK(ctx, CheckUnaryOperands(name(), steps_, shapes, out_shape));
    Tensor* out = nullptr;
    OP_REQUIRES_OK(ctx, ctx->forward_input_or_allocate_output(forwardable, 0, out_shape, &out));
    const int64_t n = out_shape.num_elements();
    if (n == 0) return;
    T* result = out->flat<T>().data();
    const int buffers = std::max(num_slots_ + expanded, 1);
    const int64_t num_tiles = (n + kTile - 1) / kTile;
    const Eigen::TensorOpCost tile_cost(n_in * kTile * sizeof(T), kTile * sizeof(T),
                                        static_cast<double>(cycles_) * kTile);
    ParallelFor(ctx, num_tiles, n, tile_cost, [&](int64_t first_tile, int64_t last_tile) {
      // heap-ok: kTile elements per tile buffer, one buffer per step or input of the node
      std::unique_ptr<T[]> scratch(new T[buffers * kTile]);
      for (int64_t tile = first_tile; tile < last_tile; ++tile) {
        const int64_t first = tile * kTile;
        const int64_t len = std::min(kTile, n - first);
        for (int i = 0; i < n_in; ++i) {
          if (expand_slot[i] >= 0) {
            Expand(data[i], layouts[i], first, len, scratch.get() + expand_slot[i] * kTile);
          }
        }
        // Where operand `ref` of this tile is, and whether it varies along the tile.
        const auto operand = [&](int ref, bool* varies) -> const T* {
          *varies = true;
          if (ref >= n_in) return scratch.get() + slot_[ref - n_in] * kTile;
          switch (layouts[ref].kind) {
            case InputLayout::kFull:
              return data[ref] + first;
            case InputLayout::kScalar:
              *varies = false;
              return data[ref];
            case InputLayout::kRow:
              if (!patterns[ref].empty()) {
                return patterns[ref].data() + first % layouts[ref].period;
              }
              return scratch.get() + expand_slot[ref] * kTile;
            default:
              return scratch.get() + expand_slot[ref] * kTile;
          }
        };
        const int num_steps = static_cast<int>(steps_.size());
        for (int k = 0; k < num_steps; ++k) {
          const FusedElementwiseStep& step = steps_[k];
          T* dst = k == num_steps - 1 ? result + first : scratch.get() + slot_[k] * kTile;
          bool x_varies = true;
          const T* x = operand(step.operands[0], &x_varies);
          if (step.arity == 1) {
            tables_[k].unary(x, dst, len);  // x varies: CheckUnaryOperands
          } else {
            bool y_varies = true;
            const T* y = operand(step.operands[1], &y_varies);
            tables_[k].binary(x, x_varies, y, y_varies, dst, len);
          }
        }
      }
    });
  }

 private:
  int num_inputs_ = 0;
  std::vector<FusedElementwiseStep> steps_;
  std::vector<OpTable<T>> tables_;
  std::vector<int> slot_;  // step -> its tile buffer (-1 for the last step)
  int num_slots_ = 0;
  int cycles_ = 0;  // per element, all steps
};

REGISTER_KERNEL_BUILDER(Name("_FusedElementwise").Device(DEVICE_CPU).TypeConstraint<float>("T"),
                        FusedElementwiseOp<float>);
REGISTER_KERNEL_BUILDER(Name("_FusedElementwise").Device(DEVICE_CPU).TypeConstraint<double>("T"),
                        FusedElementwiseOp<double>);

}  // namespace
}  // namespace sluice
