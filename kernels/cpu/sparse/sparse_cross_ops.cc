// SparseCross, SparseCrossV2 and SparseCrossHashed on the CPU: the crosses of N sparse
// feature columns (2-D SparseTensors: indices [rows, 2], values [rows], dense shape [2]) and
// dense ones (matrices [batch, width]), batch row by batch row.
//
// For each batch row b every column contributes its features of row b: a sparse column the
// run of its index rows, from where the previous batch row's run ended, whose first index is
// b (TensorFlow's walk: rows out of order, or of a batch row past the batch, are skipped), a
// dense column its row b. The crosses of b are the Cartesian product of those lists, the
// last column varying fastest (sparse columns first, in order, then dense ones); they become
// output row b, at columns 0, 1, .... The output's dense shape is [batch, most crosses of a
// row]; batch is the first sparse column's dense shape[0], else the first dense column's rows.
//
// A cross's value is, by op:
//  - SparseCross with out_type string, SparseCrossV2: the features as strings (int64 in
//    decimal) joined by "_X_" or by `sep`;
//  - SparseCross with out_type int64 (hashed_output is not read, as in TensorFlow): starting
//    from hash_key, h = FingerprintCat64(h, f) over the features, f being Fingerprint64 of a
//    string and the value itself of an int64;
//  - SparseCrossHashed: h = f0, then FingerprintCat64 with the next ones, f being
//    Fingerprint64 (SipHash-2-4 under `salt` when strong_hash) of a string, and of an int64 of
//    a sparse column the hash of its low 4 bytes (TensorFlow hashes sizeof(DataType) bytes of
//    the value); a dense int64 is its value, or with strong_hash the keyed hash of its low 4
//    bytes (TensorFlow crashes there);
// the hashes then taken modulo num_buckets when positive, else modulo 2^63 - 1.
// Inputs are validated first, in TensorFlow's order and with its messages; where TensorFlow
// crashes (a negative batch size, a non-scalar num_buckets or strong_hash), an
// INVALID_ARGUMENT is returned instead.
#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "graph/core/errors.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_shape.h"
#include "graph/core/tensor_types.h"
#include "graph/core/types.h"
#include "kernels/cpu/parallel_for.h"
#include "kernels/cpu/scratch.h"
#include "kernels/cpu/strings/string_hash.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace {

enum class CrossKind {
  kString,    // SparseCross (out_type string), SparseCrossV2
  kHash,      // SparseCross (out_type int64)
  kKeyedHash  // SparseCrossHashed
};

struct CrossInputs {
  OpInputList indices;
  OpInputList values;
  OpInputList shapes;
  OpInputList dense;
};

// TensorFlow's ValidateInput. `internal_type` is SparseCross's attr, DT_INVALID for the others
// (unchecked). Prints dtypes as their enum numbers, as TensorFlow does.
absl::Status ValidateInputs(const CrossInputs& in, DataType internal_type, int64_t* batch_size) {
  const int n = in.indices.size();
  const bool check_type = internal_type != DT_INVALID;
  for (int i = 0; i < n; ++i) {
    const Tensor& t = in.indices[i];
    if (t.dims() != 2) {
      return errors::InvalidArgument("Input indices should be a matrix but received shape ",
                                     t.shape().DebugString(), " at position ", i);
    }
    if (t.dim_size(1) != 2) {
      return errors::InvalidArgument("Expected D2 of index to be 2 got ", t.dim_size(1),
                                     " at position ", i);
    }
  }
  for (int i = 0; i < n; ++i) {
    const Tensor& t = in.values[i];
    if (check_type && internal_type == DT_STRING && t.dtype() == DT_INT64) {
      return errors::InvalidArgument("Input values should be of internal type ",
                                     static_cast<int>(internal_type), " but received ",
                                     static_cast<int>(t.dtype()));
    }
    if (t.dims() != 1) {
      return errors::InvalidArgument("Input values should be a vector but received shape ",
                                     t.shape().DebugString(), " at position ", i);
    }
    if (in.indices[i].dim_size(0) != t.dim_size(0)) {
      return errors::InvalidArgument("Expected size of values to be ", in.indices[i].dim_size(0),
                                     " got ", t.dim_size(0), " at position ", i);
    }
  }
  for (int i = 0; i < n; ++i) {
    const Tensor& t = in.shapes[i];
    if (t.dims() != 1) {
      return errors::InvalidArgument("Input shapes should be a vector but received shape ",
                                     t.shape().DebugString(), " at position ", i);
    }
    if (t.NumElements() != 2) {
      return errors::InvalidArgument("shape should imply a 2D tensor, but got ",
                                     t.shape().DebugString(), " at position ", i);
    }
  }
  for (int i = 0; i < in.dense.size(); ++i) {
    const Tensor& t = in.dense[i];
    if (check_type && internal_type == DT_STRING && t.dtype() == DT_INT64) {
      return errors::InvalidArgument("Dense inputs should be of internal type ",
                                     static_cast<int>(internal_type), " but received ",
                                     static_cast<int>(t.dtype()));
    }
    if (t.dims() != 2) {
      return errors::InvalidArgument("Dense inputs should be a matrix but received shape ",
                                     t.shape().DebugString(), " at position ", i);
    }
  }
  int64_t batch = 0;
  if (n > 0) {
    batch = in.shapes[0].base<int64_t>()[0];
  } else if (in.dense.size() > 0) {
    batch = in.dense[0].dim_size(0);
  }
  for (int i = 0; i < n; ++i) {
    const int64_t b = in.shapes[i].base<int64_t>()[0];
    if (b != batch) {
      return errors::InvalidArgument("Expected batch size ", batch, " got ", b, " at position ", i);
    }
  }
  for (int i = 0; i < in.dense.size(); ++i) {
    if (in.dense[i].dim_size(0) != batch) {
      return errors::InvalidArgument("Expected batch size ", batch, " got ",
                                     in.dense[i].dim_size(0), " at dense tensor ", i);
    }
  }
  if (batch < 0) {
    return errors::InvalidArgument("Input shapes have a negative batch size: ", batch);
  }
  *batch_size = batch;
  return absl::OkStatus();
}

