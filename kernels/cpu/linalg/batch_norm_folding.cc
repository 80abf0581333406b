// BatchNormFolder: folding and the cache check.
#include "kernels/cpu/linalg/batch_norm_folding.h"

#include <cmath>
#include <vector>

#include "graph/core/errors.h"
#include "graph/core/tensor_types.h"
#include "kernels/cpu/linalg/onednn_util.h"
#include "kernels/cpu/scratch.h"

namespace sluice {

uint64_t BatchNormFolder::Fingerprint(const Tensor* const (&sources)[5]) {
  uint64_t h = 0;
  for (const Tensor* t : sources) {
    // A read-only tensor cannot change under the same buffer, which the cache compares
    // anyway: reading its contents (a whole filter) each step would be wasted.
    const uint64_t part = t->IsReadOnly() ? 0 : TensorFingerprint(*t);
    h = (h ^ part) * 0x100000001b3ull;
  }
  return h;
}

absl::Status BatchNormFolder::Fold(OpKernelContext* ctx, const Tensor& filter, const Tensor& scale,
                                   const Tensor& offset, const Tensor& mean, const Tensor& variance,
                                   float epsilon, Tensor* folded_filter, Tensor* bias) {
  const Tensor* const sources[5] = {&filter, &scale, &offset, &mean, &variance};
  const uint64_t fingerprint = Fingerprint(sources);
  std::shared_ptr<const Entry> entry;
  {
    absl::MutexLock lock(&mu_);
    entry = entry_;
  }
  bool valid = entry != nullptr && entry->fingerprint == fingerprint && entry->epsilon == epsilon &&
               OneDnnCachingEnabled();
  for (int i = 0; valid && i < 5; ++i) {
    valid = entry->sources[i].raw_data() == sources[i]->raw_data() &&
            entry->sources[i].shape() == sources[i]->shape();
  }
  if (!valid) {
    auto fresh = std::make_shared<Entry>();
    for (int i = 0; i < 5; ++i) fresh->sources[i] = *sources[i];
    fresh->fingerprint = fingerprint;
    fresh->epsilon = epsilon;
    const int64_t depth = scale.NumElements();
    RETURN_IF_ERROR(ctx->allocate_temp(DT_FLOAT, filter.shape(), &fresh->filter));
    RETURN_IF_ERROR(ctx->allocate_temp(DT_FLOAT, scale.shape(), &fresh->bias));
    const float* sc = scale.flat<float>().data();
    const float* off = offset.flat<float>().data();
    const float* mu = mean.flat<float>().data();
    const float* var = variance.flat<float>().data();
    float* b = fresh->bias.flat<float>().data();
    // The multiplier is computed in double and rounded once, so the folded product is as
    // close to TensorFlow's unfolded arithmetic as float allows.
    ScratchArray<float> s;
    RETURN_IF_ERROR(s.Allocate(ctx, depth));
    for (int64_t c = 0; c < depth; ++c) {
      const double m = static_cast<double>(sc[c]) /
                       std::sqrt(static_cast<double>(var[c]) + static_cast<double>(epsilon));
      s[c] = static_cast<float>(m);
      b[c] = static_cast<float>(static_cast<double>(off[c]) - static_cast<double>(mu[c]) * m);
    }
    const float* w = filter.flat<float>().data();
    float* wf = fresh->filter.flat<float>().data();
    const int64_t n = filter.NumElements();
    for (int64_t i = 0; depth > 0 && i < n; i += depth) {
      for (int64_t c = 0; c < depth; ++c) wf[i + c] = w[i + c] * s[c];
    }
    // An entry is never written after this; a change of the sources makes a new one.
    fresh->filter.MarkReadOnly();
    fresh->bias.MarkReadOnly();
    entry = fresh;
    absl::MutexLock lock(&mu_);
    entry_ = std::move(fresh);
  }
  *folded_filter = entry->filter;
  *bias = entry->bias;
  return absl::OkStatus();
}

}  // namespace sluice
