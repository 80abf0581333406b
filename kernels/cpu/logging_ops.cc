// Assert, Print, PrintV2 and StringFormat on the CPU, printing tensors as TensorFlow does
// (Tensor::SummarizeValue: the v1 layout for Assert and Print, the numpy-like v2 layout for
// StringFormat).
//  - Assert: a false scalar condition fails the step with INVALID_ARGUMENT
//    "assertion failed: [<data0>] [<data1>] ...", each summarized to `summarize` entries
//    (all when negative).
//  - Print: forwards its input; on the first first_n runs (every run when negative) writes
//    message followed by "[<data_i>]" per data tensor, and a newline, to stderr.
//  - PrintV2: writes its scalar string followed by `end` to stdout, stderr, the log (glog
//    INFO, WARNING or ERROR) or, for output_stream "file://<path>", appends it to that file
//    (NOT_FOUND / PERMISSION_DENIED as the file system says). Another stream name fails at
//    construction with TensorFlow's message.
//  - StringFormat: the template with each placeholder replaced by the next input, summarized
//    in the v2 layout; a template part holding a NUL is cut there, as in TensorFlow.
//  - Timestamp: the wall clock in seconds since the Unix epoch.
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/synchronization/mutex.h"
#include "glog/logging.h"
#include "graph/core/errors.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_shape.h"
#include "graph/core/types.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace {

class AssertOp : public OpKernel {
 public:
  explicit AssertOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("summarize", &summarize_));
  }

  bool IsExpensive() override { return false; }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& cond = ctx->input(0);
    OP_REQUIRES(ctx, cond.dims() == 0,
                errors::InvalidArgument("In[0] should be a scalar: ", cond.shape().DebugString()));
    if (cond.base<bool>()[0]) return;
    std::string msg = "assertion failed: ";
    for (int i = 1; i < ctx->num_inputs(); ++i) {
      absl::StrAppend(&msg, "[", ctx->input(i).SummarizeValue(summarize_), "]");
      if (i < ctx->num_inputs() - 1) msg.append(" ");
    }
    ctx->SetStatus(errors::InvalidArgument(msg));
  }

 private:
  int32_t summarize_ = 3;
};

class PrintOp : public OpKernel {
 public:
  explicit PrintOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("message", &message_));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("first_n", &first_n_));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("summarize", &summarize_));
  }

  bool IsExpensive() override { return false; }

  void Compute(OpKernelContext* ctx) override {
    ctx->set_output(0, ctx->input(0));
    if (first_n_ >= 0) {
      absl::MutexLock lock(&mu_);
      if (calls_ >= first_n_) return;
      ++calls_;
    }
    std::string msg = message_;
    for (int i = 1; i < ctx->num_inputs(); ++i) {
      absl::StrAppend(&msg, "[", ctx->input(i).SummarizeValue(summarize_), "]");
    }
    std::cerr << msg << std::endl;
  }

 private:
  std::string message_;
  int64_t first_n_ = -1;
  int32_t summarize_ = 3;
  absl::Mutex mu_;
  int64_t calls_ ABSL_GUARDED_BY(mu_) = 0;
};

constexpr char kFilePrefix[] = "file://";
constexpr const char* kOutputStreams[] = {"stdout", "stderr", "log(info)", "log(warning)",
                                          "log(error)"};

// Serialises appends to files, across every PrintV2 kernel.
absl::Mutex* FileMutex() {
  static absl::Mutex* mu = new absl::Mutex();
  return mu;
}

// Appends `data` to the file at `path`, creating it when missing.
absl::Status AppendToFile(const std::string& path, const std::string& data) {
  absl::MutexLock lock(FileMutex());
  std::FILE* file = std::fopen(path.c_str(), "ab");
  if (file == nullptr) {
    const int err = errno;
    const std::string msg = absl::StrCat(path, "; ", std::strerror(err));
    if (err == ENOENT || err == ENOTDIR) return errors::NotFound(msg);
    if (err == EACCES || err == EPERM || err == EROFS) return errors::PermissionDenied(msg);
    return errors::Internal(msg);
  }
  const bool written = std::fwrite(data.data(), 1, data.size(), file) == data.size();
  const bool closed = std::fclose(file) == 0;
  if (!written || !closed) return errors::Internal(path, "; could not append");
  return absl::OkStatus();
}

