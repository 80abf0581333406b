// TensorFlow's list ops on the CPU and GPUs: lists are made (EmptyTensorList, TensorListReserve,
// TensorListFromTensor, TensorListSplit, TensorListScatterV2), changed (SetItem, PushBack,
// PopBack, Resize, ScatterIntoExistingList) and read (GetItem, Stack, Gather, ConcatV2,
// Length, ElementShape). The list semantics, and when a change happens in place, are in
// tensor_list.h; this file checks arguments and moves elements.
#include <algorithm>
#include <cstdint>
#include <limits>
#include <utility>
#include <vector>

#include "graph/core/errors.h"
#include "graph/core/integer_tensor.h"
#include "graph/core/partial_tensor_shape.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_shape.h"
#include "graph/core/tensor_types.h"
#include "graph/core/types.h"
#include "kernels/cpu/array/array_types.h"
#include "kernels/cpu/lists/element_rows.h"
#include "kernels/cpu/lists/tensor_list.h"
#include "kernels/cpu/scratch.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace {

// A scalar int32 (or int64) argument.
absl::Status ScalarArgument(const Tensor& t, const char* what, int64_t* value) {
  if (t.dims() != 0) {
    return errors::InvalidArgument(what, " must be a scalar, but has shape ",
                                   t.shape().DebugString());
  }
  return IntegerTensorScalar(t, value);
}

absl::Status ElementShapeArgument(OpKernelContext* ctx, int index, PartialTensorShape* shape) {
  absl::Status s = PartialShapeFromTensor(ctx->input(index), shape);
  if (!s.ok()) return errors::InvalidArgument("element_shape: ", s.message());
  return absl::OkStatus();
}

// The shape of the elements a read of `list` returns for slots that were never set (and that
// the set ones must have): the list's element shape merged with `requested`, then with each
// set element's shape (TensorFlow's list reads accept lists whose shape was learned only
// from its elements).
absl::Status ReadElementShape(const TensorList& list, const PartialTensorShape& requested,
                              PartialTensorShape* shape) {
  RETURN_IF_ERROR(MergedElementShape(list, requested, shape));
  if (shape->IsFullyDefined()) return absl::OkStatus();
  for (const Tensor& t : list.tensors) {
    if (t.dtype() == DT_INVALID) continue;
    PartialTensorShape merged;
    // shape-safe: converts a TensorShape, which is valid
    absl::Status s = shape->MergeWith(PartialTensorShape(t.shape()), &merged);
    if (!s.ok()) {
      return errors::InvalidArgument("Incompatible shapes among the list's elements: ",
                                     shape->DebugString(), " and ", t.shape().DebugString());
    }
    *shape = std::move(merged);
  }
  return absl::OkStatus();
}

// Output `output_index` = the list's elements at `indices`, stacked along a new dim 0.
void StackElements(OpKernelContext* ctx, const TensorList& list, absl::Span<const int64_t> indices,
                   const PartialTensorShape& requested, int output_index) {
  PartialTensorShape partial;
  OP_REQUIRES_OK(ctx, ReadElementShape(list, requested, &partial));
  TensorShape element_shape;
  if (!partial.AsTensorShape(&element_shape)) {
    OP_REQUIRES(ctx, !indices.empty(),
                errors::InvalidArgument("Tried to stack elements of an empty list with "
                                        "non-fully-defined element_shape: ",
                                        partial.DebugString()));
    OP_REQUIRES(ctx, false,
                errors::InvalidArgument("Tried to stack list which only contains uninitialized "
                                        "tensors and has a non-fully-defined element_shape: ",
                                        partial.DebugString()));
  }
  TensorShape out_shape = element_shape;
  OP_REQUIRES_OK(ctx, out_shape.InsertDimWithStatus(0, static_cast<int64_t>(indices.size())));
  Tensor* out;
  OP_REQUIRES_OK(ctx, ctx->allocate_output(output_index, out_shape, &out));
  const int64_t row = element_shape.num_elements();
  for (size_t i = 0; i < indices.size(); ++i) {
    const Tensor& t = list.tensors[indices[i]];
    if (t.dtype() == DT_INVALID) {
      OP_REQUIRES_OK(ctx, ZeroElements(ctx, out, static_cast<int64_t>(i) * row, row));
    } else {
      OP_REQUIRES(ctx, t.shape() == element_shape,
                  errors::InvalidArgument("Tried to stack a list element of shape ",
                                          t.shape().DebugString(), " as one of shape ",
                                          element_shape.DebugString()));
      OP_REQUIRES_OK(ctx, CopyElements(ctx, t, 0, out, static_cast<int64_t>(i) * row, row));
    }
  }
}

// INVALID_ARGUMENT unless `shape` may be an element of `list`.
absl::Status CheckElementShape(const TensorList& list, const TensorShape& shape,
                               const char* action) {
  // shape-safe: converts a TensorShape, which is valid
  if (!list.element_shape.IsCompatibleWith(PartialTensorShape(shape))) {
    return errors::InvalidArgument("Tried to ", action,
                                   " a tensor with incompatible shape to a list. Item element "
                                   "shape: ",
                                   shape.DebugString(),
                                   " list shape: ", list.element_shape.DebugString());
  }
  return absl::OkStatus();
}

