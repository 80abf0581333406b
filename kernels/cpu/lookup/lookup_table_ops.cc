// TensorFlow's lookup-table kernels on the CPU.
//
// The table ops (HashTableV2, MutableHashTableV2, MutableHashTableOfTensorsV2,
// MutableDenseHashTableV2, whose empty and deleted keys are read on that run) make their
// table once, on the first run, in the session's ResourceMgr as TensorFlow's LookupTableOp
// does: in the `container` attr (or the manager's default) under `shared_name`, else the
// node's name with use_node_name_sharing, else a name private to the node
// ("_<node name>"); an existing table of other dtypes is INVALID_ARGUMENT "Conflicting
// key/value dtypes ...". Every run outputs the same handle. The Anonymous* ops make a new
// table on every run, under a name no other handle has; it stays in the manager until the
// session ends (TensorFlow frees it with its last handle; Sluice's handles do not count
// references).
//
// The V1 forms (HashTable, MutableHashTable, MutableHashTableOfTensors, LookupTableFind,
// ...) are the same kernels with the table passed as a Ref(string) tensor of [container,
// name] (lookup_table.h).
//
// The ops that take a handle check their dtypes against the table's (TensorFlow's
// "Signature mismatch" text) and their arguments with TensorFlow's checks and texts
// (lookup_table.h).
#include <atomic>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/synchronization/mutex.h"
#include "graph/core/errors.h"
#include "graph/core/partial_tensor_shape.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_shape.h"
#include "graph/core/types.h"
#include "kernels/cpu/lookup/dense_hash_table.h"
#include "kernels/cpu/lookup/hash_tables.h"
#include "kernels/cpu/lookup/lookup_table.h"
#include "kernels/cpu/lookup/text_file_init.h"
#include "runtime/framework/op_kernel.h"
#include "runtime/framework/resource_mgr.h"

namespace sluice {
namespace lookup {
namespace {

enum class TableKind {
  kHashTable,
  kMutableHashTable,
  kMutableHashTableOfTensors,
  kMutableDenseHashTable
};

struct DenseAttrs {
  int64_t initial_num_buckets = 0;
  float max_load_factor = 0;
};

absl::Status NewTable(OpKernelContext* ctx, TableKind kind, DataType key_dtype,
                      DataType value_dtype, const TensorShape& value_shape, const DenseAttrs& dense,
                      LookupTable** table) {
  switch (kind) {
    case TableKind::kMutableDenseHashTable:
      return NewMutableDenseHashTable(ctx, key_dtype, value_dtype, ctx->input(0), ctx->input(1),
                                      value_shape, dense.initial_num_buckets, dense.max_load_factor,
                                      table);
    case TableKind::kHashTable:
      return NewHashTable(key_dtype, value_dtype, table);
    case TableKind::kMutableHashTable:
      return NewMutableHashTable(key_dtype, value_dtype, table);
    case TableKind::kMutableHashTableOfTensors:
      return NewMutableHashTableOfTensors(key_dtype, value_dtype, value_shape, table);
  }
  return errors::Internal("unknown table kind");
}

std::atomic<int64_t> table_counter{0};

// Reads the key and value dtypes and (tables of tensors) the value shape.
class TableAttrs {
 public:
  TableAttrs(OpKernelConstruction* ctx, TableKind kind) : kind_(kind) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("key_dtype", &key_dtype_));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("value_dtype", &value_dtype_));
    if (kind == TableKind::kMutableDenseHashTable) {
      OP_REQUIRES_OK(ctx, ctx->GetAttr("initial_num_buckets", &dense_.initial_num_buckets));
      OP_REQUIRES_OK(ctx, ctx->GetAttr("max_load_factor", &dense_.max_load_factor));
    }
    if (kind == TableKind::kMutableHashTableOfTensors ||
        kind == TableKind::kMutableDenseHashTable) {
      PartialTensorShape shape;
      OP_REQUIRES_OK(ctx, ctx->GetAttr("value_shape", &shape));
      OP_REQUIRES(
          ctx, shape.IsFullyDefined(),
          errors::InvalidArgument("value_shape must be fully defined, got ", shape.DebugString()));
      OP_REQUIRES_OK(ctx, TensorShape::BuildTensorShape(shape.dim_sizes(), &value_shape_));
    }
  }
  absl::Status Make(OpKernelContext* ctx, LookupTable** table) const {
    return NewTable(ctx, kind_, key_dtype_, value_dtype_, value_shape_, dense_, table);
  }
  DataType key_dtype() const { return key_dtype_; }
  DataType value_dtype() const { return value_dtype_; }

