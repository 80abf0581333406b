// The GPU model benchmark: per model and batch, the median step of the whole model (input fed
// from the host, output fetched to it) and of its floor graph (only the convolutions and
// matrix products, on device-resident constants, run for a NoOp target), and the GPU
// allocator's peak while the model ran.
#include "tests/gpu/model_bench.h"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <functional>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "graph/core/allocator.h"
#include "graph/core/errors.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_proto.h"
#include "graph/core/tensor_shape.h"
#include "graph/import/graph_def_io.h"
#include "runtime/device/device.h"
#include "runtime/device/device_factory.h"
#include "runtime/device/session_options.h"
#include "runtime/framework/device_type.h"
#include "runtime/session/session.h"
#include "tests/gpu/gpu_test_util.h"

namespace sluice {
namespace gpu_bench {
namespace {

constexpr char kSyntheticMark[] = "_sluice_synthetic";
constexpr int kBatches[] = {1, 64};

struct BenchModel {
  std::string name;
  std::string input;
  std::string output;
  std::vector<int64_t> dims;  // after the batch dim
};

absl::Status ReadManifest(const std::string& dir, std::vector<BenchModel>* models) {
  std::ifstream in(dir + "/manifest.txt");
  if (!in) return errors::NotFound("No ", dir, "/manifest.txt");
  std::string line;
  while (std::getline(in, line)) {
    const std::vector<std::string> fields = absl::StrSplit(line, ' ', absl::SkipEmpty());
    if (fields.empty()) continue;
    if (fields.size() != 4) return errors::InvalidArgument("Bad manifest line: ", line);
    BenchModel model{fields[0], fields[1], fields[2], {}};
    for (absl::string_view d : absl::StrSplit(fields[3], ',')) {
      int64_t size = 0;
      if (!absl::SimpleAtoi(d, &size) || size < 0) {
        return errors::InvalidArgument("Bad dims in manifest line: ", line);
      }
      model.dims.push_back(size);
    }
    models->push_back(model);
  }
  return absl::OkStatus();
}

// The median of `runs` timed calls of `step` (after `warmup` untimed ones), in milliseconds.
absl::Status MedianMillis(int warmup, int runs, const std::function<absl::Status()>& step,
                          double* median) {
  for (int i = 0; i < warmup; ++i) RETURN_IF_ERROR(step());
  std::vector<double> ms;
  for (int i = 0; i < runs; ++i) {
    const auto start = std::chrono::steady_clock::now();
    RETURN_IF_ERROR(step());
    ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
                     .count());
  }
  std::sort(ms.begin(), ms.end());
  *median = ms[ms.size() / 2];
  return absl::OkStatus();
}

// The graph at `path`, its synthetic constants filled, every node pinned to `device`.
absl::Status LoadGraph(const std::string& path, const std::string& device, GraphDef* graph) {
  RETURN_IF_ERROR(ReadBinaryProtoFile(path, graph));
  RETURN_IF_ERROR(FillSyntheticConstants(graph));
  *graph = gpu_test::PinnedTo(*graph, device);
  return absl::OkStatus();
}

struct Row {
  double model_ms = 0;
  double graphs_ms = 0;  // with SessionOptions::cuda_graphs
  absl::Status graphs_status;
  double floor_ms = 0;
  int64_t peak_bytes = 0;
};

absl::Status BenchOne(const std::string& dir, const BenchModel& model, int batch,
                      const std::string& device, Allocator* memory, Row* row) {
  GraphDef graph;
  RETURN_IF_ERROR(LoadGraph(absl::StrCat(dir, "/", model.name, ".skeleton.pb"), device, &graph));
  std::vector<int64_t> dims = {batch};
  dims.insert(dims.end(), model.dims.begin(), model.dims.end());
  TensorShape shape;
  RETURN_IF_ERROR(TensorShape::BuildTensorShape(dims, &shape));
  const Tensor input = gpu_test::RandomTensor(DT_FLOAT, shape, /*seed=*/batch);
  const int runs = batch == 1 ? 100 : 20;
  {
    memory->ClearStats();
    std::unique_ptr<Session> session = gpu_test::NewSessionOrDie(SessionOptions());
    RETURN_IF_ERROR(session->Create(graph));
    std::vector<Tensor> outputs;
    RETURN_IF_ERROR(MedianMillis(
        /*warmup=*/5, runs,
        [&] {
          return session->Run({{model.input, input}}, {model.output}, {}, &outputs);
        },
        &row->model_ms));
    row->peak_bytes = memory->GetStats().peak_bytes_in_use;
  }
  if (device == "/device:GPU:0") {
    // The same model with its regions captured into CUDA graphs (captured during warm-up).
    SessionOptions options;
    options.cuda_graphs = true;
    std::unique_ptr<Session> session = gpu_test::NewSessionOrDie(options);
    std::vector<Tensor> outputs;
    row->graphs_status = session->Create(graph);
    if (row->graphs_status.ok()) {
      row->graphs_status = MedianMillis(
          /*warmup=*/5, runs,
          [&] {
            return session->Run({{model.input, input}}, {model.output}, {}, &outputs);
          },
          &row->graphs_ms);
    }
  }
  GraphDef floor;
  RETURN_IF_ERROR(
      LoadGraph(absl::StrCat(dir, "/", model.name, ".floor_b", batch, ".pb"), device, &floor));
  // No constant folding: every input of the floor is a constant.
  std::unique_ptr<Session> session = gpu_test::NewSessionOrDie(gpu_test::UnfoldedOptions());
  RETURN_IF_ERROR(session->Create(floor));
  std::vector<Tensor> outputs;
  return MedianMillis(
      /*warmup=*/5, runs, [&] { return session->Run({}, {}, {"floor"}, &outputs); },
      &row->floor_ms);
}

}  // namespace

absl::Status FillSyntheticConstants(GraphDef* graph) {
  uint64_t seed = 1;
  for (NodeDef& node : *graph->mutable_node()) {
    if (node.op() != "Const" || node.attr().count(kSyntheticMark) == 0) continue;
    node.mutable_attr()->erase(kSyntheticMark);
    TensorProto* proto = (*node.mutable_attr())["value"].mutable_tensor();
    const DataType dtype = proto->dtype();
    if (dtype != DT_FLOAT && dtype != DT_HALF && dtype != DT_BFLOAT16) {
      return errors::InvalidArgument("Synthetic Const ", node.name(), " is ", DataTypeString(dtype),
                                     ", not floating point");
    }
    TensorShape shape;
    RETURN_IF_ERROR(TensorShape::BuildTensorShapeFromProto(proto->tensor_shape(), &shape));
    TensorToProtoContent(gpu_test::RandomTensor(dtype, shape, seed++, -0.1f, 0.1f), proto);
  }
  return absl::OkStatus();
}

absl::Status RunModelBenchmark(const std::string& dir, const std::string& device_type) {
  if (device_type == DEVICE_GPU && !gpu_test::HasGpu()) {
    std::printf("model benchmark: skipped (no CUDA device)\n");
    return absl::OkStatus();
  }
  std::vector<BenchModel> models;
  RETURN_IF_ERROR(ReadManifest(dir, &models));
  // The allocator the sessions' device uses: process-wide, shared by every device object.
  std::vector<std::unique_ptr<Device>> devices;
  RETURN_IF_ERROR(
      DeviceFactory::AddDevices(SessionOptions(), "/job:localhost/replica:0/task:0", &devices));
  Allocator* memory = nullptr;
  for (const std::unique_ptr<Device>& device : devices) {
    if (device->device_type().type_string() == device_type) {
      memory = device->GetAllocator();
      break;
    }
  }
  if (memory == nullptr) return errors::Internal("No ", device_type, " device for the benchmark");
  const std::string device = absl::StrCat("/device:", device_type, ":0");

  std::printf(
      "model benchmark on %s (float32, TF32 off; median of 100 steps at batch 1, 20 at 64;\n"
      "CUDA graphs: the same with SessionOptions::cuda_graphs; floor: the model's convolutions\n"
      "and matrix products alone, same run):\n\n",
      device.c_str());
  std::printf(
      "| model | batch | Sluice ms | items/s | peak MiB | CUDA graphs ms | floor ms | "
      "Sluice / floor |\n");
  std::printf("|---|---:|---:|---:|---:|---:|---:|---:|\n");
  absl::Status first_error;
  for (const BenchModel& model : models) {
    for (int batch : kBatches) {
      Row row;
      const absl::Status s = BenchOne(dir, model, batch, device, memory, &row);
      if (!s.ok()) {
        std::printf("| %s | %d | failed: %s | | | | | |\n", model.name.c_str(), batch,
                    std::string(s.message()).c_str());
        if (first_error.ok()) first_error = s;
        continue;
      }
      // The peak is the GPU's process-wide allocator's; a CPU session's memory is not counted
      // by one allocator.
      const std::string peak = device_type == DEVICE_GPU
                                   ? absl::StrFormat("%.0f", row.peak_bytes / (1024.0 * 1024.0))
                                   : "n/a";
      std::string graphs = "n/a";
      if (device_type == DEVICE_GPU) {
        graphs = row.graphs_status.ok() ? absl::StrFormat("%.2f", row.graphs_ms)
                                        : absl::StrCat("failed: ", row.graphs_status.message());
      }
      std::printf("| %s | %d | %.2f | %.1f | %s | %s | %.2f | %.2f |\n", model.name.c_str(), batch,
                  row.model_ms, batch * 1000.0 / row.model_ms, peak.c_str(), graphs.c_str(),
                  row.floor_ms, row.model_ms / row.floor_ms);
    }
  }
  return first_error;
}

}  // namespace gpu_bench
}  // namespace sluice