// EmptyTensorList (input 1: max_num_elements, -1 for no limit) and TensorListReserve
// (input 1: num_elements, that many unset slots).
class NewTensorListOp : public OpKernel {
 public:
  explicit NewTensorListOp(OpKernelConstruction* ctx)
      : OpKernel(ctx), reserve_(ctx->def().op() == "TensorListReserve") {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("element_dtype", &element_dtype_));
  }
  void Compute(OpKernelContext* ctx) override {
    PartialTensorShape shape;
    OP_REQUIRES_OK(ctx, ElementShapeArgument(ctx, 0, &shape));
    int64_t n;
    OP_REQUIRES_OK(
        ctx, ScalarArgument(ctx->input(1), reserve_ ? "num_elements" : "max_num_elements", &n));
    TensorList list(element_dtype_, std::move(shape));
    if (reserve_) {
      OP_REQUIRES(ctx, n >= 0,
                  errors::InvalidArgument("The num_elements to reserve must be a non negative "
                                          "number, but got ",
                                          n));
      OP_REQUIRES_OK(ctx, CheckSlotCount(n));
      // heap-ok: one Tensor handle per list element; n checked against kMaxSlots above
      list.tensors.resize(static_cast<size_t>(n), Tensor(DT_INVALID));
    } else {
      OP_REQUIRES(
          ctx, n >= -1,
          errors::InvalidArgument("max_num_elements must be non-negative or -1, but got ", n));
      list.max_num_elements = n;
    }
    OP_REQUIRES_OK(ctx, SetOutputList(ctx, 0, std::move(list)));
  }

 private:
  const bool reserve_;
  DataType element_dtype_;
};

class TensorListFromTensorOp : public OpKernel {
 public:
  explicit TensorListFromTensorOp(OpKernelConstruction* ctx) : OpKernel(ctx) {}
  void Compute(OpKernelContext* ctx) override {
    const Tensor& t = ctx->input(0);
    PartialTensorShape shape;
    OP_REQUIRES_OK(ctx, ElementShapeArgument(ctx, 1, &shape));
    OP_REQUIRES(ctx, t.dims() >= 1,
                errors::InvalidArgument("Tensor must be at least a vector, but saw shape: ",
                                        t.shape().DebugString()));
    TensorShape element_shape = t.shape();
    element_shape.RemoveDim(0);  // shape-safe: t has rank >= 1 (checked above)
    // shape-safe: converts a TensorShape, which is valid
    OP_REQUIRES(ctx, shape.IsCompatibleWith(PartialTensorShape(element_shape)),
                errors::InvalidArgument("Specified a list with shape ", shape.DebugString(),
                                        " from a tensor with shape ", t.shape().DebugString()));
    // A tensor of no elements may still have a huge first dim.
    OP_REQUIRES_OK(ctx, CheckSlotCount(t.dim_size(0)));
    TensorList list(t.dtype(), std::move(shape));
    // heap-ok: one Tensor handle per list element; the first dim checked against kMaxSlots
    list.tensors.reserve(static_cast<size_t>(t.dim_size(0)));
    for (int64_t i = 0; i < t.dim_size(0); ++i) {
      Tensor element;
      OP_REQUIRES_OK(ctx, RowsOf(ctx, t, i, 1, element_shape, &element));
      list.tensors.push_back(std::move(element));
    }
    OP_REQUIRES_OK(ctx, SetOutputList(ctx, 0, std::move(list)));
  }
};