 private:
  TableKind kind_;
  DataType key_dtype_ = DT_INVALID;
  DataType value_dtype_ = DT_INVALID;
  TensorShape value_shape_;
  DenseAttrs dense_;
};

template <TableKind kKind>
class TableOp : public OpKernel {
 public:
  explicit TableOp(OpKernelConstruction* ctx) : OpKernel(ctx), attrs_(ctx, kKind) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("use_node_name_sharing", &use_node_name_sharing_));
  }

  void Compute(OpKernelContext* ctx) override {
    absl::MutexLock lock(&mu_);
    if (!handle_set_) {
      ResourceMgr* rm = ctx->resource_manager();
      OP_REQUIRES(ctx, rm != nullptr, errors::Internal("No resource manager."));
      std::string shared_name;
      OP_REQUIRES_OK(ctx, GetNodeAttr(AttrSlice(def()), "shared_name", &shared_name));
      if (shared_name.empty() && !use_node_name_sharing_) {
        // A table private to this node. TensorFlow names it "_<n>_<node name>" with n
        // unique per kernel; its session shares one kernel per node among all its runs
        // (OpSegment), where Sluice builds a kernel per executor, so the name is the node's
        // alone, which no shared_name or node name can take (neither starts with '_').
        std::string container;
        OP_REQUIRES_OK(ctx, GetNodeAttr(AttrSlice(def()), "container", &container));
        container_ = container.empty() ? rm->default_container() : container;
        name_ = absl::StrCat("_", name());
      } else {
        OP_REQUIRES_OK(
            ctx, ResolveContainerAndName(*rm, def(), use_node_name_sharing_, &container_, &name_));
      }
      LookupTable* table = nullptr;
      OP_REQUIRES_OK(ctx, rm->LookupOrCreate<LookupTable>(
                              container_, name_, &table,
                              [this, ctx](LookupTable** made) { return attrs_.Make(ctx, made); }));
      TableRef ref;
      *ref.out() = table;
      OP_REQUIRES(
          ctx,
          table->key_dtype() == attrs_.key_dtype() && table->value_dtype() == attrs_.value_dtype(),
          errors::InvalidArgument(
              "Conflicting key/value dtypes ", DataTypeString(attrs_.key_dtype()), "->",
              DataTypeString(attrs_.value_dtype()), " with ", DataTypeString(table->key_dtype()),
              "-", DataTypeString(table->value_dtype()), " for table ", name_));
      if (ctx->expected_output_dtype(0) == DT_RESOURCE) {
        handle_ = Tensor(MakeResourceHandle<LookupTable>(ctx, container_, name_));
      } else {
        OP_REQUIRES_OK(ctx, ctx->allocate_temp(DT_STRING, TensorShape({2}), &handle_));
        handle_.flat<std::string>()(0) = container_;
        handle_.flat<std::string>()(1) = name_;
      }
      handle_set_ = true;
    }
    if (ctx->expected_output_dtype(0) == DT_RESOURCE) {
      ctx->set_output(0, handle_);
    } else {
      // The V1 ops' Ref(string) output: the kernel's own [container, name] tensor.
      ctx->set_output_ref(0, &ref_mu_, &handle_);
    }
  }
  bool IsExpensive() override { return false; }

 private:
  TableAttrs attrs_;
  bool use_node_name_sharing_ = false;
  absl::Mutex mu_;
  bool handle_set_ ABSL_GUARDED_BY(mu_) = false;
  std::string container_ ABSL_GUARDED_BY(mu_);
  std::string name_ ABSL_GUARDED_BY(mu_);
  Tensor handle_ ABSL_GUARDED_BY(mu_);
  absl::Mutex ref_mu_;  // the V1 output's ref mutex
};

