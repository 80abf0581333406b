#include "kernels/cpu/lookup/lookup_table.h"

#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "graph/core/errors.h"

namespace sluice {
namespace lookup {
namespace {

// Whether `shape` ends with `suffix` (TensorFlow's TensorShapeUtils::EndsWith).
bool EndsWith(const TensorShape& shape, const TensorShape& suffix) {
  const int offset = shape.dims() - suffix.dims();
  if (offset < 0) return false;
  for (int i = 0; i < suffix.dims(); ++i) {
    if (shape.dim_size(offset + i) != suffix.dim_size(i)) return false;
  }
  return true;
}

// `keys`' shape without the key dims (which it ends with), followed by the value shape.
absl::Status FullValueShape(const TensorShape& keys, const TensorShape& key_shape,
                            const TensorShape& value_shape, TensorShape* out) {
  *out = keys;
  // shape-safe: the keys end with the key shape (CheckKeyShape ran first), so as many dims go
  out->RemoveLastDims(key_shape.dims());
  return out->AppendShapeWithStatus(value_shape);
}

}  // namespace

std::string LookupTable::DebugString() const {
  return absl::StrCat("A lookup table of ", DataTypeString(key_dtype()), " to ",
                      DataTypeString(value_dtype()), " with ", size(), " entries");
}

absl::Status LookupTable::CheckKeyAndValueTypes(const Tensor& keys, const Tensor& values) const {
  if (keys.dtype() != key_dtype()) {
    return errors::InvalidArgument("Key must be type ", DataTypeString(key_dtype()), " but got ",
                                   DataTypeString(keys.dtype()));
  }
  if (values.dtype() != value_dtype()) {
    return errors::InvalidArgument("Value must be type ", DataTypeString(value_dtype()),
                                   " but got ", DataTypeString(values.dtype()));
  }
  return absl::OkStatus();
}

absl::Status LookupTable::CheckKeyShape(const TensorShape& shape) const {
  if (!EndsWith(shape, key_shape())) {
    return errors::InvalidArgument("Input key shape ", shape.DebugString(),
                                   " must end with the table's key shape ",
                                   key_shape().DebugString());
  }
  return absl::OkStatus();
}

absl::Status LookupTable::CheckKeyAndValueTensors(const Tensor& keys, const Tensor& values) const {
  RETURN_IF_ERROR(CheckKeyAndValueTypes(keys, values));
  RETURN_IF_ERROR(CheckKeyShape(keys.shape()));
  TensorShape expected;
  RETURN_IF_ERROR(FullValueShape(keys.shape(), key_shape(), value_shape(), &expected));
  if (values.shape() != expected) {
    return errors::InvalidArgument("Expected shape ", expected.DebugString(), " for value, got ",
                                   values.shape().DebugString());
  }
  return absl::OkStatus();
}

absl::Status LookupTable::CheckFindArguments(const Tensor& keys,
                                             const Tensor& default_value) const {
  RETURN_IF_ERROR(CheckKeyAndValueTypes(keys, default_value));
  RETURN_IF_ERROR(CheckKeyShape(keys.shape()));
  TensorShape full;
  RETURN_IF_ERROR(FullValueShape(keys.shape(), key_shape(), value_shape(), &full));
  if (default_value.shape() != value_shape() && default_value.shape() != full) {
    return errors::InvalidArgument("Expected shape ", value_shape().DebugString(), " or ",
                                   full.DebugString(), " for default value, got ",
                                   default_value.shape().DebugString());
  }
  return absl::OkStatus();
}

absl::Status LookupTable::CheckKeyTensorForRemove(const Tensor& keys) const {
  if (keys.dtype() != key_dtype()) {
    return errors::InvalidArgument("Key must be type ", DataTypeString(key_dtype()), " but got ",
                                   DataTypeString(keys.dtype()));
  }
  return CheckKeyShape(keys.shape());
}

bool InitializableTable::is_initialized() const {
  return initialized_.load(std::memory_order_acquire);
}

absl::Status InitializableTable::Initialize(InitTableIterator& iter) {
  if (!iter.Valid()) return iter.status();
  RETURN_IF_ERROR(CheckKeyAndValueTensors(iter.keys(), iter.values()));
  absl::MutexLock lock(&mu_);
  if (is_initialized()) {
    if (iter.total_size() != size()) {
      return errors::FailedPrecondition("Table was already initialized with different data.");
    }
    return absl::OkStatus();
  }
  while (iter.Valid()) {
    RETURN_IF_ERROR(DoInsert(iter.keys(), iter.values()));
    iter.Next();
  }
  if (!absl::IsOutOfRange(iter.status())) return iter.status();
  initialized_.store(true, std::memory_order_release);
  return absl::OkStatus();
}

absl::Status InitializableTable::Find(const Tensor& keys, Tensor* values,
                                      const Tensor& default_value) {
  if (!is_initialized()) return errors::FailedPrecondition("Table not initialized.");
  return DoFind(keys, values, default_value);
}

absl::Status InitializableTable::Insert(OpKernelContext*, const Tensor&, const Tensor&) {
  return errors::Unimplemented("Insert not supported by InitializableLookupTable implementations");
}

absl::Status InitializableTable::Remove(const Tensor&) {
  return errors::Unimplemented("Remove not supported by InitializableLookupTable implementations");
}

namespace {

// A (keys, values) pair as one batch (TensorFlow's KeyValueTensorIterator).
class KeyValueTensorIterator : public InitTableIterator {
 public:
  KeyValueTensorIterator(const Tensor& keys, const Tensor& values) : keys_(keys), values_(values) {
    if (!keys.shape().IsSameSize(values.shape())) {
      valid_ = false;
      status_ =
          errors::InvalidArgument("keys and values should have the same dimension.",
                                  keys.shape().DebugString(), " vs ", values.shape().DebugString());
    }
    if (keys.NumElements() == 0) {
      valid_ = false;
      status_ = errors::InvalidArgument("keys and values cannot be empty tensors.");
    }
  }
  bool Valid() const override { return valid_; }
  void Next() override {
    valid_ = false;
    status_ = errors::OutOfRange("No more data.");
  }
  const Tensor& keys() const override { return keys_; }
  const Tensor& values() const override { return values_; }
  absl::Status status() const override { return status_; }
  int64_t total_size() override { return keys_.NumElements(); }

