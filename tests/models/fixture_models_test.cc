// Every model in tests/fixtures/manifest.txt (frozen by TensorFlow with its inputs and
// outputs) runs in a Session, from the binary and the text GraphDef, and gives TensorFlow's
// outputs: the same dtype and shape, and values within the manifest's tolerance (exact for
// integers).
#include <vector>

#include "gtest/gtest.h"
#include "tests/fixture_manifest.h"
#include "tests/fixture_runner.h"

namespace sluice {
namespace {

using fixtures::FixtureModel;

TEST(FixtureModelsTest, EveryModelGivesTensorFlowsOutputs) {
  std::vector<FixtureModel> models;
  ASSERT_TRUE(fixtures::ReadFixtureManifest(fixtures::FixturesDir(), &models).ok());
  ASSERT_GE(models.size(), 3u);
  for (const FixtureModel& model : models) {
    fixtures::ExpectModelMatchesTensorFlow(model, model.pb_path);
    fixtures::ExpectModelMatchesTensorFlow(model, model.pbtxt_path);
  }
}

}  // namespace
}  // namespace sluice
