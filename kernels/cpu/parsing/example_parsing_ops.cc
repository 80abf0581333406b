// ParseExample, ParseExampleV2 and ParseSingleExample on the CPU: serialized tf.train.Example
// records (example_wire.h reads them as TensorFlow's fast parser does) into
//  - dense features: one row per record, [batch] + dense_shape, from the record's values or
//    the default (a feature without a default must be present); a variable-length feature
//    (dense_shape [-1, ...]) is padded with its one-element default to the longest record;
//  - sparse features: indices [n, rank], values [n] and dense_shape [rank], rank being
//    serialized's rank + 1, the dense shape [batch, longest] (or [n] for a scalar record);
//  - ragged features (V2): values [n] and row_splits [batch + 1] (empty for a scalar record).
// A record that does not parse, a feature of another type, a dense feature of the wrong size
// or a missing required feature is INVALID_ARGUMENT, with TensorFlow's messages (which differ
// between a batch, named "Name: <name>, Key: <key>, Index: <i>.", and a scalar record, TF's
// single-example parser). Of two entries with the same key the last counts; an empty Feature
// counts as missing. A key given for two features finds neither, as in TensorFlow.
//
// Each record is read twice: once to check it and count its values (for the output shapes),
// once to write them, so that nothing is held per record.
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "graph/core/errors.h"
#include "graph/core/partial_tensor_shape.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_shape.h"
#include "graph/core/types.h"
#include "graph/ops/example_parsing_spec.h"
#include "kernels/cpu/parsing/example_wire.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace {

using parsing::FeatureType;
using parsing::ForEachFeature;
using parsing::ReadBytesList;
using parsing::ReadFloatList;
using parsing::ReadInt64List;

enum class Kind { kSparse, kDense, kRagged };

// The word TensorFlow's messages use for a list of `dtype`.
const char* ValuesName(DataType dtype) {
  switch (dtype) {
    case DT_FLOAT:
      return "float";
    case DT_INT64:
      return "int64";
    default:
      return "bytes";
  }
}

// The number of values of a list of `dtype`; false when it is malformed.
bool CountList(DataType dtype, absl::string_view list, int64_t* count) {
  int64_t n = 0;
  bool ok = false;
  switch (dtype) {
    case DT_FLOAT:
      ok = ReadFloatList(list, [&n](float) { ++n; });
      break;
    case DT_INT64:
      ok = ReadInt64List(list, [&n](int64_t) { ++n; });
      break;
    default:
      ok = ReadBytesList(list, [&n](absl::string_view) { ++n; });
      break;
  }
  *count = n;
  return ok;
}

// Writes a list's values to out's elements [offset, offset + capacity).
void WriteList(DataType dtype, absl::string_view list, Tensor* out, int64_t offset,
               int64_t capacity) {
  int64_t j = 0;
  switch (dtype) {
    case DT_FLOAT: {
      float* base = out->base<float>() + offset;
      ReadFloatList(list, [&](float v) {
        if (j < capacity) base[j++] = v;
      });
      break;
    }
    case DT_INT64: {
      int64_t* base = out->base<int64_t>() + offset;
      ReadInt64List(list, [&](int64_t v) {
        if (j < capacity) base[j++] = v;
      });
      break;
    }
    default: {
      std::string* base = out->base<std::string>() + offset;
      ReadBytesList(list, [&](absl::string_view v) {
        if (j < capacity) base[j++] = std::string(v);
      });
      break;
    }
  }
}

bool IsCompatible(const PartialTensorShape& dense_shape, const TensorShape& shape) {
  // shape-safe: the dims of an existing tensor's shape
  const PartialTensorShape partial(shape);
  return dense_shape.IsCompatibleWith(partial);
}

// Copies n elements of src from src_offset (or, with `repeat`, its element src_offset n
// times) into dst at dst_offset.
void CopyElements(const Tensor& src, int64_t src_offset, bool repeat, Tensor* dst,
                  int64_t dst_offset, int64_t n) {
  auto copy = [&](auto* to, const auto* from) {
    for (int64_t j = 0; j < n; ++j) to[dst_offset + j] = from[src_offset + (repeat ? 0 : j)];
  };
  switch (dst->dtype()) {
    case DT_FLOAT:
      copy(dst->base<float>(), src.base<float>());
      break;
    case DT_INT64:
      copy(dst->base<int64_t>(), src.base<int64_t>());
      break;
    default:
      copy(dst->base<std::string>(), src.base<std::string>());
      break;
  }
}