template <TableKind kKind>
class AnonymousTableOp : public OpKernel {
 public:
  explicit AnonymousTableOp(OpKernelConstruction* ctx) : OpKernel(ctx), attrs_(ctx, kKind) {}

  void Compute(OpKernelContext* ctx) override {
    ResourceMgr* rm = ctx->resource_manager();
    OP_REQUIRES(ctx, rm != nullptr, errors::Internal("No resource manager."));
    LookupTable* table = nullptr;
    OP_REQUIRES_OK(ctx, attrs_.Make(ctx, &table));
    const std::string name = absl::StrCat("_AnonymousTable_", table_counter.fetch_add(1));
    OP_REQUIRES_OK(ctx, rm->Create<LookupTable>(rm->default_container(), name, table));
    ctx->set_output(0, Tensor(MakeResourceHandle<LookupTable>(ctx, rm->default_container(), name)));
  }
  bool IsExpensive() override { return false; }

 private:
  TableAttrs attrs_;
};

class FindOp : public OpKernel {
 public:
  using OpKernel::OpKernel;
  void Compute(OpKernelContext* ctx) override {
    TableRef table;
    OP_REQUIRES_OK(ctx, GetLookupTable(ctx, 0, table.out()));
    OP_REQUIRES_OK(
        ctx, MatchSignature(ctx, {HandleType(ctx, 0), table->key_dtype(), table->value_dtype()},
                            {table->value_dtype()}));
    const Tensor& keys = ctx->input(1);
    const Tensor& default_value = ctx->input(2);
    OP_REQUIRES_OK(ctx, table->CheckFindArguments(keys, default_value));
    TensorShape shape = keys.shape();
    // shape-safe: the keys end with the table's key shape (CheckFindArguments)
    shape.RemoveLastDims(table->key_shape().dims());
    OP_REQUIRES_OK(ctx, shape.AppendShapeWithStatus(table->value_shape()));
    Tensor* out = nullptr;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, shape, &out));
    OP_REQUIRES_OK(ctx, table->Find(keys, out, default_value));
  }
};

class InsertOp : public OpKernel {
 public:
  using OpKernel::OpKernel;
  void Compute(OpKernelContext* ctx) override {
    TableRef table;
    OP_REQUIRES_OK(ctx, GetLookupTable(ctx, 0, table.out()));
    OP_REQUIRES_OK(
        ctx,
        MatchSignature(ctx, {HandleType(ctx, 0), table->key_dtype(), table->value_dtype()}, {}));
    OP_REQUIRES_OK(ctx, table->CheckKeyAndValueTensors(ctx->input(1), ctx->input(2)));
    OP_REQUIRES_OK(ctx, table->Insert(ctx, ctx->input(1), ctx->input(2)));
  }
};

class RemoveOp : public OpKernel {
 public:
  using OpKernel::OpKernel;
  void Compute(OpKernelContext* ctx) override {
    TableRef table;
    OP_REQUIRES_OK(ctx, GetLookupTable(ctx, 0, table.out()));
    OP_REQUIRES_OK(ctx, MatchSignature(ctx, {HandleType(ctx, 0), table->key_dtype()}, {}));
    OP_REQUIRES_OK(ctx, table->CheckKeyTensorForRemove(ctx->input(1)));
    OP_REQUIRES_OK(ctx, table->Remove(ctx->input(1)));
  }
};

class SizeOp : public OpKernel {
 public:
  using OpKernel::OpKernel;
  void Compute(OpKernelContext* ctx) override {
    TableRef table;
    OP_REQUIRES_OK(ctx, GetLookupTable(ctx, 0, table.out()));
    ctx->set_output(0, Tensor(static_cast<int64_t>(table->size())));
  }
  bool IsExpensive() override { return false; }
};

