// Forward convolutions through cuDNN with a per-shape algorithm cache; see cudnn_conv.h.
#include "kernels/cuda/conv/cudnn_conv.h"

#include "graph/core/errors.h"
#include "kernels/cuda/conv/cudnn_util.h"
#include "runtime/framework/gpu/cuda_libraries.h"
#include "runtime/framework/gpu/cuda_status.h"

namespace sluice {
namespace cuda {
namespace {

// The workspace offered to cuDNN's timing runs: algorithms needing more are not considered.
// The device keeps its workspace at the largest size asked for, so this also bounds what the
// convolutions hold on to; a device short of memory gets the smaller offer, then none.
constexpr size_t kWorkspaceOffers[] = {size_t{256} << 20, size_t{16} << 20};

// Every descriptor of one convolution.
struct Descriptors {
  CudnnDescriptor<cudnnTensorDescriptor_t> x, y;
  CudnnDescriptor<cudnnFilterDescriptor_t> w;
  CudnnDescriptor<cudnnConvolutionDescriptor_t> conv;
};

absl::Status Describe(const CudaLibraries& libs, cudnnDataType_t type, cudnnMathType_t math,
                      const CudnnConvShape& s, Descriptors* d) {
  const cudnnTensorFormat_t format =
      s.format == FORMAT_NHWC ? CUDNN_TENSOR_NHWC : CUDNN_TENSOR_NCHW;
  const int64_t group_depth = s.in_depth / s.groups;
  if (!FitInt({s.out_depth, group_depth, s.filter_rows, s.filter_cols, s.groups, s.pad_rows,
               s.pad_cols, s.stride_rows, s.stride_cols, s.dilation_rows, s.dilation_cols})) {
    return errors::InvalidArgument("A convolution's filter or window is past cuDNN's 32-bit sizes");
  }
  RETURN_IF_ERROR(
      MakeTensorDescriptor(libs, format, type, s.batch, s.in_depth, s.in_rows, s.in_cols, &d->x));
  RETURN_IF_ERROR(MakeTensorDescriptor(libs, format, type, s.batch, s.out_depth, s.out_rows,
                                       s.out_cols, &d->y));
  RETURN_IF_ERROR(d->w.Create(libs, libs.cudnnCreateFilterDescriptor,
                              libs.cudnnDestroyFilterDescriptor, "cudnnCreateFilterDescriptor"));
  RETURN_IF_ERROR(CudnnStatus(
      libs,
      libs.cudnnSetFilter4dDescriptor(
          d->w.get(), type, format, static_cast<int>(s.out_depth), static_cast<int>(group_depth),
          static_cast<int>(s.filter_rows), static_cast<int>(s.filter_cols)),
      "cudnnSetFilter4dDescriptor"));
  RETURN_IF_ERROR(d->conv.Create(libs, libs.cudnnCreateConvolutionDescriptor,
                                 libs.cudnnDestroyConvolutionDescriptor,
                                 "cudnnCreateConvolutionDescriptor"));
  // Float accumulation for every element type: TensorFlow's GPU kernels accumulate 16-bit
  // convolutions in float too.
  RETURN_IF_ERROR(
      CudnnStatus(libs,
                  libs.cudnnSetConvolution2dDescriptor(
                      d->conv.get(), static_cast<int>(s.pad_rows), static_cast<int>(s.pad_cols),
                      static_cast<int>(s.stride_rows), static_cast<int>(s.stride_cols),
                      static_cast<int>(s.dilation_rows), static_cast<int>(s.dilation_cols),
                      CUDNN_CROSS_CORRELATION, CUDNN_DATA_FLOAT),
                  "cudnnSetConvolution2dDescriptor"));
  RETURN_IF_ERROR(CudnnStatus(
      libs, libs.cudnnSetConvolutionGroupCount(d->conv.get(), static_cast<int>(s.groups)),
      "cudnnSetConvolutionGroupCount"));
  return CudnnStatus(libs, libs.cudnnSetConvolutionMathType(d->conv.get(), math),
                     "cudnnSetConvolutionMathType");
}

// The first usable result of `perf` (cuDNN ranks them, fastest first), a deterministic one
// if any is usable; false if none is. Usable: it ran, fits `max_workspace`, and uses tensor
// cores only where `tensor_cores` allows (the descriptor already forbids it; this guards
// against a library that reports otherwise).
bool Pick(const cudnnConvolutionFwdAlgoPerf_t* perf, int count, size_t max_workspace,
          bool tensor_cores, cudnnConvolutionFwdAlgoPerf_t* choice) {
  const auto usable = [&](const cudnnConvolutionFwdAlgoPerf_t& p) {
    const bool uses_tensor_cores =
        p.mathType == CUDNN_TENSOR_OP_MATH || p.mathType == CUDNN_TENSOR_OP_MATH_ALLOW_CONVERSION;
    return p.status == CUDNN_STATUS_SUCCESS && p.memory <= max_workspace &&
           (tensor_cores || !uses_tensor_cores);
  };
  for (const bool want_deterministic : {true, false}) {
    for (int i = 0; i < count; ++i) {
      if (!usable(perf[i])) continue;
      if (want_deterministic && perf[i].determinism != CUDNN_DETERMINISTIC) continue;
      *choice = perf[i];
      return true;
    }
  }
  return false;
}

}  // namespace

absl::Status CudnnConvolution::Run(GpuDeviceContext& gpu, DataType dtype, const CudnnConvShape& s,
                                   const void* x, const void* w, void* y) {
  const CudaLibraries& libs = gpu.libraries();
  cudnnDataType_t type;
  RETURN_IF_ERROR(CudnnDataType(dtype, &type));
  const bool tensor_cores = dtype != DT_FLOAT || gpu.allow_tf32();
  const cudnnMathType_t math = dtype != DT_FLOAT
                                   ? CUDNN_TENSOR_OP_MATH
                                   : (gpu.allow_tf32() ? CUDNN_DEFAULT_MATH : CUDNN_FMA_MATH);
  Descriptors d;
  RETURN_IF_ERROR(Describe(libs, type, math, s, &d));

  const std::vector<int64_t> key = {s.batch,
                                    s.in_depth,
                                    s.in_rows,
                                    s.in_cols,
                                    s.out_depth,
                                    s.out_rows,
                                    s.out_cols,
                                    s.filter_rows,
                                    s.filter_cols,
                                    s.groups,
                                    s.stride_rows,
                                    s.stride_cols,
                                    s.dilation_rows,
                                    s.dilation_cols,
                                    s.pad_rows,
                                    s.pad_cols,
                                    static_cast<int64_t>(s.format),
                                    static_cast<int64_t>(dtype),
                                    static_cast<int64_t>(math)};
  Choice choice;
  bool cached = false;
  {
    absl::MutexLock lock(&mu_);
    auto it = choices_.find(key);
    if (it != choices_.end()) {
      choice = it->second;
      cached = true;
    }
  }
  cudnnHandle_t handle = gpu.cudnn_handle();
  if (!cached) {
    cudnnConvolutionFwdAlgoPerf_t perf[CUDNN_CONVOLUTION_FWD_ALGO_COUNT];
    cudnnConvolutionFwdAlgoPerf_t picked;
    int count = 0;
    size_t offered = 0;
    void* workspace = nullptr;
    for (const size_t bytes : kWorkspaceOffers) {
      workspace = gpu.Workspace(static_cast<int64_t>(bytes));
      if (workspace != nullptr) {
        offered = bytes;
        break;
      }
    }
    const cudnnStatus_t found = libs.cudnnFindConvolutionForwardAlgorithmEx(
        handle, d.x.get(), x, d.w.get(), w, d.conv.get(), d.y.get(), y,
        CUDNN_CONVOLUTION_FWD_ALGO_COUNT, &count, perf, workspace, offered);
    bool have = found == CUDNN_STATUS_SUCCESS && Pick(perf, count, offered, tensor_cores, &picked);
    if (!have) {
      RETURN_IF_ERROR(CudnnStatus(libs,
                                  libs.cudnnGetConvolutionForwardAlgorithm_v7(
                                      handle, d.x.get(), d.w.get(), d.conv.get(), d.y.get(),
                                      CUDNN_CONVOLUTION_FWD_ALGO_COUNT, &count, perf),
                                  "cudnnGetConvolutionForwardAlgorithm_v7"));
      have = Pick(perf, count, kWorkspaceOffers[0], tensor_cores, &picked);
    }
    if (!have) {
      return errors::InvalidArgument("cuDNN has no forward convolution algorithm for input [",
                                     s.batch, ", ", s.in_depth, ", ", s.in_rows, ", ", s.in_cols,
                                     "] (N, C, H, W) and ", DataTypeString(dtype));
    }
    choice = {picked.algo, picked.memory};
    absl::MutexLock lock(&mu_);
    choices_.emplace(key, choice);
  }

  void* workspace = nullptr;
  if (choice.workspace_bytes > 0) {
    workspace = gpu.Workspace(static_cast<int64_t>(choice.workspace_bytes));
    if (workspace == nullptr) {
      return errors::ResourceExhausted("cuDNN's convolution needs ", choice.workspace_bytes,
                                       " bytes of GPU workspace, which could not be allocated");
    }
  }
  const float alpha = 1.0f, beta = 0.0f;
  return CudnnStatus(libs,
                     libs.cudnnConvolutionForward(handle, &alpha, d.x.get(), x, d.w.get(), w,
                                                  d.conv.get(), choice.algo, workspace,
                                                  choice.workspace_bytes, &beta, d.y.get(), y),
                     "cudnnConvolutionForward");
}

}  // namespace cuda
}  // namespace sluice
