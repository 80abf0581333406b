// Variant: the element of DT_VARIANT tensors, a value whose C++ type the layers above define
// (a TensorList in kernels/cpu/lists/, later others). Like TensorFlow's Variant it may hold
// any type; unlike it, the value is shared rather than copied when the Variant is copied,
// and changed only by a holder that owns it alone (copy on write).
//
// Contract:
//  - A payload type derives from VariantPayload and is created with Variant::Make<T>(...).
//  - Copying a Variant shares its payload (an atomic count); get<T>() reads it.
//  - mutable_get<T>() may change the payload only when RefCountIsOne(): the caller must
//    also own the Variant alone (for a tensor element: Tensor::RefCountIsOne on its tensor),
//    otherwise another holder would see the change. Kernels copy the payload when not.
//  - An empty Variant (default-constructed, as new DT_VARIANT tensors' elements are) holds
//    nothing: TypeName() is "", get<T>() is nullptr.
//  - Thread safety: like a shared pointer to const; the count is atomic.
#ifndef SLUICE_GRAPH_CORE_VARIANT_H_
#define SLUICE_GRAPH_CORE_VARIANT_H_

#include <atomic>
#include <cstddef>
#include <string>
#include <utility>

namespace sluice {

// The base of every value a Variant holds.
class VariantPayload {
 public:
  VariantPayload() = default;
  virtual ~VariantPayload() = default;

  // TensorFlow's type name of the value ("tensorflow::TensorList"), for messages.
  virtual std::string TypeName() const = 0;
  // A short description, as TensorFlow prints a variant tensor's element ("<TensorList>").
  virtual std::string DebugString() const = 0;
  // Bytes the value keeps alive beyond the Variant itself (tensors it holds), for memory
  // accounting; an estimate.
  virtual size_t ByteSize() const { return 0; }

 protected:
  // Payload types may be values (copied and moved as their members); a copy is a new
  // object with its own count, never the count of the original.
  VariantPayload(const VariantPayload&) {}
  VariantPayload& operator=(const VariantPayload&) { return *this; }

 private:
  friend class Variant;
  mutable std::atomic<int> refs_{1};
};

class Variant {
 public:
  Variant() = default;
  Variant(const Variant& other) : payload_(other.payload_) { Ref(); }
  Variant(Variant&& other) noexcept : payload_(other.payload_) { other.payload_ = nullptr; }
  Variant& operator=(const Variant& other) {
    if (other.payload_ != nullptr) other.payload_->refs_.fetch_add(1, std::memory_order_relaxed);
    Unref();
    payload_ = other.payload_;
    return *this;
  }
  Variant& operator=(Variant&& other) noexcept {
    if (this != &other) {
      Unref();
      payload_ = other.payload_;
      other.payload_ = nullptr;
    }
    return *this;
  }
  ~Variant() { Unref(); }

  // A Variant holding a new T built from `args`.
  template <typename T, typename... Args>
  static Variant Make(Args&&... args) {
    Variant v;
    v.payload_ = new T(std::forward<Args>(args)...);
    return v;
  }

  bool is_empty() const { return payload_ == nullptr; }
  std::string TypeName() const { return payload_ == nullptr ? "" : payload_->TypeName(); }
  std::string DebugString() const {
    return payload_ == nullptr ? "<empty variant>" : payload_->DebugString();
  }
  size_t ByteSize() const { return payload_ == nullptr ? 0 : payload_->ByteSize(); }

  // The payload as a T, or nullptr when empty or of another type.
  template <typename T>
  const T* get() const {
    return dynamic_cast<const T*>(payload_);
  }
  // The payload as a changeable T; nullptr unless it is a T and RefCountIsOne().
  template <typename T>
  T* mutable_get() {
    return RefCountIsOne() ? dynamic_cast<T*>(payload_) : nullptr;
  }
  // True when this Variant is the payload's only holder. Acquire pairs with the release in
  // Unref, so a holder that sees 1 also sees every other holder's reads finished.
  bool RefCountIsOne() const {
    return payload_ != nullptr && payload_->refs_.load(std::memory_order_acquire) == 1;
  }

 private:
  void Ref() const {
    if (payload_ != nullptr) payload_->refs_.fetch_add(1, std::memory_order_relaxed);
  }
  void Unref() {
    if (payload_ != nullptr && payload_->refs_.fetch_sub(1, std::memory_order_acq_rel) == 1) {
      delete payload_;
    }
    payload_ = nullptr;
  }

  VariantPayload* payload_ = nullptr;
};

}  // namespace sluice

#endif  // SLUICE_GRAPH_CORE_VARIANT_H_