class ExportOp : public OpKernel {
 public:
  using OpKernel::OpKernel;
  void Compute(OpKernelContext* ctx) override {
    TableRef table;
    OP_REQUIRES_OK(ctx, GetLookupTable(ctx, 0, table.out()));
    OP_REQUIRES_OK(
        ctx, MatchSignature(ctx, {HandleType(ctx, 0)}, {table->key_dtype(), table->value_dtype()}));
    OP_REQUIRES_OK(ctx, table->Export(ctx));
  }
};

class ImportOp : public OpKernel {
 public:
  using OpKernel::OpKernel;
  void Compute(OpKernelContext* ctx) override {
    TableRef table;
    OP_REQUIRES_OK(ctx, GetLookupTable(ctx, 0, table.out()));
    OP_REQUIRES_OK(
        ctx,
        MatchSignature(ctx, {HandleType(ctx, 0), table->key_dtype(), table->value_dtype()}, {}));
    OP_REQUIRES_OK(ctx, table->CheckKeyAndValueTensorsForImport(ctx->input(1), ctx->input(2)));
    OP_REQUIRES_OK(ctx, table->Import(ctx, ctx->input(1), ctx->input(2)));
  }
};

// The initializable table `input` of ctx points at; INVALID_ARGUMENT "Table c n is not
// initializable" for a mutable table.
absl::Status GetInitializableTable(OpKernelContext* ctx, TableRef* table,
                                   InitializableTable** initializable) {
  std::string container;
  std::string name;
  RETURN_IF_ERROR(GetTableName(ctx, 0, &container, &name));
  RETURN_IF_ERROR(GetLookupTable(ctx, 0, table->out()));
  *initializable = table->get()->AsInitializable();
  if (*initializable == nullptr) {
    return errors::InvalidArgument("Table ", container, " ", name, " is not initializable");
  }
  return absl::OkStatus();
}

class InitializeTableOp : public OpKernel {
 public:
  using OpKernel::OpKernel;
  void Compute(OpKernelContext* ctx) override {
    absl::MutexLock lock(&mu_);
    TableRef ref;
    InitializableTable* table = nullptr;
    OP_REQUIRES_OK(ctx, GetInitializableTable(ctx, &ref, &table));
    OP_REQUIRES_OK(
        ctx,
        MatchSignature(ctx, {HandleType(ctx, 0), table->key_dtype(), table->value_dtype()}, {}));
    const Tensor& keys = ctx->input(1);
    const Tensor& values = ctx->input(2);
    OP_REQUIRES(ctx, keys.dims() == 1,
                errors::InvalidArgument("Keys must be a vector, but received shape",
                                        keys.shape().DebugString()));
    OP_REQUIRES(ctx, values.dims() == 1,
                errors::InvalidArgument("Values must be a vector, but received shape",
                                        values.shape().DebugString()));
    OP_REQUIRES(ctx, keys.NumElements() == values.NumElements(),
                errors::InvalidArgument("Keys and values must have the same size ",
                                        keys.NumElements(), " vs ", values.NumElements()));
    OP_REQUIRES_OK(ctx, table->Import(ctx, keys, values));
  }

 private:
  absl::Mutex mu_;
};

class InitializeTableFromTextFileOp : public OpKernel {
 public:
  explicit InitializeTableFromTextFileOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("vocab_size", &vocab_size_));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("key_index", &key_index_));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("value_index", &value_index_));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("offset", &offset_));
    std::string delimiter;
    OP_REQUIRES_OK(ctx, ctx->GetAttr("delimiter", &delimiter));
    OP_REQUIRES(ctx, delimiter.size() == 1,
                errors::InvalidArgument("delimiter should be only 1 char"));
    delimiter_ = delimiter[0];
  }

  void Compute(OpKernelContext* ctx) override {
    absl::MutexLock lock(&mu_);
    TableRef ref;
    InitializableTable* table = nullptr;
    OP_REQUIRES_OK(ctx, GetInitializableTable(ctx, &ref, &table));
    OP_REQUIRES_OK(ctx, MatchSignature(ctx, {HandleType(ctx, 0), DT_STRING}, {}));
    const Tensor& filename = ctx->input(1);
    OP_REQUIRES(ctx, filename.dims() == 0,
                errors::InvalidArgument("filename should be a single string, but got ",
                                        filename.shape().DebugString()));
    const std::string& path = filename.flat<std::string>()(0);
    OP_REQUIRES(ctx, !path.empty(), errors::InvalidArgument("filename cannot be empty."));
    OP_REQUIRES_OK(ctx, InitializeTableFromTextFile(path, vocab_size_, delimiter_, key_index_,
                                                    value_index_, offset_, table));
  }

 private:
  absl::Mutex mu_;
  int64_t vocab_size_ = -1;
  int64_t key_index_ = 0;
  int64_t value_index_ = 0;
  int64_t offset_ = 0;
  char delimiter_ = '\t';
};

