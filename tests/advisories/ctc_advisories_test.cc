// Advisories of the CTC ops: CTCGreedyDecoder, CTCBeamSearchDecoder and CTCLoss, given inputs
// with no classes or no time steps, negative sequence lengths or label indices. Expectations
// are TensorFlow 2.21's, from check_with_tensorflow.py.
#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "gtest/gtest.h"
#include "tests/advisories/advisory_case.h"

namespace sluice {
namespace advisories {
namespace {

constexpr absl::StatusCode kInvalid = absl::StatusCode::kInvalidArgument;

TEST(Advisories, Tfsa2021_032_CTCGreedyDecoderNegativeLength) {
  // A sequence length of -100 (and no classes) failed a CHECK.
  AdvisoryCase c("CTCGreedyDecoder");
  c.Input(Zeros(DT_FLOAT, {18, 2, 0})).Input(Values<int32_t>({-100, 17}));
  c.Attr("T", DT_FLOAT).Attr("merge_repeated", false);
  ExpectFailsBothWays(c, kInvalid, "inputs must not be empty");
}

TEST(Advisories, Tfsa2021_069_CTCBeamSearchDecoderNoClasses) {
  // Inputs with no classes were read through a null buffer.
  AdvisoryCase c("CTCBeamSearchDecoder");
  c.Input(Zeros(DT_FLOAT, {18, 8, 0}))
      .Input(Values<int32_t>({11, -43, -92, 11, -89, -83, -35, -100}));
  c.Attr("T", DT_FLOAT).Attr("beam_width", int64_t{10}).Attr("top_paths", int64_t{3});
  c.Attr("merge_repeated", true);
  ExpectFailsBothWays(c, kInvalid, "inputs must not be empty");
}

AdvisoryCase CTCLoss(std::vector<int64_t> inputs, Tensor indices, Tensor labels,
                     std::vector<int32_t> lengths, bool collapse, bool ignore_longer) {
  AdvisoryCase c("CTCLoss");
  c.Input(Zeros(DT_FLOAT, inputs)).Input(std::move(indices)).Input(std::move(labels));
  c.Input(Values<int32_t>(std::move(lengths)));
  c.Attr("T", DT_FLOAT).Attr("preprocess_collapse_repeated", collapse);
  c.Attr("ctc_merge_repeated", false).Attr("ignore_longer_outputs_than_inputs", ignore_longer);
  return c;
}

TEST(Advisories, Tfsa2021_101_CTCLossInvalidInputs) {
  // No classes with label indices of no columns (an OOB read); label indices of -100 (a heap
  // overflow); no time steps with lengths of -100 (a null dereference).
  ExpectFailsBothWays(
      CTCLoss({10, 16, 0}, Zeros(DT_INT64, {8, 0}), Values<int32_t>(std::vector<int32_t>(8, -100)),
              std::vector<int32_t>(16, -100), true, true),
      kInvalid, "labels_indices second dimension must be >= 1. Received 0");
  ExpectFailsBothWays(CTCLoss({7, 2, 0}, Values<int64_t>({-100, -100}, {2, 1}),
                              Values<int32_t>({-100, -100}), {-100, -100}, false, false),
                      kInvalid, "labels_indices second dimension must be >= 1. Received 1");
  ExpectFailsBothWays(
      CTCLoss({0, 2, 11}, Zeros(DT_INT64, {0, 2}), Values<int32_t>({}), {-100, -100}, false, false),
      kInvalid, "Max time or first dimension of input cannot be 0.");
}

}  // namespace
}  // namespace advisories
}  // namespace sluice
