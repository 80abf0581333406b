// Writes an event file the way a Sluice user would: a graph of summary ops (built with the C++
// API), run for steps 0, 1 and 2 by a session, each step's merged Summary recorded by
// EventWriter. check_with_tensorboard.py then reads the folder with TensorBoard's own reader.
//
//   write_summary_events LOGDIR
//
// What each step records (the checker recomputes the same values):
//   loss              ScalarSummary of 1 / (step + 1)
//   weights           HistogramSummary of (i - 5) / 10 + step, i = 0..10 (float)
//   pixels/image/0,1  ImageSummary of a uint8 [2, 4, 5, 3] batch, pixel p of image b = (p * 7 +
//                     b * 50 + step) mod 256
//   accuracy          TensorSummaryV2 of the float scalar 0.5 + step / 10, plugin "scalars"
//   matrix            TensorSummaryV2 of the int32 [[step, 1], [2, 3]], plugin "sluice_matrix"
//   sound/audio       AudioSummaryV2 of 100 samples sin(i / 10) / 2 + step / 10 at 8000 Hz
// Prints the event file's path.
#include <cmath>
#include <cstdint>
#include <iostream>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "cc_api/client_session.h"
#include "cc_api/standard_ops.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_shape.h"
#include "graph/core/tensor_types.h"
#include "io/event_writer.h"
#include "proto/summary.pb.h"

namespace sluice {
namespace {

std::string Metadata(const std::string& plugin) {
  SummaryMetadata metadata;
  metadata.mutable_plugin_data()->set_plugin_name(plugin);
  return metadata.SerializeAsString();
}

absl::Status Run(const std::string& logdir) {
  using namespace ops;  // NOLINT(build/namespaces)
  Scope root = Scope::NewRootScope();
  auto loss = Placeholder(root, DT_FLOAT);
  auto weights = Placeholder(root, DT_FLOAT);
  auto pixels = Placeholder(root, DT_UINT8);
  auto accuracy = Placeholder(root, DT_FLOAT);
  auto matrix = Placeholder(root, DT_INT32);
  auto sound = Placeholder(root, DT_FLOAT);
  auto merged = MergeSummary(
      root,
      {ScalarSummary(root, std::string("loss"), loss),
       HistogramSummary(root, std::string("weights"), weights),
       ImageSummary(root, std::string("pixels"), pixels, ImageSummary::MaxImages(2)),
       TensorSummaryV2(root, std::string("accuracy"), accuracy, Metadata("scalars")),
       TensorSummaryV2(root, std::string("matrix"), matrix, Metadata("sluice_matrix")),
       AudioSummary(root, std::string("sound"), sound, 8000.0f, AudioSummary::MaxOutputs(1))});
  if (!root.status().ok()) return root.status();
  ClientSession session(root);

  auto writer = EventWriter::Create(logdir);
  if (!writer.ok()) return writer.status();
  for (int step = 0; step < 3; ++step) {
    Tensor weights_value(DT_FLOAT, TensorShape({11}));
    for (int i = 0; i < 11; ++i) weights_value.flat<float>()(i) = (i - 5) / 10.0f + step;
    Tensor pixels_value(DT_UINT8, TensorShape({2, 4, 5, 3}));
    for (int b = 0; b < 2; ++b) {
      for (int p = 0; p < 60; ++p) {
        pixels_value.flat<uint8_t>()(b * 60 + p) =
            static_cast<uint8_t>((p * 7 + b * 50 + step) % 256);
      }
    }
    Tensor matrix_value(DT_INT32, TensorShape({2, 2}));
    matrix_value.flat<int32_t>().setValues({step, 1, 2, 3});
    Tensor sound_value(DT_FLOAT, TensorShape({1, 100}));
    for (int i = 0; i < 100; ++i) {
      sound_value.flat<float>()(i) = std::sin(i / 10.0f) / 2.0f + step / 10.0f;
    }
    std::vector<Tensor> outputs;
    absl::Status status = session.Run({{loss, Input::Initializer(1.0f / (step + 1))},
                                       {weights, weights_value},
                                       {pixels, pixels_value},
                                       {accuracy, Input::Initializer(0.5f + step / 10.0f)},
                                       {matrix, matrix_value},
                                       {sound, sound_value}},
                                      {merged}, &outputs);
    if (!status.ok()) return status;
    status = (*writer)->WriteSerializedSummary(step, outputs[0].scalar<std::string>()());
    if (!status.ok()) return status;
    // TensorBoard reads the file as it grows: each step is flushed.
    status = (*writer)->Flush();
    if (!status.ok()) return status;
  }
  std::cout << (*writer)->path() << "\n";
  return (*writer)->Close();
}

}  // namespace
}  // namespace sluice

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: " << argv[0] << " LOGDIR\n";
    return 2;
  }
  const absl::Status status = sluice::Run(argv[1]);
  if (!status.ok()) {
    std::cerr << "write_summary_events: " << status << "\n";
    return 1;
  }
  return 0;
}
