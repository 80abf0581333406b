#include "kernels/cpu/ctc/ctc_loss.h"

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "Eigen/Core"
#include "absl/strings/str_join.h"
#include "graph/core/errors.h"
#include "kernels/cpu/ctc/ctc_math.h"

namespace sluice {
namespace ctc {
namespace {

// Label u of l' (blank, l[0], blank, l[1], ..., blank).
inline int LPrime(absl::Span<const int32_t> labels, int64_t u, int blank) {
  return u % 2 == 0 ? blank : labels[u / 2];
}

}  // namespace

absl::Status KeptLabels(absl::Span<const int32_t> labels, int64_t b, int num_classes,
                        bool collapse_repeated, int32_t* out, int64_t* kept) {
  if (labels.empty()) return errors::InvalidArgument("Labels length is zero in batch ", b);
  int64_t n = 0;
  bool finished = false;
  for (size_t i = 0; i < labels.size(); ++i) {
    if (i > 0 && collapse_repeated && labels[i] == labels[i - 1]) continue;
    if (labels[i] >= num_classes - 1) {
      finished = true;
    } else if (finished) {
      return errors::InvalidArgument(
          "Saw a non-null label (index >= num_classes - 1) following a null label, batch: ", b,
          " num_classes: ", num_classes, " labels: ", absl::StrJoin(labels, ","),
          " labels seen so far: ", absl::StrJoin(out, out + n, ","));
    } else {
      out[n++] = labels[i];
    }
  }
  for (int64_t i = 0; i < n; ++i) {
    if (out[i] < 0) {
      return errors::InvalidArgument("All labels must be nonnegative integers, batch: ", b,
                                     " labels: ", absl::StrJoin(out, out + n, ","));
    }
  }
  *kept = n;
  return absl::OkStatus();
}

int64_t LossScratchSize(int64_t steps, int num_classes, int64_t num_labels) {
  const int64_t u = 2 * num_labels + 1;
  return steps * num_classes + 2 * u * steps + 2 * int64_t{num_classes};
}

template <typename T>
T LossAndGradient(const T* logits, int64_t stride, int64_t steps, int num_classes,
                  absl::Span<const int32_t> labels, bool merge_repeated, T* scratch, T* gradient) {
  using Array = Eigen::Array<T, Eigen::Dynamic, 1>;
  using ConstMap = Eigen::Map<const Array>;
  using Map = Eigen::Map<Array>;
  const int blank = num_classes - 1;
  const int64_t num_u = 2 * static_cast<int64_t>(labels.size()) + 1;
  const int64_t num_t = steps;
  T* y = scratch;                           // y[t * C + c]: softmax of step t
  T* log_alpha = y + num_t * num_classes;   // [t * U + u]
  T* log_beta = log_alpha + num_t * num_u;  // [t * U + u]
  T* prob_sum = log_beta + num_t * num_u;   // [C]
  T* exps = prob_sum + num_classes;         // [C]

  for (int64_t t = 0; t < num_t; ++t) {
    ConstMap row(logits + t * stride, num_classes);
    Map e(exps, num_classes);
    e = (row - row.maxCoeff()).exp();
    Map(y + t * num_classes, num_classes) = e / e.sum();
  }
  auto Y = [&](int64_t c, int64_t t) { return y[t * num_classes + c]; };
  auto alpha = [&](int64_t u, int64_t t) -> T& { return log_alpha[t * num_u + u]; };
  auto beta = [&](int64_t u, int64_t t) -> T& { return log_beta[t * num_u + u]; };
  auto l = [&](int64_t u) { return LPrime(labels, u, blank); };

  // Forward: only the (u, t) from which the end can still be reached are visited.
  std::fill(log_alpha, log_alpha + num_t * num_u, LogZero<T>());
  alpha(0, 0) = std::log(Y(blank, 0));
  if (num_u > 1) alpha(1, 0) = std::log(Y(l(1), 0));
  for (int64_t t = 1; t < num_t; ++t) {
    for (int64_t u = std::max<int64_t>(0, num_u - 2 * (num_t - t));
         u < std::min<int64_t>(num_u, 2 * (t + 1)); ++u) {
      T sum = LogZero<T>();
      if (merge_repeated || l(u) == blank) sum = alpha(u, t - 1);
      if (u > 0) sum = LogSumExp(sum, alpha(u - 1, t - 1));
      if (u > 1 && l(u) != blank && !(merge_repeated && l(u) == l(u - 2))) {
        sum = LogSumExp(sum, alpha(u - 2, t - 1));
      }
      alpha(u, t) = std::log(Y(l(u), t)) + sum;
    }
  }
  // Backward.
  std::fill(log_beta, log_beta + num_t * num_u, LogZero<T>());
  for (int64_t u = std::max<int64_t>(0, num_u - 2); u < num_u; ++u) beta(u, num_t - 1) = 0;
  for (int64_t t = num_t - 2; t >= 0; --t) {
    for (int64_t u = std::max<int64_t>(0, num_u - 2 * (num_t - t));
         u < std::min<int64_t>(num_u, 2 * (t + 1)); ++u) {
      if (merge_repeated || l(u) == blank) {
        beta(u, t) = LogSumExp(beta(u, t), beta(u, t + 1) + std::log(Y(l(u), t + 1)));
      }
      if (u + 1 < num_u) {
        beta(u, t) = LogSumExp(beta(u, t), beta(u + 1, t + 1) + std::log(Y(l(u + 1), t + 1)));
      }
      if (u + 2 < num_u && l(u) != blank && !(merge_repeated && l(u) == l(u + 2))) {
        beta(u, t) = LogSumExp(beta(u, t), beta(u + 2, t + 1) + std::log(Y(l(u + 2), t + 1)));
      }
    }
  }
  T log_p = LogZero<T>();
  for (int64_t u = 0; u < num_u; ++u) log_p = LogSumExp(log_p, alpha(u, 0) + beta(u, 0));

  for (int64_t t = 0; t < num_t; ++t) {
    T* grad = gradient + t * stride;
    if (log_p == LogZero<T>()) {
      // No path can emit the label: TensorFlow's gradient is the softmax alone.
      std::copy(y + t * num_classes, y + (t + 1) * num_classes, grad);
      continue;
    }
    std::fill(prob_sum, prob_sum + num_classes, LogZero<T>());
    for (int64_t u = 0; u < num_u; ++u) {
      prob_sum[l(u)] = LogSumExp(prob_sum[l(u)], alpha(u, t) + beta(u, t));
    }
    for (int c = 0; c < num_classes; ++c) {
      grad[c] = Y(c, t) - std::exp(static_cast<float>(prob_sum[c] - log_p));
    }
  }
  return -log_p;
}

template float LossAndGradient<float>(const float*, int64_t, int64_t, int,
                                      absl::Span<const int32_t>, bool, float*, float*);
template double LossAndGradient<double>(const double*, int64_t, int64_t, int,
                                        absl::Span<const int32_t>, bool, double*, double*);

}  // namespace ctc
}  // namespace sluice
