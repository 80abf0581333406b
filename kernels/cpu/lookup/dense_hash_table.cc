#include "kernels/cpu/lookup/dense_hash_table.h"

#include <cstring>
#include <string>

#include "absl/synchronization/mutex.h"
#include "graph/core/errors.h"
#include "graph/core/tensor_types.h"

namespace sluice {
namespace lookup {

uint64_t TfHash64(const std::string& data) {
  constexpr uint64_t kMul = 0xc6a4a7935bd1e995ULL;
  constexpr int kShift = 47;
  const char* p = data.data();
  size_t n = data.size();
  uint64_t h = 0xDECAFCAFFEULL ^ (static_cast<uint64_t>(n) * kMul);
  while (n >= 8) {
    uint64_t k = 0;
    for (int b = 7; b >= 0; --b) k = (k << 8) | static_cast<uint8_t>(p[b]);
    p += 8;
    n -= 8;
    k *= kMul;
    k ^= k >> kShift;
    k *= kMul;
    h ^= k;
    h *= kMul;
  }
  if (n > 0) {
    for (size_t b = n; b-- > 0;) h ^= static_cast<uint64_t>(static_cast<uint8_t>(p[b])) << (8 * b);
    h *= kMul;
  }
  h ^= h >> kShift;
  h *= kMul;
  h ^= h >> kShift;
  return h;
}

uint64_t TfHash64Combine(uint64_t a, uint64_t b) {
  return a ^ (b + 0x9e3779b97f4a7800ULL + (a << 10) + (a >> 4));
}

namespace {

template <typename K>
uint64_t HashScalar(const K& key) {
  return static_cast<uint64_t>(key);
}
template <>
uint64_t HashScalar(const std::string& key) {
  return TfHash64(key);
}

// A scalar shape as [1]: the buckets' rows are vectors.
TensorShape Vectorized(const TensorShape& shape) {
  return shape.dims() == 0 ? TensorShape({1}) : shape;
}

template <typename K, typename V>
class DenseHashTable final : public LookupTable {
 public:
  absl::Status Init(OpKernelContext* ctx, const Tensor& empty_key, const Tensor& deleted_key,
                    const TensorShape& value_shape, int64_t initial_num_buckets,
                    float max_load_factor) {
    max_load_factor_ = max_load_factor;
    if (!(max_load_factor > 0 && max_load_factor < 1)) {
      return errors::InvalidArgument("max_load_factor must be between 0 and 1, got: ",
                                     max_load_factor);
    }
    value_shape_ = value_shape;
    if (value_shape.dims() > 1) {
      return errors::InvalidArgument("Empty value must be a scalar or a vector, got shape ",
                                     value_shape.DebugString());
    }
    key_shape_ = empty_key.shape();
    if (key_shape_.dims() > 1) {
      return errors::InvalidArgument("Empty key must be a scalar or a vector, got shape ",
                                     key_shape_.DebugString());
    }
    key_size_ = key_shape_.num_elements();
    value_size_ = value_shape_.num_elements();
    empty_key_ = empty_key;
    empty_key_hash_ = HashRow(empty_key_.flat<K>().data(), 0);
    if (!key_shape_.IsSameSize(deleted_key.shape())) {
      return errors::InvalidArgument(
          "Empty and deleted keys must have same shape, got shapes: ", key_shape_.DebugString(),
          " and ", deleted_key.shape().DebugString());
    }
    deleted_key_ = deleted_key;
    deleted_key_hash_ = HashRow(deleted_key_.flat<K>().data(), 0);
    if (empty_key_hash_ == deleted_key_hash_ &&
        RowEquals(empty_key_.flat<K>().data(), 0, deleted_key_.flat<K>().data(), 0)) {
      return errors::InvalidArgument("Empty and deleted keys cannot be equal");
    }
    absl::MutexLock lock(&mu_);
    return AllocateBuckets(ctx, initial_num_buckets);
  }