// The batch rows that have crosses, found by one walk over the sparse columns' indices.
// Row r of the plan is batch row batch[r], whose crosses start at output row out_start[r];
// its features in column c are count[r * C + c] consecutive ones, from index row
// start[r * S + c] in sparse column c < S, from column 0 of its batch row in dense ones.
// The arrays are scratch from the device's allocator, sized for the most rows a plan can
// have; `rows` of them are used.
struct CrossPlan {
  int num_columns = 0;  // C
  int num_sparse = 0;   // S
  int64_t rows = 0;
  ScratchArray<int64_t> batch;
  ScratchArray<int64_t> out_start;
  ScratchArray<int64_t> start;
  ScratchArray<int64_t> count;
  int64_t total = 0;      // crosses
  int64_t max_count = 0;  // most crosses of a batch row
};

// TensorFlow's walk, per sparse column, over the batch rows from `b` on: each batch row
// consumes the column's next index rows while their batch index is that row's. Returns the
// first batch row >= b at which every column's next index row has that batch index (the
// only rows that can have crosses), having walked the columns up to it; or -1 when there is
// none (a column ran out of rows or is stuck on a row of an earlier batch index).
int64_t NextRowWithFeatures(const CrossInputs& in, int64_t b, std::vector<int64_t>* row) {
  while (true) {
    int64_t next = b;
    for (int i = 0; i < in.indices.size(); ++i) {
      const Tensor& ix = in.indices[i];
      if ((*row)[i] >= ix.dim_size(0) || ix.base<int64_t>()[2 * (*row)[i]] < b) return -1;
      next = std::max(next, ix.base<int64_t>()[2 * (*row)[i]]);
    }
    if (next == b) return b;
    // Walk every column over the batch rows b .. next - 1, none of which has crosses.
    for (int i = 0; i < in.indices.size(); ++i) {
      const int64_t rows = in.indices[i].dim_size(0);
      const int64_t* data = in.indices[i].base<int64_t>();
      int64_t& r = (*row)[i];
      for (int64_t at = b; r < rows && at < next;) {
        if (data[2 * r] == at) {
          ++r;
        } else if (data[2 * r] > at) {
          at = data[2 * r];
        } else {
          break;  // stuck on an earlier batch index
        }
      }
    }
    b = next;
  }
}

