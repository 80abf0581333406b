#include "graph/core/tensor.h"

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <new>
#include <type_traits>
#include <utility>

#include "absl/strings/str_cat.h"
#include "graph/core/element_bytes.h"
#include "graph/core/errors.h"
#include "graph/core/small_block_cache.h"

namespace sluice {
namespace {

template <typename T>
constexpr bool kIsPodElement =
    !std::is_same_v<T, std::string> && !std::is_same_v<T, ResourceHandleProto> &&
    !std::is_same_v<T, Variant>;

// VisitElementType, and Variant for DT_VARIANT: every type a buffer may store.
template <typename Fn>
bool VisitStoredType(DataType dtype, Fn&& fn) {
  if (dtype == DT_VARIANT) {
    fn(ElementTypeTag<Variant>{});
    return true;
  }
  return VisitElementType(dtype, std::forward<Fn>(fn));
}

// sizeof the C++ element type of `dtype`; 0 when it has none.
size_t ElementSize(DataType dtype) {
  size_t size = 0;
  VisitStoredType(dtype, [&](auto tag) { size = sizeof(typename decltype(tag)::type); });
  return size;
}

bool HasPodElementType(DataType dtype) {
  bool pod = false;
  VisitStoredType(dtype, [&](auto tag) { pod = kIsPodElement<typename decltype(tag)::type>; });
  return pod;
}

}  // namespace

// The reference-counted storage behind one or more Tensors. It owns `num_elements` elements
// of `dtype` (constructed here for strings and handles) in memory from `allocator`, or
// caller memory given back through `release`.
class Tensor::Buffer : public Tensor::BufferRefs {
 public:
  Buffer(DataType dtype, int64_t num_elements, void* data, size_t num_bytes, Allocator* allocator,
         std::function<void(void*)> release)
      : dtype_(dtype),
        num_elements_(num_elements),
        data_(data),
        num_bytes_(num_bytes),
        allocator_(allocator),
        release_(std::move(release)) {}

  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;

  // Every kernel run that allocates makes one: recycled per thread like small tensor
  // buffers (a step holding a thousand scalar outputs would otherwise fall through
  // malloc's per-thread cache to its general path).
  // The cache holds malloc'd blocks of its class size, so that is what is allocated.
  static void* operator new(size_t size) {
    if (kBlockBytes == 0) return ::operator new(size);
    void* block = small_block_cache::Take(kBlockBytes);
    if (block == nullptr) block = std::malloc(kBlockBytes);
    if (block == nullptr) throw std::bad_alloc();
    return block;
  }
  static void operator delete(void* block, size_t size) {
    if (kBlockBytes == 0) {
      ::operator delete(block, size);
    } else if (!small_block_cache::Put(block, kBlockBytes)) {
      std::free(block);
    }
  }

  char* data() const { return static_cast<char*>(data_); }
  size_t num_bytes() const { return num_bytes_; }

  ~Buffer() {
    VisitStoredType(dtype_, [&](auto tag) {
      using T = typename decltype(tag)::type;
      if constexpr (!kIsPodElement<T>) {
        T* elements = reinterpret_cast<T*>(data_);
        for (int64_t i = 0; i < num_elements_; ++i) elements[i].~T();
      }
    });
    if (release_) {
      release_(data_);
    } else {
      allocator_->DeallocateRaw(data_);
    }
  }

  static const size_t kBlockBytes;

