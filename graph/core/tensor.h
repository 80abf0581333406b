// Tensor: a dtype, a shape and a reference-counted buffer of elements.
//
// Contract:
//  - Copying a Tensor shares its buffer (no element is copied); the buffer is freed, through
//    the allocator that made it, when the last Tensor referring to it goes away. DeepCopy
//    makes an independent copy. Slice/CopyFrom/BitcastFrom share as well.
//  - Buffers are kAllocatorAlignment-aligned. Slices may start mid-buffer; IsAligned() tells
//    whether the aligned views may be used, the unaligned_* views always may.
//  - POD elements of a new tensor are uninitialized; DT_STRING elements are std::string,
//    DT_RESOURCE elements ResourceHandleProto and DT_VARIANT elements Variant, constructed
//    empty in the buffer and destroyed with it.
//  - Tensors with no elements hold no buffer.
//  - The dtype is never a ref type. DT_INVALID appears only on empty placeholders made by
//    Tensor(DT_INVALID). The float8 types and the 4-bit integer types have no element
//    type here: Allocate rejects them.
//  - Thread safety: like a std::shared_ptr. Distinct Tensor objects sharing a buffer may be
//    used from different threads (the count is atomic); element writes are the caller's to
//    order, and one Tensor object must not be mutated while another thread reads it.
//  - Errors: Allocate returns a Status. The constructors, the typed views and the other
//    REQUIRES below CHECK-fail: they guard the program's own invariants, never user data.
#ifndef SLUICE_GRAPH_CORE_TENSOR_H_
#define SLUICE_GRAPH_CORE_TENSOR_H_

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <new>
#include <string>
#include <utility>

#include "Eigen/Core"
#include "absl/base/optimization.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "glog/logging.h"
#include "graph/core/allocator.h"
#include "graph/core/tensor_shape.h"
#include "graph/core/types.h"
#include "graph/core/variant.h"
#include "proto/resource_handle.pb.h"
#include "proto/types.pb.h"

namespace sluice {

// The Eigen views of a tensor's elements, defined in tensor_types.h. Only declared here:
// Eigen's Tensor module adds about a fifth of a second to every compilation that parses it,
// and much of the code that holds tensors (graph construction, shape functions, passes,
// tests) never views their elements through Eigen. A translation unit that calls the typed
// views below includes tensor_types.h, which also defines the out-of-line ones.
template <typename T, int NDIMS = 1, typename IndexType = Eigen::DenseIndex>
struct TTypes;

template <typename T>
struct ElementTypeTag {
  using type = T;
};

// Calls fn(ElementTypeTag<T>{}) with the C++ element type T of `dtype` (each
// SLUICE_CALL_ALL_TYPES type, and ResourceHandleProto for DT_RESOURCE) and returns true;
// returns false without calling `fn` for DT_VARIANT, whose elements are not values to
// compute on or serialize, and for dtypes that have none (DT_INVALID, ref types, float8,
// int4). Lets per-dtype code be written once, as a generic lambda:
//   VisitElementType(t.dtype(), [&](auto tag) { using T = typename decltype(tag)::type; ... });
template <typename Fn>
bool VisitElementType(DataType dtype, Fn&& fn) {
  switch (dtype) {
#define SLUICE_VISIT_CASE(T)     \
  case DataTypeToEnum<T>::value: \
    fn(ElementTypeTag<T>{});     \
    return true;
    SLUICE_CALL_ALL_TYPES(SLUICE_VISIT_CASE)
    SLUICE_VISIT_CASE(ResourceHandleProto)
#undef SLUICE_VISIT_CASE
    default:
      return false;
  }
}

class Tensor {
 public:
  // DT_FLOAT of shape [0]: an initialized, empty tensor (TensorFlow's default).
  Tensor();
  // `dtype` of shape [0]. CHECKs that `dtype` is not a ref type.
  explicit Tensor(DataType dtype);
  // Allocates from DefaultCpuAllocator(). CHECKs that allocation succeeds.
  Tensor(DataType dtype, const TensorShape& shape);
  // CHECKs that allocation succeeds; use Allocate() where the shape comes from a user.
  Tensor(Allocator* allocator, DataType dtype, const TensorShape& shape);

  // RESOURCE_EXHAUSTED when the buffer's byte size overflows or the allocator fails;
  // INVALID_ARGUMENT for DT_INVALID or a ref dtype; UNIMPLEMENTED for dtypes without an
  // element type here (float8, int4).
  static absl::StatusOr<Tensor> Allocate(Allocator* allocator, DataType dtype,
                                         const TensorShape& shape);