class TensorListSplitOp : public OpKernel {
 public:
  explicit TensorListSplitOp(OpKernelConstruction* ctx) : OpKernel(ctx) {}
  void Compute(OpKernelContext* ctx) override {
    const Tensor& t = ctx->input(0);
    PartialTensorShape shape;
    OP_REQUIRES_OK(ctx, ElementShapeArgument(ctx, 1, &shape));
    OP_REQUIRES(ctx, t.dims() >= 1,
                errors::InvalidArgument("Tensor must be at least a vector, but saw shape: ",
                                        t.shape().DebugString()));
    const Tensor& lengths_t = ctx->input(2);
    OP_REQUIRES(ctx, lengths_t.dims() == 1,
                errors::InvalidArgument("Expected lengths to be a vector, received shape: ",
                                        lengths_t.shape().DebugString()));
    ScratchArray<int64_t> lengths;
    OP_REQUIRES_OK(ctx, IntegerValuesOf(ctx, lengths_t, &lengths));
    TensorShape rest = t.shape();
    rest.RemoveDim(0);                          // shape-safe: t has rank >= 1 (checked above)
    std::vector<int64_t> expected_dims = {-1};  // on the heap, bounded: t's rank entries
    for (int d = 0; d < rest.dims(); ++d) expected_dims.push_back(rest.dim_size(d));
    // shape-safe: t's shape with its first dim unknown
    OP_REQUIRES(ctx, shape.IsCompatibleWith(PartialTensorShape(expected_dims)),
                errors::InvalidArgument("Tried to split a tensor with incompatible shape into a "
                                        "list. Tensor shape: ",
                                        t.shape().DebugString(),
                                        " list element shape: ", shape.DebugString()));
    int64_t used = 0;
    for (int64_t length : lengths) {
      OP_REQUIRES(ctx, length >= 0 && length <= t.dim_size(0) - used,
                  errors::InvalidArgument("Invalid value in lengths: ", length, " (the tensor has ",
                                          t.dim_size(0), " rows and ", used, " are already used)"));
      used += length;
    }
    OP_REQUIRES(ctx, used == t.dim_size(0),
                errors::InvalidArgument("Unused values in tensor. Length of tensor: ",
                                        t.dim_size(0), " Values used: ", used));
    // Zero lengths make elements without rows: their number is the lengths', not t's.
    OP_REQUIRES_OK(ctx, CheckSlotCount(lengths.size()));
    TensorList list(t.dtype(), std::move(shape));
    // heap-ok: one Tensor handle per list element; their number checked against kMaxSlots
    list.tensors.reserve(static_cast<size_t>(lengths.size()));
    int64_t start = 0;
    for (int64_t length : lengths) {
      TensorShape element_shape = rest;
      // shape-safe: t's shape with its first dim cut to length, checked in [0, t's first dim]
      element_shape.InsertDim(0, length);
      Tensor element;
      OP_REQUIRES_OK(ctx, RowsOf(ctx, t, start, length, element_shape, &element));
      list.tensors.push_back(std::move(element));
      start += length;
    }
    OP_REQUIRES_OK(ctx, SetOutputList(ctx, 0, std::move(list)));
  }
};

class TensorListLengthOp : public OpKernel {
 public:
  explicit TensorListLengthOp(OpKernelConstruction* ctx) : OpKernel(ctx) {}
  void Compute(OpKernelContext* ctx) override {
    const TensorList* list;
    OP_REQUIRES_OK(ctx, GetInputList(ctx, 0, &list));
    Tensor* out;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, TensorShape({}), &out));
    out->scalar<int32_t>()() = static_cast<int32_t>(list->tensors.size());
  }
};

class TensorListElementShapeOp : public OpKernel {
 public:
  explicit TensorListElementShapeOp(OpKernelConstruction* ctx) : OpKernel(ctx) {}
  void Compute(OpKernelContext* ctx) override {
    const TensorList* list;
    OP_REQUIRES_OK(ctx, GetInputList(ctx, 0, &list));
    const PartialTensorShape& shape = list->element_shape;
    Tensor* out;
    // An unknown rank is the scalar -1, as the element_shape arguments take it.
    // shape-safe: one dim, the known rank of a valid shape
    const TensorShape out_shape =
        shape.unknown_rank() ? TensorShape({}) : TensorShape({shape.dims()});
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, out_shape, &out));
    const int64_t n = shape.unknown_rank() ? 1 : shape.dims();
    for (int64_t d = 0; d < n; ++d) {
      const int64_t dim = shape.unknown_rank() ? -1 : shape.dim_size(static_cast<int>(d));
      if (out->dtype() == DT_INT32) {
        out->flat<int32_t>()(d) = static_cast<int32_t>(dim);
      } else {
        out->flat<int64_t>()(d) = dim;
      }
    }
  }
};

class TensorListGetItemOp : public OpKernel {
 public:
  explicit TensorListGetItemOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("element_dtype", &element_dtype_));
  }
  void Compute(OpKernelContext* ctx) override {
    TensorList local;
    const TensorList* list;
    OP_REQUIRES_OK(ctx, GetInputListHere(ctx, 0, &local, &list));
    OP_REQUIRES_OK(ctx, CheckElementDtype(*list, element_dtype_));
    int64_t index;
    OP_REQUIRES_OK(ctx, ScalarArgument(ctx->input(1), "index", &index));
    const int64_t size = static_cast<int64_t>(list->tensors.size());
    OP_REQUIRES(ctx, index >= 0 && index < size,
                errors::InvalidArgument("Trying to access element ", index, " in a list with ",
                                        size, " elements."));
    const Tensor& item = list->tensors[index];
    if (item.dtype() != DT_INVALID) {
      ctx->set_output(0, item);
      return;
    }
    PartialTensorShape requested;
    OP_REQUIRES_OK(ctx, ElementShapeArgument(ctx, 2, &requested));
    PartialTensorShape partial;
    OP_REQUIRES_OK(ctx, ReadElementShape(*list, requested, &partial));
    TensorShape shape;
    OP_REQUIRES(ctx, partial.AsTensorShape(&shape),
                errors::InvalidArgument("Trying to read an uninitialized tensor but "
                                        "element_shape is not fully defined: ",
                                        partial.DebugString(), " and no list element is set."));
    Tensor zeros;
    OP_REQUIRES_OK(ctx, ZerosTensor(ctx, element_dtype_, shape, &zeros));
    ctx->set_output(0, zeros);
  }

 private:
  DataType element_dtype_;
};