  DataType key_dtype() const override { return DataTypeToEnum<K>::value; }
  DataType value_dtype() const override { return DataTypeToEnum<V>::value; }
  TensorShape key_shape() const override { return key_shape_; }
  TensorShape value_shape() const override { return value_shape_; }

  int64_t size() const override {
    absl::ReaderMutexLock lock(&mu_);
    return num_entries_;
  }

  absl::Status Find(const Tensor& keys, Tensor* values, const Tensor& default_value) override {
    const int64_t n = keys.dims() == 0 ? 1 : keys.dim_size(0);
    RETURN_IF_ERROR(CheckBatch(keys, n));
    const K* key_rows = keys.flat<K>().data();
    V* out = values->flat<V>().data();
    const auto d = default_value.flat<V>();
    absl::ReaderMutexLock lock(&mu_);
    const K* buckets = key_buckets_.flat<K>().data();
    const V* bucket_values = value_buckets_.flat<V>().data();
    const K* empty = empty_key_.flat<K>().data();
    const int64_t mask = num_buckets_ - 1;
    for (int64_t i = 0; i < n; ++i) {
      const uint64_t hash = HashRow(key_rows, i);
      RETURN_IF_ERROR(CheckNotReserved(hash, key_rows, i));
      int64_t b = static_cast<int64_t>(hash & static_cast<uint64_t>(mask));
      int64_t probes = 0;
      while (true) {
        if (RowEquals(buckets, b, key_rows, i)) {
          for (int64_t j = 0; j < value_size_; ++j) {
            out[i * value_size_ + j] = bucket_values[b * value_size_ + j];
          }
          break;
        }
        if (RowEquals(buckets, b, empty, 0)) {
          for (int64_t j = 0; j < value_size_; ++j) out[i * value_size_ + j] = d(j);
          break;
        }
        ++probes;
        b = (b + probes) & mask;
        if (probes >= num_buckets_) {
          return errors::Internal("Internal error in MutableDenseHashTable lookup");
        }
      }
    }
    return absl::OkStatus();
  }

  absl::Status Insert(OpKernelContext* ctx, const Tensor& keys, const Tensor& values) override {
    const int64_t n = keys.dims() == 0 ? 1 : keys.dim_size(0);
    RETURN_IF_ERROR(CheckBatch(keys, n));
    absl::MutexLock lock(&mu_);
    // Every key counted as new, as TensorFlow does.
    const int64_t pending = num_entries_ + n;
    if (pending > num_buckets_ * max_load_factor_) {
      int64_t grown = num_buckets_;
      do {
        grown <<= 1;
      } while (pending > grown * max_load_factor_);
      const Tensor old_keys = key_buckets_;
      const Tensor old_values = value_buckets_;
      const int64_t old_count = num_buckets_;
      RETURN_IF_ERROR(AllocateBuckets(ctx, grown));
      RETURN_IF_ERROR(DoInsert(old_keys.flat<K>().data(), old_values.flat<V>().data(), old_count,
                               /*skip_reserved=*/true));
    }
    return DoInsert(keys.flat<K>().data(), values.flat<V>().data(), n, false);
  }

  absl::Status Remove(const Tensor& keys) override {
    const int64_t n = keys.dims() == 0 ? 1 : keys.dim_size(0);
    RETURN_IF_ERROR(CheckBatch(keys, n));
    const K* key_rows = keys.flat<K>().data();
    absl::MutexLock lock(&mu_);
    K* buckets = key_buckets_.flat<K>().data();
    const K* empty = empty_key_.flat<K>().data();
    const K* deleted = deleted_key_.flat<K>().data();
    const int64_t mask = num_buckets_ - 1;
    for (int64_t i = 0; i < n; ++i) {
      const uint64_t hash = HashRow(key_rows, i);
      RETURN_IF_ERROR(CheckNotReserved(hash, key_rows, i));
      int64_t b = static_cast<int64_t>(hash & static_cast<uint64_t>(mask));
      int64_t probes = 0;
      while (true) {
        if (RowEquals(buckets, b, key_rows, i)) {
          --num_entries_;
          for (int64_t j = 0; j < key_size_; ++j) buckets[b * key_size_ + j] = deleted[j];
          break;
        }
        if (RowEquals(buckets, b, empty, 0)) break;
        ++probes;
        b = (b + probes) & mask;
        if (probes >= num_buckets_) {
          return errors::Internal("Internal error in MutableDenseHashTable remove");
        }
      }
    }
    return absl::OkStatus();
  }