// Registered for exactly TensorFlow's CPU dtype pairs (hash_tables.h).
#define REGISTER_TABLE(op, kind, K, V)                                                             \
  REGISTER_KERNEL_BUILDER(                                                                         \
      Name(op).Device(DEVICE_CPU).TypeConstraint<K>("key_dtype").TypeConstraint<V>("value_dtype"), \
      kind)

#define REGISTER_HASH_TABLE(K, V)                                      \
  REGISTER_TABLE("HashTableV2", TableOp<TableKind::kHashTable>, K, V); \
  REGISTER_TABLE("AnonymousHashTable", AnonymousTableOp<TableKind::kHashTable>, K, V);

#define REGISTER_MUTABLE_TABLES(K, V)                                                              \
  REGISTER_TABLE("MutableHashTableV2", TableOp<TableKind::kMutableHashTable>, K, V);               \
  REGISTER_TABLE("AnonymousMutableHashTable", AnonymousTableOp<TableKind::kMutableHashTable>, K,   \
                 V);                                                                               \
  REGISTER_TABLE("MutableHashTableOfTensorsV2", TableOp<TableKind::kMutableHashTableOfTensors>, K, \
                 V);                                                                               \
  REGISTER_TABLE("AnonymousMutableHashTableOfTensors",                                             \
                 AnonymousTableOp<TableKind::kMutableHashTableOfTensors>, K, V);

#define REGISTER_ALL_TABLES(K, V) \
  REGISTER_HASH_TABLE(K, V)       \
  REGISTER_MUTABLE_TABLES(K, V)

REGISTER_ALL_TABLES(int32_t, float)
REGISTER_ALL_TABLES(int32_t, double)
REGISTER_ALL_TABLES(int32_t, int32_t)
REGISTER_HASH_TABLE(int32_t, std::string)
REGISTER_ALL_TABLES(int64_t, float)
REGISTER_ALL_TABLES(int64_t, double)
REGISTER_ALL_TABLES(int64_t, int32_t)
REGISTER_ALL_TABLES(int64_t, int64_t)
REGISTER_ALL_TABLES(int64_t, std::string)
REGISTER_ALL_TABLES(std::string, bool)
REGISTER_ALL_TABLES(std::string, float)
REGISTER_ALL_TABLES(std::string, double)
REGISTER_ALL_TABLES(std::string, int32_t)
REGISTER_ALL_TABLES(std::string, int64_t)
REGISTER_HASH_TABLE(std::string, std::string)

#define REGISTER_DENSE_TABLE(K, V)                                                             \
  REGISTER_TABLE("MutableDenseHashTableV2", TableOp<TableKind::kMutableDenseHashTable>, K, V); \
  REGISTER_TABLE("AnonymousMutableDenseHashTable",                                             \
                 AnonymousTableOp<TableKind::kMutableDenseHashTable>, K, V);

REGISTER_DENSE_TABLE(int32_t, float)
REGISTER_DENSE_TABLE(int32_t, double)
REGISTER_DENSE_TABLE(int32_t, int32_t)
REGISTER_DENSE_TABLE(int64_t, bool)
REGISTER_DENSE_TABLE(int64_t, float)
REGISTER_DENSE_TABLE(int64_t, double)
REGISTER_DENSE_TABLE(int64_t, int32_t)
REGISTER_DENSE_TABLE(int64_t, int64_t)
REGISTER_DENSE_TABLE(std::string, bool)
REGISTER_DENSE_TABLE(std::string, float)
REGISTER_DENSE_TABLE(std::string, double)
REGISTER_DENSE_TABLE(std::string, int32_t)
REGISTER_DENSE_TABLE(std::string, int64_t)