class ParseExampleBaseOp : public OpKernel {
 public:
  ParseExampleBaseOp(OpKernelConstruction* ctx, ExampleParserOp op) : OpKernel(ctx), op_(op) {
    OP_REQUIRES_OK(ctx, ReadExampleParserAttrs(ctx, op, &attrs_));
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& serialized = ctx->input(0);
    State state;
    OP_REQUIRES_OK(ctx, ReadKeys(ctx, &state));
    OpInputList defaults;
    OP_REQUIRES_OK(ctx, ctx->input_list("dense_defaults", &defaults));
    const Tensor* names = op_ == ExampleParserOp::kSingle ? nullptr : &ctx->input(1);
    OP_REQUIRES_OK(ctx, CheckInputs(serialized, names, defaults));
    Batch batch;
    batch.scalar = serialized.dims() == 0;
    batch.records = serialized.base<std::string>();
    batch.size = serialized.NumElements();
    if (names != nullptr && names->NumElements() > 0) batch.names = names->base<std::string>();
    BuildKeyMap(&state);
    OP_REQUIRES_OK(ctx, Count(batch, defaults, &state));
    OP_REQUIRES_OK(ctx, Write(ctx, batch, defaults, state));
  }

 private:
  // What one Compute works with: the keys (sparse, dense, ragged), the map from key to its
  // place, and what pass 1 counted per key (total values; the longest record, in values or
  // dense rows), each one entry per feature key of the node. Local to the call, since a
  // kernel may run in several steps at once.
  struct State {
    std::vector<std::string> keys;
    absl::flat_hash_map<std::string, int64_t> key_map;
    std::vector<int64_t> totals;
    std::vector<int64_t> longest;
  };

  struct Batch {
    bool scalar = false;
    const std::string* records = nullptr;
    int64_t size = 0;
    const std::string* names = nullptr;
    std::string Name(int64_t i) const { return names == nullptr ? "<unknown>" : names[i]; }
  };

  // The features of one record: for each key, the last entry with it, or none.
  struct Selection {
    std::vector<absl::string_view> feature;
    std::vector<int64_t> entry;  // -1: absent
  };

  int64_t num_keys() const { return attrs_.num_sparse + attrs_.num_dense + attrs_.num_ragged; }

  Kind KindOf(int64_t key) const {
    if (key < attrs_.num_sparse) return Kind::kSparse;
    if (key < attrs_.num_sparse + attrs_.num_dense) return Kind::kDense;
    return Kind::kRagged;
  }
  // The index of `key` among the features of its kind.
  int64_t IndexOf(int64_t key) const {
    switch (KindOf(key)) {
      case Kind::kSparse:
        return key;
      case Kind::kDense:
        return key - attrs_.num_sparse;
      default:
        return key - attrs_.num_sparse - attrs_.num_dense;
    }
  }
  DataType TypeOf(int64_t key) const {
    const int64_t i = IndexOf(key);
    switch (KindOf(key)) {
      case Kind::kSparse:
        return attrs_.sparse_types[i];
      case Kind::kDense:
        return attrs_.dense_types[i];
      default:
        return attrs_.ragged_value_types[i];
    }
  }

  // The keys in one list: sparse, then dense, then ragged.
  absl::Status ReadKeys(OpKernelContext* ctx, State* state) const {
    std::vector<std::string>& keys = state->keys;
    if (op_ == ExampleParserOp::kSingle) {
      for (const std::string& k : attrs_.sparse_keys) keys.push_back(k);
      for (const std::string& k : attrs_.dense_keys) keys.push_back(k);
      return absl::OkStatus();
    }
    if (op_ == ExampleParserOp::kV1) {
      for (const char* name : {"sparse_keys", "dense_keys"}) {
        OpInputList list;
        RETURN_IF_ERROR(ctx->input_list(name, &list));
        for (int i = 0; i < list.size(); ++i) {
          if (list[i].dims() != 0) {
            return errors::InvalidArgument(
                "Expected ", name, "[", i,
                "] to be a scalar, got shape: ", list[i].shape().DebugString());
          }
          keys.push_back(*list[i].base<std::string>());
        }
      }
      return absl::OkStatus();
    }
    const Tensor& sparse = ctx->input(2);
    const Tensor& dense = ctx->input(3);
    const Tensor& ragged = ctx->input(4);
    if (dense.NumElements() != static_cast<int64_t>(attrs_.dense_types.size())) {
      return errors::InvalidArgument("Expected len(dense_keys) == len(dense_types) but got: ",
                                     dense.NumElements(), " vs. ", attrs_.dense_types.size());
    }
    if (sparse.NumElements() != attrs_.num_sparse) {
      return errors::InvalidArgument("Expected len(sparse_keys) == num_sparse but got: ",
                                     sparse.NumElements(), " vs. ", attrs_.num_sparse);
    }
    if (ragged.NumElements() != attrs_.num_ragged) {
      return errors::InvalidArgument(
          "Expected len(ragged_keys) == len(ragged_value_types) but got: ", ragged.NumElements(),
          " vs. ", attrs_.num_ragged);
    }
    for (const Tensor* t : {&sparse, &dense, &ragged}) {
      for (int64_t i = 0; i < t->NumElements(); ++i) keys.push_back(t->base<std::string>()[i]);
    }
    return absl::OkStatus();
  }

