#include "tests/saved_model/saved_model_expectations.h"

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "graph/core/errors.h"
#include "graph/core/tensor_proto.h"
#include "graph/core/tensor_types.h"
#include "graph/import/graph_def_io.h"
#include "proto/graph.pb.h"

namespace sluice {
namespace saved_model_test {

std::string ModelDir(const std::string& model) {
  return absl::StrCat("tests/saved_model/models/", model);
}

absl::StatusOr<std::map<std::string, RecordedRun>> ReadExpectations(const std::string& model) {
  GraphDef recorded;
  RETURN_IF_ERROR(ReadTextProtoFile(ModelDir(model) + ".expected.pbtxt", &recorded));
  std::map<std::string, RecordedRun> runs;
  for (const NodeDef& node : recorded.node()) {
    // "input/<run>/<key>" or "output/<run>/<key>"; keys never hold '/'.
    const std::vector<std::string> parts = absl::StrSplit(node.name(), '/');
    if (parts.size() != 3 || (parts[0] != "input" && parts[0] != "output")) {
      return errors::InvalidArgument("Unexpected node ", node.name(), " in ", model);
    }
    Tensor value;
    RETURN_IF_ERROR(TensorFromProto(node.attr().at("value").tensor(), &value));
    RecordedRun& run = runs[parts[1]];
    (parts[0] == "input" ? run.inputs : run.outputs)[parts[2]] = value;
  }
  return runs;
}

namespace {

// Floats as integers that order as the floats do, so that their difference counts ulps.
int64_t OrderedBits(float value) {
  int32_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  return bits < 0 ? -static_cast<int64_t>(bits & 0x7fffffff) : bits;
}

}  // namespace

std::string Difference(const Tensor& actual, const Tensor& expected, int float_ulps) {
  if (actual.dtype() != expected.dtype()) {
    return absl::StrCat("dtype ", DataTypeString(actual.dtype()), " instead of ",
                        DataTypeString(expected.dtype()));
  }
  if (actual.shape() != expected.shape()) {
    return absl::StrCat("shape ", actual.shape().DebugString(), " instead of ",
                        expected.shape().DebugString());
  }
  if (actual.dtype() == DT_STRING) {
    for (int64_t i = 0; i < actual.NumElements(); ++i) {
      if (actual.flat<std::string>()(i) != expected.flat<std::string>()(i)) {
        return absl::StrCat("element ", i, ": \"", actual.flat<std::string>()(i),
                            "\" instead of \"", expected.flat<std::string>()(i), "\"");
      }
    }
    return "";
  }
  if (actual.dtype() == DT_FLOAT && float_ulps > 0) {
    for (int64_t i = 0; i < actual.NumElements(); ++i) {
      const float a = actual.flat<float>()(i);
      const float e = expected.flat<float>()(i);
      const int64_t ulps = std::abs(OrderedBits(a) - OrderedBits(e));
      if (std::isnan(a) != std::isnan(e) || (!std::isnan(a) && ulps > float_ulps)) {
        return absl::StrCat("element ", i, ": ", a, " instead of ", e, " (", ulps, " ulps)");
      }
    }
    return "";
  }
  if (actual.tensor_data() != expected.tensor_data()) {
    return absl::StrCat("values ", actual.SummarizeValue(16), " instead of ",
                        expected.SummarizeValue(16));
  }
  return "";
}

}  // namespace saved_model_test
}  // namespace sluice