  const DataType dtype_;
  const int64_t num_elements_;
  void* const data_;
  const size_t num_bytes_;
  Allocator* const allocator_;
  const std::function<void(void*)> release_;
};

// 0 when the cache is off (AddressSanitizer): Take is then never asked for a block.
const size_t Tensor::Buffer::kBlockBytes = small_block_cache::ClassBytes(sizeof(Buffer));

void Tensor::DestroyBuffer(BufferRefs* buf) { delete static_cast<Buffer*>(buf); }

Tensor::Tensor() : Tensor(DT_FLOAT) {}

Tensor::Tensor(DataType dtype) : dtype_(dtype), shape_(EmptyVectorShape()) {
  CHECK(!IsRefType(dtype)) << "Tensor of dtype " << DataTypeString(dtype)
                           << ": ref types are not supported";
}

Tensor::Tensor(DataType dtype, const TensorShape& shape)
    : Tensor(DefaultCpuAllocator(), dtype, shape) {}

Tensor::Tensor(Allocator* allocator, DataType dtype, const TensorShape& shape) : Tensor() {
  absl::StatusOr<Tensor> result = Allocate(allocator, dtype, shape);
  CHECK(result.ok()) << result.status();
  *this = std::move(result).value();
}

absl::StatusOr<Tensor> Tensor::Allocate(Allocator* allocator, DataType dtype,
                                        const TensorShape& shape) {
  CHECK(allocator != nullptr);
  if (dtype == DT_INVALID || !IsValidDataType(dtype) || IsRefType(dtype)) {
    return errors::InvalidArgument("Cannot allocate a tensor of type ", DataTypeString(dtype),
                                   ": not a value type");
  }
  const size_t element_size = ElementSize(dtype);
  if (element_size == 0) {
    return errors::Unimplemented("Tensors of type ", DataTypeString(dtype), " are not supported");
  }
  const int64_t n = shape.num_elements();
  if (n == 0) return Tensor(dtype, shape, nullptr, nullptr);
  const int64_t num_bytes = MultiplyWithoutOverflow(n, static_cast<int64_t>(element_size));
  if (num_bytes < 0) {
    return errors::ResourceExhausted("Tensor of type ", DataTypeString(dtype), " and shape ",
                                     shape.DebugString(), " needs more than 2**63 bytes");
  }
  void* data = allocator->AllocateRaw(kAllocatorAlignment, static_cast<size_t>(num_bytes));
  if (data == nullptr) {
    const AllocatorStats stats = allocator->GetStats();
    return errors::ResourceExhausted(
        "OOM when allocating tensor of type ", DataTypeString(dtype), " with shape ",
        shape.DebugString(), " (", num_bytes, " bytes) on allocator ", allocator->Name(),
        stats.bytes_limit > 0 ? absl::StrCat(": ", stats.bytes_in_use, " bytes of its limit of ",
                                             stats.bytes_limit, " are in use")
                              : "");
  }
  VisitStoredType(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (!kIsPodElement<T>) {
      T* elements = static_cast<T*>(data);
      for (int64_t i = 0; i < n; ++i) new (elements + i) T();
    }
  });
  return Tensor(dtype, shape,
                new Buffer(dtype, n, data, static_cast<size_t>(num_bytes), allocator, nullptr),
                static_cast<char*>(data));
}

absl::StatusOr<Tensor> Tensor::FromExternalData(DataType dtype, const TensorShape& shape,
                                                void* data, size_t num_bytes,
                                                std::function<void(void*)> release) {
  CHECK(release != nullptr);
  const int64_t expected =
      MultiplyWithoutOverflow(shape.num_elements(), static_cast<int64_t>(ElementSize(dtype)));
  absl::Status status;
  if (!HasPodElementType(dtype)) {
    status = errors::InvalidArgument("Cannot wrap external data as a tensor of type ",
                                     DataTypeString(dtype), ": not a plain-data type");
  } else if (expected < 0 || static_cast<uint64_t>(expected) != num_bytes) {
    status = errors::InvalidArgument("External data of ", num_bytes, " bytes does not match ",
                                     DataTypeString(dtype), " shape ", shape.DebugString(), " (",
                                     expected, " bytes)");
  }
  if (!status.ok()) {
    release(data);
    return status;
  }
  Tensor tensor(dtype);
  tensor.shape_ = shape;
  tensor.buf_ =
      new Buffer(dtype, shape.num_elements(), data, num_bytes, nullptr, std::move(release));
  tensor.data_ = static_cast<char*>(data);
  if (shape.num_elements() == 0) tensor.Unref();
  return tensor;
}

#define SLUICE_TENSOR_SCALAR_CTOR(T)                                          \
  Tensor::Tensor(T value) : Tensor(DataTypeToEnum<T>::value, TensorShape()) { \
    *reinterpret_cast<T*>(data_) = std::move(value);                          \
  }
