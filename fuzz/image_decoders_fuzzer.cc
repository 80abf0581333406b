// image_decoders_fuzzer: untrusted bytes into the decoding kernels, the ops that parse files a
// user hands a graph: DecodeImage, DecodePng, DecodeJpeg, DecodeAndCropJpeg, ExtractJpegShape,
// DecodeGif, DecodeBmp (kernels/cpu/image/decode_image_ops.cc) and DecodeWav
// (kernels/cpu/audio/wav_ops.cc).
//
// Input: a 4-byte header, then the file.
//   byte 0: the op, modulo 8 (kOps below).
//   byte 1: bits 0-1 channels {0, 1, 3, 4}; bits 2-3 DecodeImage's dtype {uint8, uint16,
//           float, uint8} (DecodePng's: uint16 when bit 2 is set); bit 4 expand_animations;
//           bits 5-6 ratio {1, 2, 4, 8}; bit 7 fancy_upscaling.
//   byte 2: bit 0 try_recover_truncated; bits 1-2 dct_method {"", INTEGER_FAST,
//           INTEGER_ACCURATE, ""}; bits 3-4 acceptable_fraction {1, 0.5, 0, 1}; bits 5-7
//           DecodeWav's desired_channels minus one (-1 to 6).
//   byte 3: DecodeAndCropJpeg's crop window (y, x, height, width: two bits each, height and
//           width plus one); DecodeWav's desired_samples plus one (-1 to 254).
// The attrs are the ones a graph may set; values the OpDef refuses are not drawn, since what
// is fuzzed here is the parsing of the contents.
//
// The graph (a Const of the contents, the op) is imported with its shape functions, and the
// kernel runs on the host through HostConstantEvaluator, as constant folding would run it.
//
// Properties: nothing crashes; an error is INVALID_ARGUMENT (bad data), UNIMPLEMENTED (WebP)
// or RESOURCE_EXHAUSTED (an image larger than the allocator serves); a decoded image has the
// op's rank (4 for DecodeGif's frames and DecodeImage's animations, 3 otherwise) and the
// channels asked for; ExtractJpegShape gives three positive numbers; DecodeWav gives the
// samples and channels asked for.
#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "fuzz/fuzz_check.h"
#include "fuzz/fuzz_logging.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_proto.h"
#include "graph/core/tensor_shape.h"
#include "graph/core/tensor_types.h"
#include "graph/core/types.h"
#include "graph/graph.h"
#include "graph/import/graph_constructor.h"
#include "graph/op/node_def_util.h"
#include "graph/op/op_registry.h"
#include "proto/graph.pb.h"
#include "runtime/session/host_constant_evaluator.h"

