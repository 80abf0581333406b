#include "kernels/cpu/lists/tensor_list.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "graph/core/errors.h"
#include "graph/core/integer_tensor.h"
#include "graph/core/tensor_types.h"
#include "kernels/cpu/lists/element_rows.h"
#include "runtime/framework/gpu/gpu_device_context.h"

namespace sluice {

std::string TensorList::DebugString() const { return "<TensorList>"; }

size_t TensorList::ByteSize() const {
  size_t bytes = tensors.capacity() * sizeof(Tensor);
  for (const Tensor& t : tensors) bytes += t.TotalBytes();
  return bytes;
}

TensorList TensorList::Copy() const {
  TensorList copy(element_dtype, element_shape);
  copy.max_num_elements = max_num_elements;
  copy.element_gpu = element_gpu;
  copy.tensors = tensors;
  return copy;
}

absl::Status GetInputList(OpKernelContext* ctx, int index, const TensorList** list) {
  const Tensor& t = ctx->input(index);
  if (t.dtype() != DT_VARIANT || t.NumElements() != 1) {
    return errors::InvalidArgument("Input ", index, " of ", ctx->op_kernel().name(),
                                   " must be a scalar variant holding a TensorList, but is ",
                                   DataTypeString(t.dtype()), " of shape ",
                                   t.shape().DebugString());
  }
  const Variant& v = t.unaligned_flat<Variant>()(0);
  const TensorList* l = v.get<TensorList>();
  if (l == nullptr) {
    return errors::InvalidArgument("Input ", index, " of ", ctx->op_kernel().name(),
                                   " is not a TensorList: it holds ",
                                   v.is_empty() ? "nothing" : v.TypeName());
  }
  *list = l;
  return absl::OkStatus();
}

namespace {

// Copies the set elements of `list` into the memory of ctx's elements (ElementGpu), replacing
// them in the list: from a GPU through host memory, to a GPU from host memory.
absl::Status MoveElementsHere(OpKernelContext* ctx, TensorList* list) {
  GpuDeviceContext* const here = ElementGpu(ctx);
  if (list->element_gpu == here) return absl::OkStatus();
  for (Tensor& element : list->tensors) {
    if (element.dtype() == DT_INVALID || element.NumElements() == 0) continue;
    Tensor host = element;
    if (list->element_gpu != nullptr) {
      ASSIGN_OR_RETURN(host, Tensor::Allocate(ctx->device()->GetHostAllocator(), element.dtype(),
                                              element.shape()));
      RETURN_IF_ERROR(list->element_gpu->CopyDeviceToHost(element, &host));
    }
    if (here == nullptr) {
      element = std::move(host);
      continue;
    }
    Tensor device;
    RETURN_IF_ERROR(ctx->allocate_temp(element.dtype(), element.shape(), &device));
    RETURN_IF_ERROR(here->CopyHostToDevice(host, &device));
    element = std::move(device);
  }
  list->element_gpu = here;
  return absl::OkStatus();
}

}  // namespace

absl::Status GetInputListHere(OpKernelContext* ctx, int index, TensorList* local,
                              const TensorList** list) {
  RETURN_IF_ERROR(GetInputList(ctx, index, list));
  if ((*list)->element_gpu == ElementGpu(ctx)) return absl::OkStatus();
  *local = (*list)->Copy();
  RETURN_IF_ERROR(MoveElementsHere(ctx, local));
  *list = local;
  return absl::OkStatus();
}

absl::Status ListForUpdate(OpKernelContext* ctx, int input_index, int output_index,
                           TensorList** list, bool move_elements_here) {
  const TensorList* input;
  RETURN_IF_ERROR(GetInputList(ctx, input_index, &input));
  Tensor* output;
  if (ctx->forward_input_to_output_with_shape(input_index, output_index, TensorShape({}),
                                              &output)) {
    // The tensor is this kernel's alone; its list may still be shared with another tensor
    // (an Identity's output read elsewhere), and is then copied.
    Variant& v = output->unaligned_flat<Variant>()(0);
    if (TensorList* own = v.mutable_get<TensorList>()) {
      *list = own;
    } else {
      v = Variant::Make<TensorList>(input->Copy());
      *list = v.mutable_get<TensorList>();
    }
  } else {
    RETURN_IF_ERROR(ctx->allocate_output(output_index, TensorShape({}), &output));
    Variant& v = output->scalar<Variant>()();
    v = Variant::Make<TensorList>(input->Copy());
    *list = v.mutable_get<TensorList>();
  }
  return move_elements_here ? MoveElementsHere(ctx, *list) : absl::OkStatus();
}

absl::Status SetOutputList(OpKernelContext* ctx, int index, TensorList list) {
  list.element_gpu = ElementGpu(ctx);
  Tensor* output;
  RETURN_IF_ERROR(ctx->allocate_output(index, TensorShape({}), &output));
  output->scalar<Variant>()() = Variant::Make<TensorList>(std::move(list));
  return absl::OkStatus();
}

absl::Status PartialShapeFromTensor(const Tensor& t, PartialTensorShape* shape) {
  if (t.dims() == 0) {
    int64_t value;
    RETURN_IF_ERROR(IntegerTensorScalar(t, &value));
    if (value != -1) {
      return errors::InvalidArgument(
          "The only valid scalar shape tensor is the fully unknown shape specified as -1.");
    }
    *shape = PartialTensorShape();
    return absl::OkStatus();
  }
  if (t.dims() != 1) {
    return errors::InvalidArgument("Shape must be at most rank 1 but is rank ", t.dims());
  }
  IntegerValues dims;
  RETURN_IF_ERROR(IntegerTensorValues(t, &dims));
  return PartialTensorShape::BuildPartialTensorShape(dims, shape);
}

absl::Status MergedElementShape(const TensorList& list, const PartialTensorShape& requested,
                                PartialTensorShape* shape) {
  absl::Status s = list.element_shape.MergeWith(requested, shape);
  if (!s.ok()) {
    return errors::InvalidArgument("Incompatible shapes: the list's element shape ",
                                   list.element_shape.DebugString(), " and the requested ",
                                   requested.DebugString(), ": ", s.message());
  }
  return absl::OkStatus();
}

absl::Status CheckElementDtype(const TensorList& list, DataType dtype) {
  if (list.element_dtype != dtype) {
    return errors::InvalidArgument("Invalid data types; op elements ", DataTypeString(dtype),
                                   " but list elements ", DataTypeString(list.element_dtype));
  }
  return absl::OkStatus();
}

}  // namespace sluice
