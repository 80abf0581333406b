// Hash-map tables. Keys are the tensor's element type (std::string for DT_STRING); a
// table of tensors keeps each value's elements in an InlinedVector. Exports walk the map,
// so their order is the map's, as TensorFlow's (an unordered map's) is.
#include "kernels/cpu/lookup/hash_tables.h"

#include <cstdint>
#include <string>

#include "absl/container/flat_hash_map.h"
#include "absl/container/inlined_vector.h"
#include "absl/strings/str_cat.h"
#include "absl/synchronization/mutex.h"
#include "graph/core/errors.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_types.h"

namespace sluice {
namespace lookup {
namespace {

// A value as TensorFlow 2.21 prints it in the duplicate-key message (absl::StrCat: six
// significant digits for a float or double).
template <typename T>
std::string Printed(const T& v) {
  return absl::StrCat(v);
}

template <typename K, typename V>
class HashTable final : public InitializableTable {
 public:
  DataType key_dtype() const override { return DataTypeToEnum<K>::value; }
  DataType value_dtype() const override { return DataTypeToEnum<V>::value; }

  int64_t size() const override {
    if (!is_initialized()) return 0;
    absl::ReaderMutexLock lock(&mu_);
    return static_cast<int64_t>(table_.size());
  }

  absl::Status Export(OpKernelContext* ctx) override {
    if (!is_initialized()) return errors::Aborted("HashTable is not initialized.");
    absl::ReaderMutexLock lock(&mu_);
    const int64_t n = static_cast<int64_t>(table_.size());
    Tensor* keys = nullptr;
    Tensor* values = nullptr;
    // shape-safe: n is the number of entries the table holds
    RETURN_IF_ERROR(ctx->allocate_output(0, TensorShape({n}), &keys));
    // shape-safe: as above
    RETURN_IF_ERROR(ctx->allocate_output(1, TensorShape({n}), &values));
    auto k = keys->flat<K>();
    auto v = values->flat<V>();
    int64_t i = 0;
    for (const auto& entry : table_) {
      k(i) = entry.first;
      v(i) = entry.second;
      ++i;
    }
    return absl::OkStatus();
  }

 protected:
  absl::Status DoInsert(const Tensor& keys, const Tensor& values) override {
    absl::MutexLock lock(&mu_);
    const auto k = keys.flat<K>();
    const auto v = values.flat<V>();
    for (int64_t i = 0; i < k.size(); ++i) {
      auto inserted = table_.try_emplace(k(i), v(i));
      if (!inserted.second && inserted.first->second != v(i)) {
        return errors::FailedPrecondition("HashTable has different value for same key. Key ",
                                          Printed(k(i)), " has ", Printed(inserted.first->second),
                                          " and trying to add value ", Printed(v(i)));
      }
    }
    return absl::OkStatus();
  }

  absl::Status DoFind(const Tensor& keys, Tensor* values,
                      const Tensor& default_value) const override {
    const auto k = keys.flat<K>();
    // The first default serves every key (TensorFlow's HashTable); a default of the
    // output's size may be empty, with no keys.
    if (k.size() == 0) return absl::OkStatus();
    absl::ReaderMutexLock lock(&mu_);
    const V fallback = default_value.flat<V>()(0);
    auto out = values->flat<V>();
    for (int64_t i = 0; i < k.size(); ++i) {
      auto it = table_.find(k(i));
      out(i) = it == table_.end() ? fallback : it->second;
    }
    return absl::OkStatus();
  }

 private:
  mutable absl::Mutex mu_;
  absl::flat_hash_map<K, V> table_ ABSL_GUARDED_BY(mu_);
};

template <typename K, typename V>
class MutableHashTable final : public LookupTable {
 public:
  DataType key_dtype() const override { return DataTypeToEnum<K>::value; }
  DataType value_dtype() const override { return DataTypeToEnum<V>::value; }

  int64_t size() const override {
    absl::ReaderMutexLock lock(&mu_);
    return static_cast<int64_t>(table_.size());
  }

  // One default for every key, or (a default of the output's size) one per key.
  absl::Status Find(const Tensor& keys, Tensor* values, const Tensor& default_value) override {
    const auto k = keys.flat<K>();
    auto out = values->flat<V>();
    const auto d = default_value.flat<V>();
    const bool per_key = d.size() == out.size();
    absl::ReaderMutexLock lock(&mu_);
    for (int64_t i = 0; i < k.size(); ++i) {
      auto it = table_.find(k(i));
      out(i) = it != table_.end() ? it->second : (per_key ? d(i) : d(0));
    }
    return absl::OkStatus();
  }

