#include "tests/gpu/gpu_test_util.h"

#include <cmath>
#include <random>

#include "absl/strings/str_cat.h"
#include "google/protobuf/text_format.h"
#include "graph/core/tensor_types.h"
#include "graph/core/types.h"

namespace sluice {
namespace gpu_test {

bool HasGpu() {
  static const bool has_gpu = [] {
    std::unique_ptr<Session> session;
    if (!NewSession(SessionOptions(), &session).ok()) return false;
    std::vector<DeviceAttributes> devices;
    if (!session->ListDevices(&devices).ok()) return false;
    for (const DeviceAttributes& device : devices) {
      if (device.device_type() == "GPU") return true;
    }
    return false;
  }();
  return has_gpu;
}

SessionOptions UnfoldedOptions() {
  SessionOptions options;
  options.config.mutable_graph_options()->mutable_optimizer_options()->set_opt_level(
      OptimizerOptions::L0);
  return options;
}

std::unique_ptr<Session> NewSessionOrDie(const SessionOptions& options) {
  std::unique_ptr<Session> session;
  const absl::Status status = NewSession(options, &session);
  CHECK(status.ok()) << status;
  return session;
}

GraphDef ParseGraphOrDie(const std::string& text) {
  GraphDef graph;
  CHECK(google::protobuf::TextFormat::ParseFromString(text, &graph)) << text;
  return graph;
}

GraphDef PinnedTo(const GraphDef& graph, const std::string& device) {
  GraphDef pinned = graph;
  for (NodeDef& node : *pinned.mutable_node()) {
    // Feeds stay where the session puts them; everything else goes to `device`.
    if (node.device().empty() && node.op() != "Placeholder") node.set_device(device);
  }
  return pinned;
}

Tensor RandomTensor(DataType dtype, const TensorShape& shape, uint64_t seed, float lo, float hi) {
  Tensor t(dtype, shape);
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<float> dist(lo, hi);
  for (int64_t i = 0; i < t.NumElements(); ++i) {
    const float v = dist(rng);
    switch (dtype) {
      case DT_FLOAT:
        t.flat<float>()(i) = v;
        break;
      case DT_HALF:
        t.flat<half>()(i) = static_cast<half>(v);
        break;
      case DT_BFLOAT16:
        t.flat<bfloat16>()(i) = static_cast<bfloat16>(v);
        break;
      case DT_DOUBLE:
        t.flat<double>()(i) = v;
        break;
      default:
        LOG(FATAL) << "RandomTensor: unsupported dtype " << DataTypeString(dtype);
    }
  }
  return t;
}

std::vector<Tensor> RunOn(const GraphDef& graph, const std::string& device,
                          const std::vector<std::pair<std::string, Tensor>>& feeds,
                          const std::vector<std::string>& fetches) {
  std::unique_ptr<Session> session = NewSessionOrDie();
  absl::Status status = session->Create(PinnedTo(graph, device));
  EXPECT_TRUE(status.ok()) << status;
  std::vector<Tensor> outputs;
  status = session->Run(feeds, fetches, {}, &outputs);
  EXPECT_TRUE(status.ok()) << device << ": " << status;
  return outputs;
}

std::vector<double> AsDoubles(const Tensor& t) {
  std::vector<double> values;
  values.reserve(t.NumElements());
  for (int64_t i = 0; i < t.NumElements(); ++i) {
    switch (t.dtype()) {
      case DT_FLOAT:
        values.push_back(t.flat<float>()(i));
        break;
      case DT_HALF:
        values.push_back(static_cast<float>(t.flat<half>()(i)));
        break;
      case DT_BFLOAT16:
        values.push_back(static_cast<float>(t.flat<bfloat16>()(i)));
        break;
      case DT_DOUBLE:
        values.push_back(t.flat<double>()(i));
        break;
      case DT_INT32:
        values.push_back(t.flat<int32_t>()(i));
        break;
      case DT_INT64:
        values.push_back(static_cast<double>(t.flat<int64_t>()(i)));
        break;
      default:
        LOG(FATAL) << "AsDoubles: unsupported dtype " << DataTypeString(t.dtype());
    }
  }
  return values;
}

void ExpectClose(const Tensor& expected, const Tensor& actual, double abs_tol, double rel_tol,
                 const std::string& what) {
  ASSERT_EQ(expected.dtype(), actual.dtype()) << what;
  ASSERT_EQ(expected.shape(), actual.shape()) << what;
  const std::vector<double> e = AsDoubles(expected);
  const std::vector<double> a = AsDoubles(actual);
  int64_t bad = 0;
  int64_t worst = -1;
  double worst_excess = 0;
  for (size_t i = 0; i < e.size(); ++i) {
    if (std::isnan(e[i]) && std::isnan(a[i])) continue;
    if (std::isinf(e[i]) || std::isinf(a[i])) {
      if (e[i] != a[i]) ++bad, worst = i, worst_excess = INFINITY;
      continue;
    }
    const double excess = std::abs(e[i] - a[i]) - (abs_tol + rel_tol * std::abs(e[i]));
    if (!(excess <= 0)) {
      ++bad;
      if (!(excess <= worst_excess)) worst = i, worst_excess = excess;
    }
  }
  EXPECT_EQ(bad, 0) << what << ": " << bad << " of " << e.size() << " elements differ; worst at "
                    << worst << ": expected " << (worst >= 0 ? e[worst] : 0) << ", got "
                    << (worst >= 0 ? a[worst] : 0);
}

}  // namespace gpu_test
}  // namespace sluice
