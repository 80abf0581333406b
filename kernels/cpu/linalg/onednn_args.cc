#include "kernels/cpu/linalg/onednn_args.h"

#include "graph/core/errors.h"
#include "graph/core/tensor_shape.h"
#include "kernels/cpu/linalg/onednn_util.h"

namespace sluice {

absl::Status OneDnnArgs::SetScratchpad(OpKernelContext* ctx, Tensor* scratch) {
  void* data = nullptr;
  if (scratchpad_bytes_ > 0) {
    // shape-safe: one dim, checked > 0 just above
    RETURN_IF_ERROR(ctx->allocate_temp(DT_UINT8, TensorShape({scratchpad_bytes_}), scratch));
    data = scratch->raw_data();
  }
  Set(DNNL_ARG_SCRATCHPAD, data);
  return absl::OkStatus();
}

namespace {

std::vector<std::pair<int, dnnl::memory::desc>> WithScratchpad(
    std::vector<std::pair<int, dnnl::memory::desc>> args, const dnnl::memory::desc& scratchpad) {
  args.emplace_back(DNNL_ARG_SCRATCHPAD, scratchpad);
  return args;
}

}  // namespace

OneDnnArgPool::OneDnnArgPool(std::vector<std::pair<int, dnnl::memory::desc>> args,
                             const dnnl::memory::desc& scratchpad)
    : descs_(WithScratchpad(std::move(args), scratchpad)) {}

absl::Status OneDnnArgPool::Acquire(Lease* lease) {
  std::unique_ptr<OneDnnArgs> args;
  {
    absl::MutexLock lock(&mu_);
    if (!free_.empty()) {
      args = std::move(free_.back());
      free_.pop_back();
    }
  }
  if (args == nullptr) {
    args = std::make_unique<OneDnnArgs>();
    RETURN_IF_ERROR(OneDnnCall("memory creation", [&] {
      for (const auto& [arg, desc] : descs_) {
        args->args_.emplace(arg, dnnl::memory(desc, OneDnnEngine(), nullptr));
        if (arg == DNNL_ARG_SCRATCHPAD) args->scratchpad_bytes_ = desc.get_size();
      }
    }));
  }
  *lease = Lease(args.release(), Return{this});
  return absl::OkStatus();
}

std::unique_ptr<OneDnnArgPool> OneDnnArgPool::ForMatMul(const dnnl::matmul::primitive_desc& pd,
                                                        bool with_bias) {
  std::vector<std::pair<int, dnnl::memory::desc>> args = {{DNNL_ARG_SRC, pd.src_desc()},
                                                          {DNNL_ARG_WEIGHTS, pd.weights_desc()},
                                                          {DNNL_ARG_DST, pd.dst_desc()}};
  if (with_bias) args.emplace_back(DNNL_ARG_BIAS, pd.bias_desc());
  return std::make_unique<OneDnnArgPool>(std::move(args), pd.scratchpad_desc());
}

void OneDnnArgPool::Put(OneDnnArgs* args) {
  absl::MutexLock lock(&mu_);
  free_.emplace_back(args);
}

}  // namespace sluice