  // Wraps `num_bytes` of caller memory holding POD elements without copying; `release(data)`
  // runs once, when the last Tensor sharing the buffer goes away (also on error). Returns
  // INVALID_ARGUMENT unless `dtype` is a POD dtype and `num_bytes` equals the shape's size.
  static absl::StatusOr<Tensor> FromExternalData(DataType dtype, const TensorShape& shape,
                                                 void* data, size_t num_bytes,
                                                 std::function<void(void*)> release);

  // Rank-0 tensors holding one value.
#define SLUICE_TENSOR_SCALAR_CTOR(T) explicit Tensor(T value);
  SLUICE_CALL_ALL_TYPES(SLUICE_TENSOR_SCALAR_CTOR)
#undef SLUICE_TENSOR_SCALAR_CTOR
  explicit Tensor(const char* value);
  explicit Tensor(ResourceHandleProto value);
  explicit Tensor(Variant value);

  // Copies, moves and destruction are inline: the executor makes several per node.
  Tensor(const Tensor& other)
      : dtype_(other.dtype_), shape_(other.shape_), buf_(other.buf_), data_(other.data_) {
    if (buf_ != nullptr) buf_->refs.fetch_add(1, std::memory_order_relaxed);
  }
  Tensor(Tensor&& other) noexcept
      : dtype_(other.dtype_),
        shape_(std::move(other.shape_)),
        buf_(other.buf_),
        data_(other.data_) {
    // Rebuilt in place (an inline copy of one dim) rather than assigned: assignment goes
    // through a temporary InlinedVector, which GCC then reports as maybe uninitialised
    // wherever this constructor is inlined.
    other.shape_.~TensorShape();
    new (&other.shape_) TensorShape(EmptyVectorShape());
    other.buf_ = nullptr;
    other.data_ = nullptr;
  }
  Tensor& operator=(const Tensor& other);
  Tensor& operator=(Tensor&& other) noexcept;
  ~Tensor() { Unref(); }

  DataType dtype() const { return dtype_; }
  const TensorShape& shape() const { return shape_; }
  int dims() const { return shape_.dims(); }
  int64_t dim_size(int d) const { return shape_.dim_size(d); }
  int64_t NumElements() const { return shape_.num_elements(); }

  // False only for a tensor with elements but no buffer, which this class never makes;
  // kept for TensorFlow's API.
  bool IsInitialized() const { return data_ != nullptr || NumElements() == 0; }
  // Bytes of element storage: elements * element size, plus the characters of strings, the
  // encoded size of resource handles and what variants hold.
  size_t TotalBytes() const;
  // Bytes of the allocation this tensor keeps alive (shared with slices and copies).
  size_t AllocatedBytes() const;
  bool IsSameSize(const Tensor& other) const { return shape_.IsSameSize(other.shape_); }
  // True when both refer to the same underlying allocation (slices included).
  bool SharesBufferWith(const Tensor& other) const;
  // True when this is the only Tensor referring to its buffer, so a kernel may overwrite it
  // (forward it as an output). False without a buffer, and always false for a read-only one.
  bool RefCountIsOne() const {
    // Acquire pairs with the release in Unref, so a writer that sees 1 also sees every
    // other holder's accesses finished.
    return buf_ != nullptr && buf_->refs.load(std::memory_order_acquire) == 1 && !buf_->read_only;
  }
  // Promises that the elements of this tensor's buffer never change again, through this or
  // any other Tensor sharing it: a Const's value, weights a kernel derived once. Caches keyed
  // on a buffer's address may then trust it without looking at its contents (a convolution's
  // reordered filter), and no kernel is handed it to overwrite. Call it before the tensor is
  // shared with other threads. No-op without a buffer.
  void MarkReadOnly() {
    if (buf_ != nullptr) buf_->read_only = true;
  }
  bool IsReadOnly() const { return buf_ != nullptr && buf_->read_only; }
  bool IsAligned() const {
    constexpr uintptr_t kEigenAlignment = EIGEN_MAX_ALIGN_BYTES > 0 ? EIGEN_MAX_ALIGN_BYTES : 1;
    return reinterpret_cast<uintptr_t>(data_) % kEigenAlignment == 0;
  }