class TensorListSetItemOp : public OpKernel {
 public:
  explicit TensorListSetItemOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("element_dtype", &element_dtype_));
    if (HasAttr(ctx, "resize_if_index_out_of_bounds")) {
      OP_REQUIRES_OK(ctx, ctx->GetAttr("resize_if_index_out_of_bounds", &resize_));
    }
  }
  void Compute(OpKernelContext* ctx) override {
    const TensorList* input;
    OP_REQUIRES_OK(ctx, GetInputList(ctx, 0, &input));
    OP_REQUIRES_OK(ctx, CheckElementDtype(*input, element_dtype_));
    int64_t index;
    OP_REQUIRES_OK(ctx, ScalarArgument(ctx->input(1), "index", &index));
    const int64_t size = static_cast<int64_t>(input->tensors.size());
    OP_REQUIRES(ctx, index >= 0 && (index < size || resize_),
                errors::InvalidArgument("Trying to modify element ", index, " in a list with ",
                                        size, " elements."));
    const Tensor& item = ctx->input(2);
    OP_REQUIRES_OK(ctx, CheckElementShape(*input, item.shape(), "set"));
    OP_REQUIRES_OK(ctx, CheckSlotCount(index + 1));
    TensorList* list;
    OP_REQUIRES_OK(ctx, ListForUpdate(ctx, 0, 0, &list));
    // heap-ok: one Tensor handle per list element; index + 1 checked against kMaxSlots above
    if (index >= size) list->tensors.resize(static_cast<size_t>(index) + 1, Tensor(DT_INVALID));
    list->tensors[index] = item;
  }

 private:
  static bool HasAttr(OpKernelConstruction* ctx, const char* name) {
    return ctx->def().attr().count(name) > 0;
  }
  DataType element_dtype_;
  bool resize_ = false;
};

class TensorListPushBackOp : public OpKernel {
 public:
  explicit TensorListPushBackOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("element_dtype", &element_dtype_));
  }
  void Compute(OpKernelContext* ctx) override {
    const TensorList* input;
    OP_REQUIRES_OK(ctx, GetInputList(ctx, 0, &input));
    const Tensor& item = ctx->input(1);
    OP_REQUIRES(ctx, input->element_dtype == element_dtype_,
                errors::InvalidArgument("Invalid data types; list elements ",
                                        DataTypeString(input->element_dtype),
                                        " but tried to append ", DataTypeString(element_dtype_)));
    OP_REQUIRES_OK(ctx, CheckElementShape(*input, item.shape(), "append"));
    const int64_t size = static_cast<int64_t>(input->tensors.size());
    OP_REQUIRES(ctx, input->max_num_elements == -1 || size < input->max_num_elements,
                errors::InvalidArgument("Tried to push item into a full list list size: ", size,
                                        " max_num_elements: ", input->max_num_elements));
    OP_REQUIRES_OK(ctx, CheckSlotCount(size + 1));
    TensorList* list;
    OP_REQUIRES_OK(ctx, ListForUpdate(ctx, 0, 0, &list));
    // on the heap, bounded: one Tensor handle per list element; size + 1 checked against kMaxSlots
    // above
    list->tensors.push_back(item);
  }

 private:
  DataType element_dtype_;
};

class TensorListPopBackOp : public OpKernel {
 public:
  explicit TensorListPopBackOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("element_dtype", &element_dtype_));
  }
  void Compute(OpKernelContext* ctx) override {
    const TensorList* input;
    OP_REQUIRES_OK(ctx, GetInputList(ctx, 0, &input));
    OP_REQUIRES_OK(ctx, CheckElementDtype(*input, element_dtype_));
    OP_REQUIRES(ctx, !input->tensors.empty(),
                errors::InvalidArgument("Trying to pop from an empty list."));
    const bool unset = input->tensors.back().dtype() == DT_INVALID;
    Tensor item;
    if (unset) {
      PartialTensorShape requested;
      OP_REQUIRES_OK(ctx, ElementShapeArgument(ctx, 1, &requested));
      PartialTensorShape partial;
      OP_REQUIRES_OK(ctx, ReadElementShape(*input, requested, &partial));
      TensorShape shape;
      OP_REQUIRES(ctx, partial.AsTensorShape(&shape),
                  errors::InvalidArgument("Trying to read an uninitialized tensor but "
                                          "element_shape is not fully defined: ",
                                          partial.DebugString()));
      OP_REQUIRES_OK(ctx, ZerosTensor(ctx, element_dtype_, shape, &item));
    }
    TensorList* list;
    OP_REQUIRES_OK(ctx, ListForUpdate(ctx, 0, 0, &list));
    // Taken after the update, which moved the elements where this kernel's are.
    if (!unset) item = list->tensors.back();
    list->tensors.pop_back();
    ctx->set_output(1, item);
  }

 private:
  DataType element_dtype_;
};