#undef REGISTER_DENSE_TABLE
#undef REGISTER_ALL_TABLES
#undef REGISTER_MUTABLE_TABLES
#undef REGISTER_HASH_TABLE

#define REGISTER_V1_TABLES(K, V)                                                   \
  REGISTER_TABLE("HashTable", TableOp<TableKind::kHashTable>, K, V);               \
  REGISTER_TABLE("MutableHashTable", TableOp<TableKind::kMutableHashTable>, K, V); \
  REGISTER_TABLE("MutableHashTableOfTensors", TableOp<TableKind::kMutableHashTableOfTensors>, K, V);
#define REGISTER_V1_HASH_TABLE(K, V) \
  REGISTER_TABLE("HashTable", TableOp<TableKind::kHashTable>, K, V);

REGISTER_V1_TABLES(int32_t, float)
REGISTER_V1_TABLES(int32_t, double)
REGISTER_V1_TABLES(int32_t, int32_t)
REGISTER_V1_HASH_TABLE(int32_t, std::string)
REGISTER_V1_TABLES(int64_t, float)
REGISTER_V1_TABLES(int64_t, double)
REGISTER_V1_TABLES(int64_t, int32_t)
REGISTER_V1_TABLES(int64_t, int64_t)
REGISTER_V1_TABLES(int64_t, std::string)
REGISTER_V1_TABLES(std::string, bool)
REGISTER_V1_TABLES(std::string, float)
REGISTER_V1_TABLES(std::string, double)
REGISTER_V1_TABLES(std::string, int32_t)
REGISTER_V1_TABLES(std::string, int64_t)
REGISTER_V1_HASH_TABLE(std::string, std::string)

#undef REGISTER_V1_HASH_TABLE
#undef REGISTER_V1_TABLES
#undef REGISTER_TABLE

REGISTER_KERNEL_BUILDER(Name("LookupTableFind").Device(DEVICE_CPU), FindOp);
REGISTER_KERNEL_BUILDER(Name("LookupTableInsert").Device(DEVICE_CPU), InsertOp);
REGISTER_KERNEL_BUILDER(Name("LookupTableSize").Device(DEVICE_CPU), SizeOp);
REGISTER_KERNEL_BUILDER(Name("LookupTableExport").Device(DEVICE_CPU), ExportOp);
REGISTER_KERNEL_BUILDER(Name("LookupTableImport").Device(DEVICE_CPU), ImportOp);
REGISTER_KERNEL_BUILDER(Name("InitializeTable").Device(DEVICE_CPU), InitializeTableOp);
REGISTER_KERNEL_BUILDER(Name("InitializeTableFromTextFile").Device(DEVICE_CPU),
                        InitializeTableFromTextFileOp);
REGISTER_KERNEL_BUILDER(Name("LookupTableFindV2").Device(DEVICE_CPU), FindOp);
REGISTER_KERNEL_BUILDER(Name("LookupTableInsertV2").Device(DEVICE_CPU), InsertOp);
REGISTER_KERNEL_BUILDER(Name("LookupTableRemoveV2").Device(DEVICE_CPU), RemoveOp);
REGISTER_KERNEL_BUILDER(Name("LookupTableSizeV2").Device(DEVICE_CPU), SizeOp);
REGISTER_KERNEL_BUILDER(Name("LookupTableExportV2").Device(DEVICE_CPU), ExportOp);
REGISTER_KERNEL_BUILDER(Name("LookupTableImportV2").Device(DEVICE_CPU), ImportOp);
REGISTER_KERNEL_BUILDER(Name("InitializeTableV2").Device(DEVICE_CPU), InitializeTableOp);
REGISTER_KERNEL_BUILDER(Name("InitializeTableFromTextFileV2").Device(DEVICE_CPU),
                        InitializeTableFromTextFileOp);

}  // namespace
}  // namespace lookup
}  // namespace sluice
