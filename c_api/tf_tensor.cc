// TF_Tensor (tensorflow/c/tf_tensor.h), and the conversions between TF_Tensor and Sluice's
// Tensor that sessions and attrs use (c_api_internal.h).
#include "tensorflow/c/tf_tensor.h"

#include <cstdlib>
#include <cstring>
#include <limits>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "c_api/c_api_internal.h"
#include "graph/core/allocator.h"
#include "graph/core/tensor_types.h"
#include "graph/core/types.h"
#include "proto/resource_handle.pb.h"
#include "tensorflow/c/tf_tstring.h"

namespace {

using sluice::kAllocatorAlignment;

// Memory for `len` bytes on a kAllocatorAlignment boundary; a distinct pointer even for 0.
void* AllocateAligned(size_t len) {
  const size_t rounded =
      (len + kAllocatorAlignment - 1) / kAllocatorAlignment * kAllocatorAlignment;
  return std::aligned_alloc(kAllocatorAlignment, rounded == 0 ? kAllocatorAlignment : rounded);
}

// The element count of `dims`, or -1 when a dim is negative or the product overflows.
int64_t ElementCount(const int64_t* dims, int num_dims) {
  if (num_dims < 0 || (num_dims > 0 && dims == nullptr)) return -1;
  int64_t count = 1;
  for (int i = 0; i < num_dims; ++i) {
    if (dims[i] < 0) return -1;
    if (dims[i] != 0 && count > std::numeric_limits<int64_t>::max() / dims[i]) return -1;
    count *= dims[i];
  }
  return count;
}

// Whether a tensor can have `dtype`: one the header names (TF_FLOAT to TF_FLOAT4_E2M1FN); not 0,
// not a ref type (101 and up, which C callers may pass) and not a value that names no type.
bool IsTensorDataType(TF_DataType dtype) {
  const int value = static_cast<int>(dtype);
  return value >= TF_FLOAT && value <= TF_FLOAT4_E2M1FN;
}

// Sets *bytes to what `count` elements of `dtype` need at least (a TF_TString per element
// for strings); false when that overflows size_t.
bool RequiredBytes(TF_DataType dtype, int64_t count, size_t* bytes) {
  const size_t element = dtype == TF_STRING ? sizeof(TF_TString) : TF_DataTypeSize(dtype);
  if (element != 0 && static_cast<uint64_t>(count) > std::numeric_limits<size_t>::max() / element) {
    return false;
  }
  *bytes = element * static_cast<size_t>(count);
  return true;
}

TF_Tensor* MakeTensor(TF_DataType dtype, const int64_t* dims, int num_dims,
                      std::shared_ptr<TensorStorage> storage, bool owns_strings) {
  auto* tensor = new TF_Tensor;
  tensor->dtype = dtype;
  tensor->dims.assign(dims, dims + num_dims);
  tensor->storage = std::move(storage);
  tensor->owns_strings = owns_strings;
  return tensor;
}

// Storage of `len` aligned bytes that frees them; for TF_STRING, `count` TF_TStrings are
// initialised in it and deallocated with it.
std::shared_ptr<TensorStorage> NewOwnedStorage(TF_DataType dtype, int64_t count, size_t len) {
  void* data = AllocateAligned(len);
  if (data == nullptr) return nullptr;
  if (dtype == TF_STRING) {
    auto* strings = static_cast<TF_TString*>(data);
    for (int64_t i = 0; i < count; ++i) TF_TString_Init(&strings[i]);
    return std::make_shared<TensorStorage>(data, len, [strings, count] {
      for (int64_t i = 0; i < count; ++i) TF_TString_Dealloc(&strings[i]);
      std::free(strings);
    });
  }
  return std::make_shared<TensorStorage>(data, len, [data] { std::free(data); });
}

}  // namespace

int64_t TF_Tensor::NumElements() const {
  return ElementCount(dims.data(), static_cast<int>(dims.size()));
}

