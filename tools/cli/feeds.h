// Feeds: the input tensors of `sluice run` and `sluice benchmark`, from .npy files or made up
// with the input's dtype and shape.
//
//   --input NAME=FILE.npy | NAME=random | NAME=zeros   (repeatable)
//   --shape NAME=1,224,224,3                           (repeatable; the shape of a generated
//                                                       input, or the one a .npy must have)
//
// Every Placeholder without a default that no --input names is fed random values, so a model
// runs with no flags at all. Generated shapes come from --shape, else the Placeholder's shape
// with unknown dims set to the batch size (dim 0) or 1; an input of unknown rank needs --shape.
// Random values are deterministic for a seed: floats uniform in [0, 1), integers in [0, 10),
// bools fair coins.
//
// Errors: INVALID_ARGUMENT for malformed flags, a --shape or .npy whose shape does not fit the
// Placeholder's, a .npy of another dtype (both are shown), an input of unknown rank without
// --shape, or a name given twice; NOT_FOUND for names the model lacks (from ResolveInput);
// UNIMPLEMENTED for generating dtypes without numbers (string, resource, variant);
// the .npy reader's errors name the file.
#ifndef SLUICE_TOOLS_CLI_FEEDS_H_
#define SLUICE_TOOLS_CLI_FEEDS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "graph/core/tensor.h"
#include "proto/graph.pb.h"

namespace sluice {
namespace cli {

struct FeedOptions {
  std::vector<std::string> inputs;  // "NAME=SPEC"
  std::vector<std::string> shapes;  // "NAME=D0,D1,..."
  int64_t batch = 1;                // unknown dim 0 of generated inputs
  uint64_t seed = 0;
};

struct Feed {
  std::string tensor;       // canonical tensor name
  std::string description;  // "random float [1,16]", "x.npy float [4,16]"
  Tensor value;
};

absl::Status BuildFeeds(const GraphDef& graph_def, const FeedOptions& options,
                        std::vector<Feed>* feeds);

// "[1,8,8,1]" for a shape's dims.
std::string ShapeString(const TensorShape& shape);

}  // namespace cli
}  // namespace sluice

#endif  // SLUICE_TOOLS_CLI_FEEDS_H_
