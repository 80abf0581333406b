// TensorArray: the resource behind TensorFlow 1's TensorArrayV3 ops (the arrays that TF1
// graphs' tf.while_loop, dynamic_rnn and tf.map_fn read from and write to), with
// TensorFlow's semantics.
//
// An array holds `size` slots of one dtype, each written at most once (a second write is an
// error) and never after it was read, read any number of times unless clear_after_read
// empties a slot at its first read. An unwritten slot reads as zeros when the element shape
// is fully known, and is an error otherwise. A dynamic_size array grows when written past its
// end. With identical_element_shapes, the first write fixes the element shape.
//
// Gradient arrays (TensorArrayGradV3: MakeGradient) collect the gradients of an array's
// elements during backprop. One is made per forward array and gradient source, of the
// forward array's size and element shape, its slots marked with the shapes of the forward
// array's written elements (reading such a slot before any write gives zeros of that shape).
// Writes to one slot add up (multiple_writes_aggregate), and reads past the end or of
// unwritten slots give zeros, since backprop may read gradients no one wrote. A gradient
// array has no gradient array of its own; once one is made, the forward array no longer
// grows.
//
// Values are where the kernels that write them keep values: host memory on the CPU, a GPU's
// memory for the ops registered for GPUs (the placer keeps an array's ops on one device).
//
// Arrays live in the step's container (ScopedStepContainer): the kernel that makes one hands
// out a DT_RESOURCE handle to it, and the array is deleted when the step ends or when
// TensorArrayCloseV3 runs. Thread safety: every method locks the array, so writes from
// parallel loop iterations may interleave.
#ifndef SLUICE_KERNELS_CPU_LISTS_TENSOR_ARRAY_H_
#define SLUICE_KERNELS_CPU_LISTS_TENSOR_ARRAY_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/status/status.h"
#include "absl/synchronization/mutex.h"
#include "graph/core/partial_tensor_shape.h"
#include "graph/core/tensor.h"
#include "graph/core/types.h"
#include "runtime/framework/op_kernel.h"
#include "runtime/framework/resource_mgr.h"

namespace sluice {

class TensorArray : public ResourceBase {
 public:
  struct Options {
    DataType dtype = DT_INVALID;
    PartialTensorShape element_shape;
    bool dynamic_size = false;
    bool clear_after_read = true;
    bool identical_element_shapes = false;
    // Set for gradient arrays.
    bool multiple_writes_aggregate = false;
    bool is_grad = false;
    // The size Concat reads of a gradient array: the forward array's last Split's, or -1.
    int64_t marked_size = -1;
  };
  TensorArray(std::string name, int64_t size, Options options);

  std::string DebugString() const override;
  const std::string& name() const { return name_; }
  DataType dtype() const { return dtype_; }

  // Writes `value` at `index`, growing a dynamic array to fit; adds it to what is there in an
  // array whose writes aggregate.
  absl::Status Write(OpKernelContext* ctx, int64_t index, const Tensor& value);
  // The value at `index` (zeros of the element shape for an unwritten slot whose shape is
  // known), emptying the slot when clear_after_read.
  absl::Status Read(OpKernelContext* ctx, int64_t index, Tensor* value);
  // Reads `indices` and stacks them along a new dim 0. An empty gather has the shape
  // `element_shape` merged with the array's, which must then be fully known.
  absl::Status Gather(OpKernelContext* ctx, absl::Span<const int64_t> indices,
                      const PartialTensorShape& element_shape, Tensor* value);
  // Reads every slot and concatenates them along dim 0; *lengths (an int64 vector in host
  // memory, from the host allocator of ctx's device) gets each one's rows.
  absl::Status Concat(OpKernelContext* ctx, const PartialTensorShape& element_shape_except0,
                      Tensor* value, Tensor* lengths);
  // Writes value[start_i : start_i + lengths[i]] at index i.
  absl::Status Split(OpKernelContext* ctx, const Tensor& value, absl::Span<const int64_t> lengths);
  // Writes value[i] at indices[i].
  absl::Status Scatter(OpKernelContext* ctx, absl::Span<const int64_t> indices,
                       const Tensor& value);
  absl::Status Size(int64_t* size);
  // Later calls fail with "has already been closed".
  void Close();

  // Makes the gradient array of this one (TensorArrayGradV3), named `name`; with
  // `shape_to_prepend` (TensorArrayGradWithShape; may be null) its elements have those dims
  // followed by this array's element dims. Stops this array from growing. The caller owns
  // the reference. INVALID_ARGUMENT for a gradient array, as TensorFlow's.
  absl::Status MakeGradient(std::string name, const TensorShape* shape_to_prepend,
                            TensorArray** gradient);

 private:
  struct Slot {
    // Unset (or empty) in a written slot means zeros of `shape`: a gradient array's slots
    // start so.
    Tensor value;
    TensorShape shape;
    bool written = false;
    bool read = false;
    bool cleared = false;
    // `value` is the array's own sum of several writes, which later writes add to in place.
    bool own_sum = false;
  };
  absl::Status CheckOpenLocked() const ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  absl::Status WriteLocked(OpKernelContext* ctx, int64_t index, const Tensor& value)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  absl::Status AggregateLocked(OpKernelContext* ctx, int64_t index, Slot* slot, const Tensor& value)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  absl::Status ReadLocked(OpKernelContext* ctx, int64_t index, Tensor* value)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);

  const std::string name_;
  const DataType dtype_;
  const bool clear_after_read_;
  const bool identical_element_shapes_;
  const bool multiple_writes_aggregate_;
  const bool is_grad_;
  absl::Mutex mu_;
  // Cleared when a gradient array is made.
  bool dynamic_size_ ABSL_GUARDED_BY(mu_);
  int64_t marked_size_ ABSL_GUARDED_BY(mu_);
  // Narrowed by the first write when identical_element_shapes.
  PartialTensorShape element_shape_ ABSL_GUARDED_BY(mu_);
  // on the heap, bounded: the array's state, one Slot per element; every growth checked by
  // CheckSlotCount
  std::vector<Slot> slots_ ABSL_GUARDED_BY(mu_);
  bool closed_ ABSL_GUARDED_BY(mu_) = false;
};

}  // namespace sluice

#endif  // SLUICE_KERNELS_CPU_LISTS_TENSOR_ARRAY_H_
