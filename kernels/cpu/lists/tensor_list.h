// TensorList: the value a DT_VARIANT tensor holds for TensorFlow's list ops (TensorListReserve,
// TensorListSetItem, TensorListStack, ...), which Keras' recurrent layers and every TF2 loop
// that accumulates per-step results (tf.TensorArray inside tf.function) are built on.
//
// A list is a sequence of tensors of one dtype, each either set or not yet set (an empty
// slot reads as zeros of the element shape), with an element shape that may be partly
// unknown and an optional maximum length.
//
// Contract:
//  - A list lives in a scalar DT_VARIANT tensor (Variant, graph/core/variant.h). Lists are
//    values: an op that changes a list returns a new list tensor and leaves its input as it
//    was. ListForUpdate makes that cheap: when the kernel holds the input tensor and its list
//    alone, it changes the list in place and forwards it; otherwise it copies the list (the
//    element tensors are shared, never copied).
//  - Element tensors are never changed once in a list; a kernel that reads one may forward
//    it as its output.
//  - The list object is always in host memory (a DT_VARIANT is host memory on every device);
//    its elements are where the kernel that put them there keeps elements: device memory for
//    the list kernels registered for GPUs, host memory on the CPU (element_gpu records which).
//    A list that reaches a kernel whose elements live elsewhere (made on the GPU, read on the
//    CPU, as a kernel without a GPU registration or a device pin may place it) has its set
//    elements copied over first, as TensorFlow's variant device copy does when a list crosses
//    devices: GetInputListHere and ListForUpdate do that.
//  - Errors are INVALID_ARGUMENT with TensorFlow's wording, naming the sizes and shapes.
#ifndef SLUICE_KERNELS_CPU_LISTS_TENSOR_LIST_H_
#define SLUICE_KERNELS_CPU_LISTS_TENSOR_LIST_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "graph/core/partial_tensor_shape.h"
#include "graph/core/tensor.h"
#include "graph/core/types.h"
#include "graph/core/variant.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {

class GpuDeviceContext;

class TensorList : public VariantPayload {
 public:
  TensorList() = default;
  TensorList(DataType element_dtype, PartialTensorShape element_shape)
      : element_dtype(element_dtype), element_shape(std::move(element_shape)) {}

  std::string TypeName() const override { return "tensorflow::TensorList"; }
  std::string DebugString() const override;
  size_t ByteSize() const override;

  // A copy sharing the element tensors.
  TensorList Copy() const;

  DataType element_dtype = DT_INVALID;
  PartialTensorShape element_shape;  // unknown rank by default
  // -1: no limit (EmptyTensorList's max_num_elements).
  int64_t max_num_elements = -1;
  // The GPU whose memory holds the set elements; null for host memory. Set from the kernel
  // that made or last changed the list (ElementGpu of its context). GPU contexts live as long
  // as the process, so a list may outlive its session.
  GpuDeviceContext* element_gpu = nullptr;
  // Set elements, and Tensor(DT_INVALID) for slots not yet set. The list's state, not
  // scratch: every kernel that grows it checks the new length with CheckSlotCount.
  std::vector<Tensor>
      tensors;  // on the heap, bounded: one Tensor handle per element, at most kMaxSlots
};

// Reads input `index` of `ctx` as a list: a scalar DT_VARIANT tensor holding a TensorList.
// Its elements may be in another memory than the kernel's: for kernels that read only the
// list's length and shapes.
absl::Status GetInputList(OpKernelContext* ctx, int index, const TensorList** list);

// As GetInputList, for kernels that read elements: the input's list when its elements are
// where the kernel's are (ElementGpu), else *local, a copy of it whose set elements were
// copied there. *local must outlive the use of *list.
absl::Status GetInputListHere(OpKernelContext* ctx, int index, TensorList* local,
                              const TensorList** list);

// Makes output `output_index` the list of input `input_index`, ready to be changed, and
// returns it: the input's own list when the kernel may take it over (the executor handed it
// the only reference to the tensor, which alone holds the list), else a copy. With
// `move_elements_here`, its set elements are then where the kernel's are (copied over when
// they were elsewhere); without it they stay where they were (a kernel that only changes the
// length). Validate before calling it: the change is visible as the output at once. The
// pointer stays valid while the context lives.
absl::Status ListForUpdate(OpKernelContext* ctx, int input_index, int output_index,
                           TensorList** list, bool move_elements_here = true);

// Makes output `index` a scalar DT_VARIANT holding `list` (moved), whose elements are where
// the kernel's are.
absl::Status SetOutputList(OpKernelContext* ctx, int index, TensorList list);

// TensorFlow's element_shape argument: -1 (a scalar) is an unknown rank, a vector gives the
// dims with -1 for an unknown dim. INVALID_ARGUMENT for other ranks or dims below -1.
absl::Status PartialShapeFromTensor(const Tensor& t, PartialTensorShape* shape);

// The element shape a read of `list` uses: the list's own merged with the `element_shape`
// input `requested` (INVALID_ARGUMENT when they disagree).
absl::Status MergedElementShape(const TensorList& list, const PartialTensorShape& requested,
                                PartialTensorShape* shape);

// INVALID_ARGUMENT unless `dtype` is the list's element dtype (TensorFlow's message).
absl::Status CheckElementDtype(const TensorList& list, DataType dtype);

}  // namespace sluice

#endif  // SLUICE_KERNELS_CPU_LISTS_TENSOR_LIST_H_