 private:
  const Tensor& keys_;
  const Tensor& values_;
  bool valid_ = true;
  absl::Status status_;
};

}  // namespace

absl::Status InitializableTable::Import(OpKernelContext*, const Tensor& keys,
                                        const Tensor& values) {
  KeyValueTensorIterator iter(keys, values);
  return Initialize(iter);
}

absl::Status GetTableName(OpKernelContext* ctx, int input, std::string* container,
                          std::string* name) {
  if (!ctx->input_is_ref(input)) {
    ResourceHandleProto handle;
    RETURN_IF_ERROR(HandleFromInput(ctx, input, &handle));
    *container = handle.container();
    *name = handle.name();
    return absl::OkStatus();
  }
  absl::MutexLock lock(ctx->input_ref_mutex(input));
  const Tensor handle = ctx->mutable_input(input, /*lock_held=*/true);
  if (handle.dtype() != DT_STRING || handle.NumElements() != 2) {
    return errors::InvalidArgument("Lookup table handle must be scalar, but had shape: ",
                                   handle.shape().DebugString());
  }
  *container = handle.flat<std::string>()(0);
  *name = handle.flat<std::string>()(1);
  return absl::OkStatus();
}

absl::Status GetLookupTable(OpKernelContext* ctx, int input, LookupTable** table) {
  if (!ctx->input_is_ref(input)) {
    ResourceHandleProto handle;
    RETURN_IF_ERROR(HandleFromInput(ctx, input, &handle));
    return LookupResource(ctx, handle, table);
  }
  std::string container;
  std::string name;
  RETURN_IF_ERROR(GetTableName(ctx, input, &container, &name));
  if (ctx->resource_manager() == nullptr) return errors::Internal("No resource manager.");
  return ctx->resource_manager()->Lookup(container, name, table);
}

DataType HandleType(OpKernelContext* ctx, int input) {
  return ctx->input_is_ref(input) ? DT_STRING_REF : DT_RESOURCE;
}

absl::Status MatchSignature(OpKernelContext* ctx, std::initializer_list<DataType> inputs,
                            std::initializer_list<DataType> outputs) {
  bool match = static_cast<int>(inputs.size()) == ctx->num_inputs() &&
               static_cast<int>(outputs.size()) == ctx->num_outputs();
  std::vector<std::string> have_in, have_out, want_in, want_out;
  int i = 0;
  for (DataType t : inputs) {
    want_in.push_back(DataTypeString(t));
    if (i < ctx->num_inputs() && ctx->input_dtype(i) != t) match = false;
    ++i;
  }
  i = 0;
  for (DataType t : outputs) {
    want_out.push_back(DataTypeString(t));
    if (i < ctx->num_outputs() && ctx->expected_output_dtype(i) != t) match = false;
    ++i;
  }
  if (match) return absl::OkStatus();
  for (int j = 0; j < ctx->num_inputs(); ++j)
    have_in.push_back(DataTypeString(ctx->input_dtype(j)));
  for (int j = 0; j < ctx->num_outputs(); ++j) {
    have_out.push_back(DataTypeString(ctx->expected_output_dtype(j)));
  }
  return errors::InvalidArgument("Signature mismatch, have: ", absl::StrJoin(have_in, ", "), "->",
                                 absl::StrJoin(have_out, ", "),
                                 " expected: ", absl::StrJoin(want_in, ", "), "->",
                                 absl::StrJoin(want_out, ", "));
}

}  // namespace lookup
}  // namespace sluice