  absl::Status CheckKeyAndValueTensorsForImport(const Tensor& keys,
                                                const Tensor& values) const override {
    RETURN_IF_ERROR(CheckKeyAndValueTypes(keys, values));
    RETURN_IF_ERROR(CheckKeyShape(keys.shape()));
    const TensorShape key_shape = Vectorized(key_shape_);
    TensorShape expected = keys.shape();
    if (expected.dims() < key_shape.dims()) {
      return errors::InvalidArgument("Expected keys of rank at least ", key_shape.dims(),
                                     ", got shape ", keys.shape().DebugString());
    }
    // shape-safe: the rank was checked just above
    expected.RemoveLastDims(key_shape.dims());
    RETURN_IF_ERROR(expected.AppendShapeWithStatus(Vectorized(value_shape_)));
    if (values.shape() != expected) {
      return errors::InvalidArgument("Expected shape ", expected.DebugString(), " for value, got ",
                                     values.shape().DebugString());
    }
    return absl::OkStatus();
  }

  // The buckets become copies of `keys` and `values` ([buckets, key size] and [buckets,
  // value size]), as TensorFlow restores a checkpoint. TensorFlow takes any bucket count
  // here (and misbehaves on one that is not a power of two); Sluice refuses those.
  absl::Status Import(OpKernelContext* ctx, const Tensor& keys, const Tensor& values) override {
    if (keys.dims() != 2 || values.dims() != 2) {
      return errors::InvalidArgument("Expected keys and values of rank 2, got shapes ",
                                     keys.shape().DebugString(), " and ",
                                     values.shape().DebugString());
    }
    const int64_t buckets = keys.dim_size(0);
    if (buckets < 4 || (buckets & (buckets - 1)) != 0) {
      return errors::InvalidArgument("Number of buckets must be at least 4 and a power of 2, got: ",
                                     buckets);
    }
    Tensor key_copy;
    Tensor value_copy;
    RETURN_IF_ERROR(ctx->allocate_temp(key_dtype(), keys.shape(), &key_copy));
    RETURN_IF_ERROR(ctx->allocate_temp(value_dtype(), values.shape(), &value_copy));
    auto kc = key_copy.flat<K>();
    auto vc = value_copy.flat<V>();
    for (int64_t i = 0; i < kc.size(); ++i) kc(i) = keys.flat<K>()(i);
    for (int64_t i = 0; i < vc.size(); ++i) vc(i) = values.flat<V>()(i);
    absl::MutexLock lock(&mu_);
    num_buckets_ = buckets;
    key_buckets_ = key_copy;
    value_buckets_ = value_copy;
    num_entries_ = 0;
    const K* rows = key_buckets_.flat<K>().data();
    const K* empty = empty_key_.flat<K>().data();
    const K* deleted = deleted_key_.flat<K>().data();
    for (int64_t i = 0; i < num_buckets_; ++i) {
      if (!RowEquals(rows, i, empty, 0) && !RowEquals(rows, i, deleted, 0)) ++num_entries_;
    }
    return absl::OkStatus();
  }

  // Copies of the buckets: [buckets, key size] and [buckets, value size].
  absl::Status Export(OpKernelContext* ctx) override {
    absl::ReaderMutexLock lock(&mu_);
    Tensor* keys = nullptr;
    Tensor* values = nullptr;
    RETURN_IF_ERROR(ctx->allocate_output(0, key_buckets_.shape(), &keys));
    RETURN_IF_ERROR(ctx->allocate_output(1, value_buckets_.shape(), &values));
    auto k = keys->flat<K>();
    auto v = values->flat<V>();
    for (int64_t i = 0; i < k.size(); ++i) k(i) = key_buckets_.flat<K>()(i);
    for (int64_t i = 0; i < v.size(); ++i) v(i) = value_buckets_.flat<V>()(i);
    return absl::OkStatus();
  }

