// DecodeCSV on the CPU: each string of `records` is a CSV record (csv_record.h); output f
// holds field f of every record, parsed as OUT_TYPE[f] (numbers as StringToNumber parses
// them), with record_defaults[f] for an empty field or one equal to na_value. Errors, with
// TensorFlow's messages, name the first bad record: a malformed field, the wrong number of
// fields, a missing field without a default, a field that does not parse. Each record is
// walked twice, once to check and count its fields and once to parse them, so that the
// errors come in TensorFlow's order without holding the fields.
#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/numbers.h"
#include "graph/core/errors.h"
#include "graph/core/tensor.h"
#include "graph/core/types.h"
#include "kernels/cpu/strings/csv_record.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace {

class DecodeCsvOp : public OpKernel {
 public:
  explicit DecodeCsvOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("OUT_TYPE", &out_types_));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("select_cols", &select_cols_));
    OP_REQUIRES(ctx, select_cols_.empty() || select_cols_.size() == out_types_.size(),
                errors::InvalidArgument("select_cols should match output size"));
    for (size_t i = 1; i < select_cols_.size(); ++i) {
      OP_REQUIRES(ctx, select_cols_[i - 1] < select_cols_[i],
                  errors::InvalidArgument("select_cols should be strictly increasing indices"));
    }
    OP_REQUIRES(ctx, select_cols_.empty() || select_cols_.front() >= 0,
                errors::InvalidArgument("select_cols should be non-negative indices"));
    std::string delim;
    OP_REQUIRES_OK(ctx, ctx->GetAttr("field_delim", &delim));
    OP_REQUIRES(ctx, delim.size() == 1,
                errors::InvalidArgument("field_delim should be only 1 char"));
    format_.delim = delim[0];
    OP_REQUIRES_OK(ctx, ctx->GetAttr("use_quote_delim", &format_.use_quote));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("na_value", &na_value_));
    format_.select_cols = select_cols_;
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& records = ctx->input(0);
    OpInputList defaults;
    OP_REQUIRES_OK(ctx, ctx->input_list("record_defaults", &defaults));
    for (int f = 0; f < defaults.size(); ++f) {
      OP_REQUIRES(ctx, defaults[f].dims() <= 1,
                  errors::InvalidArgument("Each record default should be at most rank 1"));
      OP_REQUIRES(ctx, defaults[f].NumElements() < 2,
                  errors::InvalidArgument("There should only be 1 default per field but field ", f,
                                          " has ", defaults[f].NumElements()));
    }
    const int num_fields = static_cast<int>(out_types_.size());
    OpOutputList outputs;
    OP_REQUIRES_OK(ctx, ctx->output_list("output", &outputs));
    for (int f = 0; f < num_fields; ++f) {
      Tensor* out = nullptr;
      OP_REQUIRES_OK(ctx, outputs.allocate(f, records.shape(), &out));
    }
    const std::string* in = records.base<std::string>();
    for (int64_t i = 0; i < records.NumElements(); ++i) {
      int64_t count = 0;
      OP_REQUIRES_OK(
          ctx, strings::ForEachCsvField(in[i], format_, [&count](const std::string&) { ++count; }));
      OP_REQUIRES(ctx, count == num_fields,
                  errors::InvalidArgument("Expect ", num_fields, " fields but have ", count,
                                          " in record ", i));
      int f = 0;
      absl::Status status;
      strings::ForEachCsvField(in[i], format_, [&](const std::string& field) {
        if (status.ok()) status = Store(field, f, i, defaults[f], outputs[f]);
        ++f;
      }).IgnoreError();  // the first walk found the record well formed
      OP_REQUIRES_OK(ctx, status);
    }
  }

 private:
  // Writes field f of record i (or its default) to element i of `out`.
  absl::Status Store(const std::string& field, int f, int64_t i, const Tensor& fallback,
                     Tensor* out) const {
    const DataType dtype = out_types_[f];
    if (field.empty() || field == na_value_) {
      if (fallback.NumElements() != 1) {
        return errors::InvalidArgument("Field ", f, " is required but missing in record ", i, "!");
      }
      switch (dtype) {
        case DT_INT32:
          out->base<int32_t>()[i] = *fallback.base<int32_t>();
          break;
        case DT_INT64:
          out->base<int64_t>()[i] = *fallback.base<int64_t>();
          break;
        case DT_FLOAT:
          out->base<float>()[i] = *fallback.base<float>();
          break;
        case DT_DOUBLE:
          out->base<double>()[i] = *fallback.base<double>();
          break;
        default:
          out->base<std::string>()[i] = *fallback.base<std::string>();
          break;
      }
      return absl::OkStatus();
    }
    bool ok = true;
    switch (dtype) {
      case DT_INT32:
        ok = absl::SimpleAtoi(field, &out->base<int32_t>()[i]);
        break;
      case DT_INT64:
        ok = absl::SimpleAtoi(field, &out->base<int64_t>()[i]);
        break;
      // TensorFlow parses floats from the field's C string, which ends at a NUL byte.
      case DT_FLOAT:
        ok = absl::SimpleAtof(field.c_str(), &out->base<float>()[i]);
        break;
      case DT_DOUBLE:
        ok = absl::SimpleAtod(field.c_str(), &out->base<double>()[i]);
        break;
      default:
        out->base<std::string>()[i] = field;
        break;
    }
    if (!ok) {
      return errors::InvalidArgument("Field ", f, " in record ", i, " is not a valid ",
                                     DataTypeString(dtype), ": ", field);
    }
    return absl::OkStatus();
  }

  DataTypeVector out_types_;
  std::vector<int64_t> select_cols_;  // the attr's list
  strings::CsvFormat format_;
  std::string na_value_;
};

REGISTER_KERNEL_BUILDER(Name("DecodeCSV").Device(DEVICE_CPU), DecodeCsvOp);

}  // namespace
}  // namespace sluice