// Allocates a plan's arrays for its largest case: a row per batch row, and no more rows than
// any sparse column has index rows (each plan row has a feature in every column).
absl::Status AllocatePlan(OpKernelContext* ctx, const CrossInputs& in, int64_t batch_size,
                          CrossPlan* plan) {
  int64_t most_rows = batch_size;
  for (int i = 0; i < in.indices.size(); ++i) {
    most_rows = std::min(most_rows, in.indices[i].dim_size(0));
  }
  const int64_t starts = MultiplyWithoutOverflow(most_rows, plan->num_sparse);
  const int64_t counts = MultiplyWithoutOverflow(most_rows, plan->num_columns);
  if (starts < 0 || counts < 0) return errors::InvalidArgument("Too many crosses: over 2^63 - 1");
  RETURN_IF_ERROR(plan->batch.Allocate(ctx, most_rows));
  RETURN_IF_ERROR(plan->out_start.Allocate(ctx, most_rows));
  RETURN_IF_ERROR(plan->start.Allocate(ctx, starts));
  return plan->count.Allocate(ctx, counts);
}

absl::Status MakePlan(OpKernelContext* ctx, const CrossInputs& in, int64_t batch_size,
                      CrossPlan* plan) {
  const int num_sparse = in.indices.size();
  const int num_dense = in.dense.size();
  plan->num_sparse = num_sparse;
  plan->num_columns = num_sparse + num_dense;
  if (plan->num_columns == 0) return absl::OkStatus();
  int64_t dense_product = 1;
  for (int j = 0; j < num_dense; ++j) {
    dense_product = MultiplyWithoutOverflow(dense_product, in.dense[j].dim_size(1));
    if (dense_product < 0) return errors::InvalidArgument("Too many crosses: over 2^63 - 1");
  }
  if (dense_product == 0) return absl::OkStatus();
  RETURN_IF_ERROR(AllocatePlan(ctx, in, batch_size, plan));
  std::vector<int64_t> row(num_sparse, 0);  // heap-ok: one per sparse input of the node
  std::vector<int64_t> starts(num_sparse);  // heap-ok: one per sparse input of the node
  std::vector<int64_t> counts(num_sparse);  // heap-ok: one per sparse input of the node
  int64_t b = 0;
  while (b < batch_size) {
    b = NextRowWithFeatures(in, b, &row);
    if (b < 0 || b >= batch_size) break;
    int64_t crosses = dense_product;
    for (int i = 0; i < num_sparse; ++i) {
      const Tensor& ix = in.indices[i];
      const int64_t* data = ix.base<int64_t>();
      starts[i] = row[i];
      while (row[i] < ix.dim_size(0) && data[2 * row[i]] == b) ++row[i];
      counts[i] = row[i] - starts[i];
      crosses = MultiplyWithoutOverflow(crosses, counts[i]);
      if (crosses < 0) return errors::InvalidArgument("Too many crosses: over 2^63 - 1");
    }
    if (crosses > 0) {
      const int64_t r = plan->rows++;
      plan->batch[r] = b;
      plan->out_start[r] = plan->total;
      std::copy(starts.begin(), starts.end(), plan->start.data() + r * num_sparse);
      int64_t* count = plan->count.data() + r * plan->num_columns;
      std::copy(counts.begin(), counts.end(), count);
      for (int j = 0; j < num_dense; ++j) count[num_sparse + j] = in.dense[j].dim_size(1);
      if (plan->total > std::numeric_limits<int64_t>::max() - crosses) {
        return errors::InvalidArgument("Too many crosses: over 2^63 - 1");
      }
      plan->total += crosses;
      plan->max_count = std::max(plan->max_count, crosses);
    }
    ++b;
  }
  return absl::OkStatus();
}

// What a cross's value is made of; see the file comment.
struct CrossSpec {
  CrossKind kind = CrossKind::kString;
  std::string separator;
  int64_t num_buckets = 0;
  uint64_t hash_key = 0;
  bool strong_hash = false;
  uint64_t salt[2] = {0, 0};
};

// Reads the features of one batch row of a plan.
class Features {
 public:
  Features(const CrossInputs& in, const CrossPlan& plan, int64_t r) : in_(in), plan_(plan), r_(r) {}

  int64_t Count(int c) const { return plan_.count[r_ * plan_.num_columns + c]; }

  // Column c's k-th feature, as a tensor and an element offset into it.
  const Tensor& Source(int c) const {
    return c < plan_.num_sparse ? in_.values[c] : in_.dense[c - plan_.num_sparse];
  }
  int64_t Offset(int c, int64_t k) const {
    if (c < plan_.num_sparse) return plan_.start[r_ * plan_.num_sparse + c] + k;
    const Tensor& t = in_.dense[c - plan_.num_sparse];
    return plan_.batch[r_] * t.dim_size(1) + k;
  }
  bool IsDense(int c) const { return c >= plan_.num_sparse; }

