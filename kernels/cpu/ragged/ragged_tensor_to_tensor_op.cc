// RaggedTensorToTensor on the CPU: a ragged tensor (flat values and one row partition per
// ragged dimension) written into a dense tensor of the `shape` asked for, padded with
// default_value (broadcast to one value element) and truncated where rows are longer.
//
// As TensorFlow, it maps every value row to its place in the output, level by level: a
// parent index per row (-1 once a row falls outside the output), then per partition the
// index of each item (ROW_SPLITS: rows of splits[i+1] - splits[i] items; VALUE_ROWIDS: runs of
// equal row ids). Output dims the shape leaves unknown become the longest row of their level.
// TensorFlow's own checks and messages are kept (those of its shape function on the
// partition types included); beyond them, inputs TensorFlow's kernel reads out of bounds,
// mangles or crashes on (unsorted or too many row ids, splits past the values, a partition
// that is not a vector, a negative FIRST_DIM_SIZE) are INVALID_ARGUMENT here.
#include <array>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "graph/core/element_bytes.h"
#include "graph/core/errors.h"
#include "graph/core/integer_tensor.h"
#include "graph/core/partial_tensor_shape.h"
#include "graph/core/tensor.h"
#include "graph/ops/ragged_to_dense_spec.h"
#include "kernels/cpu/array/array_types.h"
#include "kernels/cpu/scratch.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace {

// The partition input of ragged dimension `level` (0-based) and its type.
struct Partition {
  RowPartitionType type;
  const Tensor* tensor;
};

template <typename Index>
class RaggedTensorToTensorOp : public OpKernel {
 public:
  explicit RaggedTensorToTensorOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    std::vector<std::string> names;
    OP_REQUIRES_OK(ctx, ctx->GetAttr("row_partition_types", &names));
    OP_REQUIRES_OK(ctx, ParseRowPartitionTypes(names, &types_));
    int num_tensors = 0;
    OP_REQUIRES_OK(ctx, ctx->GetAttr("num_row_partition_tensors", &num_tensors));
    // TensorFlow's shape function makes these checks; its kernel relies on them.
    OP_REQUIRES_OK(ctx, ValidateRowPartitionTypes(types_, num_tensors));
    ragged_rank_ = RaggedRank(types_);
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& values = ctx->input(1);
    const Tensor& default_value = ctx->input(2);
    const Tensor& first = ctx->input(3);
    OP_REQUIRES(ctx, first.NumElements() > 0,
                errors::InvalidArgument(
                    "Invalid first partition input. Tensor requires at least one element."));
    OP_REQUIRES(ctx, !types_.empty(), errors::InvalidArgument("No row_partition_types given."));
    int64_t first_dim = 0;
    OP_REQUIRES_OK(ctx, FirstDimension(first, &first_dim));
    // default_value's rank is below the values', so the values are at least a vector.
    OP_REQUIRES_OK(ctx, ValidateDefaultValueShape(default_value.shape(), values.shape()));
    for (int level = 0; level < ragged_rank_; ++level) {
      const Tensor& t = *PartitionOf(ctx, level).tensor;
      OP_REQUIRES(ctx, t.dims() == 1,
                  errors::InvalidArgument("row partition tensors must be vectors, got shape ",
                                          t.shape().DebugString()));
    }