  absl::Status CheckInputs(const Tensor& serialized, const Tensor* names,
                           const OpInputList& defaults) const {
    if (op_ == ExampleParserOp::kSingle) {
      if (serialized.dims() != 0) {
        return errors::InvalidArgument("Expected serialized to be a scalar, got shape: ",
                                       serialized.shape().DebugString());
      }
    } else if (op_ == ExampleParserOp::kV2) {
      if (serialized.dims() > 1) {
        return errors::InvalidArgument("Expected serialized to be a scalar or vector, got shape: ",
                                       serialized.shape().DebugString());
      }
    } else if (serialized.dims() != 1) {
      return errors::InvalidArgument("Expected serialized to be a vector, got shape: ",
                                     serialized.shape().DebugString());
    }
    if (names != nullptr && names->NumElements() > 0 && names->shape() != serialized.shape()) {
      return errors::InvalidArgument(
          "Expected names have the same shape as serialized: name.shape=",
          names->shape().DebugString(), ", serialized.shape=", serialized.shape().DebugString());
    }
    if (defaults.size() != attrs_.num_dense) {
      return errors::InvalidArgument("Expected len(dense_defaults) == len(dense_keys) but got: ",
                                     defaults.size(), " vs. ", attrs_.num_dense);
    }
    for (int d = 0; d < defaults.size(); ++d) {
      const Tensor& def = defaults[d];
      if (attrs_.variable_length[d]) {
        if (def.NumElements() != 1) {
          return errors::InvalidArgument(
              "dense_shape[", d,
              "] is a variable length shape: ", attrs_.dense_shapes[d].DebugString(),
              ", therefore def_value[", d,
              "] must contain a single element (the padding element).  But its shape is: ",
              def.shape().DebugString());
        }
      } else if (def.NumElements() > 0 && !IsCompatible(attrs_.dense_shapes[d], def.shape())) {
        return errors::InvalidArgument("def_value[", d, "].shape() == ", def.shape().DebugString(),
                                       " is not compatible with dense_shapes_[", d,
                                       "] == ", attrs_.dense_shapes[d].DebugString());
      }
      if (def.dtype() != attrs_.dense_types[d]) {
        return errors::InvalidArgument(
            "dense_defaults[", d, "].dtype() == ", DataTypeString(def.dtype()), " != dense_types_[",
            d, "] == ", DataTypeString(attrs_.dense_types[d]));
      }
    }
    return absl::OkStatus();
  }

  // Keys given for more than one feature find none of them (as TensorFlow's feature map).
  void BuildKeyMap(State* state) const {
    absl::flat_hash_map<absl::string_view, int> uses;
    for (const std::string& k : state->keys) ++uses[k];
    for (int64_t i = 0; i < num_keys(); ++i) {
      if (uses[state->keys[i]] == 1) state->key_map[state->keys[i]] = i;
    }
  }

  // Reads record i's entries into `sel`; false when the record does not parse.
  bool Select(const State& state, const Batch& batch, int64_t i, Selection* sel) const {
    std::fill(sel->entry.begin(), sel->entry.end(), -1);
    return ForEachFeature(batch.records[i],
                          [&](int64_t index, absl::string_view key, absl::string_view feature) {
                            auto it = state.key_map.find(key);
                            if (it == state.key_map.end()) return;
                            sel->feature[it->second] = feature;
                            sel->entry[it->second] = index;
                          });
  }

