// Device-resident tensors and callables for TF_Session (tensorflow/c/sluice_device_memory.h):
// the C face of Session::MakeCallable with CallableOptions.feed_devices/fetch_devices.
//
// The session trusts a callable's device feeds to be in their device's memory; this layer is
// what checks it, from the device each TF_Tensor records, so that a host pointer never reaches
// a GPU kernel nor a device pointer host code.
#include <limits>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "c_api/c_api_internal.h"
#include "graph/core/device_name.h"
#include "graph/core/types.h"
#include "proto/config.pb.h"
#include "proto/device_attributes.pb.h"
#include "tensorflow/c/sluice_device_memory.h"

using sluice::c_api::MessageToBuffer;
using sluice::c_api::SetStatus;

namespace {

// Whether values of `dtype` live in a GPU's memory when a GPU holds them: fixed-size types
// except int32, which Sluice keeps in host memory on GPUs, as TensorFlow does.
bool InDeviceMemoryOnGpus(TF_DataType dtype) {
  const auto type = static_cast<sluice::DataType>(dtype);
  return sluice::DataTypeCanUseMemcpy(type) && type != sluice::DT_INT32 &&
         TF_DataTypeSize(dtype) > 0;
}

// The session's device that `name` names (a full name or a specification such as
// "/device:GPU:0" that only one device matches). INVALID_ARGUMENT otherwise.
absl::StatusOr<sluice::DeviceAttributes> FindDevice(TF_Session* session, const std::string& name) {
  sluice::ParsedDeviceName pattern;
  if (!sluice::ParseFullOrLocalName(name, &pattern) || !sluice::HasSomeDetails(pattern)) {
    return absl::InvalidArgumentError(absl::StrCat("Malformed device name '", name, "'"));
  }
  std::vector<sluice::DeviceAttributes> devices;
  absl::Status listed = session->session->ListDevices(&devices);
  if (!listed.ok()) return listed;
  const sluice::DeviceAttributes* found = nullptr;
  for (const sluice::DeviceAttributes& device : devices) {
    sluice::ParsedDeviceName parsed;
    if (!sluice::ParseFullName(device.name(), &parsed) ||
        !sluice::IsCompleteSpecification(pattern, parsed)) {
      continue;
    }
    if (found != nullptr) {
      return absl::InvalidArgumentError(
          absl::StrCat("Device name '", name, "' matches more than one device of the session"));
    }
    found = &device;
  }
  if (found == nullptr) {
    return absl::InvalidArgumentError(
        absl::StrCat("Device '", name, "' is not one of the session's devices"));
  }
  return *found;
}

// Per tensor named in `devices` (a feed_devices or fetch_devices map), in the order of
// `tensors`, the full name of its GPU when its value lives in that GPU's memory, else "".
// Whether a value of a GPU feed or fetch is in device memory depends on its dtype, known only
// at run time: a GPU's name is kept here and dropped for host-memory dtypes then.
absl::Status ResolveDevices(TF_Session* session,
                            const google::protobuf::RepeatedPtrField<std::string>& tensors,
                            const google::protobuf::Map<std::string, std::string>& devices,
                            std::vector<std::string>* resolved) {
  resolved->assign(tensors.size(), "");
  for (int i = 0; i < tensors.size(); ++i) {
    auto it = devices.find(tensors[i]);
    if (it == devices.end()) continue;
    absl::StatusOr<sluice::DeviceAttributes> device = FindDevice(session, it->second);
    if (!device.ok()) return device.status();
    if (device->device_type() == "GPU") (*resolved)[i] = device->name();
  }
  return absl::OkStatus();
}

// The memory of callable `handle`, with the session's errors for handles it never made and
// handles released.
absl::StatusOr<TF_CallableMemory> CallableMemory(TF_Session* session, int64_t handle) {
  absl::MutexLock lock(&session->mu);
  auto it = session->callables.find(handle);
  if (it == session->callables.end()) {
    return absl::InvalidArgumentError(absl::StrCat("No such callable handle: ", handle));
  }
  if (it->second.released) {
    return absl::InvalidArgumentError(
        absl::StrCat("Attempted to run callable after handle was released: ", handle));
  }
  return it->second;
}

// The session's feed for `value`, checked to be where the callable wants feed `index`.
absl::StatusOr<sluice::Tensor> CallableFeed(const TF_Tensor* value, int index,
                                            const std::string& gpu) {
  if (value == nullptr) return absl::InvalidArgumentError(absl::StrCat("Feed ", index, " is null"));
  const std::string& wanted = InDeviceMemoryOnGpus(value->dtype) ? gpu : std::string();
  if (value->device != wanted) {
    return absl::InvalidArgumentError(absl::StrCat(
        "Feed ", index, " of the callable must be in ",
        wanted.empty() ? std::string("host memory") : absl::StrCat("the memory of ", wanted),
        ", but it is in ",
        value->device.empty() ? std::string("host memory")
                              : absl::StrCat("the memory of ", value->device)));
  }
  if (wanted.empty()) return sluice::c_api::TensorFromTF(value);
  return sluice::c_api::DeviceTensorFromTF(value);
}

}  // namespace

