// Var and the sentinel that stands for an uninitialized variable's value.
#include "runtime/framework/resource_var.h"

#include <algorithm>
#include <array>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "glog/logging.h"
#include "graph/core/allocator.h"
#include "graph/core/errors.h"
#include "graph/op/node_def_util.h"
#include "proto/types.pb.h"

namespace sluice {
namespace {

// One scalar per dtype, allocated on first use and never freed, so its buffer address
// identifies "uninitialized" for as long as the process lives.
const Tensor& Sentinel(DataType dtype) {
  static const auto* const sentinels = [] {
    auto* table = new std::array<Tensor, DataType_ARRAYSIZE>();
    for (int i = 1; i < DataType_ARRAYSIZE; ++i) {
      if (!DataType_IsValid(i)) continue;
      absl::StatusOr<Tensor> made =
          Tensor::Allocate(DefaultCpuAllocator(), static_cast<DataType>(i), TensorShape({}));
      (*table)[i] = made.ok() ? *std::move(made) : Tensor(DT_INVALID);
    }
    return table;
  }();
  static const Tensor* const invalid = new Tensor(DT_INVALID);
  if (dtype <= 0 || dtype >= DataType_ARRAYSIZE) return *invalid;
  return (*sentinels)[dtype];
}

// Every live Var, by the address of its tensor.
struct VarRegistry {
  absl::Mutex mu;
  absl::flat_hash_map<const Tensor*, Var*> vars ABSL_GUARDED_BY(mu);
};

VarRegistry& Registry() {
  static VarRegistry* const registry = new VarRegistry();
  return *registry;
}

}  // namespace

Var* VarOfRef(const Tensor* ref) {
  VarRegistry& registry = Registry();
  absl::MutexLock lock(&registry.mu);
  auto it = registry.vars.find(ref);
  return it == registry.vars.end() ? nullptr : it->second;
}

Tensor UninitializedRefTensor(DataType dtype) { return Sentinel(dtype); }

bool IsInitializedRef(const Tensor& tensor) {
  const Tensor& sentinel = Sentinel(tensor.dtype());
  return sentinel.dtype() == DT_INVALID ? tensor.dtype() != DT_INVALID
                                        : !tensor.SharesBufferWith(sentinel);
}

absl::Status ReadRefInput(const NodeDef& node_def, int index, const TensorValue& ref,
                          Tensor* value) {
  {
    absl::ReaderMutexLock lock(ref.mutex_if_ref);
    *value = *ref.tensor;
  }
  if (!IsInitializedRef(*value)) {
    const std::string input =
        index >= 0 && index < node_def.input_size() ? node_def.input(index) : "";
    return AttachDef(errors::FailedPrecondition("Attempting to use uninitialized value ", input),
                     node_def);
  }
  return absl::OkStatus();
}

Var::Var(DataType dtype) : Var(dtype, PartialTensorShape()) {}

Var::Var(DataType dtype, const PartialTensorShape& declared_shape)
    : dtype_(dtype), declared_shape_(declared_shape), tensor_(UninitializedRefTensor(dtype)) {
  VarRegistry& registry = Registry();
  absl::MutexLock lock(&registry.mu);
  registry.vars[&tensor_] = this;
}

Var::~Var() {
  VarRegistry& registry = Registry();
  absl::MutexLock lock(&registry.mu);
  registry.vars.erase(&tensor_);
}

void Var::SetValue(const Tensor& value) {
  tensor_ = value;
  is_initialized = true;
}

std::string Var::DebugString() const {
  absl::ReaderMutexLock lock(&mu_);
  return absl::StrCat(DataTypeString(dtype_), "/", tensor_.shape().DebugString());
}

}  // namespace sluice