 private:
  const CrossInputs& in_;
  const CrossPlan& plan_;
  const int64_t r_;
};

std::string FeatureString(const Tensor& t, int64_t i) {
  if (t.dtype() == DT_STRING) return t.base<std::string>()[i];
  return absl::StrCat(t.base<int64_t>()[i]);
}

// The low 4 bytes of an int64 in little-endian order: what TensorFlow hashes of it.
std::string LowBytes(int64_t v) {
  const uint64_t u = static_cast<uint64_t>(v);
  std::string s(4, '\0');
  for (int i = 0; i < 4; ++i) s[i] = static_cast<char>((u >> (8 * i)) & 0xff);
  return s;
}

uint64_t FeatureHash(const CrossSpec& spec, const Tensor& t, int64_t i, bool dense) {
  if (t.dtype() == DT_STRING) {
    const std::string& s = t.base<std::string>()[i];
    if (spec.kind == CrossKind::kKeyedHash && spec.strong_hash) return SipHash24(spec.salt, s);
    return Fingerprint64(s);
  }
  const int64_t v = t.base<int64_t>()[i];
  if (spec.kind != CrossKind::kKeyedHash) return static_cast<uint64_t>(v);
  if (spec.strong_hash) return SipHash24(spec.salt, LowBytes(v));
  if (dense) return static_cast<uint64_t>(v);
  return Fingerprint64(LowBytes(v));
}

int64_t Bucket(const CrossSpec& spec, uint64_t h) {
  const uint64_t buckets = spec.num_buckets > 0 ? static_cast<uint64_t>(spec.num_buckets)
                                                : std::numeric_limits<int64_t>::max();
  return static_cast<int64_t>(h % buckets);
}

// Writes the crosses of plan row r: output index rows and values from out_start[r] on.
void WriteCrosses(const CrossInputs& in, const CrossPlan& plan, const CrossSpec& spec, int64_t r,
                  int64_t* out_indices, Tensor* out_values) {
  const Features f(in, plan, r);
  const int columns = plan.num_columns;
  std::vector<int64_t> digit(columns, 0);  // heap-ok: the current feature of each input column
  int64_t out = plan.out_start[r];
  for (int64_t k = 0;; ++k, ++out) {
    out_indices[2 * out] = plan.batch[r];
    out_indices[2 * out + 1] = k;
    if (spec.kind == CrossKind::kString) {
      std::string value;
      for (int c = 0; c < columns; ++c) {
        if (c > 0) value += spec.separator;
        value += FeatureString(f.Source(c), f.Offset(c, digit[c]));
      }
      out_values->base<std::string>()[out] = std::move(value);
    } else {
      uint64_t h = spec.kind == CrossKind::kHash ? spec.hash_key : 0;
      for (int c = 0; c < columns; ++c) {
        const uint64_t fh = FeatureHash(spec, f.Source(c), f.Offset(c, digit[c]), f.IsDense(c));
        h = (spec.kind == CrossKind::kKeyedHash && c == 0) ? fh : FingerprintCat64(h, fh);
      }
      out_values->base<int64_t>()[out] = Bucket(spec, h);
    }
    // Next combination, the last column fastest.
    int c = columns - 1;
    while (c >= 0 && ++digit[c] == f.Count(c)) digit[c--] = 0;
    if (c < 0) break;
  }
}