 private:
  uint64_t HashRow(const K* rows, int64_t row) const {
    if (key_size_ == 1) return HashScalar(rows[row]);
    uint64_t result = 0;
    for (int64_t j = 0; j < key_size_; ++j) {
      result = TfHash64Combine(result, HashScalar(rows[row * key_size_ + j]));
    }
    return result;
  }

  bool RowEquals(const K* a, int64_t ra, const K* b, int64_t rb) const {
    for (int64_t j = 0; j < key_size_; ++j) {
      if (!(a[ra * key_size_ + j] == b[rb * key_size_ + j])) return false;
    }
    return true;
  }

  absl::Status CheckBatch(const Tensor& keys, int64_t n) const {
    if (keys.NumElements() != n * key_size_) {
      // shape-safe: n is a dim of the keys, the key shape a scalar or vector of the empty key
      TensorShape expected({n});
      // shape-safe: as above
      expected.AppendShape(key_shape_);
      return errors::InvalidArgument("Expected key shape ", expected.DebugString(), " got ",
                                     keys.shape().DebugString());
    }
    return absl::OkStatus();
  }

  absl::Status CheckNotReserved(uint64_t hash, const K* rows, int64_t i) const {
    if (hash == empty_key_hash_ && RowEquals(empty_key_.flat<K>().data(), 0, rows, i)) {
      return errors::InvalidArgument("Using the empty_key as a table key is not allowed");
    }
    if (hash == deleted_key_hash_ && RowEquals(deleted_key_.flat<K>().data(), 0, rows, i)) {
      return errors::InvalidArgument("Using the deleted_key as a table key is not allowed");
    }
    return absl::OkStatus();
  }

  absl::Status AllocateBuckets(OpKernelContext* ctx, int64_t count)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
    if (count < 4 || (count & (count - 1)) != 0) {
      return errors::InvalidArgument("Number of buckets must be at least 4 and a power of 2, got: ",
                                     count);
    }
    Tensor keys;
    Tensor values;
    TensorShape key_rows;
    RETURN_IF_ERROR(TensorShape::BuildTensorShape({count, key_size_}, &key_rows));
    TensorShape value_rows;
    RETURN_IF_ERROR(TensorShape::BuildTensorShape({count, value_size_}, &value_rows));
    RETURN_IF_ERROR(ctx->allocate_temp(key_dtype(), key_rows, &keys));
    RETURN_IF_ERROR(ctx->allocate_temp(value_dtype(), value_rows, &values));
    auto k = keys.flat<K>();
    const auto empty = empty_key_.flat<K>();
    for (int64_t i = 0; i < count; ++i) {
      for (int64_t j = 0; j < key_size_; ++j) k(i * key_size_ + j) = empty(j);
    }
    auto v = values.flat<V>();
    for (int64_t i = 0; i < v.size(); ++i) v(i) = V();
    num_buckets_ = count;
    num_entries_ = 0;
    key_buckets_ = keys;
    value_buckets_ = values;
    return absl::OkStatus();
  }