extern "C" {

TF_Tensor* TF_NewTensor(TF_DataType dtype, const int64_t* dims, int num_dims, void* data,
                        size_t len, void (*deallocator)(void* data, size_t len, void* arg),
                        void* deallocator_arg) {
  auto release_caller_memory = [=] {
    if (deallocator != nullptr) deallocator(data, len, deallocator_arg);
  };
  const int64_t count = ElementCount(dims, num_dims);
  size_t required = 0;
  if (!IsTensorDataType(dtype) || count < 0 || !RequiredBytes(dtype, count, &required) ||
      len < required || (data == nullptr && len > 0)) {
    release_caller_memory();
    return nullptr;
  }
  std::shared_ptr<TensorStorage> storage;
  if (reinterpret_cast<uintptr_t>(data) % kAllocatorAlignment != 0 || data == nullptr) {
    // Kernels may assume aligned buffers: copy, and hand the caller's memory back now.
    void* copy = AllocateAligned(len);
    if (copy == nullptr) {
      release_caller_memory();
      return nullptr;
    }
    if (len > 0) std::memcpy(copy, data, len);
    release_caller_memory();
    storage = std::make_shared<TensorStorage>(copy, len, [copy] { std::free(copy); });
  } else {
    storage = std::make_shared<TensorStorage>(data, len, release_caller_memory);
  }
  // The caller's TF_TString elements stay the caller's to deallocate (in its deallocator).
  return MakeTensor(dtype, dims, num_dims, std::move(storage), /*owns_strings=*/false);
}

size_t TF_TensorDefaultAlignment(void) { return kAllocatorAlignment; }

TF_Tensor* TF_AllocateTensor(TF_DataType dtype, const int64_t* dims, int num_dims, size_t len) {
  const int64_t count = ElementCount(dims, num_dims);
  size_t required = 0;
  if (!IsTensorDataType(dtype) || count < 0 || !RequiredBytes(dtype, count, &required) ||
      len < required) {
    return nullptr;
  }
  std::shared_ptr<TensorStorage> storage = NewOwnedStorage(dtype, count, len);
  if (storage == nullptr) return nullptr;
  return MakeTensor(dtype, dims, num_dims, std::move(storage), dtype == TF_STRING);
}

TF_Tensor* TF_TensorMaybeMove(TF_Tensor* tensor) {
  if (tensor == nullptr || tensor->storage.use_count() != 1) return nullptr;
  return tensor;
}

void TF_DeleteTensor(TF_Tensor* tensor) { delete tensor; }

TF_DataType TF_TensorType(const TF_Tensor* tensor) { return tensor->dtype; }

void TF_SetShape(TF_Tensor* tensor, const int64_t* dims, int num_dims) {
  if (tensor == nullptr) return;
  const int64_t count = ElementCount(dims, num_dims);
  size_t required = 0;
  // A shape the bytes cannot hold is ignored: there is no status to report it in.
  if (count < 0 || !RequiredBytes(tensor->dtype, count, &required) ||
      required > tensor->storage->len) {
    return;
  }
  tensor->dims.assign(dims, dims + num_dims);
}

int TF_NumDims(const TF_Tensor* tensor) { return static_cast<int>(tensor->dims.size()); }

int64_t TF_Dim(const TF_Tensor* tensor, int dim_index) {
  if (dim_index < 0 || dim_index >= static_cast<int>(tensor->dims.size())) return -1;
  return tensor->dims[dim_index];
}

size_t TF_TensorByteSize(const TF_Tensor* tensor) { return tensor->storage->len; }

void* TF_TensorData(const TF_Tensor* tensor) { return tensor->storage->data; }

int64_t TF_TensorElementCount(const TF_Tensor* tensor) { return tensor->NumElements(); }

void TF_TensorBitcastFrom(const TF_Tensor* from, TF_DataType type, TF_Tensor* to,
                          const int64_t* new_dims, int num_new_dims, TF_Status* status) {
  const int64_t from_count = from->NumElements();
  const int64_t to_count = ElementCount(new_dims, num_new_dims);
  size_t from_bytes = 0;
  size_t to_bytes = 0;
  if (!IsTensorDataType(type) || from_count < 0 || to_count < 0 || from->dtype == TF_STRING ||
      type == TF_STRING || !RequiredBytes(from->dtype, from_count, &from_bytes) ||
      !RequiredBytes(type, to_count, &to_bytes) || from_bytes != to_bytes ||
      TF_DataTypeSize(type) == 0) {
    TF_SetStatus(status, TF_INVALID_ARGUMENT,
                 "input and output shapes/data type sizes are not compatible");
    return;
  }
  to->dtype = type;
  to->dims.assign(new_dims, new_dims + num_new_dims);
  to->storage = from->storage;
  to->owns_strings = false;
  to->device = from->device;
  TF_SetStatus(status, TF_OK, "");
}

bool TF_TensorIsAligned(const TF_Tensor* tensor) {
  return reinterpret_cast<uintptr_t>(tensor->storage->data) % kAllocatorAlignment == 0;
}

}  // extern "C"