class SparseCrossOp : public OpKernel {
 public:
  explicit SparseCrossOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    const std::string& op = type_string();
    if (op == "SparseCross") {
      DataType out_type;
      int64_t hash_key;
      OP_REQUIRES_OK(ctx, ctx->GetAttr("out_type", &out_type));
      OP_REQUIRES_OK(ctx, ctx->GetAttr("internal_type", &internal_type_));
      OP_REQUIRES_OK(ctx, ctx->GetAttr("num_buckets", &spec_.num_buckets));
      OP_REQUIRES_OK(ctx, ctx->GetAttr("hash_key", &hash_key));
      spec_.hash_key = static_cast<uint64_t>(hash_key);
      spec_.kind = out_type == DT_STRING ? CrossKind::kString : CrossKind::kHash;
      spec_.separator = "_X_";
    } else if (op == "SparseCrossHashed") {
      spec_.kind = CrossKind::kKeyedHash;
    }
  }

  void Compute(OpKernelContext* ctx) override {
    CrossInputs in;
    OP_REQUIRES_OK(ctx, ctx->input_list("indices", &in.indices));
    OP_REQUIRES_OK(ctx, ctx->input_list("values", &in.values));
    OP_REQUIRES_OK(ctx, ctx->input_list("shapes", &in.shapes));
    OP_REQUIRES_OK(ctx, ctx->input_list("dense_inputs", &in.dense));
    int64_t batch_size = 0;
    OP_REQUIRES_OK(ctx, ValidateInputs(in, internal_type_, &batch_size));
    CrossSpec spec = spec_;
    OP_REQUIRES_OK(ctx, ReadSpecInputs(ctx, &spec));

    CrossPlan plan;
    OP_REQUIRES_OK(ctx, MakePlan(ctx, in, batch_size, &plan));
    Tensor* indices_out = nullptr;
    Tensor* values_out = nullptr;
    Tensor* shape_out = nullptr;
    // MakePlan keeps the number of crosses within int64, but twice that may not be.
    TensorShape indices_shape;
    OP_REQUIRES_OK(ctx, TensorShape::BuildTensorShape({plan.total, 2}, &indices_shape));
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, indices_shape, &indices_out));
    // shape-safe: 0 <= plan.total, which fits int64 (the indices shape above holds 2 * total)
    OP_REQUIRES_OK(ctx, ctx->allocate_output(1, TensorShape({plan.total}), &values_out));
    OP_REQUIRES_OK(ctx, ctx->allocate_output(2, TensorShape({2}), &shape_out));
    shape_out->base<int64_t>()[0] = batch_size;
    shape_out->base<int64_t>()[1] = plan.max_count;
    if (plan.total == 0) return;

    int64_t* out_indices = indices_out->base<int64_t>();
    const int64_t rows = plan.rows;
    const double per_row = static_cast<double>(plan.total) / rows * plan.num_columns;
    const Eigen::TensorOpCost cost(16 * per_row, 16 * per_row, 60 * per_row);
    ParallelFor(ctx, rows, plan.total, cost, [&](int64_t first, int64_t last) {
      for (int64_t r = first; r < last; ++r) {
        WriteCrosses(in, plan, spec, r, out_indices, values_out);
      }
    });
  }

 private:
  // SparseCrossV2's separator; SparseCrossHashed's num_buckets, strong_hash and salt.
  absl::Status ReadSpecInputs(OpKernelContext* ctx, CrossSpec* spec) const {
    const std::string& op = type_string();
    if (op == "SparseCrossV2") {
      const Tensor* sep;
      RETURN_IF_ERROR(ctx->input("sep", &sep));
      if (sep->dims() != 0) {
        return errors::InvalidArgument("Input separator should be a scalar. Received: ",
                                       sep->DebugString());
      }
      spec->separator = sep->base<std::string>()[0];
    } else if (op == "SparseCrossHashed") {
      const Tensor* num_buckets;
      const Tensor* strong_hash;
      const Tensor* salt;
      RETURN_IF_ERROR(ctx->input("num_buckets", &num_buckets));
      RETURN_IF_ERROR(ctx->input("strong_hash", &strong_hash));
      RETURN_IF_ERROR(ctx->input("salt", &salt));
      if (num_buckets->dims() != 0) {
        return errors::InvalidArgument("Input \"num_buckets\" must be a scalar but has shape ",
                                       num_buckets->shape().DebugString());
      }
      if (strong_hash->dims() != 0) {
        return errors::InvalidArgument("Input \"strong_hash\" must be a scalar but has shape ",
                                       strong_hash->shape().DebugString());
      }
      if (salt->NumElements() != 2) {
        return errors::InvalidArgument("Input \"salt\" must have length 2 but has length ",
                                       salt->NumElements());
      }
      spec->num_buckets = num_buckets->base<int64_t>()[0];
      spec->strong_hash = strong_hash->base<bool>()[0];
      spec->salt[0] = static_cast<uint64_t>(salt->base<int64_t>()[0]);
      spec->salt[1] = static_cast<uint64_t>(salt->base<int64_t>()[1]);
    }
    return absl::OkStatus();
  }

  CrossSpec spec_;
  DataType internal_type_ = DT_INVALID;
};

REGISTER_KERNEL_BUILDER(Name("SparseCross").Device(DEVICE_CPU), SparseCrossOp);
REGISTER_KERNEL_BUILDER(Name("SparseCrossV2").Device(DEVICE_CPU), SparseCrossOp);
REGISTER_KERNEL_BUILDER(Name("SparseCrossHashed").Device(DEVICE_CPU), SparseCrossOp);

}  // namespace
}  // namespace sluice
