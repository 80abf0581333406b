// Feeds: the input tensors of `sluice run` and `sluice benchmark`, from .npy files or made up
// with the input's dtype and shape.
//
//   --input NAME=FILE.npy | NAME=DIR | NAME=random | NAME=zeros   (repeatable)
//   --shape NAME=1,224,224,3                           (repeatable; the shape of a generated
//                                                       input, or the one a .npy must have)
//
// Steps: a folder DIR feeds its .npy files in name order, one per step (each checked as a
// single file would be). With FeedOptions::step_batch B > 0, every value read from a file is
// cut along dim 0 into batches of B rows (the last may be shorter), one per step. Generated
// inputs, and files that make one step, feed the same value every step; inputs that make
// several steps must all make the same number (INVALID_ARGUMENT otherwise, see StepCount).
//
// Every Placeholder without a default that the fetches need and no --input names is fed
// random values, so a model runs with no flags at all. The fetches need a Placeholder when
// it is reached walking back from the fetch nodes over data and control edges, never past a
// tensor the flags name (graph_needs.h): as TensorFlow's session, the CLI ignores the others
// (frozen graphs hold dozens of `unused_control_flow_input*` Placeholders, some of unknown
// rank), so nothing is generated for them and none of them needs a --shape. Generated shapes
// come from --shape, else the Placeholder's shape with unknown dims set to the batch size
// (dim 0) or 1; a needed input of unknown rank needs --shape. Random values are deterministic
// for a seed: floats uniform in [0, 1), integers in [0, 10), bools fair coins.
//
// A tensor named with --input is fed even if the fetches do not need it (TensorFlow accepts
// such feeds), and its description says so; one named only with --shape that the fetches do
// not need is not generated, and is listed in `unneeded`.
//
// Errors: INVALID_ARGUMENT for malformed flags, a --shape or .npy whose shape does not fit the
// Placeholder's, a .npy of another dtype (both are shown), an input of unknown rank without
// --shape, or a name given twice; NOT_FOUND for names the model lacks (listing the inputs
// the fetches need, then the other Placeholders);
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
  int64_t step_batch = 0;       // > 0: cut file values into steps of this many rows
  int64_t max_steps = 1000000;  // more steps from an input is INVALID_ARGUMENT
};

struct Feed {
  std::string tensor;       // canonical tensor name
  std::string description;  // "random float [1,16]", "x.npy float [4,16]"
  Tensor value;             // the first step's
  // One value per step when the input makes more than one step; empty otherwise.
  std::vector<Tensor> step_values;

  const Tensor& ValueAt(int64_t step) const {
    return step_values.empty() ? value : step_values[static_cast<size_t>(step)];
  }
};

// The number of steps `feeds` make: 1 when none makes several, else the count they share.
// INVALID_ARGUMENT naming two inputs whose counts differ.
absl::Status StepCount(const std::vector<Feed>& feeds, int64_t* steps);

// `fetches`: the step's fetches, as tensor names. `unneeded` may be null.
absl::Status BuildFeeds(const GraphDef& graph_def, const std::vector<std::string>& fetches,
                        const FeedOptions& options, std::vector<Feed>* feeds,
                        std::vector<std::string>* unneeded = nullptr);

// "[1,8,8,1]" for a shape's dims.
std::string ShapeString(const TensorShape& shape);

}  // namespace cli
}  // namespace sluice

#endif  // SLUICE_TOOLS_CLI_FEEDS_H_