    // The output shape: `shape`, the values' inner dims, then the first dim and the longest
    // rows where still unknown.
    PartialTensorShape requested;
    OP_REQUIRES_OK(ctx, ShapeFromTensor(ctx->input(0), &requested));
    PartialTensorShape combined;
    OP_REQUIRES_OK(
        ctx, CombineRaggedTensorToTensorShapes(ragged_rank_, requested, values.shape(), &combined));
    const int rank = combined.dims();
    std::array<int64_t, TensorShape::kMaxDims> sizes{};
    for (int d = 0; d < rank; ++d) sizes[d] = combined.dim_size(d);
    if (sizes[0] < 0) sizes[0] = first_dim;
    for (int level = 1; level <= ragged_rank_; ++level) {
      if (sizes[level] < 0) sizes[level] = MaxWidth(PartitionOf(ctx, level - 1));
    }
    TensorShape out_shape;
    for (int d = 0; d < rank; ++d) {
      OP_REQUIRES(ctx, sizes[d] >= 0,
                  errors::InvalidArgument("Dimension ", sizes[d], " must be >= 0"));
      OP_REQUIRES_OK(ctx, out_shape.AddDimWithStatus(sizes[d]));
    }
    Tensor* output = nullptr;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, out_shape, &output));
    if (output->NumElements() == 0) return;

    // multiplier[level]: output elements (of the ragged dims) per step of dim `level`.
    std::array<int64_t, TensorShape::kMaxDims> multiplier{};
    multiplier[ragged_rank_] = 1;
    for (int d = ragged_rank_ - 1; d >= 0; --d) multiplier[d] = multiplier[d + 1] * sizes[d + 1];

    // TensorFlow's kernel sizes an array by a negative FIRST_DIM_SIZE here (and crashes).
    OP_REQUIRES(ctx, first_dim >= 0,
                errors::InvalidArgument("FIRST_DIM_SIZE must not be negative, got ", first_dim));
    // Two arrays of output indices, the rows' (parent) and their items' (child), swapped per
    // level.
    ScratchArray<int64_t> buffers[2];
    ScratchArray<int64_t>* parent = &buffers[0];
    ScratchArray<int64_t>* child = &buffers[1];
    OP_REQUIRES_OK(ctx, parent->Allocate(ctx, first_dim));
    for (int64_t i = 0; i < first_dim; ++i) {
      (*parent)[i] = i < sizes[0] ? i * multiplier[0] : -1;
    }
    for (int level = 0; level < ragged_rank_; ++level) {
      OP_REQUIRES_OK(ctx, ChildIndices(ctx, PartitionOf(ctx, level), *parent, multiplier[level + 1],
                                       sizes[level + 1], child));
      std::swap(parent, child);
    }
    OP_REQUIRES(ctx, parent->size() <= values.dim_size(0),
                errors::InvalidArgument("The row partitions describe ", parent->size(),
                                        " values but there are only ", values.dim_size(0)));
    OP_REQUIRES_OK(ctx, WriteOutput(ctx, values, default_value, *parent, output));
  }

 private:
  Partition PartitionOf(OpKernelContext* ctx, int level) const {
    const int offset = types_[0] == RowPartitionType::kFirstDimSize ? 1 : 0;
    return {types_[level + offset], &ctx->input(3 + level + offset)};
  }

  absl::Status FirstDimension(const Tensor& first, int64_t* dim) const {
    switch (types_[0]) {
      case RowPartitionType::kFirstDimSize:
        if (first.NumElements() != 1) {
          return errors::InvalidArgument("FIRST_DIM_SIZE must hold one value, got shape ",
                                         first.shape().DebugString());
        }
        *dim = static_cast<int64_t>(first.base<Index>()[0]);
        return absl::OkStatus();
      case RowPartitionType::kValueRowIds:
        return errors::InvalidArgument("Cannot handle VALUE_ROWIDS in first dimension.");
      case RowPartitionType::kRowSplits:
        if (first.dims() != 1) {
          return errors::InvalidArgument("row partition tensors must be vectors, got shape ",
                                         first.shape().DebugString());
        }
        *dim = first.dim_size(0) - 1;
        return absl::OkStatus();
    }
    return errors::Internal("unknown row partition type");
  }

  // The `shape` input: a vector of dims (-1 unknown), or the scalar -1 for any shape.
  static absl::Status ShapeFromTensor(const Tensor& t, PartialTensorShape* out) {
    IntegerValues dims;
    if (t.dims() == 0) {
      RETURN_IF_ERROR(IntegerTensorValues(t, &dims));
      if (dims[0] == -1) {
        *out = PartialTensorShape();
        return absl::OkStatus();
      }
      return errors::InvalidArgument(
          "The only valid scalar shape tensor is the fully unknown shape specified as -1.");
    }
    if (t.dims() != 1) {
      return errors::InvalidArgument("Shape must be at most rank 1 but is rank ", t.dims());
    }
    RETURN_IF_ERROR(IntegerTensorValues(t, &dims));
    for (int64_t d : dims) {
      if (d < -1) return errors::InvalidArgument("Dimension ", d, " must be >= -1");
    }
    return PartialTensorShape::BuildPartialTensorShape(dims, out);
  }

  // The longest row of a partition, as TensorFlow measures it (for VALUE_ROWIDS, the longest
  // run of equal ids).
  static int64_t MaxWidth(const Partition& p) {
    const Index* v = p.tensor->base<Index>();
    const int64_t n = p.tensor->NumElements();
    int64_t widest = 0;
    if (p.type == RowPartitionType::kRowSplits) {
      for (int64_t i = 0; i + 1 < n; ++i) {
        const int64_t width = static_cast<int64_t>(v[i + 1]) - static_cast<int64_t>(v[i]);
        if (width > widest) widest = width;
      }
      return widest;
    }
    if (n == 0) return 0;
    int64_t run_start = 0;
    for (int64_t i = 1; i < n; ++i) {
      if (v[i] != v[run_start]) {
        if (i - run_start > widest) widest = i - run_start;
        run_start = i;
      }
    }
    return n - run_start > widest ? n - run_start : widest;
  }

  // The output index of each item of the next level (or -1), from the indices of its rows.
  static absl::Status ChildIndices(OpKernelContext* ctx, const Partition& p,
                                   const ScratchArray<int64_t>& parent, int64_t step, int64_t width,
                                   ScratchArray<int64_t>* child) {
    const Index* v = p.tensor->base<Index>();
    const int64_t n = p.tensor->NumElements();
    const int64_t parents = parent.size();
    if (p.type == RowPartitionType::kRowSplits) {
      // TensorFlow compares the row count as unsigned: an empty splits fails as "-1 > n".
      if (n == 0 || n - 1 > parents) {
        return errors::InvalidArgument("Row partition size is greater than output size: ", n - 1,
                                       " > ", parents);
      }
      // Rows of negative length hold nothing; the items must add up to the last split.
      int64_t items = 0;
      for (int64_t i = 0; i + 1 < n; ++i) {
        const int64_t length = static_cast<int64_t>(v[i + 1]) - static_cast<int64_t>(v[i]);
        if (length > 0) items += length;
      }
      if (n > 0 && items != static_cast<int64_t>(v[n - 1])) {
        return errors::InvalidArgument("Invalid row split size.");
      }
      RETURN_IF_ERROR(child->Allocate(ctx, items));
      int64_t k = 0;
      for (int64_t i = 0; i + 1 < n; ++i) {
        const int64_t length = static_cast<int64_t>(v[i + 1]) - static_cast<int64_t>(v[i]);
        int64_t index = parent[i];
        const int64_t kept = index < 0 ? 0 : (length < width ? length : width);
        for (int64_t j = 0; j < length; ++j) {
          (*child)[k++] = j < kept ? index + j * step : -1;
        }
      }
      return absl::OkStatus();
    }
    RETURN_IF_ERROR(child->Allocate(ctx, n));
    int64_t column = 0;
    int64_t index = -1;
    for (int64_t i = 0; i < n; ++i) {
      const int64_t row = static_cast<int64_t>(v[i]);
      // A negative id reads as a huge unsigned one, as in TensorFlow's check.
      if (static_cast<uint64_t>(row) >= static_cast<uint64_t>(parents)) {
        return errors::InvalidArgument(
            i == 0 ? "Got current_value_rowid=" : "Got next_value_rowid=", row,
            " which is not less than ", parents);
      }
      if (i > 0 && row < static_cast<int64_t>(v[i - 1])) {
        return errors::InvalidArgument("value_rowids must be sorted, but value_rowids[", i,
                                       "] = ", row, " < value_rowids[", i - 1,
                                       "] = ", static_cast<int64_t>(v[i - 1]));
      }
      if (i > 0 && row == static_cast<int64_t>(v[i - 1])) {
        if (index >= 0) {
          ++column;
          index = column < width ? index + step : -1;
        }
      } else {
        column = 0;
        index = parent[row];
      }
      (*child)[i] = index;
    }
    return absl::OkStatus();
  }

  // Fills the output with the (broadcast) default value, then copies each value element to
  // its index; the indices rise, so this is TensorFlow's interleaving of copies and padding.
  static absl::Status WriteOutput(OpKernelContext* ctx, const Tensor& values,
                                  const Tensor& default_value, const ScratchArray<int64_t>& index,
                                  Tensor* output) {
    TensorShape element_shape;
    for (int d = 1; d < values.dims(); ++d) {
      RETURN_IF_ERROR(element_shape.AddDimWithStatus(values.dim_size(d)));
    }
    const int64_t element = element_shape.num_elements();
    const int64_t slots = output->NumElements() / element;  // output is not empty
    // The default value as one whole element, broadcast from its own shape where it is not.
    Tensor filler = default_value;
    const bool scalar_filler = default_value.NumElements() == 1;
    if (!scalar_filler && default_value.NumElements() != element) {
      RETURN_IF_ERROR(BroadcastDefault(ctx, default_value, element_shape, &filler));
    }
    bool copied = true;
    VisitByElementSize(values.dtype(),
                       [&](auto tag) {
                         using U = typename decltype(tag)::type;
                         const U* src = ElementsAs<U>(values);
                         const U* fill = ElementsAs<U>(filler);
                         U* out = MutableElementsAs<U>(output);
                         for (int64_t s = 0; s < slots; ++s) {
                           U* dst = out + s * element;
                           if (scalar_filler) {
                             for (int64_t e = 0; e < element; ++e) dst[e] = fill[0];
                           } else {
                             CopyUnits(fill, dst, element);
                           }
                         }
                         for (int64_t i = 0; i < index.size(); ++i) {
                           if (index[i] >= 0)
                             CopyUnits(src + i * element, out + index[i] * element, element);
                         }
                       }) ||
        (copied = false);
    if (!copied) {
      return errors::InvalidArgument("RaggedTensorToTensor cannot move elements of ",
                                     DataTypeString(values.dtype()));
    }
    return absl::OkStatus();
  }

  // default_value broadcast (numpy's right-aligned rule) to one element of `shape`, into a
  // temp; "Error broadcasting default_value" where it does not broadcast to exactly that.
  static absl::Status BroadcastDefault(OpKernelContext* ctx, const Tensor& value,
                                       const TensorShape& shape, Tensor* out) {
    const int rank = shape.dims();
    const int offset = rank - value.dims();
    bool ok = offset >= 0;
    for (int d = 0; ok && d < value.dims(); ++d) {
      const int64_t v = value.dim_size(d);
      ok = v == 1 || v == shape.dim_size(d + offset);
    }
    if (!ok) return errors::InvalidArgument("Error broadcasting default_value");
    RETURN_IF_ERROR(ctx->allocate_temp(value.dtype(), shape, out));
    // The source stride of each output dim: 0 where the value has no dim or a dim of 1.
    std::array<int64_t, TensorShape::kMaxDims> stride{};
    int64_t s = 1;
    for (int d = value.dims() - 1; d >= 0; --d) {
      stride[d + offset] = value.dim_size(d) == 1 ? 0 : s;
      s *= value.dim_size(d);
    }
    const int64_t n = shape.num_elements();
    VisitByElementSize(value.dtype(), [&](auto tag) {
      using U = typename decltype(tag)::type;
      const U* src = ElementsAs<U>(value);
      U* dst = MutableElementsAs<U>(out);
      for (int64_t i = 0; i < n; ++i) {
        int64_t rest = i;
        int64_t from = 0;
        for (int d = rank - 1; d >= 0; --d) {
          from += (rest % shape.dim_size(d)) * stride[d];
          rest /= shape.dim_size(d);
        }
        dst[i] = src[from];
      }
    });
    return absl::OkStatus();
  }

  std::vector<RowPartitionType> types_;  // one per entry of the attr
  int ragged_rank_ = 0;
};

// One kernel per index type; values move by element size, so every dtype TensorFlow registers
// (its POD types, strings and the quantized types) shares it.
#define REGISTER_CPU(Index)                                                                  \
  REGISTER_KERNEL_BUILDER(                                                                   \
      Name("RaggedTensorToTensor")                                                           \
          .Device(DEVICE_CPU)                                                                \
          .TypeConstraint("T", array_internal::ArrayTypes(                                   \
                                   {DT_QINT8, DT_QUINT8, DT_QINT32, DT_QINT16, DT_QUINT16})) \
          .TypeConstraint<Index>("Tindex"),                                                  \
      RaggedTensorToTensorOp<Index>);
REGISTER_CPU(int32_t)
REGISTER_CPU(int64_t)
#undef REGISTER_CPU

}  // namespace
}  // namespace sluice
