// What TensorFlow computed for the SavedModels of tests/saved_model (gen_saved_models.py):
// per recorded run, the tensors fed through a signature's input keys and those its output
// keys returned, read from models/<model>.expected.pbtxt.
#ifndef SLUICE_TESTS_SAVED_MODEL_SAVED_MODEL_EXPECTATIONS_H_
#define SLUICE_TESTS_SAVED_MODEL_SAVED_MODEL_EXPECTATIONS_H_

#include <map>
#include <string>

#include "absl/status/statusor.h"
#include "graph/core/tensor.h"

namespace sluice {
namespace saved_model_test {

struct RecordedRun {
  std::map<std::string, Tensor> inputs;   // by signature input key
  std::map<std::string, Tensor> outputs;  // by signature output key
};

// The model's recorded runs, by the name the generator gave each (a signature key, or for a
// model with several tag sets, the tag set's name).
absl::StatusOr<std::map<std::string, RecordedRun>> ReadExpectations(const std::string& model);

// How far keras_mlp's float outputs may be from the recorded ones: TensorFlow's own results
// for it move with the CPU's vector width (7 ulps between an AVX2 machine, where they were
// recorded, and an AVX-512 one), and Sluice's float Softmax (oneDNN's primitive) rounds a
// few values an ulp away from TensorFlow's Eigen kernel.
constexpr int kKerasMlpFloatUlps = 16;

// The directory of a model (relative to the test's working directory).
std::string ModelDir(const std::string& model);

// Empty when `actual` has `expected`'s dtype, shape and every value bit for bit (strings
// byte for byte), or for float tensors within `float_ulps` units in the last place; otherwise
// what differs.
std::string Difference(const Tensor& actual, const Tensor& expected, int float_ulps = 0);

}  // namespace saved_model_test
}  // namespace sluice

#endif  // SLUICE_TESTS_SAVED_MODEL_SAVED_MODEL_EXPECTATIONS_H_
