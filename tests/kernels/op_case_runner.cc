// Replays kernel conformance cases recorded from TensorFlow (op_case.proto, written by
// oracle.py) through Sluice's CPU kernels, one GoogleTest test per case.
//
// Usage: a test binary that links this runner, the OpDefs and the kernel libraries under
// test, run with the fixture files as arguments (op_conformance.bzl does this). For each
// case the NodeDef TensorFlow built becomes a kernel on the KernelTest harness's CPU device;
// the recorded inputs are fed; and then either
//  - TensorFlow ran the op: Sluice must too, with the same number of outputs, each of the
//    same dtype and shape, integers/bools/strings equal and floating values within the case's
//    tolerance (NaN where TensorFlow has NaN, the same infinities); or
//  - TensorFlow raised: Sluice must fail with the same code (at kernel construction or at
//    run), and its message must contain error_substr when the case sets one.
#include <cmath>
#include <complex>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_proto.h"
#include "graph/core/tensor_types.h"
#include "graph/core/types.h"
#include "graph/import/graph_def_io.h"
#include "gtest/gtest.h"
#include "kernels/kernel_test_util.h"
#include "tests/kernels/op_case.pb.h"

namespace sluice {
namespace test {
namespace {

// At most this many differing elements are listed per output.
constexpr int kMaxReportedMismatches = 8;

template <typename T>
double AsDouble(T value) {
  return static_cast<double>(static_cast<float>(value));
}
double AsDouble(double value) { return value; }

bool FloatsMatch(double got, double want, double rtol, double atol) {
  if (std::isnan(want)) return std::isnan(got);
  if (std::isinf(want)) return got == want;
  if (std::isnan(got) || std::isinf(got)) return false;
  return std::fabs(got - want) <= atol + rtol * std::fabs(want);
}

// Compares n floating values read through `get(tensor, i)`; returns the mismatches found.
template <typename Get>
std::vector<std::string> CompareFloating(const Tensor& got, const Tensor& want, double rtol,
                                         double atol, Get get) {
  std::vector<std::string> mismatches;
  const int64_t n = want.NumElements();
  for (int64_t i = 0; i < n && mismatches.size() < kMaxReportedMismatches; ++i) {
    const double g = get(got, i);
    const double w = get(want, i);
    if (!FloatsMatch(g, w, rtol, atol)) {
      mismatches.push_back(absl::StrCat("[", i, "] got ", g, ", TensorFlow ", w));
    }
  }
  return mismatches;
}

// Element i of an integer or bool tensor, for messages.
std::string IntegerAt(const Tensor& t, int64_t i) {
  switch (t.dtype()) {
    case DT_BOOL:
      return t.flat<bool>()(i) ? "true" : "false";
    case DT_INT8:
      return absl::StrCat(t.flat<int8_t>()(i));
    case DT_UINT8:
      return absl::StrCat(t.flat<uint8_t>()(i));
    case DT_INT16:
      return absl::StrCat(t.flat<int16_t>()(i));
    case DT_UINT16:
      return absl::StrCat(t.flat<uint16_t>()(i));
    case DT_INT32:
      return absl::StrCat(t.flat<int32_t>()(i));
    case DT_UINT32:
      return absl::StrCat(t.flat<uint32_t>()(i));
    case DT_INT64:
      return absl::StrCat(t.flat<int64_t>()(i));
    case DT_UINT64:
      return absl::StrCat(t.flat<uint64_t>()(i));
    default:
      return "?";
  }
}

std::vector<std::string> CompareValues(const Tensor& got, const Tensor& want, double rtol,
                                       double atol) {
  switch (want.dtype()) {
    case DT_FLOAT:
      return CompareFloating(got, want, rtol, atol, [](const Tensor& t, int64_t i) {
        return AsDouble(t.flat<float>()(i));
      });
    case DT_DOUBLE:
      return CompareFloating(got, want, rtol, atol,
                             [](const Tensor& t, int64_t i) { return t.flat<double>()(i); });
    case DT_HALF:
      return CompareFloating(got, want, rtol, atol, [](const Tensor& t, int64_t i) {
        return AsDouble(t.flat<half>()(i));
      });
    case DT_BFLOAT16:
      return CompareFloating(got, want, rtol, atol, [](const Tensor& t, int64_t i) {
        return AsDouble(t.flat<bfloat16>()(i));
      });
    case DT_COMPLEX64:
    case DT_COMPLEX128: {
      // Real and imaginary parts interleaved, compared as floating values.
      const bool wide = want.dtype() == DT_COMPLEX128;
      auto part = [wide](const Tensor& t, int64_t i) -> double {
        if (wide) {
          const complex128 v = t.flat<complex128>()(i / 2);
          return i % 2 == 0 ? v.real() : v.imag();
        }
        const complex64 v = t.flat<complex64>()(i / 2);
        return i % 2 == 0 ? v.real() : v.imag();
      };
      std::vector<std::string> mismatches;
      for (int64_t i = 0; i < 2 * want.NumElements(); ++i) {
        if (!FloatsMatch(part(got, i), part(want, i), rtol, atol)) {
          mismatches.push_back(absl::StrCat("[", i / 2, (i % 2 ? "].imag" : "].real"), " got ",
                                            part(got, i), ", TensorFlow ", part(want, i)));
          if (mismatches.size() >= kMaxReportedMismatches) break;
        }
      }
      return mismatches;
    }
    case DT_STRING: {
      std::vector<std::string> mismatches;
      for (int64_t i = 0; i < want.NumElements(); ++i) {
        if (got.flat<std::string>()(i) != want.flat<std::string>()(i)) {
          mismatches.push_back(absl::StrCat("[", i, "] got \"", got.flat<std::string>()(i),
                                            "\", TensorFlow \"", want.flat<std::string>()(i),
                                            "\""));
          if (mismatches.size() >= kMaxReportedMismatches) break;
        }
      }
      return mismatches;
    }
    default: {
      // Integers, bools and quantized types: the bytes must be equal.
      const absl::string_view g = got.tensor_data();
      const absl::string_view w = want.tensor_data();
      if (g == w) return {};
      const size_t width = DataTypeSize(want.dtype());
      std::vector<std::string> mismatches;
      for (size_t i = 0; width > 0 && i * width < w.size(); ++i) {
        if (std::memcmp(g.data() + i * width, w.data() + i * width, width) != 0) {
          mismatches.push_back(absl::StrCat("[", i, "] got ", IntegerAt(got, i), ", TensorFlow ",
                                            IntegerAt(want, i)));
          if (mismatches.size() >= kMaxReportedMismatches) break;
        }
      }
      if (mismatches.empty()) mismatches.push_back("byte contents differ");
      return mismatches;
    }
  }
}

class OpCaseTest : public KernelTest {
 public:
  explicit OpCaseTest(const OpCase* op_case) : case_(*op_case) {}