namespace sluice {
namespace fuzz {
namespace {

constexpr const char* kOps[] = {"DecodeImage",      "DecodePng", "DecodeJpeg",
                                "DecodeGif",        "DecodeBmp", "DecodeAndCropJpeg",
                                "ExtractJpegShape", "DecodeWav"};
constexpr size_t kHeader = 4;

struct Case {
  std::string op;
  int channels = 0;           // 0 for DecodeGif and ExtractJpegShape
  DataType dtype = DT_UINT8;  // of the image
  bool expand_animations = true;
  int desired_channels = -1;
  int desired_samples = -1;
};

bool IsJpegOp(const std::string& op) { return op == "DecodeJpeg" || op == "DecodeAndCropJpeg"; }

// The Const of the contents, the op's node, and what it was asked for.
GraphDef MakeGraph(const uint8_t* header, absl::string_view contents, Case* c) {
  c->op = kOps[header[0] % 8];
  static constexpr int kChannels[] = {0, 1, 3, 4};
  static constexpr DataType kDtypes[] = {DT_UINT8, DT_UINT16, DT_FLOAT, DT_UINT8};
  static constexpr float kFractions[] = {1.0f, 0.5f, 0.0f, 1.0f};
  static constexpr const char* kDct[] = {"", "INTEGER_FAST", "INTEGER_ACCURATE", ""};
  GraphDef graph;
  Tensor data(DT_STRING, TensorShape({}));
  data.scalar<std::string>()() = std::string(contents);
  *graph.add_node() = MakeConstNodeDef("contents", data, "");
  NodeDef* node = graph.add_node();
  node->set_name("decode");
  node->set_op(c->op);
  node->add_input("contents");
  if (c->op == "DecodeWav") {
    c->desired_channels = (header[2] >> 5) - 1;
    c->desired_samples = header[3] - 1;
    AddNodeAttr("desired_channels", int64_t{c->desired_channels}, node);
    AddNodeAttr("desired_samples", int64_t{c->desired_samples}, node);
    return graph;
  }
  if (c->op == "ExtractJpegShape") return graph;
  if (c->op != "DecodeGif") {
    c->channels = kChannels[header[1] & 3];
    AddNodeAttr("channels", int64_t{c->channels}, node);
  }
  if (c->op == "DecodeImage") {
    c->dtype = kDtypes[(header[1] >> 2) & 3];
    c->expand_animations = (header[1] >> 4) & 1;
    AddNodeAttr("dtype", c->dtype, node);
    AddNodeAttr("expand_animations", c->expand_animations, node);
  }
  if (c->op == "DecodePng") {
    c->dtype = (header[1] >> 2) & 1 ? DT_UINT16 : DT_UINT8;
    AddNodeAttr("dtype", c->dtype, node);
  }
  if (IsJpegOp(c->op)) {
    AddNodeAttr("ratio", int64_t{1} << ((header[1] >> 5) & 3), node);
    AddNodeAttr("fancy_upscaling", static_cast<bool>(header[1] >> 7), node);
    AddNodeAttr("try_recover_truncated", static_cast<bool>(header[2] & 1), node);
    AddNodeAttr("dct_method", std::string(kDct[(header[2] >> 1) & 3]), node);
    AddNodeAttr("acceptable_fraction", kFractions[(header[2] >> 3) & 3], node);
  }
  if (c->op == "DecodeAndCropJpeg") {
    Tensor window(DT_INT32, TensorShape({4}));
    auto w = window.flat<int32_t>();
    w(0) = header[3] >> 6;
    w(1) = (header[3] >> 4) & 3;
    w(2) = ((header[3] >> 2) & 3) + 1;
    w(3) = (header[3] & 3) + 1;
    *graph.add_node() = MakeConstNodeDef("crop_window", window, "");
    node->add_input("crop_window");
  }
  return graph;
}

bool DocumentedCode(const absl::Status& status) {
  switch (status.code()) {
    case absl::StatusCode::kInvalidArgument:
    case absl::StatusCode::kUnimplemented:
    case absl::StatusCode::kResourceExhausted:
      return true;
    default:
      return false;
  }
}

void CheckImage(const Case& c, const Tensor& image) {
  const std::string detail = absl::StrCat(c.op, " gave ", image.shape().DebugString());
  const int rank = image.dims();
  const bool animated = c.op == "DecodeGif" || (c.op == "DecodeImage" && c.expand_animations);
  FuzzCheck(rank == 3 || (rank == 4 && animated), "an image has the op's rank", detail);
  FuzzCheck(image.dtype() == c.dtype, "an image has the dtype asked for", detail);
  if (rank == 0) return;
  const int64_t channels = image.dim_size(rank - 1);
  if (c.op == "DecodeGif") {
    FuzzCheck(channels == 3, "GIF frames are RGB", detail);
  } else if (c.channels != 0) {
    FuzzCheck(channels == c.channels, "an image has the channels asked for", detail);
  } else {
    FuzzCheck(channels >= 1 && channels <= 4, "an image has 1 to 4 channels", detail);
  }
}

void CheckOutputs(const Case& c, const std::vector<Tensor>& values) {
  if (c.op == "DecodeWav") {
    FuzzCheck(values.size() == 2, "DecodeWav has two outputs");
    const Tensor& audio = values[0];
    const std::string detail = absl::StrCat("audio ", audio.shape().DebugString());
    FuzzCheck(audio.dtype() == DT_FLOAT && audio.dims() == 2, "audio is a float matrix", detail);
    FuzzCheck(values[1].dtype() == DT_INT32 && values[1].dims() == 0,
              "the sample rate is an int32 scalar");
    if (audio.dims() != 2) return;
    if (c.desired_samples >= 0) {
      FuzzCheck(audio.dim_size(0) == c.desired_samples, "audio has the samples asked for", detail);
    }
    if (c.desired_channels > 0) {
      FuzzCheck(audio.dim_size(1) == c.desired_channels, "audio has the channels asked for",
                detail);
    }
    return;
  }
  FuzzCheck(values.size() == 1, "a decoding op has one output", c.op);
  if (c.op == "ExtractJpegShape") {
    const Tensor& shape = values[0];
    FuzzCheck(shape.dtype() == DT_INT32 && shape.shape() == TensorShape({3}),
              "ExtractJpegShape gives three int32s", shape.DebugString());
    if (shape.NumElements() != 3) return;
    const auto s = shape.flat<int32_t>();
    FuzzCheck(s(0) > 0 && s(1) > 0 && s(2) > 0, "a JPEG's shape is positive", shape.DebugString());
    return;
  }
  CheckImage(c, values[0]);
}

void RunOne(const uint8_t* data, size_t size) {
  if (size < kHeader) return;
  Case c;
  const GraphDef graph_def = MakeGraph(
      data, absl::string_view(reinterpret_cast<const char*>(data) + kHeader, size - kHeader), &c);
  LogGraph(graph_def.DebugString());
  Graph graph(OpRegistry::Global());
  GraphConstructorOptions import_options;
  import_options.validate_shape = true;
  const absl::Status imported = ConvertGraphDefToGraph(import_options, graph_def, &graph);
  if (!imported.ok()) return LogCase("import", c.op, imported);
  std::vector<const Node*> nodes;
  const Node* op = nullptr;
  for (const Node* node : graph.op_nodes()) {
    // The Consts first: the evaluator runs the nodes in the order given.
    if (node->name() == "decode") {
      op = node;
    } else {
      nodes.push_back(node);
    }
  }
  FuzzCheck(op != nullptr, "the graph holds the op");
  nodes.push_back(op);
  HostConstantEvaluator evaluator;
  FuzzCheck(evaluator.CanEvaluate(*op), "the op has a CPU kernel in this binary", c.op);
  std::vector<std::pair<const Node*, int>> outputs;
  for (int i = 0; i < op->num_outputs(); ++i) outputs.emplace_back(op, i);
  std::vector<Tensor> values;
  const absl::Status evaluated = evaluator.Evaluate(nodes, outputs, &values);
  LogCase("evaluate", c.op, evaluated);
  if (!evaluated.ok()) {
    FuzzCheck(DocumentedCode(evaluated), "a decoding op fails with a documented code",
              evaluated.ToString());
    return;
  }
  CheckOutputs(c, values);
}

}  // namespace
}  // namespace fuzz
}  // namespace sluice

extern "C" int LLVMFuzzerInitialize(int* /*argc*/, char*** /*argv*/) {
  sluice::fuzz::QuietLogs();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  sluice::fuzz::RunOne(data, size);
  return 0;
}
