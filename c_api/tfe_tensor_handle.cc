// Eager tensor handles (tensorflow/c/eager/c_api.h): made from TF_Tensors or by TFE_Execute,
// queried, copied and resolved back into TF_Tensors.
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "c_api/c_api_internal.h"
#include "c_api/tfe_internal.h"

using sluice::c_api::SetStatus;

namespace sluice {
namespace eager {

TFE_TensorHandle* NewHandle(Tensor tensor, std::string device) {
  auto* handle = new TFE_TensorHandle;
  handle->tensor = std::move(tensor);
  handle->device = std::move(device);
  return handle;
}

}  // namespace eager
}  // namespace sluice

namespace {

// The name handles made from caller tensors report: the host CPU's, as TensorFlow's do.
constexpr char kHostCpu[] = "/job:localhost/replica:0/task:0/device:CPU:0";

bool CheckHandle(const TFE_TensorHandle* h, TF_Status* status) {
  if (h != nullptr) return true;
  SetStatus(status, absl::InvalidArgumentError("Invalid handle"));
  return false;
}

}  // namespace

extern "C" {

TFE_TensorHandle* TFE_NewTensorHandle(const TF_Tensor* t, TF_Status* status) {
  if (t == nullptr) {
    SetStatus(status, absl::InvalidArgumentError("TFE_NewTensorHandle: the tensor is null"));
    return nullptr;
  }
  absl::StatusOr<sluice::Tensor> tensor = sluice::c_api::TensorFromTF(t);
  if (!tensor.ok()) {
    SetStatus(status, tensor.status());
    return nullptr;
  }
  SetStatus(status, absl::OkStatus());
  return sluice::eager::NewHandle(*std::move(tensor), kHostCpu);
}

void TFE_DeleteTensorHandle(TFE_TensorHandle* h) { delete h; }

TF_DataType TFE_TensorHandleDataType(TFE_TensorHandle* h) {
  return static_cast<TF_DataType>(h->tensor.dtype());
}

int TFE_TensorHandleNumDims(TFE_TensorHandle* h, TF_Status* status) {
  if (!CheckHandle(h, status)) return -1;
  SetStatus(status, absl::OkStatus());
  return h->tensor.dims();
}

int64_t TFE_TensorHandleNumElements(TFE_TensorHandle* h, TF_Status* status) {
  if (!CheckHandle(h, status)) return -1;
  SetStatus(status, absl::OkStatus());
  return h->tensor.NumElements();
}

int64_t TFE_TensorHandleDim(TFE_TensorHandle* h, int dim_index, TF_Status* status) {
  if (!CheckHandle(h, status)) return -1;
  if (dim_index < 0 || dim_index >= h->tensor.dims()) {
    SetStatus(status, absl::InvalidArgumentError(absl::StrCat(
                          "Dimension ", dim_index, " is out of range for a tensor of rank ",
                          h->tensor.dims())));
    return -1;
  }
  SetStatus(status, absl::OkStatus());
  return h->tensor.dim_size(dim_index);
}

const char* TFE_TensorHandleDeviceName(TFE_TensorHandle* h, TF_Status* status) {
  if (!CheckHandle(h, status)) return nullptr;
  SetStatus(status, absl::OkStatus());
  return h->device.c_str();
}

const char* TFE_TensorHandleBackingDeviceName(TFE_TensorHandle* h, TF_Status* status) {
  if (!CheckHandle(h, status)) return nullptr;
  SetStatus(status, absl::OkStatus());
  return kHostCpu;
}

TFE_TensorHandle* TFE_TensorHandleCopySharingTensor(TFE_TensorHandle* h, TF_Status* status) {
  if (!CheckHandle(h, status)) return nullptr;
  SetStatus(status, absl::OkStatus());
  return sluice::eager::NewHandle(h->tensor, h->device);
}

TF_Tensor* TFE_TensorHandleResolve(TFE_TensorHandle* h, TF_Status* status) {
  if (!CheckHandle(h, status)) return nullptr;
  absl::StatusOr<TF_Tensor*> tensor = sluice::c_api::TensorToTF(h->tensor);
  SetStatus(status, tensor.status());
  return tensor.ok() ? *tensor : nullptr;
}

TFE_TensorHandle* TFE_TensorHandleCopyToDevice(TFE_TensorHandle* h, TFE_Context* ctx,
                                               const char* device_name, TF_Status* status) {
  if (!CheckHandle(h, status)) return nullptr;
  const std::string wanted = device_name == nullptr ? "" : device_name;
  std::string device;
  if (!sluice::eager::ResolveDevice(*ctx, wanted, &device).ok()) {
    SetStatus(status, absl::InvalidArgumentError(absl::StrCat(wanted, " unknown device.")));
    return nullptr;
  }
  SetStatus(status, absl::OkStatus());
  return sluice::eager::NewHandle(h->tensor, device);
}

TFE_TensorDebugInfo* TFE_TensorHandleTensorDebugInfo(TFE_TensorHandle* h, TF_Status* status) {
  if (!CheckHandle(h, status)) return nullptr;
  auto* info = new TFE_TensorDebugInfo;
  for (int i = 0; i < h->tensor.dims(); ++i) info->dims.push_back(h->tensor.dim_size(i));
  SetStatus(status, absl::OkStatus());
  return info;
}

void TFE_DeleteTensorDebugInfo(TFE_TensorDebugInfo* debug_info) { delete debug_info; }

int TFE_TensorDebugInfoOnDeviceNumDims(TFE_TensorDebugInfo* debug_info) {
  return static_cast<int>(debug_info->dims.size());
}

int64_t TFE_TensorDebugInfoOnDeviceDim(TFE_TensorDebugInfo* debug_info, int dim_index) {
  if (dim_index < 0 || dim_index >= static_cast<int>(debug_info->dims.size())) return -1;
  return debug_info->dims[dim_index];
}

}  // extern "C"
