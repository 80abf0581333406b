// Runs a fixture model (tests/fixture_manifest.h) in a Session and checks TensorFlow's outputs:
// the same dtype and shape, values within the manifest's tolerance (exact for integers and
// bools). gtest assertions report every mismatch, traced with the file and the fetch.
#ifndef SLUICE_TESTS_FIXTURE_RUNNER_H_
#define SLUICE_TESTS_FIXTURE_RUNNER_H_

#include <string>

#include "proto/graph.pb.h"
#include "runtime/device/session_options.h"
#include "tests/fixture_manifest.h"

namespace sluice {
namespace fixtures {

// Loads `path` (the model's binary or text GraphDef), feeds its inputs and compares its
// fetches with TensorFlow's, in a session made with `options`.
void ExpectModelMatchesTensorFlow(const FixtureModel& model, const std::string& path,
                                  const SessionOptions& options = SessionOptions());

// The same for a GraphDef already read (and perhaps rewritten: placed, say), named `label`
// in failure traces.
void ExpectGraphMatchesTensorFlow(const FixtureModel& model, const GraphDef& graph,
                                  const std::string& label,
                                  const SessionOptions& options = SessionOptions());

}  // namespace fixtures
}  // namespace sluice

#endif  // SLUICE_TESTS_FIXTURE_RUNNER_H_