  Selection NewSelection() const {
    Selection sel;
    // heap-ok: one entry per feature key of the node
    sel.feature.resize(num_keys());
    // heap-ok: one entry per feature key of the node
    sel.entry.resize(num_keys(), -1);
    return sel;
  }

  // Checks one present feature of record i; sets `count` to its number of values and
  // `present` to whether it has a type (an empty Feature counts as missing).
  absl::Status CheckFeature(const State& state, const Batch& batch, int64_t i, int64_t key,
                            absl::string_view feature, int64_t* count, bool* present) const {
    const std::string& name = state.keys[key];
    auto prefix = [&]() {
      return batch.scalar
                 ? absl::StrCat("Key: ", name, ".  ")
                 : absl::StrCat("Name: ", batch.Name(i), ", Key: ", name, ", Index: ", i, ".  ");
    };
    DataType dtype;
    absl::string_view list;
    *count = 0;
    *present = false;
    if (!FeatureType(feature, &dtype, &list)) {
      return errors::InvalidArgument("Unsupported datatype.");
    }
    if (dtype == DT_INVALID) return absl::OkStatus();
    const DataType expected = TypeOf(key);
    const Kind kind = KindOf(key);
    if (dtype != expected) {
      if (kind == Kind::kDense) {
        return errors::InvalidArgument(prefix(),
                                       "Data types don't match. Data type: ", DataTypeString(dtype),
                                       " but expected type: ", DataTypeString(expected));
      }
      return errors::InvalidArgument(
          prefix(), "Data types don't match. Expected type: ", DataTypeString(expected),
          ", Actual type: ", DataTypeString(dtype));
    }
    const std::string list_name =
        absl::StrCat(dtype == DT_STRING ? "bytes" : ValuesName(dtype), "_list");
    if (!CountList(dtype, list, count)) {
      if (batch.scalar) {
        return errors::InvalidArgument(prefix(), "Can't parse serialized Example: Parsing ",
                                       list_name, " failed.");
      }
      return errors::InvalidArgument(prefix(), "Can't parse serialized Example.");
    }
    *present = true;
    if (kind != Kind::kDense) return absl::OkStatus();
    const int64_t d = IndexOf(key);
    const int64_t stride = attrs_.elements_per_stride[d];
    if (attrs_.variable_length[d]) {
      if (stride == 0 ? *count != 0 : *count % stride != 0) {
        if (batch.scalar) {
          return errors::InvalidArgument("Error while parsing feature with key ", name,
                                         ": number of elements should be divisible by ", stride,
                                         ", found ", *count, " instead");
        }
        return errors::InvalidArgument(
            prefix(), "Number of ", ValuesName(dtype),
            " values is not a multiple of stride length. Saw ", *count,
            " values but output shape is: ", attrs_.dense_shapes[d].DebugString());
      }
      return absl::OkStatus();
    }
    if (*count == stride) return absl::OkStatus();
    if (batch.scalar) {
      if (dtype == DT_STRING && *count > stride) {
        return errors::InvalidArgument(
            prefix(), "Can't parse serialized Example: Parsing bytes_list failed.");
      }
      return errors::InvalidArgument(prefix(), "Can't parse serialized Example: Some ", list_name,
                                     " slice was not parsed.");
    }
    if (dtype == DT_STRING && *count > stride) {
      return errors::InvalidArgument(prefix(), "Can't parse serialized Example.");
    }
    return errors::InvalidArgument(prefix(), "Number of ", ValuesName(dtype),
                                   " values != expected.  Values size: ", *count,
                                   " but output shape: ", attrs_.dense_shapes[d].DebugString());
  }