  absl::Status Insert(OpKernelContext*, const Tensor& keys, const Tensor& values) override {
    return DoInsert(false, keys, values);
  }
  absl::Status Import(OpKernelContext*, const Tensor& keys, const Tensor& values) override {
    return DoInsert(true, keys, values);
  }

  absl::Status Remove(const Tensor& keys) override {
    const auto k = keys.flat<K>();
    absl::MutexLock lock(&mu_);
    for (int64_t i = 0; i < k.size(); ++i) table_.erase(k(i));
    return absl::OkStatus();
  }

  absl::Status Export(OpKernelContext* ctx) override {
    absl::ReaderMutexLock lock(&mu_);
    const int64_t n = static_cast<int64_t>(table_.size());
    Tensor* keys = nullptr;
    Tensor* values = nullptr;
    // shape-safe: n is the number of entries the table holds
    RETURN_IF_ERROR(ctx->allocate_output(0, TensorShape({n}), &keys));
    // shape-safe: as above
    RETURN_IF_ERROR(ctx->allocate_output(1, TensorShape({n}), &values));
    auto k = keys->flat<K>();
    auto v = values->flat<V>();
    int64_t i = 0;
    for (const auto& entry : table_) {
      k(i) = entry.first;
      v(i) = entry.second;
      ++i;
    }
    return absl::OkStatus();
  }

 private:
  absl::Status DoInsert(bool clear, const Tensor& keys, const Tensor& values) {
    const auto k = keys.flat<K>();
    const auto v = values.flat<V>();
    absl::MutexLock lock(&mu_);
    if (clear) table_.clear();
    for (int64_t i = 0; i < k.size(); ++i) table_.insert_or_assign(k(i), v(i));
    return absl::OkStatus();
  }

  mutable absl::Mutex mu_;
  absl::flat_hash_map<K, V> table_ ABSL_GUARDED_BY(mu_);
};

template <typename K, typename V>
class MutableHashTableOfTensors final : public LookupTable {
 public:
  explicit MutableHashTableOfTensors(const TensorShape& value_shape)
      : value_shape_(value_shape), width_(value_shape.dim_size(0)) {}

  DataType key_dtype() const override { return DataTypeToEnum<K>::value; }
  DataType value_dtype() const override { return DataTypeToEnum<V>::value; }
  TensorShape value_shape() const override { return value_shape_; }

  int64_t size() const override {
    absl::ReaderMutexLock lock(&mu_);
    return static_cast<int64_t>(table_.size());
  }

  absl::Status Find(const Tensor& keys, Tensor* values, const Tensor& default_value) override {
    const auto k = keys.flat<K>();
    auto out = values->flat<V>();
    const auto d = default_value.flat<V>();
    const bool per_key = d.size() == out.size();
    absl::ReaderMutexLock lock(&mu_);
    for (int64_t i = 0; i < k.size(); ++i) {
      auto it = table_.find(k(i));
      for (int64_t j = 0; j < width_; ++j) {
        out(i * width_ + j) =
            it != table_.end() ? it->second[j] : d((per_key ? i * width_ : 0) + j);
      }
    }
    return absl::OkStatus();
  }

  absl::Status Insert(OpKernelContext*, const Tensor& keys, const Tensor& values) override {
    return DoInsert(false, keys, values);
  }
  absl::Status Import(OpKernelContext*, const Tensor& keys, const Tensor& values) override {
    return DoInsert(true, keys, values);
  }

  absl::Status Remove(const Tensor& keys) override {
    const auto k = keys.flat<K>();
    absl::MutexLock lock(&mu_);
    for (int64_t i = 0; i < k.size(); ++i) table_.erase(k(i));
    return absl::OkStatus();
  }

  absl::Status Export(OpKernelContext* ctx) override {
    absl::ReaderMutexLock lock(&mu_);
    const int64_t n = static_cast<int64_t>(table_.size());
    Tensor* keys = nullptr;
    Tensor* values = nullptr;
    // shape-safe: n is the number of entries the table holds
    RETURN_IF_ERROR(ctx->allocate_output(0, TensorShape({n}), &keys));
    // shape-safe: n rows of width_ elements, all of which the table holds
    RETURN_IF_ERROR(ctx->allocate_output(1, TensorShape({n, width_}), &values));
    auto k = keys->flat<K>();
    auto v = values->flat<V>();
    int64_t i = 0;
    for (const auto& entry : table_) {
      k(i) = entry.first;
      for (int64_t j = 0; j < width_; ++j) v(i * width_ + j) = entry.second[j];
      ++i;
    }
    return absl::OkStatus();
  }

