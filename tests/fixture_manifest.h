// The fixtures that tests/fixtures/gen_graphdefs.py made with TensorFlow, as listed in
// tests/fixtures/manifest.txt.
//
// The manifest is line-based so that C++ and Python read it without a JSON library:
//
//   # comments
//   model NAME BINARY_PB TEXT_PBTXT TOLERANCE
//     feed NODE DTYPE SHAPE NPY        (a Placeholder and its input value)
//     fetch NODE DTYPE SHAPE NPY       (an output of node NODE and TensorFlow's value of it)
//
// DTYPE is numpy's name ("float32", "int64"); SHAPE is "[2,3]" ("[]" for a scalar); file
// names are relative to the manifest's folder, and the paths below are made absolute.
// Tests run with the runfiles root as their working directory, so FixturesDir() is simply
// "tests/fixtures" there.
#ifndef SLUICE_TESTS_FIXTURE_MANIFEST_H_
#define SLUICE_TESTS_FIXTURE_MANIFEST_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "proto/types.pb.h"

namespace sluice {
namespace fixtures {

struct FixtureTensor {
  std::string node;
  std::string dtype;  // numpy's name
  std::vector<int64_t> shape;
  std::string npy_path;
};

struct FixtureModel {
  std::string name;
  std::string pb_path;     // the bytes TensorFlow wrote, binary
  std::string pbtxt_path;  // the same graph, in TensorFlow's text format
  double tolerance = 0;    // max abs difference an implementation may show; 0 means exact
  std::vector<FixtureTensor> feeds;
  std::vector<FixtureTensor> fetches;
};

// The folder holding the fixtures, relative to the test's working directory.
std::string FixturesDir();

// Reads `dir`/manifest.txt. INVALID_ARGUMENT naming the line for anything malformed.
absl::Status ReadFixtureManifest(const std::string& dir, std::vector<FixtureModel>* models);

// DT_FLOAT for "float32" and so on; INVALID_ARGUMENT for a name with no DataType.
absl::Status DataTypeFromNumpyName(absl::string_view name, DataType* dtype);

}  // namespace fixtures
}  // namespace sluice

#endif  // SLUICE_TESTS_FIXTURE_MANIFEST_H_