  // Pass 1: checks every record and counts what the outputs hold.
  absl::Status Count(const Batch& batch, const OpInputList& defaults, State* state) const {
    std::vector<int64_t>& totals = state->totals;
    std::vector<int64_t>& longest = state->longest;
    // heap-ok: one entry per feature key of the node
    totals.assign(num_keys(), 0);
    // heap-ok: one entry per feature key of the node
    longest.assign(num_keys(), 0);
    Selection sel = NewSelection();
    for (int64_t i = 0; i < batch.size; ++i) {
      if (!Select(*state, batch, i, &sel)) {
        return errors::InvalidArgument("Could not parse example input, value: '", batch.records[i],
                                       "'");
      }
      // TensorFlow walks the entries from the last: check the features in that order.
      std::vector<int64_t> order;
      for (int64_t k = 0; k < num_keys(); ++k) {
        if (sel.entry[k] >= 0) order.push_back(k);
      }
      std::sort(order.begin(), order.end(),
                [&sel](int64_t a, int64_t b) { return sel.entry[a] > sel.entry[b]; });
      // heap-ok: one entry per feature key of the node
      std::vector<bool> found(num_keys(), false);
      for (int64_t k : order) {
        int64_t count = 0;
        bool present = false;
        RETURN_IF_ERROR(CheckFeature(*state, batch, i, k, sel.feature[k], &count, &present));
        found[k] = present;
        int64_t rows = count;
        if (KindOf(k) == Kind::kDense) {
          const int64_t stride = attrs_.elements_per_stride[IndexOf(k)];
          rows = stride == 0 ? 0 : count / stride;
        }
        totals[k] += count;
        longest[k] = std::max(longest[k], rows);
      }
      for (int64_t d = 0; d < attrs_.num_dense; ++d) {
        const int64_t k = attrs_.num_sparse + d;
        if (found[k] || defaults[d].NumElements() > 0) continue;
        return errors::InvalidArgument(
            batch.scalar ? "" : absl::StrCat("Name: ", batch.Name(i), ", "),
            "Feature: ", state->keys[k], " (data type: ", DataTypeString(attrs_.dense_types[d]),
            ")", " is required but could not be found.");
      }
    }
    return absl::OkStatus();
  }

  // Pass 2: allocates the outputs and writes every record's values.
  absl::Status Write(OpKernelContext* ctx, const Batch& batch, const OpInputList& defaults,
                     const State& state) const {
    const std::vector<int64_t>& totals = state.totals;
    const std::vector<int64_t>& longest = state.longest;
    OpOutputList sparse_indices, sparse_values, sparse_shapes, dense_values;
    RETURN_IF_ERROR(ctx->output_list("sparse_indices", &sparse_indices));
    RETURN_IF_ERROR(ctx->output_list("sparse_values", &sparse_values));
    RETURN_IF_ERROR(ctx->output_list("sparse_shapes", &sparse_shapes));
    RETURN_IF_ERROR(ctx->output_list("dense_values", &dense_values));
    OpOutputList ragged_values, ragged_splits;
    if (op_ == ExampleParserOp::kV2) {
      RETURN_IF_ERROR(ctx->output_list("ragged_values", &ragged_values));
      RETURN_IF_ERROR(ctx->output_list("ragged_row_splits", &ragged_splits));
    }
    const int64_t rank = batch.scalar ? 1 : 2;
    for (int64_t s = 0; s < attrs_.num_sparse; ++s) {
      Tensor* t = nullptr;
      TensorShape indices_shape;
      RETURN_IF_ERROR(indices_shape.AddDimWithStatus(totals[s]));
      RETURN_IF_ERROR(indices_shape.AddDimWithStatus(rank));
      RETURN_IF_ERROR(sparse_indices.allocate(s, indices_shape, &t));
      TensorShape values_shape;
      RETURN_IF_ERROR(values_shape.AddDimWithStatus(totals[s]));
      RETURN_IF_ERROR(sparse_values.allocate(s, values_shape, &t));
      TensorShape shape_shape;
      RETURN_IF_ERROR(shape_shape.AddDimWithStatus(rank));
      RETURN_IF_ERROR(sparse_shapes.allocate(s, shape_shape, &t));
      int64_t* dense_shape = t->base<int64_t>();
      if (batch.scalar) {
        dense_shape[0] = totals[s];
      } else {
        dense_shape[0] = batch.size;
        dense_shape[1] = longest[s];
      }
    }
    for (int64_t d = 0; d < attrs_.num_dense; ++d) {
      const int64_t k = attrs_.num_sparse + d;
      TensorShape shape;
      if (!batch.scalar) RETURN_IF_ERROR(shape.AddDimWithStatus(batch.size));
      const PartialTensorShape& dense_shape = attrs_.dense_shapes[d];
      for (int j = 0; j < dense_shape.dims(); ++j) {
        const bool rows = j == 0 && attrs_.variable_length[d];
        RETURN_IF_ERROR(shape.AddDimWithStatus(rows ? longest[k] : dense_shape.dim_size(j)));
      }
      Tensor* t = nullptr;
      RETURN_IF_ERROR(dense_values.allocate(d, shape, &t));
    }
    for (int64_t r = 0; r < attrs_.num_ragged; ++r) {
      const int64_t k = attrs_.num_sparse + attrs_.num_dense + r;
      Tensor* t = nullptr;
      TensorShape values_shape;
      RETURN_IF_ERROR(values_shape.AddDimWithStatus(totals[k]));
      RETURN_IF_ERROR(ragged_values.allocate(r, values_shape, &t));
      TensorShape splits_shape;
      RETURN_IF_ERROR(splits_shape.AddDimWithStatus(batch.scalar ? 0 : batch.size + 1));
      RETURN_IF_ERROR(ragged_splits.allocate(r, splits_shape, &t));
      if (!batch.scalar) SetSplit(t, 0, 0);
    }

    // heap-ok: one entry per feature key of the node
    std::vector<int64_t> offsets(num_keys(), 0);
    Selection sel = NewSelection();
    for (int64_t i = 0; i < batch.size; ++i) {
      Select(state, batch, i, &sel);  // parsed in pass 1
      for (int64_t k = 0; k < num_keys(); ++k) {
        DataType dtype = DT_INVALID;
        absl::string_view list;
        if (sel.entry[k] >= 0) FeatureType(sel.feature[k], &dtype, &list);
        const bool present = dtype != DT_INVALID;
        int64_t count = 0;
        if (present) CountList(dtype, list, &count);
        const int64_t index = IndexOf(k);
        switch (KindOf(k)) {
          case Kind::kSparse: {
            if (present) {
              WriteList(dtype, list, sparse_values[index], offsets[k], count);
              int64_t* ind = sparse_indices[index]->base<int64_t>() + offsets[k] * rank;
              for (int64_t j = 0; j < count; ++j) {
                if (batch.scalar) {
                  ind[j] = j;
                } else {
                  ind[2 * j] = i;
                  ind[2 * j + 1] = j;
                }
              }
            }
            break;
          }
          case Kind::kRagged: {
            if (present) WriteList(dtype, list, ragged_values[index], offsets[k], count);
            if (!batch.scalar) SetSplit(ragged_splits[index], i + 1, offsets[k] + count);
            break;
          }
          case Kind::kDense: {
            Tensor* out = dense_values[index];
            const int64_t stride = attrs_.elements_per_stride[index];
            const int64_t row_size = attrs_.variable_length[index] ? longest[k] * stride : stride;
            const int64_t start = i * row_size;
            if (present) WriteList(dtype, list, out, start, count);
            if (attrs_.variable_length[index]) {
              CopyElements(defaults[index], 0, true, out, start + count, row_size - count);
            } else if (!present) {
              CopyElements(defaults[index], 0, false, out, start, row_size);
            }
            break;
          }
        }
        offsets[k] += count;
      }
    }
    return absl::OkStatus();
  }