class TensorListResizeOp : public OpKernel {
 public:
  explicit TensorListResizeOp(OpKernelConstruction* ctx) : OpKernel(ctx) {}
  void Compute(OpKernelContext* ctx) override {
    const TensorList* input;
    OP_REQUIRES_OK(ctx, GetInputList(ctx, 0, &input));
    int64_t size;
    OP_REQUIRES_OK(ctx, ScalarArgument(ctx->input(1), "size", &size));
    OP_REQUIRES(
        ctx, size >= 0,
        errors::InvalidArgument("TensorListSlice expects size to be non-negative. Got: ", size));
    OP_REQUIRES_OK(ctx, CheckSlotCount(size));
    TensorList* list;
    // Only the length changes: the elements stay where they are.
    OP_REQUIRES_OK(ctx, ListForUpdate(ctx, 0, 0, &list, /*move_elements_here=*/false));
    // heap-ok: one Tensor handle per list element; size checked against kMaxSlots above
    list->tensors.resize(static_cast<size_t>(size), Tensor(DT_INVALID));
  }
};

class TensorListStackOp : public OpKernel {
 public:
  explicit TensorListStackOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("element_dtype", &element_dtype_));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("num_elements", &num_elements_));
  }
  void Compute(OpKernelContext* ctx) override {
    TensorList local;
    const TensorList* list;
    OP_REQUIRES_OK(ctx, GetInputListHere(ctx, 0, &local, &list));
    OP_REQUIRES_OK(ctx, CheckElementDtype(*list, element_dtype_));
    const int64_t size = static_cast<int64_t>(list->tensors.size());
    OP_REQUIRES(ctx, num_elements_ == -1 || num_elements_ == size,
                errors::InvalidArgument("Operation expected a list with ", num_elements_,
                                        " elements but got a list with ", size, " elements."));
    PartialTensorShape requested;
    OP_REQUIRES_OK(ctx, ElementShapeArgument(ctx, 1, &requested));
    ScratchArray<int64_t> indices;
    OP_REQUIRES_OK(ctx, indices.Allocate(ctx, size));
    for (int64_t i = 0; i < size; ++i) indices[i] = i;
    StackElements(ctx, *list, indices.span(), requested, 0);
  }

 private:
  DataType element_dtype_;
  int64_t num_elements_ = -1;
};

class TensorListGatherOp : public OpKernel {
 public:
  explicit TensorListGatherOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("element_dtype", &element_dtype_));
  }
  void Compute(OpKernelContext* ctx) override {
    TensorList local;
    const TensorList* list;
    OP_REQUIRES_OK(ctx, GetInputListHere(ctx, 0, &local, &list));
    OP_REQUIRES_OK(ctx, CheckElementDtype(*list, element_dtype_));
    const Tensor& indices_t = ctx->input(1);
    OP_REQUIRES(ctx, indices_t.dims() == 1,
                errors::InvalidArgument("Expected indices to be a vector, received shape: ",
                                        indices_t.shape().DebugString()));
    ScratchArray<int64_t> indices;
    OP_REQUIRES_OK(ctx, IntegerValuesOf(ctx, indices_t, &indices));
    const int64_t size = static_cast<int64_t>(list->tensors.size());
    for (int64_t index : indices) {
      OP_REQUIRES(ctx, index >= 0 && index < size,
                  errors::InvalidArgument("Trying to gather element ", index, " in a list with ",
                                          size, " elements."));
    }
    PartialTensorShape requested;
    OP_REQUIRES_OK(ctx, ElementShapeArgument(ctx, 2, &requested));
    StackElements(ctx, *list, indices.span(), requested, 0);
  }

 private:
  DataType element_dtype_;
};

// Sets list->tensors[indices[i]] = rows i of `t`, growing the list to fit the largest index.
absl::Status ScatterRows(OpKernelContext* ctx, const Tensor& t, const Tensor& indices_t,
                         TensorList* list) {
  if (t.dims() < 1) {
    return errors::InvalidArgument("Tensor must be at least a vector, but saw shape: ",
                                   t.shape().DebugString());
  }
  if (indices_t.dims() != 1) {
    return errors::InvalidArgument("Expected indices to be a vector, received shape: ",
                                   indices_t.shape().DebugString());
  }
  ScratchArray<int64_t> indices;
  RETURN_IF_ERROR(IntegerValuesOf(ctx, indices_t, &indices));
  if (indices.size() != t.dim_size(0)) {
    return errors::InvalidArgument("Specified a list with shape ", t.shape().DebugString(),
                                   " from a tensor with ", indices.size(), " indices");
  }
  TensorShape element_shape = t.shape();
  element_shape.RemoveDim(0);  // shape-safe: t has rank >= 1 (checked above)
  RETURN_IF_ERROR(CheckElementShape(*list, element_shape, "scatter"));
  int64_t max_index = static_cast<int64_t>(list->tensors.size()) - 1;
  for (int64_t index : indices) {
    if (index < 0) {
      return errors::InvalidArgument("Indices in TensorListScatter must all be non-negative.");
    }
    max_index = std::max(max_index, index);
  }
  RETURN_IF_ERROR(CheckSlotCount(max_index + 1));
  if (max_index + 1 > static_cast<int64_t>(list->tensors.size())) {
    // heap-ok: one Tensor handle per list element; max_index + 1 checked against kMaxSlots
    list->tensors.resize(static_cast<size_t>(max_index + 1), Tensor(DT_INVALID));
  }
  for (int64_t i = 0; i < indices.size(); ++i) {
    Tensor element;
    RETURN_IF_ERROR(RowsOf(ctx, t, i, 1, element_shape, &element));
    list->tensors[indices[i]] = std::move(element);
  }
  return absl::OkStatus();
}