SLUICE_CALL_ALL_TYPES(SLUICE_TENSOR_SCALAR_CTOR)
SLUICE_TENSOR_SCALAR_CTOR(ResourceHandleProto)
SLUICE_TENSOR_SCALAR_CTOR(Variant)
#undef SLUICE_TENSOR_SCALAR_CTOR

Tensor::Tensor(const char* value) : Tensor(std::string(value)) {}

Tensor& Tensor::operator=(const Tensor& other) {
  dtype_ = other.dtype_;
  shape_ = other.shape_;
  ShareBuffer(other.buf_, other.data_);
  return *this;
}

Tensor& Tensor::operator=(Tensor&& other) noexcept {
  if (this == &other) return *this;
  Unref();
  dtype_ = other.dtype_;
  shape_ = std::move(other.shape_);
  buf_ = other.buf_;
  data_ = other.data_;
  other.shape_ = EmptyVectorShape();
  other.buf_ = nullptr;
  other.data_ = nullptr;
  return *this;
}

void Tensor::ShareBuffer(BufferRefs* buf, char* data) {
  // Ref before Unref: `buf` may be the buffer this tensor already holds.
  if (buf != nullptr) buf->refs.fetch_add(1, std::memory_order_relaxed);
  Unref();
  buf_ = buf;
  data_ = data;
}

size_t Tensor::TotalBytes() const {
  const int64_t n = NumElements();
  if (n == 0 || data_ == nullptr) return 0;
  size_t total = static_cast<size_t>(n) * ElementSize(dtype_);
  if (dtype_ == DT_STRING) {
    const std::string* strings = reinterpret_cast<const std::string*>(data_);
    for (int64_t i = 0; i < n; ++i) total += strings[i].size();
  } else if (dtype_ == DT_RESOURCE) {
    const auto* handles = reinterpret_cast<const ResourceHandleProto*>(data_);
    for (int64_t i = 0; i < n; ++i) total += handles[i].ByteSizeLong();
  } else if (dtype_ == DT_VARIANT) {
    const auto* variants = reinterpret_cast<const Variant*>(data_);
    for (int64_t i = 0; i < n; ++i) total += variants[i].ByteSize();
  }
  return total;
}

size_t Tensor::AllocatedBytes() const {
  return buf_ == nullptr ? 0 : static_cast<const Buffer*>(buf_)->num_bytes();
}

bool Tensor::SharesBufferWith(const Tensor& other) const {
  return buf_ != nullptr && buf_ == other.buf_;
}

bool Tensor::CopyFrom(const Tensor& other, const TensorShape& shape) {
  if (other.NumElements() != shape.num_elements()) return false;
  dtype_ = other.dtype_;
  shape_ = shape;
  ShareBuffer(other.buf_, other.data_);
  return true;
}

absl::Status Tensor::BitcastFrom(const Tensor& other, DataType dtype, const TensorShape& shape) {
  if (IsRefType(dtype) || !IsValidDataType(dtype)) {
    return errors::InvalidArgument("Cannot bitcast to type ", DataTypeString(dtype));
  }
  const int in_size = DataTypeSize(other.dtype());
  const int out_size = DataTypeSize(dtype);
  if (in_size == 0) {
    return errors::InvalidArgument("Cannot bitcast from ", DataTypeString(other.dtype()),
                                   ": other tensor has zero-sized data type");
  }
  if (out_size == 0) {
    return errors::InvalidArgument("Cannot bitcast to ", DataTypeString(dtype),
                                   ": specified output type is zero-sized");
  }
  if (!HasPodElementType(dtype)) {
    return errors::Unimplemented("Tensors of type ", DataTypeString(dtype), " are not supported");
  }
  const int64_t in_bytes = MultiplyWithoutOverflow(other.NumElements(), in_size);
  const int64_t out_bytes = MultiplyWithoutOverflow(shape.num_elements(), out_size);
  if (out_bytes < 0 || in_bytes != out_bytes) {
    return errors::InvalidArgument("input and output shapes/data type sizes are not compatible: ",
                                   DataTypeString(other.dtype()), " ", other.shape().DebugString(),
                                   " (", in_bytes, " bytes) vs. ", DataTypeString(dtype), " ",
                                   shape.DebugString());
  }
  dtype_ = dtype;
  shape_ = shape;
  ShareBuffer(other.buf_, other.data_);
  return absl::OkStatus();
}

