#include "kernels/cpu/lists/tensor_array.h"

#include <algorithm>
#include <utility>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "graph/core/allocator.h"
#include "graph/core/errors.h"
#include "kernels/cpu/lists/element_rows.h"

namespace sluice {

TensorArray::TensorArray(std::string name, int64_t size, Options options)
    : name_(std::move(name)),
      dtype_(options.dtype),
      dynamic_size_(options.dynamic_size),
      clear_after_read_(options.clear_after_read),
      identical_element_shapes_(options.identical_element_shapes),
      element_shape_(std::move(options.element_shape)),
      // on the heap, bounded: one Slot per element; TensorArrayV3 checked size against kMaxSlots
      slots_(static_cast<size_t>(size)) {}

std::string TensorArray::DebugString() const { return absl::StrCat("TensorArray ", name_); }

absl::Status TensorArray::CheckOpenLocked() const {
  if (closed_) return errors::InvalidArgument("TensorArray ", name_, " has already been closed.");
  return absl::OkStatus();
}

absl::Status TensorArray::Write(int64_t index, const Tensor& value) {
  absl::MutexLock lock(&mu_);
  return WriteLocked(index, value);
}

absl::Status TensorArray::WriteLocked(int64_t index, const Tensor& value) {
  RETURN_IF_ERROR(CheckOpenLocked());
  const int64_t size = static_cast<int64_t>(slots_.size());
  if (index < 0 || (index >= size && !dynamic_size_)) {
    return errors::InvalidArgument("TensorArray ", name_, ": Tried to write to index ", index,
                                   " but array is not resizeable and size is: ", size);
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
  if (index >= size) {
    RETURN_IF_ERROR(CheckSlotCount(index + 1));
    slots_.resize(static_cast<size_t>(index) + 1);  // heap-ok: index + 1 checked just above
  }
  Slot& slot = slots_[index];
  if (slot.written) {
    return errors::InvalidArgument("TensorArray ", name_, ": Could not write to TensorArray index ",
                                   index, " because it has already been ",
                                   slot.cleared ? "read and cleared." : "written to.");
  }
  slot.value = value;
  slot.written = true;
  return absl::OkStatus();
}

absl::Status TensorArray::Read(OpKernelContext* ctx, int64_t index, Tensor* value) {
  absl::MutexLock lock(&mu_);
  return ReadLocked(ctx, index, value);
}

absl::Status TensorArray::ReadLocked(OpKernelContext* ctx, int64_t index, Tensor* value) {
  RETURN_IF_ERROR(CheckOpenLocked());
  const int64_t size = static_cast<int64_t>(slots_.size());
  if (index < 0 || index >= size) {
    return errors::InvalidArgument("TensorArray ", name_, ": Tried to read from index ", index,
                                   " but array size is: ", size);
  }
  Slot& slot = slots_[index];
  if (slot.cleared) {
    return errors::InvalidArgument("TensorArray ", name_, ": Could not read index ", index,
                                   " twice because it was cleared after a previous read "
                                   "(perhaps try setting clear_after_read = false?).");
  }
  if (!slot.written) {
    TensorShape shape;
    if (!element_shape_.AsTensorShape(&shape)) {
      return errors::InvalidArgument(
          "TensorArray ", name_, ": Could not read from TensorArray index ", index,
          ".  Furthermore, the element shape is not fully defined: ", element_shape_.DebugString(),
          ".  If you set the full element_shape property on the TensorArray, the proper "
          "all-zeros tensor will be returned instead of incurring this error.");
    }
    return ZerosTensor(ctx, dtype_, shape, value);
  }
  *value = slot.value;
  if (clear_after_read_) {
    slot.value = Tensor();
    slot.cleared = true;
  }
  return absl::OkStatus();
}

absl::Status TensorArray::Gather(OpKernelContext* ctx, absl::Span<const int64_t> indices,
                                 const PartialTensorShape& element_shape, Tensor* value) {
  absl::MutexLock lock(&mu_);
  RETURN_IF_ERROR(CheckOpenLocked());
  // The gathered elements are held as Tensor handles (shared, not copied) until stacked; an
  // index may repeat, so their number is bounded only here.
  RETURN_IF_ERROR(CheckSlotCount(static_cast<int64_t>(indices.size())));
  // heap-ok: one Tensor handle per gathered element; their number checked against kMaxSlots
  std::vector<Tensor> values(indices.size());
  for (size_t i = 0; i < indices.size(); ++i) {
    RETURN_IF_ERROR(ReadLocked(ctx, indices[i], &values[i]));
  }
  TensorShape row_shape;
  if (values.empty()) {
    PartialTensorShape merged;
    if (!element_shape_.MergeWith(element_shape, &merged).ok() ||
        !merged.AsTensorShape(&row_shape)) {
      return errors::Unimplemented(
          "TensorArray has size zero, but element shape ", merged.DebugString(),
          " is not fully defined. Currently only static shapes are supported when packing "
          "zero-size TensorArrays.");
    }
  } else {
    row_shape = values[0].shape();
    for (size_t i = 1; i < values.size(); ++i) {
      if (values[i].shape() != row_shape) {
        return errors::InvalidArgument(
            "TensorArray has inconsistent shapes.  Index 0 has shape: ", row_shape.DebugString(),
            " but index ", i, " has shape: ", values[i].shape().DebugString());
      }
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
  // heap-ok: one Tensor handle per element; slots_ never grows past kMaxSlots
  std::vector<Tensor> values(slots_.size());
  for (size_t i = 0; i < slots_.size(); ++i) {
    RETURN_IF_ERROR(ReadLocked(ctx, static_cast<int64_t>(i), &values[i]));
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
  const int64_t size = static_cast<int64_t>(slots_.size());
  if (!dynamic_size_ && size != static_cast<int64_t>(lengths.size())) {
    return errors::InvalidArgument("TensorArray's size is not equal to the size of lengths (", size,
                                   " vs. ", lengths.size(),
                                   "), and the TensorArray is not marked as dynamically "
                                   "resizeable");
  }
  TensorShape rest = value.shape();
  rest.RemoveDim(0);  // shape-safe: value has rank >= 1 (checked above)
  int64_t start = 0;
  for (size_t i = 0; i < lengths.size(); ++i) {
    TensorShape shape = rest;
    // shape-safe: value's shape with its first dim cut to lengths[i], checked in [0, that dim]
    shape.InsertDim(0, lengths[i]);
    Tensor piece;
    RETURN_IF_ERROR(RowsOf(ctx, value, start, lengths[i], shape, &piece));
    RETURN_IF_ERROR(WriteLocked(static_cast<int64_t>(i), piece));
    start += lengths[i];
  }
  return absl::OkStatus();
}

absl::Status TensorArray::Scatter(OpKernelContext* ctx, absl::Span<const int64_t> indices,
                                  const Tensor& value) {
  if (value.dims() < 1) {
    return errors::InvalidArgument("Expected value to be at least a vector, but received shape: ",
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
  for (size_t i = 0; i < indices.size(); ++i) {
    Tensor row;
    RETURN_IF_ERROR(RowsOf(ctx, value, static_cast<int64_t>(i), 1, rest, &row));
    RETURN_IF_ERROR(WriteLocked(indices[i], row));
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

}  // namespace sluice
