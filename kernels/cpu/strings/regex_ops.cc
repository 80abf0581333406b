// StaticRegexReplace, RegexReplace, StaticRegexFullMatch and RegexFullMatch on the CPU, with
// RE2 (the library TensorFlow uses, default options: UTF-8, leftmost-first). Replacement is
// RE2's: the first match (replace_global false) or every non-overlapping match, with \0-\9
// in the rewrite naming groups; a rewrite naming a group the pattern lacks replaces nothing.
// A pattern RE2 rejects is INVALID_ARGUMENT, at construction for the static ops. The dynamic
// ops keep the last pattern compiled, since a graph almost always feeds them a constant.
#include <memory>
#include <string>

#include "absl/synchronization/mutex.h"
#include "graph/core/errors.h"
#include "graph/core/tensor.h"
#include "kernels/cpu/strings/string_map.h"
#include "re2/re2.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace {

// RE2's default options, without its logging of bad patterns: the kernel reports them.
RE2::Options QuietOptions() {
  RE2::Options options;
  options.set_log_errors(false);
  return options;
}

absl::Status InvalidPattern(const std::string& pattern, const RE2& re) {
  return errors::InvalidArgument("Invalid pattern: ", pattern, ", error: ", re.error());
}

// The last pattern a dynamic regex kernel compiled, shared by the steps that run it.
class RegexCache {
 public:
  // The compiled `pattern` (compiling it if it is not the cached one), or INVALID_ARGUMENT.
  absl::Status Get(const std::string& pattern, std::shared_ptr<const RE2>* re) {
    absl::MutexLock lock(&mu_);
    if (re_ == nullptr || pattern_ != pattern) {
      auto compiled = std::make_shared<const RE2>(pattern, QuietOptions());
      if (!compiled->ok()) return InvalidPattern(pattern, *compiled);
      re_ = std::move(compiled);
      pattern_ = pattern;
    }
    *re = re_;
    return absl::OkStatus();
  }

 private:
  absl::Mutex mu_;
  std::string pattern_;
  std::shared_ptr<const RE2> re_;
};

// Writes `input` with the matches of `re` replaced to output 0.
void Replace(OpKernelContext* ctx, const RE2& re, const std::string& rewrite, bool global) {
  strings::MapStrings<std::string>(ctx, 30.0, [&](const std::string& in, std::string* out) {
    *out = in;
    if (global) {
      RE2::GlobalReplace(out, re, rewrite);
    } else {
      RE2::Replace(out, re, rewrite);
    }
  });
}

void FullMatch(OpKernelContext* ctx, const RE2& re) {
  strings::MapStrings<bool>(
      ctx, 20.0, [&](const std::string& in, bool* out) { *out = RE2::FullMatch(in, re); });
}

// Input `index` as a scalar string; INVALID_ARGUMENT naming it ("Pattern", "Rewrite") if
// it is not a scalar.
absl::Status ScalarString(OpKernelContext* ctx, int index, const char* what,
                          const std::string** value) {
  const Tensor& t = ctx->input(index);
  if (t.dims() != 0) {
    return errors::InvalidArgument(what, " must be scalar, but received ", t.shape().DebugString());
  }
  *value = t.base<std::string>();
  return absl::OkStatus();
}

class StaticRegexReplaceOp : public OpKernel {
 public:
  explicit StaticRegexReplaceOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    std::string pattern;
    OP_REQUIRES_OK(ctx, ctx->GetAttr("pattern", &pattern));
    re_ = std::make_unique<RE2>(pattern, QuietOptions());
    OP_REQUIRES(ctx, re_->ok(), InvalidPattern(pattern, *re_));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("rewrite", &rewrite_));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("replace_global", &global_));
  }

  void Compute(OpKernelContext* ctx) override { Replace(ctx, *re_, rewrite_, global_); }

 private:
  std::unique_ptr<RE2> re_;
  std::string rewrite_;
  bool global_ = true;
};

class RegexReplaceOp : public OpKernel {
 public:
  explicit RegexReplaceOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("replace_global", &global_));
  }

  void Compute(OpKernelContext* ctx) override {
    const std::string* pattern = nullptr;
    OP_REQUIRES_OK(ctx, ScalarString(ctx, 1, "Pattern", &pattern));
    std::shared_ptr<const RE2> re;
    OP_REQUIRES_OK(ctx, cache_.Get(*pattern, &re));
    const std::string* rewrite = nullptr;
    OP_REQUIRES_OK(ctx, ScalarString(ctx, 2, "Rewrite", &rewrite));
    Replace(ctx, *re, *rewrite, global_);
  }

 private:
  bool global_ = true;
  RegexCache cache_;
};

class StaticRegexFullMatchOp : public OpKernel {
 public:
  explicit StaticRegexFullMatchOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    std::string pattern;
    OP_REQUIRES_OK(ctx, ctx->GetAttr("pattern", &pattern));
    re_ = std::make_unique<RE2>(pattern, QuietOptions());
    OP_REQUIRES(ctx, re_->ok(), InvalidPattern(pattern, *re_));
  }

  void Compute(OpKernelContext* ctx) override { FullMatch(ctx, *re_); }

 private:
  std::unique_ptr<RE2> re_;
};

class RegexFullMatchOp : public OpKernel {
 public:
  explicit RegexFullMatchOp(OpKernelConstruction* ctx) : OpKernel(ctx) {}

  void Compute(OpKernelContext* ctx) override {
    const std::string* pattern = nullptr;
    OP_REQUIRES_OK(ctx, ScalarString(ctx, 1, "Pattern", &pattern));
    std::shared_ptr<const RE2> re;
    OP_REQUIRES_OK(ctx, cache_.Get(*pattern, &re));
    FullMatch(ctx, *re);
  }

 private:
  RegexCache cache_;
};

REGISTER_KERNEL_BUILDER(Name("StaticRegexReplace").Device(DEVICE_CPU), StaticRegexReplaceOp);
REGISTER_KERNEL_BUILDER(Name("RegexReplace").Device(DEVICE_CPU), RegexReplaceOp);
REGISTER_KERNEL_BUILDER(Name("StaticRegexFullMatch").Device(DEVICE_CPU), StaticRegexFullMatchOp);
REGISTER_KERNEL_BUILDER(Name("RegexFullMatch").Device(DEVICE_CPU), RegexFullMatchOp);

}  // namespace
}  // namespace sluice
