// Writes the inputs tests/board feeds testdata/board_model.pbtxt: DIR/step_0.npy,
// step_1.npy and step_2.npy, each a float [2, 4, 5, 3] batch whose element at flat position
// i is (i % 7) - 2 + step, so every step has negative values and zeros (NaN and -Inf after
// the model's Log) and step s is step 0 shifted by s.
//
//   make_board_inputs DIR
#include <iostream>
#include <string>

#include "absl/status/status.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_types.h"
#include "io/event_writer.h"
#include "io/npy.h"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: " << argv[0] << " DIR\n";
    return 2;
  }
  const std::string dir = argv[1];
  absl::Status status = sluice::RecursivelyCreateDir(dir);
  for (int step = 0; status.ok() && step < 3; ++step) {
    sluice::Tensor x(sluice::DT_FLOAT, sluice::TensorShape({2, 4, 5, 3}));
    for (int64_t i = 0; i < x.NumElements(); ++i) {
      x.flat<float>()(i) = static_cast<float>(i % 7 - 2 + step);
    }
    status = sluice::WriteNpyFile(dir + "/step_" + std::to_string(step) + ".npy", x);
  }
  if (!status.ok()) {
    std::cerr << "make_board_inputs: " << status << "\n";
    return 1;
  }
  return 0;
}