  void TestBody() override {
    SCOPED_TRACE(absl::StrCat("case ", case_.name(), ": ", case_.node().op()));
    absl::Status status = InitOp(case_.node());
    if (status.ok()) {
      // The executor only ever hands a kernel inputs of its signature's types; a fixture
      // that does not is broken.
      ASSERT_EQ(kernel()->num_inputs(), case_.inputs_size()) << "inputs in the fixture";
      for (int i = 0; i < case_.inputs_size(); ++i) {
        Tensor input;
        ASSERT_TRUE(TensorFromProto(case_.inputs(i), &input).ok())
            << "unreadable input " << i << " in the fixture";
        ASSERT_EQ(DataTypeString(input.dtype()), DataTypeString(BaseType(kernel()->input_type(i))))
            << "input " << i << " of the fixture";
        AddInput(input);
      }
      status = RunOpKernel();
    }
    if (case_.error_code() != 0) {
      ExpectError(status);
      return;
    }
    ASSERT_TRUE(status.ok()) << "TensorFlow ran this case; Sluice failed: " << status;
    ASSERT_EQ(kernel()->num_outputs(), case_.outputs_size());
    for (int i = 0; i < case_.outputs_size(); ++i) {
      Tensor want;
      ASSERT_TRUE(TensorFromProto(case_.outputs(i), &want).ok());
      const Tensor* got = GetOutput(i);
      ASSERT_NE(got, nullptr) << "output " << i << " was not set";
      ASSERT_EQ(DataTypeString(got->dtype()), DataTypeString(want.dtype())) << "output " << i;
      ASSERT_EQ(got->shape().DebugString(), want.shape().DebugString()) << "output " << i;
      const std::vector<std::string> mismatches =
          CompareValues(*got, want, case_.rtol(), case_.atol());
      EXPECT_TRUE(mismatches.empty()) << "output " << i << " (rtol " << case_.rtol() << ", atol "
                                      << case_.atol() << "): " << absl::StrJoin(mismatches, "; ");
    }
  }

 private:
  void ExpectError(const absl::Status& status) {
    const auto want = static_cast<absl::StatusCode>(case_.error_code());
    ASSERT_FALSE(status.ok()) << "TensorFlow raised " << absl::StatusCodeToString(want) << ": "
                              << case_.error_message() << "; Sluice succeeded";
    EXPECT_EQ(status.code(), want)
        << "Sluice: " << status << "\nTensorFlow: " << case_.error_message();
    if (!case_.error_substr().empty()) {
      EXPECT_NE(std::string(status.message()).find(case_.error_substr()), std::string::npos)
          << "Sluice's message lacks \"" << case_.error_substr() << "\": " << status;
    }
  }

  const OpCase& case_;
};

std::string FamilyOf(const std::string& path) {
  std::string base = path.substr(path.find_last_of('/') + 1);
  return base.substr(0, base.find('.'));
}

}  // namespace
}  // namespace test
}  // namespace sluice

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  using sluice::test::OpCases;
  // Owned for the whole run: the registered tests point into them.
  static std::vector<std::unique_ptr<OpCases>> fixtures;
  if (argc < 2) {
    fprintf(stderr, "usage: %s FIXTURE.pbtxt...\n", argv[0]);
    return 2;
  }
  for (int i = 1; i < argc; ++i) {
    auto cases = std::make_unique<OpCases>();
    const absl::Status status = sluice::ReadTextProtoFile(argv[i], cases.get());
    if (!status.ok()) {
      fprintf(stderr, "cannot read fixture %s: %s\n", argv[i], status.ToString().c_str());
      return 2;
    }
    const std::string family = sluice::test::FamilyOf(argv[i]);
    for (const sluice::test::OpCase& op_case : cases->cases()) {
      const sluice::test::OpCase* c = &op_case;
      ::testing::RegisterTest(
          family.c_str(), op_case.name().c_str(), nullptr, nullptr, __FILE__, __LINE__,
          [c]() -> ::testing::Test* { return new sluice::test::OpCaseTest(c); });
    }
    fixtures.push_back(std::move(cases));
  }
  return RUN_ALL_TESTS();
}