  // Inserts n rows; with skip_reserved (re-inserting old buckets) rows holding the empty
  // or deleted key are skipped rather than refused.
  absl::Status DoInsert(const K* key_rows, const V* value_rows, int64_t n, bool skip_reserved)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
    K* buckets = key_buckets_.flat<K>().data();
    V* bucket_values = value_buckets_.flat<V>().data();
    const K* empty = empty_key_.flat<K>().data();
    const K* deleted = deleted_key_.flat<K>().data();
    const int64_t mask = num_buckets_ - 1;
    for (int64_t i = 0; i < n; ++i) {
      const uint64_t hash = HashRow(key_rows, i);
      const absl::Status reserved = CheckNotReserved(hash, key_rows, i);
      if (!reserved.ok()) {
        if (skip_reserved) continue;
        return reserved;
      }
      int64_t b = static_cast<int64_t>(hash & static_cast<uint64_t>(mask));
      int64_t probes = 0;
      while (true) {
        if (RowEquals(buckets, b, key_rows, i)) {
          for (int64_t j = 0; j < value_size_; ++j) {
            bucket_values[b * value_size_ + j] = value_rows[i * value_size_ + j];
          }
          break;
        }
        if (RowEquals(buckets, b, empty, 0) || RowEquals(buckets, b, deleted, 0)) {
          ++num_entries_;
          for (int64_t j = 0; j < key_size_; ++j) {
            buckets[b * key_size_ + j] = key_rows[i * key_size_ + j];
          }
          for (int64_t j = 0; j < value_size_; ++j) {
            bucket_values[b * value_size_ + j] = value_rows[i * value_size_ + j];
          }
          break;
        }
        ++probes;
        b = (b + probes) & mask;
        if (probes >= num_buckets_) {
          return errors::Internal("Internal error in MutableDenseHashTable insert");
        }
      }
    }
    return absl::OkStatus();
  }

  TensorShape key_shape_;
  TensorShape value_shape_;
  int64_t key_size_ = 1;
  int64_t value_size_ = 1;
  float max_load_factor_ = 0.8f;
  Tensor empty_key_;
  Tensor deleted_key_;
  uint64_t empty_key_hash_ = 0;
  uint64_t deleted_key_hash_ = 0;
  mutable absl::Mutex mu_;
  int64_t num_entries_ ABSL_GUARDED_BY(mu_) = 0;
  int64_t num_buckets_ ABSL_GUARDED_BY(mu_) = 0;
  Tensor key_buckets_ ABSL_GUARDED_BY(mu_);
  Tensor value_buckets_ ABSL_GUARDED_BY(mu_);
};

// TensorFlow's CPU registrations of MutableDenseHashTableV2 (less int64 -> variant and
// string -> resource): int32 -> {float, double, int32}; int64 -> {bool, float, double,
// int32, int64}; string -> {bool, float, double, int32, int64}.
template <typename Fn>
bool DispatchDensePair(DataType key, DataType value, Fn&& fn) {
  auto values_for = [&](auto key_tag, bool with_bool) {
    using K = decltype(key_tag);
    switch (value) {
      case DT_BOOL:
        if (!with_bool) return false;
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
        if (!with_bool) return false;  // int32 keys take no int64 values either
        fn(K{}, int64_t{});
        return true;
      default:
        return false;
    }
  };
  switch (key) {
    case DT_INT32:
      return values_for(int32_t{}, false);
    case DT_INT64:
      return values_for(int64_t{}, true);
    case DT_STRING:
      return values_for(std::string{}, true);
    default:
      return false;
  }
}

}  // namespace

absl::Status NewMutableDenseHashTable(OpKernelContext* ctx, DataType key_dtype,
                                      DataType value_dtype, const Tensor& empty_key,
                                      const Tensor& deleted_key, const TensorShape& value_shape,
                                      int64_t initial_num_buckets, float max_load_factor,
                                      LookupTable** table) {
  absl::Status status;
  const bool ok = DispatchDensePair(key_dtype, value_dtype, [&](auto k, auto v) {
    auto* made = new DenseHashTable<decltype(k), decltype(v)>();
    status =
        made->Init(ctx, empty_key, deleted_key, value_shape, initial_num_buckets, max_load_factor);
    if (!status.ok()) {
      made->Unref();
      return;
    }
    *table = made;
  });
  if (!ok) {
    return errors::Unimplemented("MutableDenseHashTable of ", DataTypeString(key_dtype), " to ",
                                 DataTypeString(value_dtype), " is not implemented");
  }
  return status;
}

}  // namespace lookup
}  // namespace sluice