  // Becomes a view of `other`'s buffer and dtype with `shape`. Returns false (and changes
  // nothing) unless `shape` has `other`'s element count.
  bool CopyFrom(const Tensor& other, const TensorShape& shape);
  // Views `other`'s bytes as `dtype` elements of `shape`. INVALID_ARGUMENT unless both dtypes
  // are POD and the byte sizes agree; UNIMPLEMENTED for a POD dtype without an element type.
  absl::Status BitcastFrom(const Tensor& other, DataType dtype, const TensorShape& shape);
  // Rows [start, limit) along dim 0, sharing the buffer. REQUIRES (CHECKed): dims() >= 1 and
  // 0 <= start <= limit <= dim_size(0). The result may be unaligned.
  Tensor Slice(int64_t start, int64_t limit) const;
  // Row `index` of dim 0 with that dim removed, sharing the buffer. REQUIRES (CHECKed):
  // dims() >= 1 and 0 <= index < dim_size(0).
  Tensor SubSlice(int64_t index) const;
  // An unshared copy on DefaultCpuAllocator(); strings and handles are copied element-wise.
  Tensor DeepCopy() const;

  // Typed views (include graph/core/tensor_types.h to call them). Each CHECKs that
  // DataTypeToEnum<T>::value == dtype(), that the rank or element count fits the view, and
  // (for the aligned views) IsAligned().
  // The flat views skip the reshape check: {NumElements()} always fits. Every kernel takes
  // them on every call, so they are inline down to the dtype and alignment tests.
  template <typename T>
  typename TTypes<T>::Flat flat() {
    CheckTypeAndIsAligned(DataTypeToEnum<T>::value);
    return typename TTypes<T>::Flat(reinterpret_cast<T*>(data_), FlatSize());
  }
  template <typename T>
  typename TTypes<T>::ConstFlat flat() const {
    CheckTypeAndIsAligned(DataTypeToEnum<T>::value);
    return typename TTypes<T>::ConstFlat(reinterpret_cast<const T*>(data_), FlatSize());
  }
  template <typename T>
  typename TTypes<T>::UnalignedFlat unaligned_flat() {
    CheckType(DataTypeToEnum<T>::value);
    return typename TTypes<T>::UnalignedFlat(reinterpret_cast<T*>(data_), FlatSize());
  }
  template <typename T>
  typename TTypes<T>::UnalignedConstFlat unaligned_flat() const {
    CheckType(DataTypeToEnum<T>::value);
    return typename TTypes<T>::UnalignedConstFlat(reinterpret_cast<const T*>(data_), FlatSize());
  }
  template <typename T>
  typename TTypes<T>::Vec vec() {
    return tensor<T, 1>();
  }
  template <typename T>
  typename TTypes<T>::ConstVec vec() const {
    return tensor<T, 1>();
  }
  template <typename T>
  typename TTypes<T>::Matrix matrix() {
    return tensor<T, 2>();
  }
  template <typename T>
  typename TTypes<T>::ConstMatrix matrix() const {
    return tensor<T, 2>();
  }
  template <typename T, size_t NDIMS>
  typename TTypes<T, NDIMS>::Tensor tensor();
  template <typename T, size_t NDIMS>
  typename TTypes<T, NDIMS>::ConstTensor tensor() const;
  // REQUIRES: exactly one element (any rank).
  template <typename T>
  typename TTypes<T>::Scalar scalar();
  template <typename T>
  typename TTypes<T>::ConstScalar scalar() const;
  // REQUIRES: new_sizes.size() == NDIMS and the sizes multiply to NumElements().
  template <typename T, size_t NDIMS>
  typename TTypes<T, NDIMS>::Tensor shaped(absl::Span<const int64_t> new_sizes);
  template <typename T, size_t NDIMS>
  typename TTypes<T, NDIMS>::ConstTensor shaped(absl::Span<const int64_t> new_sizes) const;
  template <typename T, size_t NDIMS>
  typename TTypes<T, NDIMS>::UnalignedTensor unaligned_shaped(absl::Span<const int64_t> new_sizes);
  template <typename T, size_t NDIMS>
  typename TTypes<T, NDIMS>::UnalignedConstTensor unaligned_shaped(
      absl::Span<const int64_t> new_sizes) const;
  // All leading dims folded into the first of NDIMS; missing leading dims are 1.
  template <typename T, size_t NDIMS = 2>
  typename TTypes<T, NDIMS>::Tensor flat_inner_dims() {
    return shaped<T, NDIMS>(FlatInnerDims(NDIMS));
  }
  template <typename T, size_t NDIMS = 2>
  typename TTypes<T, NDIMS>::ConstTensor flat_inner_dims() const {
    return shaped<T, NDIMS>(FlatInnerDims(NDIMS));
  }
  // All trailing dims folded into the last of NDIMS; missing trailing dims are 1.
  template <typename T, size_t NDIMS = 2>
  typename TTypes<T, NDIMS>::Tensor flat_outer_dims() {
    return shaped<T, NDIMS>(FlatOuterDims(NDIMS));
  }
  template <typename T, size_t NDIMS = 2>
  typename TTypes<T, NDIMS>::ConstTensor flat_outer_dims() const {
    return shaped<T, NDIMS>(FlatOuterDims(NDIMS));
  }