// TensorListScatter (no num_elements input) and TensorListScatterV2.
class TensorListScatterOp : public OpKernel {
 public:
  explicit TensorListScatterOp(OpKernelConstruction* ctx) : OpKernel(ctx) {}
  void Compute(OpKernelContext* ctx) override {
    const Tensor& t = ctx->input(0);
    PartialTensorShape shape;
    OP_REQUIRES_OK(ctx, ElementShapeArgument(ctx, 2, &shape));
    int64_t num_elements = -1;
    if (ctx->num_inputs() > 3) {
      OP_REQUIRES_OK(ctx, ScalarArgument(ctx->input(3), "num_elements", &num_elements));
      OP_REQUIRES(ctx, num_elements >= -1,
                  errors::InvalidArgument("TensorListScatter expects num_elements >= -1, found: ",
                                          num_elements));
      OP_REQUIRES_OK(ctx, CheckSlotCount(num_elements));
    }
    TensorList list(t.dtype(), std::move(shape));
    if (num_elements > 0) {
      // heap-ok: one Tensor handle per list element; num_elements checked against kMaxSlots
      list.tensors.resize(static_cast<size_t>(num_elements), Tensor(DT_INVALID));
    }
    OP_REQUIRES_OK(ctx, ScatterRows(ctx, t, ctx->input(1), &list));
    OP_REQUIRES_OK(ctx, SetOutputList(ctx, 0, std::move(list)));
  }
};

class TensorListScatterIntoExistingListOp : public OpKernel {
 public:
  explicit TensorListScatterIntoExistingListOp(OpKernelConstruction* ctx) : OpKernel(ctx) {}
  void Compute(OpKernelContext* ctx) override {
    TensorList local;
    const TensorList* input;
    OP_REQUIRES_OK(ctx, GetInputListHere(ctx, 0, &local, &input));
    OP_REQUIRES_OK(ctx, CheckElementDtype(*input, ctx->input(1).dtype()));
    // Scattered into a copy first, so a bad argument leaves no half-changed output.
    TensorList scattered = input->Copy();
    OP_REQUIRES_OK(ctx, ScatterRows(ctx, ctx->input(1), ctx->input(2), &scattered));
    TensorList* list;
    // Replaced by the scattered copy, whose elements are already here.
    OP_REQUIRES_OK(ctx, ListForUpdate(ctx, 0, 0, &list, /*move_elements_here=*/false));
    *list = std::move(scattered);
  }
};

