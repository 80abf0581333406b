// The lookup-table resource behind TensorFlow's table ops (its LookupInterface): one
// ResourceBase type for every kind of table, so that the ops that take a table handle
// (LookupTableFindV2, ...) find any of them through ResourceMgr, as TensorFlow's do.
//
// Kinds (hash_tables.h makes them):
//  - HashTable: scalar keys and values, read-only once initialized (InitializeTableV2,
//    InitializeTableFromTextFileV2, LookupTableImportV2); Find before that is
//    FAILED_PRECONDITION "Table not initialized.".
//  - MutableHashTable: scalar keys and values; Insert, Remove, Import (replaces all), Find
//    with one default or a default per key.
//  - MutableHashTableOfTensors: scalar keys, vector values of the `value_shape` attr.
//  - MutableDenseHashTable: keys (scalars or vectors) and values in bucket arrays with open
//    addressing, exported as those arrays (dense_hash_table.h).
//
// Thread safety: every method may be called from any thread.
#ifndef SLUICE_KERNELS_CPU_LOOKUP_LOOKUP_TABLE_H_
#define SLUICE_KERNELS_CPU_LOOKUP_LOOKUP_TABLE_H_

#include <cstdint>
#include <string>

#include "absl/status/status.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_shape.h"
#include "graph/core/types.h"
#include "runtime/framework/op_kernel.h"
#include "runtime/framework/resource_mgr.h"

namespace sluice {
namespace lookup {

class InitializableTable;

// A source of (keys, values) batches for InitializableTable::Initialize: a pair of tensors
// (InitializeTableV2, LookupTableImportV2) or the lines of a text file.
class InitTableIterator {
 public:
  virtual ~InitTableIterator() = default;
  // Whether keys() and values() hold a batch.
  virtual bool Valid() const = 0;
  // Moves to the next batch; at the end, Valid() is false and status() OUT_OF_RANGE (or
  // the error that ended the iteration).
  virtual void Next() = 0;
  virtual const Tensor& keys() const = 0;
  virtual const Tensor& values() const = 0;
  virtual absl::Status status() const = 0;
  // How many entries the iteration gives in all (-1 when unknown).
  virtual int64_t total_size() = 0;
};

class LookupTable : public ResourceBase {
 public:
  virtual DataType key_dtype() const = 0;
  virtual DataType value_dtype() const = 0;
  // The shape of one key and of one value (scalars unless the table holds tensors).
  virtual TensorShape key_shape() const { return TensorShape(); }
  virtual TensorShape value_shape() const { return TensorShape(); }
  virtual int64_t size() const = 0;

  // `values` is allocated with the keys' leading dims followed by value_shape(); the
  // arguments passed CheckFindArguments.
  virtual absl::Status Find(const Tensor& keys, Tensor* values, const Tensor& default_value) = 0;
  virtual absl::Status Insert(OpKernelContext* ctx, const Tensor& keys, const Tensor& values) = 0;
  virtual absl::Status Remove(const Tensor& keys) = 0;
  // Allocates outputs 0 (keys) and 1 (values) of `ctx` and fills them.
  virtual absl::Status Export(OpKernelContext* ctx) = 0;
  // Replaces the entries (a dense table's buckets) with `keys` and `values`.
  virtual absl::Status Import(OpKernelContext* ctx, const Tensor& keys, const Tensor& values) = 0;

  // TensorFlow's argument checks, with its messages (INVALID_ARGUMENT).
  absl::Status CheckFindArguments(const Tensor& keys, const Tensor& default_value) const;
  absl::Status CheckKeyAndValueTensors(const Tensor& keys, const Tensor& values) const;
  absl::Status CheckKeyTensorForRemove(const Tensor& keys) const;
  virtual absl::Status CheckKeyAndValueTensorsForImport(const Tensor& keys,
                                                        const Tensor& values) const {
    return CheckKeyAndValueTensors(keys, values);
  }

  // This table as one that initializers fill, or null.
  virtual InitializableTable* AsInitializable() { return nullptr; }

  std::string DebugString() const override;

 protected:
  absl::Status CheckKeyAndValueTypes(const Tensor& keys, const Tensor& values) const;
  absl::Status CheckKeyShape(const TensorShape& shape) const;
};

// A table that is filled once by an initializer and read-only afterwards (TensorFlow's
// InitializableLookupTable).
class InitializableTable : public LookupTable {
 public:
  bool is_initialized() const;

  // Fills the table from `iter`. An initialized table accepts an iteration of as many
  // entries as it holds (OK, unchanged) and refuses another count with FAILED_PRECONDITION
  // "Table was already initialized with different data.".
  absl::Status Initialize(InitTableIterator& iter);

  absl::Status Find(const Tensor& keys, Tensor* values, const Tensor& default_value) final;
  absl::Status Insert(OpKernelContext* ctx, const Tensor& keys, const Tensor& values) final;
  absl::Status Remove(const Tensor& keys) final;
  absl::Status Import(OpKernelContext* ctx, const Tensor& keys, const Tensor& values) final;
  InitializableTable* AsInitializable() final { return this; }

 protected:
  // Adds a batch of entries (under mu_, before the table is marked initialized).
  virtual absl::Status DoInsert(const Tensor& keys, const Tensor& values) = 0;
  virtual absl::Status DoFind(const Tensor& keys, Tensor* values,
                              const Tensor& default_value) const = 0;

 private:
  absl::Mutex mu_;
  std::atomic<bool> initialized_{false};
};

// The container and name of the table input `input` of ctx names: a DT_RESOURCE handle,
// or (the V1 ops) a Ref(string) tensor of two elements (INVALID_ARGUMENT "Lookup table
// handle must be scalar, but had shape: [...]" for another size).
absl::Status GetTableName(OpKernelContext* ctx, int input, std::string* container,
                          std::string* name);

// The table input `input` of ctx names, with a reference for the caller.
absl::Status GetLookupTable(OpKernelContext* ctx, int input, LookupTable** table);

// The dtype the table input `input` has: DT_RESOURCE, or DT_STRING_REF for the V1 ops.
DataType HandleType(OpKernelContext* ctx, int input);

// TensorFlow's signature check with its text: INVALID_ARGUMENT "Signature mismatch, have:
// a, b->c expected: ...".
absl::Status MatchSignature(OpKernelContext* ctx, std::initializer_list<DataType> inputs,
                            std::initializer_list<DataType> outputs);

// Drops a looked-up table's reference at scope exit.
class TableRef {
 public:
  TableRef() = default;
  ~TableRef() {
    if (table_ != nullptr) table_->Unref();
  }
  TableRef(const TableRef&) = delete;
  TableRef& operator=(const TableRef&) = delete;
  LookupTable** out() { return &table_; }
  LookupTable* get() const { return table_; }
  LookupTable* operator->() const { return table_; }

 private:
  LookupTable* table_ = nullptr;
};

}  // namespace lookup
}  // namespace sluice

#endif  // SLUICE_KERNELS_CPU_LOOKUP_LOOKUP_TABLE_H_