  // The first element, typed. CHECKs the dtype; nullptr when there are no elements.
  template <typename T>
  T* base() const {
    CheckType(DataTypeToEnum<T>::value);
    return reinterpret_cast<T*>(data_);
  }
  void* raw_data() const { return data_; }
  // The element bytes (NumElements() * element size); meaningful for POD dtypes.
  absl::string_view tensor_data() const;

  // "Tensor<type: float shape: [2] values: 1 2>", at most `num_values` values.
  std::string DebugString(int num_values = 3) const;
  // Values as TensorFlow prints them: "1 2 3", nested "[1 2][3 4]" for higher ranks, "..."
  // after `max_entries` (all when negative). print_v2 gives tf.print's layout instead.
  std::string SummarizeValue(int64_t max_entries, bool print_v2 = false) const;

 private:
  // The reference count at the start of every buffer. Buffer (tensor.cc) derives from it;
  // it is visible here so that the inline members can count references.
  struct BufferRefs {
    std::atomic<int> refs{1};
    bool read_only = false;  // set by MarkReadOnly before the buffer is shared
  };
  class Buffer;
  // Deletes a buffer whose last reference is gone (its elements, then its memory).
  static void DestroyBuffer(BufferRefs* buf);
  // The shape of an empty Tensor, [0]. Copied rather than built: building validates it, and
  // every default-constructed or moved-from Tensor (a kernel's outputs before they are set)
  // needs one.
  static const TensorShape& EmptyVectorShape() {
    static const TensorShape* const shape = new TensorShape({0});
    return *shape;
  }

  // Inline tests; the CHECK failures (and their messages) are out of line.
  void CheckType(DataType expected) const {
    if (ABSL_PREDICT_FALSE(dtype_ != expected)) TypeMismatch(expected);
  }
  void CheckTypeAndIsAligned(DataType expected) const {
    CheckType(expected);
    if (ABSL_PREDICT_FALSE(!IsAligned())) Misaligned();
  }
  [[noreturn]] void TypeMismatch(DataType expected) const;
  [[noreturn]] static void Misaligned();
  Eigen::DenseIndex FlatSize() const { return static_cast<Eigen::DenseIndex>(NumElements()); }
  // CHECKs that `new_sizes` has `ndims` entries multiplying to NumElements().
  void CheckReshape(absl::Span<const int64_t> new_sizes, size_t ndims) const;
  absl::InlinedVector<int64_t, 4> FlatInnerDims(int num_out_dims) const;
  absl::InlinedVector<int64_t, 4> FlatOuterDims(int num_out_dims) const;
  // A tensor holding `buf`'s reference (null when there are no elements); for Allocate,
  // which has checked the dtype.
  Tensor(DataType dtype, const TensorShape& shape, BufferRefs* buf, char* data)
      : dtype_(dtype), shape_(shape), buf_(buf), data_(data) {}
  // Shares `buf` (may be null) with data starting at `data`.
  void ShareBuffer(BufferRefs* buf, char* data);
  // Drops this tensor's reference (deleting the buffer if it was the last) and its data.
  void Unref() {
    if (buf_ != nullptr && buf_->refs.fetch_sub(1, std::memory_order_acq_rel) == 1) {
      DestroyBuffer(buf_);
    }
    buf_ = nullptr;
    data_ = nullptr;
  }

  DataType dtype_;
  TensorShape shape_;
  BufferRefs* buf_ = nullptr;  // a Buffer holding one reference; null without elements
  char* data_ = nullptr;       // first element, inside buf_
};

}  // namespace sluice

#endif  // SLUICE_GRAPH_CORE_TENSOR_H_