class TensorListConcatV2Op : public OpKernel {
 public:
  explicit TensorListConcatV2Op(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("element_dtype", &element_dtype_));
  }
  void Compute(OpKernelContext* ctx) override {
    TensorList local;
    const TensorList* list;
    OP_REQUIRES_OK(ctx, GetInputListHere(ctx, 0, &local, &list));
    OP_REQUIRES_OK(ctx, CheckElementDtype(*list, element_dtype_));
    PartialTensorShape requested;
    OP_REQUIRES_OK(ctx, ElementShapeArgument(ctx, 1, &requested));
    PartialTensorShape partial;
    OP_REQUIRES_OK(ctx, MergedElementShape(*list, requested, &partial));
    OP_REQUIRES(ctx, partial.unknown_rank() || partial.dims() >= 1,
                errors::InvalidArgument("Concat requires elements to be at least vectors, "
                                        "found scalars instead."));
    const Tensor& leading_t = ctx->input(2);
    ScratchArray<int64_t> leading_dims;
    OP_REQUIRES_OK(ctx, IntegerValuesOf(ctx, leading_t, &leading_dims));

    // The shape of every element but its first dim: from the set elements, else the merged
    // element shape.
    PartialTensorShape rest = partial.unknown_rank() ? PartialTensorShape() : Tail(partial);
    for (const Tensor& t : list->tensors) {
      if (t.dtype() == DT_INVALID) continue;
      OP_REQUIRES(ctx, t.dims() >= 1,
                  errors::InvalidArgument("Concat saw a scalar shape at an element of the list"));
      PartialTensorShape merged;
      // shape-safe: converts a TensorShape, which is valid
      OP_REQUIRES(ctx, rest.MergeWith(Tail(PartialTensorShape(t.shape())), &merged).ok(),
                  errors::InvalidArgument("Incompatible shapes among the list's elements: ",
                                          rest.DebugString(), " and ", t.shape().DebugString()));
      rest = std::move(merged);
    }
    TensorShape rest_shape;
    OP_REQUIRES(ctx, rest.AsTensorShape(&rest_shape),
                errors::InvalidArgument("All except the first dimension must be fully defined "
                                        "when concating an empty tensor list or one with "
                                        "uninitialized elements. element_shape: ",
                                        partial.DebugString()));
    const int64_t size = static_cast<int64_t>(list->tensors.size());
    ScratchArray<int64_t> rows;
    OP_REQUIRES_OK(ctx, rows.Allocate(ctx, size));
    int64_t total = 0;
    for (int64_t i = 0; i < size; ++i) {
      const Tensor& t = list->tensors[i];
      if (t.dtype() != DT_INVALID) {
        rows[i] = t.dim_size(0);
      } else if (!partial.unknown_rank() && partial.dim_size(0) >= 0) {
        rows[i] = partial.dim_size(0);
      } else {
        OP_REQUIRES(ctx, i < leading_dims.size() && leading_dims[i] >= 0,
                    errors::InvalidArgument("Element ", i,
                                            " of the list is not set and neither element_shape "
                                            "nor leading_dims give its first dimension"));
        rows[i] = leading_dims[i];
      }
      // rows[i] >= 0: a tensor's dim, or a dim checked non-negative above.
      OP_REQUIRES(ctx, rows[i] <= std::numeric_limits<int64_t>::max() - total,
                  errors::InvalidArgument("Concat size overflows"));
      total += rows[i];
    }
    TensorShape out_shape = rest_shape;
    OP_REQUIRES_OK(ctx, out_shape.InsertDimWithStatus(0, total));
    Tensor* out;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, out_shape, &out));
    Tensor* lengths;
    // shape-safe: one dim, the number of the list's elements
    OP_REQUIRES_OK(ctx, ctx->allocate_output(1, TensorShape({size}), &lengths));
    const int64_t row_size = rest_shape.num_elements();
    int64_t at = 0;
    for (int64_t i = 0; i < size; ++i) {
      const Tensor& t = list->tensors[i];
      const int64_t n = rows[i] * row_size;
      if (t.dtype() == DT_INVALID) {
        OP_REQUIRES_OK(ctx, ZeroElements(ctx, out, at, n));
      } else {
        OP_REQUIRES(ctx, t.NumElements() == n,
                    errors::InvalidArgument("Element ", i, " of the list has shape ",
                                            t.shape().DebugString(), ", expected rows of ",
                                            rest_shape.DebugString()));
        OP_REQUIRES_OK(ctx, CopyElements(ctx, t, 0, out, at, n));
      }
      lengths->flat<int64_t>()(i) = rows[i];
      at += n;
    }
  }

 private:
  // The shape without its first dim. REQUIRES: a known rank >= 1.
  static PartialTensorShape Tail(const PartialTensorShape& shape) {
    PartialTensorShape tail;
    CHECK(PartialTensorShape::BuildPartialTensorShape(shape.dim_sizes().subspan(1), &tail).ok());
    return tail;
  }
  DataType element_dtype_;
};

REGISTER_KERNEL_BUILDER(Name("EmptyTensorList").Device(DEVICE_CPU), NewTensorListOp);
REGISTER_KERNEL_BUILDER(Name("TensorListReserve").Device(DEVICE_CPU), NewTensorListOp);
REGISTER_KERNEL_BUILDER(Name("TensorListFromTensor").Device(DEVICE_CPU), TensorListFromTensorOp);
REGISTER_KERNEL_BUILDER(Name("TensorListSplit").Device(DEVICE_CPU), TensorListSplitOp);
REGISTER_KERNEL_BUILDER(Name("TensorListLength").Device(DEVICE_CPU), TensorListLengthOp);
REGISTER_KERNEL_BUILDER(Name("TensorListElementShape").Device(DEVICE_CPU),
                        TensorListElementShapeOp);
REGISTER_KERNEL_BUILDER(Name("TensorListGetItem").Device(DEVICE_CPU), TensorListGetItemOp);
REGISTER_KERNEL_BUILDER(Name("TensorListSetItem").Device(DEVICE_CPU), TensorListSetItemOp);
REGISTER_KERNEL_BUILDER(Name("TensorListPushBack").Device(DEVICE_CPU), TensorListPushBackOp);
REGISTER_KERNEL_BUILDER(Name("TensorListPopBack").Device(DEVICE_CPU), TensorListPopBackOp);
REGISTER_KERNEL_BUILDER(Name("TensorListResize").Device(DEVICE_CPU), TensorListResizeOp);
REGISTER_KERNEL_BUILDER(Name("TensorListStack").Device(DEVICE_CPU), TensorListStackOp);
REGISTER_KERNEL_BUILDER(Name("TensorListGather").Device(DEVICE_CPU), TensorListGatherOp);
REGISTER_KERNEL_BUILDER(Name("TensorListScatter").Device(DEVICE_CPU), TensorListScatterOp);
REGISTER_KERNEL_BUILDER(Name("TensorListScatterV2").Device(DEVICE_CPU), TensorListScatterOp);
REGISTER_KERNEL_BUILDER(Name("TensorListScatterIntoExistingList").Device(DEVICE_CPU),
                        TensorListScatterIntoExistingListOp);