extern "C" {

TF_Tensor* TF_NewTensorFromDeviceMemory(TF_Session* session, const char* device_name,
                                        TF_DataType dtype, const int64_t* dims, int num_dims,
                                        void* data, size_t len,
                                        void (*deallocator)(void* data, size_t len, void* arg),
                                        void* deallocator_arg, TF_Status* status) {
  auto release = [=] {
    if (deallocator != nullptr) deallocator(data, len, deallocator_arg);
  };
  auto fail = [&](const absl::Status& error) -> TF_Tensor* {
    release();
    SetStatus(status, error);
    return nullptr;
  };
  if (session == nullptr || device_name == nullptr) {
    return fail(absl::InvalidArgumentError("The session and the device name must not be null"));
  }
  absl::StatusOr<sluice::DeviceAttributes> device = FindDevice(session, device_name);
  if (!device.ok()) return fail(device.status());
  if (device->device_type() != "GPU") {
    return fail(absl::InvalidArgumentError(
        absl::StrCat(device->name(), " is not a GPU: its tensors are host memory (TF_NewTensor)")));
  }
  if (!InDeviceMemoryOnGpus(dtype)) {
    return fail(absl::InvalidArgumentError(
        absl::StrCat(sluice::DataTypeString(static_cast<sluice::DataType>(dtype)),
                     " values live in host memory on GPUs: make them with TF_NewTensor")));
  }
  if (num_dims < 0 || (num_dims > 0 && dims == nullptr)) {
    return fail(absl::InvalidArgumentError("Malformed dims"));
  }
  uint64_t count = 1;
  const uint64_t element = TF_DataTypeSize(dtype);
  for (int i = 0; i < num_dims; ++i) {
    if (dims[i] < 0) {
      return fail(absl::InvalidArgumentError(absl::StrCat("Dimension ", i, " is negative")));
    }
    const auto dim = static_cast<uint64_t>(dims[i]);
    if (dim != 0 && count > std::numeric_limits<uint64_t>::max() / element / dim) {
      return fail(absl::InvalidArgumentError("The tensor's byte size overflows"));
    }
    count *= dim;
  }
  if (count * element > len || (data == nullptr && len > 0)) {
    return fail(absl::InvalidArgumentError(
        absl::StrCat(len, " bytes cannot hold ", count, " elements of ", element, " bytes")));
  }
  auto* tensor = new TF_Tensor;
  tensor->dtype = dtype;
  tensor->dims.assign(dims, dims + num_dims);
  tensor->storage = std::make_shared<TensorStorage>(data, len, release);
  tensor->device = device->name();
  SetStatus(status, absl::OkStatus());
  return tensor;
}

const char* TF_TensorBackingDeviceName(const TF_Tensor* tensor) {
  return tensor == nullptr || tensor->device.empty() ? nullptr : tensor->device.c_str();
}

void TF_SessionMakeCallable(TF_Session* session, const TF_Buffer* callable_options,
                            int64_t* out_handle, TF_Status* status) {
  if (session == nullptr || out_handle == nullptr) {
    return SetStatus(status,
                     absl::InvalidArgumentError("The session and the handle must not be null"));
  }
  sluice::CallableOptions options;
  if (callable_options == nullptr ||
      !sluice::c_api::ParseFromBytes(callable_options->data, callable_options->length, &options)) {
    return SetStatus(status, absl::InvalidArgumentError("Unparseable CallableOptions proto"));
  }
  TF_CallableMemory memory;
  absl::Status resolved =
      ResolveDevices(session, options.feed(), options.feed_devices(), &memory.feed_devices);
  if (resolved.ok()) {
    resolved =
        ResolveDevices(session, options.fetch(), options.fetch_devices(), &memory.fetch_devices);
  }
  if (!resolved.ok()) return SetStatus(status, resolved);
  absl::Status extended = sluice::c_api::ExtendIfOpen(session);
  if (!extended.ok()) return SetStatus(status, extended);
  sluice::Session::CallableHandle handle = -1;
  absl::Status made = session->session->MakeCallable(options, &handle);
  if (!made.ok()) return SetStatus(status, made);
  {
    absl::MutexLock lock(&session->mu);
    session->callables[handle] = std::move(memory);
  }
  *out_handle = handle;
  SetStatus(status, absl::OkStatus());
}

void TF_SessionRunCallable(TF_Session* session, int64_t handle, TF_Tensor* const* feed_values,
                           int nfeeds, TF_Tensor** fetch_values, int nfetches,
                           TF_Buffer* run_metadata, TF_Status* status) {
  if (nfetches > 0 && fetch_values == nullptr) {
    return SetStatus(status, absl::InvalidArgumentError("The fetch slots are null"));
  }
  for (int i = 0; i < nfetches; ++i) fetch_values[i] = nullptr;
  absl::StatusOr<TF_CallableMemory> memory = CallableMemory(session, handle);
  if (!memory.ok()) return SetStatus(status, memory.status());
  if (nfeeds != static_cast<int>(memory->feed_devices.size()) ||
      nfetches != static_cast<int>(memory->fetch_devices.size())) {
    return SetStatus(status, absl::InvalidArgumentError(absl::StrCat(
                                 "The callable has ", memory->feed_devices.size(), " feeds and ",
                                 memory->fetch_devices.size(), " fetches, but was given ", nfeeds,
                                 " feed values and ", nfetches, " fetch slots")));
  }
  if (nfeeds > 0 && feed_values == nullptr) {
    return SetStatus(status, absl::InvalidArgumentError("The feed values are null"));
  }
  if (run_metadata != nullptr && run_metadata->data != nullptr) {
    return SetStatus(status,
                     absl::InvalidArgumentError("Passing non-empty run_metadata is invalid."));
  }
  std::vector<sluice::Tensor> feeds;
  feeds.reserve(nfeeds);
  for (int i = 0; i < nfeeds; ++i) {
    absl::StatusOr<sluice::Tensor> feed = CallableFeed(feed_values[i], i, memory->feed_devices[i]);
    if (!feed.ok()) return SetStatus(status, feed.status());
    feeds.push_back(*std::move(feed));
  }
  std::vector<sluice::Tensor> fetches;
  sluice::RunMetadata metadata;
  absl::Status ran = session->session->RunCallable(handle, feeds, &fetches,
                                                   run_metadata == nullptr ? nullptr : &metadata);
  if (!ran.ok()) return SetStatus(status, ran);
  if (static_cast<int>(fetches.size()) != nfetches) {
    return SetStatus(status,
                     absl::InternalError(absl::StrCat("The session returned ", fetches.size(),
                                                      " fetches for ", nfetches)));
  }
  std::vector<TF_Tensor*> converted(nfetches, nullptr);
  auto discard = [&converted] {
    for (TF_Tensor* done : converted) TF_DeleteTensor(done);
  };
  for (int i = 0; i < nfetches; ++i) {
    const sluice::Tensor& fetch = fetches[i];
    const std::string& gpu = memory->fetch_devices[i];
    if (!gpu.empty() && InDeviceMemoryOnGpus(static_cast<TF_DataType>(fetch.dtype()))) {
      converted[i] = sluice::c_api::DeviceTensorToTF(fetch, gpu);
      continue;
    }
    absl::StatusOr<TF_Tensor*> host = sluice::c_api::TensorToTF(fetch);
    if (!host.ok()) {
      discard();
      return SetStatus(status, host.status());
    }
    converted[i] = *host;
  }
  if (run_metadata != nullptr) {
    absl::Status written = MessageToBuffer(metadata, run_metadata);
    if (!written.ok()) {
      discard();
      return SetStatus(status, written);
    }
  }
  for (int i = 0; i < nfetches; ++i) fetch_values[i] = converted[i];
  SetStatus(status, absl::OkStatus());
}

void TF_SessionReleaseCallable(TF_Session* session, int64_t handle, TF_Status* status) {
  {
    absl::MutexLock lock(&session->mu);
    auto it = session->callables.find(handle);
    if (it != session->callables.end()) it->second.released = true;
  }
  SetStatus(status, session->session->ReleaseCallable(handle));
}

}  // extern "C"