class PrintV2Op : public OpKernel {
 public:
  explicit PrintV2Op(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("output_stream", &output_stream_));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("end", &end_));
    if (absl::StartsWith(output_stream_, kFilePrefix)) {
      file_path_ = output_stream_.substr(std::strlen(kFilePrefix));
      return;
    }
    bool known = false;
    std::string valid;
    for (const char* stream : kOutputStreams) {
      known = known || output_stream_ == stream;
      absl::StrAppend(&valid, " ", stream);
    }
    OP_REQUIRES(ctx, known,
                errors::InvalidArgument("Unknown output stream: ", output_stream_,
                                        ", Valid streams are:", valid));
  }

  bool IsExpensive() override { return false; }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& input = ctx->input(0);
    OP_REQUIRES(ctx, input.dims() == 0,
                errors::InvalidArgument("Input is expected to be scalar, but got ",
                                        input.shape().DebugString()));
    const std::string text = absl::StrCat(input.base<std::string>()[0], end_);
    if (!file_path_.empty()) {
      OP_REQUIRES_OK(ctx, AppendToFile(file_path_, text));
    } else if (output_stream_ == "stdout") {
      std::cout << text << std::flush;
    } else if (output_stream_ == "stderr") {
      std::cerr << text << std::flush;
    } else if (output_stream_ == "log(info)") {
      LOG(INFO) << text;
    } else if (output_stream_ == "log(warning)") {
      LOG(WARNING) << text;
    } else {
      LOG(ERROR) << text;
    }
  }

 private:
  std::string output_stream_;
  std::string end_;
  std::string file_path_;
};

class StringFormatOp : public OpKernel {
 public:
  explicit StringFormatOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    std::string template_string;
    OP_REQUIRES_OK(ctx, ctx->GetAttr("template", &template_string));
    std::string placeholder;
    OP_REQUIRES_OK(ctx, ctx->GetAttr("placeholder", &placeholder));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("summarize", &summarize_));
    for (absl::string_view part : absl::StrSplit(template_string, placeholder)) {
      // TensorFlow appends each part through c_str(): a NUL ends it.
      parts_.emplace_back(part.substr(0, part.find('\0')));
    }
    const int64_t num_placeholders = static_cast<int64_t>(parts_.size()) - 1;
    OP_REQUIRES(ctx, ctx->num_inputs() == num_placeholders,
                errors::InvalidArgument("num placeholders in template and num inputs must match: ",
                                        num_placeholders, " vs. ", ctx->num_inputs()));
  }

  bool IsExpensive() override { return false; }

  void Compute(OpKernelContext* ctx) override {
    std::string msg = parts_[0];
    for (int i = 0; i < ctx->num_inputs(); ++i) {
      absl::StrAppend(&msg, ctx->input(i).SummarizeValue(summarize_, /*print_v2=*/true),
                      parts_[i + 1]);
    }
    Tensor* output = nullptr;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, TensorShape({}), &output));
    output->base<std::string>()[0] = std::move(msg);
  }

 private:
  int32_t summarize_ = 3;
  std::vector<std::string>
      parts_;  // on the heap, bounded: the template attr's parts, one per placeholder + 1
};

// The system clock in seconds since the epoch, to the microsecond, as TensorFlow's.
class TimestampOp : public OpKernel {
 public:
  using OpKernel::OpKernel;

  void Compute(OpKernelContext* ctx) override {
    const int64_t micros = std::chrono::duration_cast<std::chrono::microseconds>(
                               std::chrono::system_clock::now().time_since_epoch())
                               .count();
    Tensor* output = nullptr;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, TensorShape({}), &output));
    output->scalar<double>()() = static_cast<double>(micros) / 1.0e6;
  }
  bool IsExpensive() override { return false; }
};

REGISTER_KERNEL_BUILDER(Name("Assert").Device(DEVICE_CPU), AssertOp);
REGISTER_KERNEL_BUILDER(Name("Print").Device(DEVICE_CPU), PrintOp);
REGISTER_KERNEL_BUILDER(Name("PrintV2").Device(DEVICE_CPU), PrintV2Op);
REGISTER_KERNEL_BUILDER(Name("StringFormat").Device(DEVICE_CPU), StringFormatOp);
REGISTER_KERNEL_BUILDER(Name("Timestamp").Device(DEVICE_CPU), TimestampOp);

}  // namespace
}  // namespace sluice