REGISTER_KERNEL_BUILDER(Name("TensorListConcatV2").Device(DEVICE_CPU), TensorListConcatV2Op);

// GPUs, with TensorFlow's memory types: the integer arguments in host memory (and the list, a
// DT_VARIANT, which is host memory on every device: runtime/framework/memory_types.h), the
// elements in device memory for the element dtypes a GPU keeps there. int32 lists have their
// elements in host memory on GPUs too, as every int32 value there (ElementGpu in
// element_rows.h follows the memory types). Length, ElementShape and Resize never touch an
// element, and take any list (they have no element_dtype).
#define SLUICE_LIST_ON_GPU(op) \
  Name(op).Device(DEVICE_GPU).TypeConstraint("element_dtype", array_internal::GpuArrayTypes())
#define SLUICE_INT32_LIST_ON_GPU(op) \
  Name(op).Device(DEVICE_GPU).TypeConstraint<int32_t>("element_dtype")
// A kernel's registrations for both: `host_args` (a chain of .HostMemory calls) for both,
// `element_args` in host memory for int32 lists.
#define SLUICE_REGISTER_LIST_ON_GPU(op, kernel, host_args, element_args) \
  REGISTER_KERNEL_BUILDER(SLUICE_LIST_ON_GPU(op) host_args, kernel);     \
  REGISTER_KERNEL_BUILDER(SLUICE_INT32_LIST_ON_GPU(op) host_args element_args, kernel)
SLUICE_REGISTER_LIST_ON_GPU("EmptyTensorList", NewTensorListOp,
                            .HostMemory("element_shape").HostMemory("max_num_elements"), );
SLUICE_REGISTER_LIST_ON_GPU("TensorListReserve", NewTensorListOp,
                            .HostMemory("element_shape").HostMemory("num_elements"), );
SLUICE_REGISTER_LIST_ON_GPU("TensorListFromTensor", TensorListFromTensorOp,
                            .HostMemory("element_shape"), .HostMemory("tensor"));
SLUICE_REGISTER_LIST_ON_GPU("TensorListSplit", TensorListSplitOp,
                            .HostMemory("element_shape").HostMemory("lengths"),
                            .HostMemory("tensor"));
SLUICE_REGISTER_LIST_ON_GPU("TensorListGetItem", TensorListGetItemOp,
                            .HostMemory("index").HostMemory("element_shape"), .HostMemory("item"));
SLUICE_REGISTER_LIST_ON_GPU("TensorListSetItem", TensorListSetItemOp, .HostMemory("index"),
                            .HostMemory("item"));
SLUICE_REGISTER_LIST_ON_GPU("TensorListPushBack", TensorListPushBackOp, , .HostMemory("tensor"));
SLUICE_REGISTER_LIST_ON_GPU("TensorListPopBack", TensorListPopBackOp, .HostMemory("element_shape"),
                            .HostMemory("tensor"));
SLUICE_REGISTER_LIST_ON_GPU("TensorListStack", TensorListStackOp, .HostMemory("element_shape"),
                            .HostMemory("tensor"));
SLUICE_REGISTER_LIST_ON_GPU("TensorListGather", TensorListGatherOp,
                            .HostMemory("indices").HostMemory("element_shape"),
                            .HostMemory("values"));
SLUICE_REGISTER_LIST_ON_GPU("TensorListScatter", TensorListScatterOp,
                            .HostMemory("indices").HostMemory("element_shape"),
                            .HostMemory("tensor"));
SLUICE_REGISTER_LIST_ON_GPU(
    "TensorListScatterV2", TensorListScatterOp,
    .HostMemory("indices").HostMemory("element_shape").HostMemory("num_elements"),
    .HostMemory("tensor"));
SLUICE_REGISTER_LIST_ON_GPU("TensorListScatterIntoExistingList",
                            TensorListScatterIntoExistingListOp, .HostMemory("indices"),
                            .HostMemory("tensor"));
SLUICE_REGISTER_LIST_ON_GPU(
    "TensorListConcatV2", TensorListConcatV2Op,
    .HostMemory("element_shape").HostMemory("leading_dims").HostMemory("lengths"),
    .HostMemory("tensor"));
#undef SLUICE_REGISTER_LIST_ON_GPU
#undef SLUICE_INT32_LIST_ON_GPU
#undef SLUICE_LIST_ON_GPU
REGISTER_KERNEL_BUILDER(Name("TensorListLength").Device(DEVICE_GPU).HostMemory("length"),
                        TensorListLengthOp);
REGISTER_KERNEL_BUILDER(
    Name("TensorListElementShape").Device(DEVICE_GPU).HostMemory("element_shape"),
    TensorListElementShapeOp);
REGISTER_KERNEL_BUILDER(Name("TensorListResize").Device(DEVICE_GPU).HostMemory("size"),
                        TensorListResizeOp);

}  // namespace
}  // namespace sluice