 private:
  using Row = absl::InlinedVector<V, 4>;

  absl::Status DoInsert(bool clear, const Tensor& keys, const Tensor& values) {
    const auto k = keys.flat<K>();
    const auto v = values.flat<V>();
    absl::MutexLock lock(&mu_);
    if (clear) table_.clear();
    for (int64_t i = 0; i < k.size(); ++i) {
      Row row;
      for (int64_t j = 0; j < width_; ++j) row.push_back(v(i * width_ + j));
      table_.insert_or_assign(k(i), std::move(row));
    }
    return absl::OkStatus();
  }

  const TensorShape value_shape_;
  const int64_t width_;
  mutable absl::Mutex mu_;
  absl::flat_hash_map<K, Row> table_ ABSL_GUARDED_BY(mu_);
};

// Calls fn(K{}, V{}) for the (key, value) dtype pair when it is one of TensorFlow's CPU
// registrations of the table kind; false otherwise.
//   HashTable: int32 -> {float, double, int32, string}, int64 -> {float, double, int32,
//   int64, string}, string -> {bool, float, double, int32, int64, string}.
//   MutableHashTable(OfTensors): the same but int32 -> string and string -> string (and
//   int64 -> variant, which Sluice's tables do not hold).
template <typename Fn>
bool DispatchPair(bool hash_table, DataType key, DataType value, Fn&& fn) {
  auto values_for = [&](auto key_tag, std::initializer_list<DataType> allowed) {
    using K = decltype(key_tag);
    bool ok = false;
    for (DataType a : allowed) ok = ok || a == value;
    if (!ok) return false;
    switch (value) {
      case DT_BOOL:
        fn(K{}, bool{});
        return true;
      case DT_FLOAT:
        fn(K{}, float{});
        return true;
      case DT_DOUBLE:
        fn(K{}, double{});
        return true;
      case DT_INT32:
        fn(K{}, int32_t{});
        return true;
      case DT_INT64:
        fn(K{}, int64_t{});
        return true;
      case DT_STRING:
        fn(K{}, std::string{});
        return true;
      default:
        return false;
    }
  };
  switch (key) {
    case DT_INT32:
      return hash_table ? values_for(int32_t{}, {DT_FLOAT, DT_DOUBLE, DT_INT32, DT_STRING})
                        : values_for(int32_t{}, {DT_FLOAT, DT_DOUBLE, DT_INT32});
    case DT_INT64:
      return values_for(int64_t{}, {DT_FLOAT, DT_DOUBLE, DT_INT32, DT_INT64, DT_STRING});
    case DT_STRING:
      return hash_table
                 ? values_for(std::string{},
                              {DT_BOOL, DT_FLOAT, DT_DOUBLE, DT_INT32, DT_INT64, DT_STRING})
                 : values_for(std::string{}, {DT_BOOL, DT_FLOAT, DT_DOUBLE, DT_INT32, DT_INT64});
    default:
      return false;
  }
}

absl::Status Unsupported(const char* kind, DataType key, DataType value) {
  return errors::Unimplemented(kind, " of ", DataTypeString(key), " to ", DataTypeString(value),
                               " is not implemented");
}

}  // namespace

absl::Status NewHashTable(DataType key_dtype, DataType value_dtype, LookupTable** table) {
  const bool ok = DispatchPair(true, key_dtype, value_dtype, [&](auto k, auto v) {
    *table = new HashTable<decltype(k), decltype(v)>();
  });
  return ok ? absl::OkStatus() : Unsupported("HashTable", key_dtype, value_dtype);
}

absl::Status NewMutableHashTable(DataType key_dtype, DataType value_dtype, LookupTable** table) {
  const bool ok = DispatchPair(false, key_dtype, value_dtype, [&](auto k, auto v) {
    *table = new MutableHashTable<decltype(k), decltype(v)>();
  });
  return ok ? absl::OkStatus() : Unsupported("MutableHashTable", key_dtype, value_dtype);
}

absl::Status NewMutableHashTableOfTensors(DataType key_dtype, DataType value_dtype,
                                          const TensorShape& value_shape, LookupTable** table) {
  if (value_shape.dims() != 1) {
    return errors::InvalidArgument("Default value must be a vector, got shape ",
                                   value_shape.DebugString());
  }
  const bool ok = DispatchPair(false, key_dtype, value_dtype, [&](auto k, auto v) {
    *table = new MutableHashTableOfTensors<decltype(k), decltype(v)>(value_shape);
  });
  return ok ? absl::OkStatus() : Unsupported("MutableHashTableOfTensors", key_dtype, value_dtype);
}

}  // namespace lookup
}  // namespace sluice