  void SetSplit(Tensor* splits, int64_t i, int64_t value) const {
    if (splits->dtype() == DT_INT32) {
      splits->base<int32_t>()[i] = static_cast<int32_t>(value);
    } else {
      splits->base<int64_t>()[i] = value;
    }
  }

  const ExampleParserOp op_;
  ExampleParserAttrs attrs_;
};

class ParseExampleOp : public ParseExampleBaseOp {
 public:
  explicit ParseExampleOp(OpKernelConstruction* ctx)
      : ParseExampleBaseOp(ctx, ExampleParserOp::kV1) {}
};

class ParseExampleV2Op : public ParseExampleBaseOp {
 public:
  explicit ParseExampleV2Op(OpKernelConstruction* ctx)
      : ParseExampleBaseOp(ctx, ExampleParserOp::kV2) {}
};

class ParseSingleExampleOp : public ParseExampleBaseOp {
 public:
  explicit ParseSingleExampleOp(OpKernelConstruction* ctx)
      : ParseExampleBaseOp(ctx, ExampleParserOp::kSingle) {}
};

REGISTER_KERNEL_BUILDER(Name("ParseExample").Device(DEVICE_CPU), ParseExampleOp);
REGISTER_KERNEL_BUILDER(Name("ParseExampleV2").Device(DEVICE_CPU), ParseExampleV2Op);
REGISTER_KERNEL_BUILDER(Name("ParseSingleExample").Device(DEVICE_CPU), ParseSingleExampleOp);

}  // namespace
}  // namespace sluice