namespace sluice {
namespace c_api {

namespace {

// A tensor over src's bytes, sharing them (its storage lives as long as the tensor).
absl::StatusOr<Tensor> SharedBytesTensor(const TF_Tensor* src, const TensorShape& shape) {
  const size_t element = TF_DataTypeSize(src->dtype);
  if (element == 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("Unsupported tensor dtype ", static_cast<int>(src->dtype)));
  }
  const size_t needed = element * static_cast<size_t>(shape.num_elements());
  std::shared_ptr<TensorStorage> storage = src->storage;
  return Tensor::FromExternalData(static_cast<DataType>(src->dtype), shape, storage->data, needed,
                                  [storage](void*) mutable { storage.reset(); });
}

}  // namespace

absl::StatusOr<Tensor> DeviceTensorFromTF(const TF_Tensor* src) {
  TensorShape shape;
  absl::Status shape_status = TensorShape::BuildTensorShape(src->dims, &shape);
  if (!shape_status.ok()) return shape_status;
  return SharedBytesTensor(src, shape);
}

TF_Tensor* DeviceTensorToTF(const Tensor& src, const std::string& device) {
  std::vector<int64_t> dims(src.shape().dims());
  for (int i = 0; i < src.shape().dims(); ++i) dims[i] = src.shape().dim_size(i);
  auto* shared = new Tensor(src);
  auto storage = std::make_shared<TensorStorage>(src.raw_data(), src.tensor_data().size(),
                                                 [shared] { delete shared; });
  TF_Tensor* out = MakeTensor(static_cast<TF_DataType>(src.dtype()), dims.data(),
                              static_cast<int>(dims.size()), std::move(storage), false);
  out->device = device;
  return out;
}

absl::StatusOr<Tensor> TensorFromTF(const TF_Tensor* src) {
  if (src == nullptr) return absl::InvalidArgumentError("The tensor is null.");
  if (!src->device.empty()) {
    return absl::InvalidArgumentError(
        absl::StrCat("The tensor is in the memory of ", src->device,
                     ": only a callable that feeds it on that device takes it "
                     "(TF_SessionRunCallable)"));
  }
  TensorShape shape;
  absl::Status shape_status = TensorShape::BuildTensorShape(src->dims, &shape);
  if (!shape_status.ok()) return shape_status;
  const int64_t count = shape.num_elements();
  const size_t available = src->storage->len;
  const char* bytes = static_cast<const char*>(src->storage->data);

  if (src->dtype == TF_STRING) {
    if (static_cast<uint64_t>(count) > available / sizeof(TF_TString)) {
      return absl::InvalidArgumentError(absl::StrCat("Malformed TF_STRING tensor: ", available,
                                                     " bytes cannot hold ", count, " TF_TStrings"));
    }
    absl::StatusOr<Tensor> out = Tensor::Allocate(DefaultCpuAllocator(), DT_STRING, shape);
    if (!out.ok()) return out.status();
    auto flat = out->flat<std::string>();
    const auto* strings = reinterpret_cast<const TF_TString*>(bytes);
    for (int64_t i = 0; i < count; ++i) {
      const TF_TString* element = &strings[i];
      const size_t size = TF_TString_GetSize(element);
      if (TF_TString_GetType(element) == TF_TSTR_OFFSET) {
        // Offsets count from the element itself; they must stay inside the tensor's bytes.
        const uint32_t offset = element->u.offset.offset;
        const size_t position = reinterpret_cast<const char*>(element) - bytes;
        if (offset > available - position || size > available - position - offset) {
          return absl::InvalidArgumentError(absl::StrCat("Malformed TF_STRING tensor: element ", i,
                                                         " points outside the tensor"));
        }
      }
      const char* data = TF_TString_GetDataPointer(element);
      if (size > 0 && data == nullptr) {
        return absl::InvalidArgumentError(
            absl::StrCat("Malformed TF_STRING tensor: element ", i, " has no data"));
      }
      flat(i).assign(data, size);
    }
    return out;
  }

  if (src->dtype == TF_RESOURCE) {
    // A resource tensor crosses the C API as a scalar holding a serialized ResourceHandleProto.
    if (shape.dims() != 0) {
      return absl::InvalidArgumentError(
          "Malformed TF_RESOURCE tensor: expected a scalar, got a tensor with shape " +
          shape.DebugString());
    }
    ResourceHandleProto handle;
    if (!sluice::c_api::ParseFromBytes(bytes, available, &handle)) {
      return absl::InvalidArgumentError(
          "Malformed TF_RESOURCE tensor: unable to parse resource handle");
    }
    return Tensor(std::move(handle));
  }

  return SharedBytesTensor(src, shape);
}

absl::StatusOr<TF_Tensor*> TensorToTF(const Tensor& src) {
  const TF_DataType dtype = static_cast<TF_DataType>(src.dtype());
  std::vector<int64_t> dims(src.shape().dims());
  for (int i = 0; i < src.shape().dims(); ++i) dims[i] = src.shape().dim_size(i);
  const int64_t count = src.NumElements();

  if (src.dtype() == DT_STRING) {
    std::shared_ptr<TensorStorage> storage =
        NewOwnedStorage(TF_STRING, count, sizeof(TF_TString) * count);
    auto* strings = static_cast<TF_TString*>(storage->data);
    auto flat = src.flat<std::string>();
    for (int64_t i = 0; i < count; ++i) {
      TF_TString_Copy(&strings[i], flat(i).data(), flat(i).size());
    }
    return MakeTensor(TF_STRING, dims.data(), static_cast<int>(dims.size()), std::move(storage),
                      true);
  }

  if (src.dtype() == DT_RESOURCE) {
    if (count != 1) {
      return absl::InvalidArgumentError(
          absl::StrCat("Only scalar resource tensors can be returned through the C API, got shape ",
                       src.shape().DebugString()));
    }
    std::string serialized = src.flat<ResourceHandleProto>()(0).SerializeAsString();
    std::shared_ptr<TensorStorage> storage = NewOwnedStorage(TF_RESOURCE, 1, serialized.size());
    std::memcpy(storage->data, serialized.data(), serialized.size());
    return MakeTensor(TF_RESOURCE, dims.data(), static_cast<int>(dims.size()), std::move(storage),
                      false);
  }

  const size_t len = src.tensor_data().size();
  std::shared_ptr<TensorStorage> storage;
  if (src.raw_data() == nullptr || !src.IsAligned()) {
    // No buffer (no elements) or a slice off the alignment: give the caller aligned bytes.
    storage = NewOwnedStorage(dtype, count, len);
    if (len > 0) std::memcpy(storage->data, src.tensor_data().data(), len);
  } else {
    auto* shared = new Tensor(src);
    storage = std::make_shared<TensorStorage>(src.raw_data(), len, [shared] { delete shared; });
  }
  return MakeTensor(dtype, dims.data(), static_cast<int>(dims.size()), std::move(storage), false);
}

std::string OutputName(const TF_Output& output) {
  return absl::StrCat(ToNode(output.oper)->name(), ":", output.index);
}

}  // namespace c_api
}  // namespace sluice
