#include "kernels/cpu/lists/tensor_array.h"

#include <algorithm>
#include <utility>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "graph/core/allocator.h"
#include "graph/core/errors.h"
#include "graph/core/tensor_types.h"
#include "kernels/cpu/lists/element_rows.h"
#include "kernels/cpu/wrapping_arithmetic.h"

namespace sluice {
namespace {

template <typename T>
void AddElements(const Tensor& a, const Tensor& b, Tensor* sum) {
  const T* x = a.base<T>();
  const T* y = b.base<T>();
  T* out = sum->base<T>();
  const int64_t n = a.NumElements();
  for (int64_t i = 0; i < n; ++i) out[i] = WrappingAdd(x[i], y[i]);
}

// *sum = a + b elementwise, for TensorFlow's number types (the dtypes its TensorArrays add
// up). REQUIRES: same dtype and shape; `sum` allocated, and may be `a`.
absl::Status AddTensors(const Tensor& a, const Tensor& b, Tensor* sum) {
  switch (a.dtype()) {
#define SLUICE_ADD_CASE(T)       \
  case DataTypeToEnum<T>::value: \
    AddElements<T>(a, b, sum);   \
    return absl::OkStatus();
    SLUICE_CALL_NUMBER_TYPES(SLUICE_ADD_CASE)
#undef SLUICE_ADD_CASE
    default:
      return errors::InvalidArgument("tensor_array::AddToTensor type not supported: ",
                                     DataTypeString(a.dtype()));
  }
}

}  // namespace

TensorArray::TensorArray(std::string name, int64_t size, Options options)
    : name_(std::move(name)),
      dtype_(options.dtype),
      clear_after_read_(options.clear_after_read),
      identical_element_shapes_(options.identical_element_shapes),
      multiple_writes_aggregate_(options.multiple_writes_aggregate),
      is_grad_(options.is_grad),
      dynamic_size_(options.dynamic_size),
      marked_size_(options.marked_size),
      element_shape_(std::move(options.element_shape)),
      // on the heap, bounded: one Slot per element; TensorArrayV3 checked size against kMaxSlots
      slots_(static_cast<size_t>(size)) {}

std::string TensorArray::DebugString() const { return absl::StrCat("TensorArray ", name_); }

absl::Status TensorArray::CheckOpenLocked() const {
  if (closed_) return errors::InvalidArgument("TensorArray ", name_, " has already been closed.");
  return absl::OkStatus();
}

absl::Status TensorArray::Write(OpKernelContext* ctx, int64_t index, const Tensor& value) {
  absl::MutexLock lock(&mu_);
  return WriteLocked(ctx, index, value);
}

absl::Status TensorArray::WriteLocked(OpKernelContext* ctx, int64_t index, const Tensor& value) {
  RETURN_IF_ERROR(CheckOpenLocked());
  const int64_t size = static_cast<int64_t>(slots_.size());
  if (index < 0 || (index >= size && !dynamic_size_)) {
    return errors::InvalidArgument("TensorArray ", name_, ": Tried to write to index ", index,
                                   " but array is not resizeable and size is: ", size);
  }
  // As TensorFlow's, a dynamic array grows to the index before the value is checked.
  if (index >= size) {
    RETURN_IF_ERROR(CheckSlotCount(index + 1));
    slots_.resize(static_cast<size_t>(index) + 1);  // heap-ok: index + 1 checked just above
  }
  if (value.dtype() != dtype_) {
    return errors::InvalidArgument("TensorArray ", name_, ": Could not write to TensorArray index ",
                                   index, " because the value dtype is ",
                                   DataTypeString(value.dtype()), " but TensorArray dtype is ",
                                   DataTypeString(dtype_), ".");
  }
  // shape-safe: converts a TensorShape, which is valid
  if (!element_shape_.IsCompatibleWith(PartialTensorShape(value.shape()))) {
    return errors::InvalidArgument(
        "TensorArray ", name_, ": Could not write to TensorArray index ", index,
        " because the value shape is ", value.shape().DebugString(),
        " which is incompatible with the TensorArray's inferred element shape: ",
        element_shape_.DebugString(), " (consider setting infer_shape=False).");
  }
  if (identical_element_shapes_ && !element_shape_.IsFullyDefined()) {
    element_shape_ = PartialTensorShape(value.shape());  // shape-safe: converts a valid shape
  }
  Slot& slot = slots_[index];
  if (slot.read) {
    return errors::InvalidArgument("TensorArray ", name_, ": Could not write to TensorArray index ",
                                   index, " because it has already been read.");
  }
  if (slot.written && !multiple_writes_aggregate_) {
    return errors::InvalidArgument("TensorArray ", name_, ": Could not write to TensorArray index ",
                                   index, " because it has already been written to.");
  }
  if (slot.written) return AggregateLocked(ctx, index, &slot, value);
  slot.value = value;
  slot.shape = value.shape();
  slot.written = true;
  return absl::OkStatus();
}

absl::Status TensorArray::AggregateLocked(OpKernelContext* ctx, int64_t index, Slot* slot,
                                          const Tensor& value) {
  if (value.shape() != slot->shape) {
    return errors::InvalidArgument(
        "TensorArray ", name_, ": Could not aggregate to TensorArray index ", index,
        " because the existing shape is ", slot->shape.DebugString(),
        " but the new input shape is ", value.shape().DebugString(), ".");
  }
  // A slot that holds only a shape (zeros) takes the value as it is.
  if (!slot->value.IsInitialized() || slot->value.NumElements() == 0) {
    slot->value = value;
    return absl::OkStatus();
  }
  if (ElementGpu(ctx) != nullptr) {
    return errors::Unimplemented("TensorArray ", name_, ": adding up the writes to index ", index,
                                 " in a GPU's memory is not supported");
  }
  // The first sum goes to a tensor of the array's own: the values written are shared with
  // the graph. Later ones add to it in place (no write follows a read, so no one else holds it).
  Tensor sum = slot->value;
  if (!slot->own_sum) RETURN_IF_ERROR(ctx->allocate_temp(dtype_, slot->shape, &sum));
  RETURN_IF_ERROR(AddTensors(slot->value, value, &sum));
  slot->value = sum;
  slot->own_sum = true;
  return absl::OkStatus();
}

absl::Status TensorArray::Read(OpKernelContext* ctx, int64_t index, Tensor* value) {
  absl::MutexLock lock(&mu_);
  return ReadLocked(ctx, index, value);
}

absl::Status TensorArray::ReadLocked(OpKernelContext* ctx, int64_t index, Tensor* value) {
  RETURN_IF_ERROR(CheckOpenLocked());
  const int64_t size = static_cast<int64_t>(slots_.size());
  if (index < 0 || (index >= size && !is_grad_)) {
    return errors::InvalidArgument("Tried to read from index ", index,
                                   " but array size is: ", size);
  }
  // Nothing written there: zeros, of the slot's own shape in a gradient array that has one
  // (backprop may read gradients no one wrote), else of the element shape. The slot (and, in
  // a gradient array, every slot up to it) then counts as written.
  if (index >= size || !slots_[index].written) {
    TensorShape shape;
    if (is_grad_ && index < size && slots_[index].shape.dims() > 0) {
      shape = slots_[index].shape;
    } else if (!element_shape_.AsTensorShape(&shape)) {
      return errors::InvalidArgument(
          "TensorArray ", name_, ": Could not read from TensorArray index ", index,
          ".  Furthermore, the element shape is not fully defined: ", element_shape_.DebugString(),
          ".  It is possible you are working with a resizeable TensorArray and stop_gradients is "
          "not allowing the gradients to be written.  If you set the full element_shape "
          "property on the forward TensorArray, the proper all-zeros tensor will be returned "
          "instead of incurring this error.");
    }
    if (index >= size) {
      RETURN_IF_ERROR(CheckSlotCount(index + 1));
      slots_.resize(static_cast<size_t>(index) + 1);  // heap-ok: index + 1 checked just above
      for (int64_t i = size; i <= index; ++i) {
        slots_[i].shape = shape;
        slots_[i].written = true;
      }
    } else {
      slots_[index].shape = shape;
      slots_[index].written = true;
    }
  }
  Slot& slot = slots_[index];
  if (slot.cleared) {
    return errors::InvalidArgument("TensorArray ", name_, ": Could not read index ", index,
                                   " twice because it was cleared after a previous read "
                                   "(perhaps try setting clear_after_read = false?).");
  }
  if (!slot.value.IsInitialized() || slot.value.NumElements() == 0) {
    RETURN_IF_ERROR(ZerosTensor(ctx, dtype_, slot.shape, &slot.value));
  }
  *value = slot.value;
  if (clear_after_read_) {
    slot.value = Tensor();
    slot.cleared = true;
  }
  slot.read = true;
  return absl::OkStatus();
}

absl::Status TensorArray::Gather(OpKernelContext* ctx, absl::Span<const int64_t> indices,
                                 const PartialTensorShape& element_shape, Tensor* value) {
  absl::MutexLock lock(&mu_);
  RETURN_IF_ERROR(CheckOpenLocked());
  // The op's element shape narrows the array's, as in TensorFlow.
  RETURN_IF_ERROR(element_shape_.MergeWith(element_shape, &element_shape_));
  TensorShape row_shape;
  if (indices.empty()) {
    if (!element_shape.AsTensorShape(&row_shape)) {
      return errors::Unimplemented(
          "TensorArray has size zero, but element shape ", element_shape.DebugString(),
          " is not fully defined. Currently only static shapes are supported when packing "
          "zero-size TensorArrays.");
    }
    RETURN_IF_ERROR(row_shape.InsertDimWithStatus(0, 0));
    return ctx->allocate_temp(dtype_, row_shape, value);
  }
  // The gathered elements are held as Tensor handles (shared, not copied) until stacked; an
  // index may repeat, so their number is bounded only here.
  RETURN_IF_ERROR(CheckSlotCount(static_cast<int64_t>(indices.size())));
  // heap-ok: one Tensor handle per gathered element; their number checked against kMaxSlots
  std::vector<Tensor> values(indices.size());
  for (size_t i = 0; i < indices.size(); ++i) {
    RETURN_IF_ERROR(ReadLocked(ctx, indices[i], &values[i]));
  }
  row_shape = values[0].shape();
  // shape-safe: converts a TensorShape, which is valid
  if (!element_shape.IsCompatibleWith(PartialTensorShape(row_shape))) {
    return errors::InvalidArgument(
        "TensorArray was passed element_shape ", element_shape.DebugString(),
        " which does not match the Tensor at index 0: ", row_shape.DebugString());
  }
  for (size_t i = 1; i < values.size(); ++i) {
    if (values[i].shape() != row_shape) {
      return errors::InvalidArgument(
          "TensorArray has inconsistent shapes.  Index 0 has shape: ", row_shape.DebugString(),
          " but index ", i, " has shape: ", values[i].shape().DebugString());
    }
  }
  TensorShape shape = row_shape;
  RETURN_IF_ERROR(shape.InsertDimWithStatus(0, static_cast<int64_t>(values.size())));
  RETURN_IF_ERROR(ctx->allocate_temp(dtype_, shape, value));
  const int64_t row = row_shape.num_elements();
  for (size_t i = 0; i < values.size(); ++i) {
    RETURN_IF_ERROR(CopyElements(ctx, values[i], 0, value, static_cast<int64_t>(i) * row, row));
  }
  return absl::OkStatus();
}

absl::Status TensorArray::Concat(OpKernelContext* ctx,
                                 const PartialTensorShape& element_shape_except0, Tensor* value,
                                 Tensor* lengths) {
  absl::MutexLock lock(&mu_);
  RETURN_IF_ERROR(CheckOpenLocked());
  // A gradient array concatenates as many elements as its forward array was split into.
  const int64_t count = is_grad_ ? marked_size_ : static_cast<int64_t>(slots_.size());
  if (count < 0) {
    return errors::InvalidArgument("TensorArray ", name_,
                                   ": cannot concatenate the gradient array of a TensorArray "
                                   "that was never split");
  }
  RETURN_IF_ERROR(CheckSlotCount(count));
  // heap-ok: one Tensor handle per element; their number checked against kMaxSlots
  std::vector<Tensor> values(static_cast<size_t>(count));
  for (int64_t i = 0; i < count; ++i) {
    RETURN_IF_ERROR(ReadLocked(ctx, i, &values[i]));
  }
  TensorShape rest;
  if (values.empty()) {
    if (!element_shape_except0.AsTensorShape(&rest)) {
      return errors::Unimplemented(
          "TensorArray has size zero, but element_shape_except0 ",
          element_shape_except0.DebugString(),
          " is not fully defined. Currently only static shapes are supported when concatenating "
          "zero-size TensorArrays.");
    }
  }
  // shape-safe: one dim, the number of the array's elements
  const TensorShape lengths_shape({static_cast<int64_t>(values.size())});
  // Host memory on every device (a HostMemory output on GPUs): the host writes it.
  Allocator* host = ctx->device()->GetHostAllocator();
  absl::StatusOr<Tensor> host_lengths = Tensor::Allocate(host, DT_INT64, lengths_shape);
  if (!host_lengths.ok()) {
    return errors::ResourceExhausted("OOM when allocating the lengths of TensorArray ", name_,
                                     " by allocator ", host->Name(), ": ",
                                     host_lengths.status().message());
  }
  *lengths = *std::move(host_lengths);
  int64_t* const rows = lengths->base<int64_t>();
  int64_t total = 0;
  for (size_t i = 0; i < values.size(); ++i) {
    const Tensor& v = values[i];
    if (v.dims() < 1) {
      return errors::InvalidArgument("Concat saw a scalar shape at index ", i,
                                     " but requires at least vectors.  Did you mean to call "
                                     "TensorArray.stack instead?");
    }
    TensorShape v_rest = v.shape();
    v_rest.RemoveDim(0);  // shape-safe: v has rank >= 1 (checked above)
    if (i == 0) {
      rest = v_rest;
      // shape-safe: converts a TensorShape, which is valid
      if (!element_shape_except0.IsCompatibleWith(PartialTensorShape(rest))) {
        return errors::InvalidArgument(
            "TensorArray was passed element_shape_except0 ", element_shape_except0.DebugString(),
            " but index 0 has (excepting dimension 0) shape: ", rest.DebugString(),
            " which does not match.");
      }
    } else if (v_rest != rest) {
      return errors::InvalidArgument(
          "TensorArray has inconsistent shapes.  Index 0 has "
          "(excepting dimension 0) shape: ",
          rest.DebugString(), " but index ", i,
          " has (excepting dimension 0) shape: ", v_rest.DebugString());
    }
    rows[i] = v.dim_size(0);
    total += v.dim_size(0);
  }
  TensorShape shape = rest;
  RETURN_IF_ERROR(shape.InsertDimWithStatus(0, total));
  RETURN_IF_ERROR(ctx->allocate_temp(dtype_, shape, value));
  int64_t at = 0;
  for (const Tensor& v : values) {
    RETURN_IF_ERROR(CopyElements(ctx, v, 0, value, at, v.NumElements()));
    at += v.NumElements();
  }
  return absl::OkStatus();
}

absl::Status TensorArray::Split(OpKernelContext* ctx, const Tensor& value,
                                absl::Span<const int64_t> lengths) {
  if (value.dims() < 1) {
    return errors::InvalidArgument("Expected value to be at least a vector, but received shape: ",
                                   value.shape().DebugString());
  }
  int64_t sum = 0;
  for (int64_t length : lengths) {
    if (length < 0 || length > value.dim_size(0) - sum) {
      return errors::InvalidArgument(
          "Expected sum of lengths to be equal to values.shape[0], "
          "but sum of lengths is at least ",
          length < 0 ? length : sum + length,
          " and value's shape is: ", value.shape().DebugString());
    }
    sum += length;
  }
  if (sum != value.dim_size(0)) {
    return errors::InvalidArgument(
        "Expected sum of lengths to be equal to values.shape[0], but sum of lengths is ", sum,
        " and value's shape is: ", value.shape().DebugString());
  }
  absl::MutexLock lock(&mu_);
  RETURN_IF_ERROR(CheckOpenLocked());
  const int64_t count = static_cast<int64_t>(lengths.size());
  int64_t size = static_cast<int64_t>(slots_.size());
  if (dynamic_size_ && size < count) size = count;
  if (size != count) {
    return errors::InvalidArgument("TensorArray's size is not equal to the size of lengths (", size,
                                   " vs. ", count,
                                   "), and the TensorArray is not marked as dynamically "
                                   "resizeable");
  }
  if (!is_grad_) marked_size_ = size;
  TensorShape rest = value.shape();
  rest.RemoveDim(0);  // shape-safe: value has rank >= 1 (checked above)
  int64_t start = 0;
  for (int64_t i = 0; i < count; ++i) {
    TensorShape shape = rest;
    // shape-safe: value's shape with its first dim cut to lengths[i], checked in [0, that dim]
    shape.InsertDim(0, lengths[i]);
    Tensor piece;
    RETURN_IF_ERROR(RowsOf(ctx, value, start, lengths[i], shape, &piece));
    RETURN_IF_ERROR(WriteLocked(ctx, i, piece));
    start += lengths[i];
  }
  return absl::OkStatus();
}

absl::Status TensorArray::Scatter(OpKernelContext* ctx, absl::Span<const int64_t> indices,
                                  const Tensor& value) {
  if (value.dims() < 1) {
    return errors::InvalidArgument(
        "Input value for unpack must be at least a vector but "
        "received shape: ",
        value.shape().DebugString());
  }
  if (static_cast<int64_t>(indices.size()) != value.dim_size(0)) {
    return errors::InvalidArgument("Expected len(indices) == values.shape[0], but saw: ",
                                   indices.size(), " vs. ", value.dim_size(0));
  }
  TensorShape rest = value.shape();
  rest.RemoveDim(0);  // shape-safe: value has rank >= 1 (checked above)
  absl::MutexLock lock(&mu_);
  RETURN_IF_ERROR(CheckOpenLocked());
  int64_t max_index = -1;
  for (int64_t index : indices) max_index = std::max(max_index, index);
  int64_t size = static_cast<int64_t>(slots_.size());
  if (dynamic_size_ && size < max_index + 1) size = max_index + 1;
  if (max_index >= size) {
    return errors::InvalidArgument("Max scatter index must be < array size (", max_index, " vs. ",
                                   size, ")");
  }
  for (size_t i = 0; i < indices.size(); ++i) {
    Tensor row;
    RETURN_IF_ERROR(RowsOf(ctx, value, static_cast<int64_t>(i), 1, rest, &row));
    RETURN_IF_ERROR(WriteLocked(ctx, indices[i], row));
  }
  return absl::OkStatus();
}

absl::Status TensorArray::Size(int64_t* size) {
  absl::MutexLock lock(&mu_);
  RETURN_IF_ERROR(CheckOpenLocked());
  *size = static_cast<int64_t>(slots_.size());
  return absl::OkStatus();
}

void TensorArray::Close() {
  absl::MutexLock lock(&mu_);
  closed_ = true;
  slots_.clear();
}

absl::Status TensorArray::MakeGradient(std::string name, const TensorShape* shape_to_prepend,
                                       TensorArray** gradient) {
  absl::MutexLock lock(&mu_);
  // TensorFlow keeps gradient arrays in a container of their own and refuses them here.
  if (is_grad_) {
    return errors::InvalidArgument("Wrong input container. _tensor_array_grads", name_);
  }
  // Once gradients are being computed, the forward array no longer grows.
  dynamic_size_ = false;
  RETURN_IF_ERROR(CheckOpenLocked());
  Options options;
  options.dtype = dtype_;
  options.element_shape = element_shape_;
  if (shape_to_prepend != nullptr && !element_shape_.unknown_rank()) {
    // shape-safe: converts a TensorShape, which is valid
    const PartialTensorShape prefix(*shape_to_prepend);
    RETURN_IF_ERROR(prefix.ConcatenateWithStatus(element_shape_, &options.element_shape));
  } else if (shape_to_prepend != nullptr) {
    options.element_shape = PartialTensorShape();
  }
  options.identical_element_shapes = identical_element_shapes_;
  options.multiple_writes_aggregate = true;
  options.is_grad = true;
  options.marked_size = marked_size_;
  auto* made =
      new TensorArray(std::move(name), static_cast<int64_t>(slots_.size()), std::move(options));
  {
    // The slots this array wrote hold zeros of their shapes in the gradient array until
    // written.
    absl::MutexLock made_lock(&made->mu_);
    for (size_t i = 0; i < slots_.size(); ++i) {
      if (!slots_[i].written) continue;
      TensorShape shape;
      if (shape_to_prepend != nullptr) shape = *shape_to_prepend;
      absl::Status appended = shape.AppendShapeWithStatus(slots_[i].shape);
      if (!appended.ok()) {
        made->Unref();
        return appended;
      }
      made->slots_[i].shape = shape;
      made->slots_[i].written = true;
    }
  }
  *gradient = made;
  return absl::OkStatus();
}

}  // namespace sluice