Tensor Tensor::Slice(int64_t start, int64_t limit) const {
  CHECK_GE(dims(), 1) << "Slice of a scalar";
  CHECK_LE(0, start);
  CHECK_LE(start, limit);
  const int64_t dim0 = dim_size(0);
  CHECK_LE(limit, dim0);
  if (start == 0 && limit == dim0) return *this;
  Tensor result(dtype_);
  result.shape_ = shape_;
  result.shape_.set_dim(0, limit - start);
  if (result.NumElements() > 0) {
    const int64_t row_elements = NumElements() / dim0;
    result.ShareBuffer(buf_, data_ + start * row_elements * ElementSize(dtype_));
  }
  return result;
}

Tensor Tensor::SubSlice(int64_t index) const {
  CHECK_GE(dims(), 1) << "SubSlice of a scalar";
  CHECK_LE(0, index);
  CHECK_LT(index, dim_size(0));
  Tensor result(dtype_);
  result.shape_ = shape_;
  result.shape_.RemoveDim(0);
  if (result.NumElements() > 0) {
    result.ShareBuffer(buf_, data_ + index * result.NumElements() * ElementSize(dtype_));
  }
  return result;
}

Tensor Tensor::DeepCopy() const {
  Tensor copy(DefaultCpuAllocator(), dtype_, shape_);
  CopyElements(dtype_, data_, copy.data_, NumElements());
  return copy;
}

absl::string_view Tensor::tensor_data() const {
  if (data_ == nullptr) return absl::string_view();
  return absl::string_view(data_, static_cast<size_t>(NumElements()) * ElementSize(dtype_));
}

void Tensor::TypeMismatch(DataType expected) const {
  LOG(FATAL) << "Check failed: dtype_ == expected Tensor of type " << DataTypeString(dtype_)
             << " accessed as type " << DataTypeString(expected);
}

void Tensor::Misaligned() {
  LOG(FATAL) << "Check failed: IsAligned() Aligned view of an unaligned tensor (a slice?); "
                "use unaligned_*";
}

void Tensor::CheckReshape(absl::Span<const int64_t> new_sizes, size_t ndims) const {
  CHECK_EQ(new_sizes.size(), ndims) << "Expected " << ndims << " sizes";
  int64_t n = 1;
  for (int64_t size : new_sizes) {
    CHECK_GE(size, 0);
    n = MultiplyWithoutOverflow(n, size);
    CHECK_GE(n, 0) << "Overflow in view sizes";
  }
  CHECK_EQ(n, NumElements()) << "View sizes do not match the shape " << shape_;
}

absl::InlinedVector<int64_t, 4> Tensor::FlatInnerDims(int num_out_dims) const {
  CHECK_GT(num_out_dims, 0);
  const absl::Span<const int64_t> in = shape_.dim_sizes();
  const int offset = dims() - num_out_dims;
  absl::InlinedVector<int64_t, 4> out(num_out_dims, 1);
  for (int d = 0; d < num_out_dims; ++d) {
    if (d + offset >= 0) out[d] = in[d + offset];
  }
  // Products of dims of a valid shape cannot overflow (see TensorShape).
  for (int d = 0; d < offset; ++d) out[0] *= in[d];
  return out;
}

absl::InlinedVector<int64_t, 4> Tensor::FlatOuterDims(int num_out_dims) const {
  CHECK_GT(num_out_dims, 0);
  const absl::Span<const int64_t> in = shape_.dim_sizes();
  absl::InlinedVector<int64_t, 4> out(num_out_dims, 1);
  for (int d = 0; d < num_out_dims && d < dims(); ++d) out[d] = in[d];
  for (int d = num_out_dims; d < dims(); ++d) out[num_out_dims - 1] *= in[d];
  return out;
}

std::string Tensor::DebugString(int num_values) const {
  return absl::StrCat("Tensor<type: ", DataTypeString(dtype_), " shape: ", shape_.DebugString(),
                      " values: ", SummarizeValue(num_values), ">");
}

}  // namespace sluice
