#include "passes/pipeline.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "google/protobuf/text_format.h"
#include "graph/core/errors.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_proto.h"
#include "graph/core/tensor_types.h"
#include "graph/graph.h"
#include "graph/import/graph_constructor.h"
#include "graph/import/graph_def_io.h"
#include "graph/import/graph_testutil.h"
#include "graph/op/node_def_util.h"
#include "graph/shape_refiner.h"
#include "gtest/gtest.h"
#include "passes/constant_evaluator.h"

namespace sluice {
namespace {

constexpr char kCpu0[] = "/job:localhost/replica:0/task:0/device:CPU:0";
constexpr char kCpu1[] = "/job:localhost/replica:0/task:0/device:CPU:1";

// Evaluates Const, Add and Mul on float scalars, standing in for the runtime's CPU kernels.
class ScalarEvaluator : public ConstantSubgraphEvaluator {
 public:
  bool CanEvaluate(const Node& node) const override {
    const std::string& op = node.type_string();
    return op == "Const" || op == "Add" || op == "Mul";
  }

  absl::Status Evaluate(absl::Span<const Node* const> nodes,
                        absl::Span<const std::pair<const Node*, int>> outputs,
                        std::vector<Tensor>* values) override {
    std::map<const Node*, float> computed;
    for (const Node* n : nodes) {
      if (n->type_string() == "Const") {
        Tensor t;
        RETURN_IF_ERROR(TensorFromProto(n->def().attr().at("value").tensor(), &t));
        computed[n] = t.flat<float>()(0);
        continue;
      }
      const Node* a = nullptr;
      const Node* b = nullptr;
      RETURN_IF_ERROR(n->input_node(0, &a));
      RETURN_IF_ERROR(n->input_node(1, &b));
      computed[n] =
          n->type_string() == "Add" ? computed[a] + computed[b] : computed[a] * computed[b];
    }
    values->clear();
    for (const auto& [node, index] : outputs) values->push_back(Tensor(computed[node]));
    ++calls;
    return absl::OkStatus();
  }

  int calls = 0;
};

std::string FloatConst(const std::string& name, float value) {
  return absl::StrCat("node { name: '", name,
                      "' op: 'Const' attr { key: 'dtype' value { type: DT_FLOAT } } "
                      "attr { key: 'value' value { tensor { dtype: DT_FLOAT tensor_shape {} "
                      "float_val: ",
                      value, " } } } }\n");
}

std::string Binary(const std::string& name, const std::string& op, const std::string& a,
                   const std::string& b, const std::string& device = "") {
  return absl::StrCat("node { name: '", name, "' op: '", op, "' device: '", device, "' input: '", a,
                      "' input: '", b, "' attr { key: 'T' value { type: DT_FLOAT } } }\n");
}

// out = x * (2 + 3) + Identity(x * (2 + 3)), with `out` asked for on `out_device`; `dead`
// is not needed by the fetch.
std::unique_ptr<Graph> TestGraph(const std::string& out_device = "") {
  const std::string text =
      "node { name: 'x' op: 'Placeholder' attr { key: 'dtype' value { type: DT_FLOAT } } }\n" +
      FloatConst("c1", 2) + FloatConst("c2", 3) + Binary("s", "Add", "c1", "c2") +
      Binary("m1", "Mul", "x", "s") + Binary("m2", "Mul", "x", "s") +
      "node { name: 'i' op: 'Identity' input: 'm2' attr { key: 'T' value { type: DT_FLOAT } } }\n" +
      Binary("out", "Add", "m1", "i", out_device) + Binary("dead", "Mul", "x", "x");
  auto g = std::make_unique<Graph>(OpRegistry::Global());
  absl::Status s = GraphFromTextForTest(text, g.get());
  EXPECT_TRUE(s.ok()) << s;
  return g;
}

PipelineOptions TestOptions(ConstantSubgraphEvaluator* evaluator) {
  PipelineOptions opts;
  opts.prune.feeds = {"x"};
  opts.prune.fetches = {"out"};
  opts.placer.devices = {{kCpu0, "CPU"}, {kCpu1, "CPU"}};
  opts.constant_evaluator = evaluator;
  return opts;
}

std::vector<std::string> PassNames(const PipelineResult& r) {
  std::vector<std::string> names;
  for (const PassStats& s : r.stats) names.push_back(s.pass);
  return names;
}

// Op nodes after the last optimisation pass, i.e. the graph partition received.
int NodesBeforePartition(const PipelineResult& r) { return r.stats.back().nodes_before; }

std::string PartitionString(const GraphDef& gdef) {
  Graph g(OpRegistry::Global());
  GraphConstructorOptions opts;
  opts.allow_internal_ops = true;
  absl::Status s = ConvertGraphDefToGraph(opts, gdef, &g);
  EXPECT_TRUE(s.ok()) << s;
  return CanonicalGraphString(g);
}

std::string FreshDir(const std::string& name) {
  const std::string dir = absl::StrCat(testing::TempDir(), "/", name);
  std::filesystem::remove_all(dir);
  return dir;
}

TEST(PipelineTest, L0KeepsTheGraphAsPruned) {
  ScalarEvaluator evaluator;
  PipelineOptions opts = TestOptions(&evaluator);
  opts.optimizer_options.set_opt_level(OptimizerOptions::L0);
  PipelineResult result;
  ASSERT_TRUE(RunPipeline(opts, TestGraph(), &result).ok());
  EXPECT_EQ(absl::StrJoin(PassNames(result), ","), "prune,place,partition");
  EXPECT_EQ(evaluator.calls, 0);
  // _arg_x_0_0, c1, c2, s, m1, m2, i, out, _retval_out_0_0: x is fed, dead is not needed.
  EXPECT_EQ(result.stats[0].nodes_before, 9);
  EXPECT_EQ(result.stats[0].nodes_after, 9);
  EXPECT_EQ(NodesBeforePartition(result), 9);
  ASSERT_EQ(result.partitions.size(), 1u);
  EXPECT_EQ(result.partitions.at(kCpu0).node_size(), 9);
}

TEST(PipelineTest, L1FoldsMergesAndSimplifiesUntilNothingChanges) {
  ScalarEvaluator evaluator;
  PipelineResult result;
  ASSERT_TRUE(RunPipeline(TestOptions(&evaluator), TestGraph(), &result).ok());
  EXPECT_EQ(absl::StrJoin(PassNames(result), ","),
            "prune,place,constant_folding,cse,simplify,division_by_constant,constant_folding,cse,"
            "simplify,division_by_constant,affine_folding,pad_folding,partition");
  EXPECT_EQ(evaluator.calls, 1);
  // c1 + c2 became one Const, m2 merged into m1, i bypassed.
  EXPECT_EQ(result.stats[2].nodes_before, 9);
  EXPECT_EQ(result.stats[2].nodes_after, 7);
  EXPECT_EQ(result.stats[3].nodes_after, 6);
  EXPECT_EQ(result.stats[4].nodes_after, 5);
  EXPECT_EQ(NodesBeforePartition(result), 5);
  ASSERT_EQ(result.partitions.size(), 1u);
  const std::string golden = PartitionString(result.partitions.at(kCpu0));
  EXPECT_TRUE(absl::StartsWith(golden, "_arg_x_0_0(_Arg);_retval_out_0_0(_Retval);m1(Mul);"))
      << golden;
  EXPECT_TRUE(absl::StrContains(golden, "m1->out;m1->out:1")) << golden;
  for (const PassStats& s : result.stats) EXPECT_GE(s.millis, 0) << s.pass;
}

TEST(PipelineTest, WatchedNodesKeepTheirNamesButAreNotFetched) {
  ScalarEvaluator evaluator;
  PipelineOptions opts = TestOptions(&evaluator);
  opts.watched_nodes = {"s", "m2", "i", "dead"};
  PipelineResult result;
  ASSERT_TRUE(RunPipeline(opts, TestGraph(), &result).ok());
  const std::string golden = PartitionString(result.partitions.at(kCpu0));
  // s folds into a Const of its name; m2 is not merged into m1 nor i bypassed; dead is still
  // pruned, since the fetch does not need it.
  EXPECT_TRUE(absl::StrContains(golden, "s(Const)")) << golden;
  EXPECT_TRUE(absl::StrContains(golden, "m2(Mul)")) << golden;
  EXPECT_TRUE(absl::StrContains(golden, "i(Identity)")) << golden;
  EXPECT_TRUE(absl::StrContains(golden, "m2->i;")) << golden;
  EXPECT_FALSE(absl::StrContains(golden, "dead")) << golden;
}

TEST(PipelineTest, L1WithoutEvaluatorSkipsFolding) {
  PipelineResult result;
  ASSERT_TRUE(RunPipeline(TestOptions(nullptr), TestGraph(), &result).ok());
  EXPECT_EQ(absl::StrJoin(PassNames(result), ","),
            "prune,place,cse,simplify,division_by_constant,cse,simplify,division_by_constant,"
            "affine_folding,pad_folding,partition");
  // m2 merged into m1 and i bypassed; the constant subgraph stays.
  EXPECT_EQ(NodesBeforePartition(result), 7);
}

TEST(PipelineTest, L0HonoursTheCseFlag) {
  PipelineOptions opts = TestOptions(nullptr);
  opts.optimizer_options.set_opt_level(OptimizerOptions::L0);
  opts.optimizer_options.set_do_common_subexpression_elimination(true);
  PipelineResult result;
  ASSERT_TRUE(RunPipeline(opts, TestGraph(), &result).ok());
  // The second round finds nothing more to merge.
  EXPECT_EQ(absl::StrJoin(PassNames(result), ","), "prune,place,cse,cse,partition");
  EXPECT_EQ(NodesBeforePartition(result), 8);
}

TEST(PipelineTest, L1FusesContractionsThatHaveKernels) {
  const std::string text = R"pb(
    node {
      name: 'x'
      op: 'Placeholder'
      attr {
        key: 'dtype'
        value { type: DT_FLOAT }
      }
    }
    node {
      name: 'w'
      op: 'Placeholder'
      attr {
        key: 'dtype'
        value { type: DT_FLOAT }
      }
    }
    node {
      name: 'b'
      op: 'Placeholder'
      attr {
        key: 'dtype'
        value { type: DT_FLOAT }
      }
    }
    node {
      name: 'mm'
      op: 'MatMul'
      input: 'x'
      input: 'w'
      attr {
        key: 'T'
        value { type: DT_FLOAT }
      }
    }
    node {
      name: 'out'
      op: 'BiasAdd'
      input: 'mm'
      input: 'b'
      attr {
        key: 'T'
        value { type: DT_FLOAT }
      }
    }
  )pb";
  for (const bool with_kernel : {true, false}) {
    auto g = std::make_unique<Graph>(OpRegistry::Global());
    ASSERT_TRUE(GraphFromTextForTest(text, g.get()).ok());
    PipelineOptions opts;
    opts.prune.feeds = {"x", "w", "b"};
    opts.prune.fetches = {"out"};
    opts.placer.devices = {{kCpu0, "CPU"}};
    std::vector<std::string> asked;
    opts.kernel_exists = [&](const NodeDef& node, const std::string& device) {
      asked.push_back(absl::StrCat(node.op(), "@", device));
      return with_kernel;
    };
    PipelineResult result;
    ASSERT_TRUE(RunPipeline(opts, std::move(g), &result).ok());
    EXPECT_EQ(absl::StrJoin(PassNames(result), ","),
              "prune,place,cse,simplify,division_by_constant,affine_folding,pad_folding,remapper,"
              "mlir_clustering,elementwise_fusion,partition");
    EXPECT_EQ(asked, std::vector<std::string>{absl::StrCat("_FusedMatMul@", kCpu0)});
    const std::string golden = PartitionString(result.partitions.at(kCpu0));
    EXPECT_EQ(absl::StrContains(golden, "out(_FusedMatMul)"), with_kernel) << golden;
  }
  // TensorFlow's switch for compiled clusters turns the clustering pass off.
  auto g = std::make_unique<Graph>(OpRegistry::Global());
  ASSERT_TRUE(GraphFromTextForTest(text, g.get()).ok());
  PipelineOptions opts;
  opts.prune.feeds = {"x", "w", "b"};
  opts.prune.fetches = {"out"};
  opts.placer.devices = {{kCpu0, "CPU"}};
  opts.kernel_exists = [](const NodeDef&, const std::string&) { return true; };
  opts.optimizer_options.set_global_jit_level(OptimizerOptions::OFF);
  PipelineResult result;
  ASSERT_TRUE(RunPipeline(opts, std::move(g), &result).ok());
  EXPECT_EQ(absl::StrJoin(PassNames(result), ","),
            "prune,place,cse,simplify,division_by_constant,affine_folding,pad_folding,remapper,"
            "elementwise_fusion,partition");
}

// The import's shapes give the same result as folding's own inference: x is fed with its
// declared shape (Shape(x) folds either way); r is fed as an intermediate tensor, whose
// _Arg has no shape (Shape(r) folds neither way, although the import knew r's shape); z's
// shape came from "_output_shapes", which folding's own inference never sees.
// Evaluates Consts of any type: enough for shape-folded nodes.
class ConstEvaluator : public ConstantSubgraphEvaluator {
 public:
  bool CanEvaluate(const Node& node) const override { return node.type_string() == "Const"; }

  absl::Status Evaluate(absl::Span<const Node* const> nodes,
                        absl::Span<const std::pair<const Node*, int>> outputs,
                        std::vector<Tensor>* values) override {
    values->clear();
    for (const auto& [node, index] : outputs) {
      Tensor t;
      RETURN_IF_ERROR(TensorFromProto(node->def().attr().at("value").tensor(), &t));
      values->push_back(std::move(t));
    }
    return absl::OkStatus();
  }
};

TEST(PipelineTest, ImportShapesFoldAsFoldingsOwnInferenceDoes) {
  const std::string float_t = "attr { key: 'T' value { type: DT_FLOAT } }";
  const std::string text = absl::StrCat(
      "node { name: 'x' op: 'Placeholder' attr { key: 'dtype' value { type: DT_FLOAT } } "
      "attr { key: 'shape' value { shape { dim { size: 2 } dim { size: 3 } } } } }\n"
      "node { name: 'y' op: 'Placeholder' attr { key: 'dtype' value { type: DT_FLOAT } } "
      "attr { key: 'shape' value { shape { dim { size: 4 } } } } }\n"
      "node { name: 'r' op: 'Relu' input: 'y' ",
      float_t, " }\n",
      "node { name: 'z' op: 'Placeholder' attr { key: 'dtype' value { type: DT_FLOAT } } "
      "attr { key: '_output_shapes' value { list { shape { dim { size: 5 } } } } } }\n"
      "node { name: 'sx' op: 'Shape' input: 'x' ",
      float_t, " }\n", "node { name: 'sr' op: 'Shape' input: 'r' ", float_t, " }\n",
      "node { name: 'sz' op: 'Shape' input: 'z' ", float_t, " }\n");
  GraphDef gdef;
  ASSERT_TRUE(google::protobuf::TextFormat::ParseFromString(text, &gdef));
  ConstEvaluator evaluator;
  PipelineOptions opts = TestOptions(&evaluator);
  opts.prune.feeds = {"x", "r:0"};
  opts.prune.fetches = {"sx", "sr", "sz"};
  opts.placer.devices = {{kCpu0, "CPU"}};
  GraphConstructorOptions import_opts;
  import_opts.validate_shape = true;

  std::vector<std::string> results;
  for (const bool keep_shapes : {false, true}) {
    auto graph = std::make_unique<Graph>(OpRegistry::Global());
    auto shapes = std::make_unique<ShapeRefiner>(OpRegistry::Global());
    GraphDef copy = gdef;
    ASSERT_TRUE(
        ConvertGraphDefToGraph(import_opts, std::move(copy), graph.get(), shapes.get()).ok());
    if (!keep_shapes) shapes.reset();
    PipelineResult result;
    absl::Status s = RunPipeline(opts, std::move(graph), std::move(shapes), &result);
    ASSERT_TRUE(s.ok()) << s;
    ASSERT_EQ(result.partitions.size(), 1);
    results.push_back(PartitionString(*result.partitions.graphs().begin()->second));
  }
  EXPECT_EQ(results[1], results[0]);
  EXPECT_TRUE(absl::StrContains(results[0], "sx(Const)")) << results[0];
  EXPECT_TRUE(absl::StrContains(results[0], "sr(Shape)")) << results[0];
  EXPECT_TRUE(absl::StrContains(results[0], "sz(Shape)")) << results[0];
}

TEST(PipelineTest, PartitionsAcrossDevicesWithOneTransferPerTensor) {
  ScalarEvaluator evaluator;
  PipelineResult result;
  ASSERT_TRUE(RunPipeline(TestOptions(&evaluator), TestGraph("/device:CPU:1"), &result).ok());
  ASSERT_EQ(result.partitions.size(), 2u);
  const PassStats& partition = result.stats.back();
  EXPECT_EQ(partition.pass, "partition");
  // out reads m1 twice through one Send/Recv pair; its value goes back to the _Retval,
  // which placement put with the other nodes on CPU:0.
  EXPECT_EQ(PartitionString(result.partitions.at(kCpu1)),
            "m1/_1(_Recv);out(Add);out/_2(_Send)|m1/_1->out;m1/_1->out:1;out->out/_2");
  const std::string cpu0 = PartitionString(result.partitions.at(kCpu0));
  EXPECT_TRUE(absl::StrContains(cpu0, "m1->m1/_0;out/_3->_retval_out_0_0")) << cpu0;
  EXPECT_EQ(partition.nodes_before, 5);
  EXPECT_EQ(partition.nodes_after, 9);
}

TEST(PipelineTest, DumpsEveryPassAndEveryPartition) {
  const std::string dir = FreshDir("pipeline_dumps");
  ScalarEvaluator evaluator;
  PipelineOptions opts = TestOptions(&evaluator);
  opts.dump_dir = dir;
  PipelineResult result;
  ASSERT_TRUE(RunPipeline(opts, TestGraph(), &result).ok());
  std::vector<std::string> files;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    files.push_back(entry.path().filename().string());
  }
  std::sort(files.begin(), files.end());
  EXPECT_EQ(absl::StrJoin(files, ","),
            "00_input.pbtxt,01_prune.pbtxt,02_place.pbtxt,03_constant_folding.pbtxt,"
            "04_cse.pbtxt,05_simplify.pbtxt,06_division_by_constant.pbtxt,"
            "07_constant_folding.pbtxt,08_cse.pbtxt,09_simplify.pbtxt,"
            "10_division_by_constant.pbtxt,11_affine_folding.pbtxt,12_pad_folding.pbtxt,"
            "13_partition_job_localhost_replica_0_task_0_device_CPU_0.pbtxt");
  GraphDef gdef;
  ASSERT_TRUE(ReadGraphDefFile(dir + "/05_simplify.pbtxt", &gdef).ok());
  EXPECT_EQ(gdef.node_size(), result.stats[4].nodes_after);
  for (const NodeDef& n : gdef.node()) EXPECT_EQ(n.device(), kCpu0) << n.name();
  ASSERT_TRUE(ReadGraphDefFile(dir + "/00_input.pbtxt", &gdef).ok());
  EXPECT_EQ(gdef.node_size(), 9);
}

TEST(PipelineTest, DumpDirectoryFromEnvironment) {
  const std::string dir = FreshDir("pipeline_env_dumps");
  ASSERT_EQ(setenv("SLUICE_DUMP_GRAPHS_DIR", dir.c_str(), 1), 0);
  PipelineOptions opts = TestOptions(nullptr);
  opts.optimizer_options.set_opt_level(OptimizerOptions::L0);
  PipelineResult result;
  absl::Status s = RunPipeline(opts, TestGraph(), &result);
  unsetenv("SLUICE_DUMP_GRAPHS_DIR");
  ASSERT_TRUE(s.ok()) << s;
  EXPECT_TRUE(std::filesystem::exists(dir + "/01_prune.pbtxt"));
  EXPECT_TRUE(std::filesystem::exists(
      dir + "/03_partition_job_localhost_replica_0_task_0_device_CPU_0.pbtxt"));
}

TEST(PipelineTest, UnwritableDumpDirectoryIsAnError) {
  const std::string file = FreshDir("pipeline_not_a_dir");
  { std::ofstream(file) << "x"; }
  PipelineOptions opts = TestOptions(nullptr);
  opts.dump_dir = file;
  PipelineResult result;
  const absl::Status s = RunPipeline(opts, TestGraph(), &result);
  EXPECT_FALSE(s.ok());
  EXPECT_TRUE(absl::StrContains(
      s.message(), absl::StrCat("cannot write the graph dump ", file, "/00_input.pbtxt")))
      << s;
}

TEST(PipelineTest, DumpsToAFullDeviceAreResourceExhausted) {
  if (!std::filesystem::exists("/dev/full")) GTEST_SKIP() << "no /dev/full here";
  // A directory whose dumps land on /dev/full: every write fails with ENOSPC.
  const std::string dir = FreshDir("pipeline_full_dumps");
  std::filesystem::create_directories(dir);
  std::filesystem::create_symlink("/dev/full", dir + "/00_input.pbtxt");
  PipelineOptions opts = TestOptions(nullptr);
  opts.dump_dir = dir;
  PipelineResult result;
  const absl::Status s = RunPipeline(opts, TestGraph(), &result);
  EXPECT_EQ(s.code(), absl::StatusCode::kResourceExhausted) << s;
}

TEST(PipelineTest, UnwritableEnvironmentDumpDirectoryIsNotAnError) {
  const std::string file = FreshDir("pipeline_env_not_a_dir");
  { std::ofstream(file) << "x"; }
  setenv("SLUICE_DUMP_GRAPHS_DIR", file.c_str(), 1);
  PipelineOptions opts = TestOptions(nullptr);
  PipelineResult result;
  const absl::Status s = RunPipeline(opts, TestGraph(), &result);
  unsetenv("SLUICE_DUMP_GRAPHS_DIR");
  EXPECT_TRUE(s.ok()) << s;
}

TEST(PipelineTest, PassErrorsStopThePipeline) {
  PipelineOptions opts = TestOptions(nullptr);
  opts.prune.fetches = {"missing"};
  PipelineResult result;
  absl::Status s = RunPipeline(opts, TestGraph(), &result);
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << s;
  EXPECT_EQ(absl::StrJoin(PassNames(result), ","), "prune");
  EXPECT_TRUE(result.partitions.empty());

  opts = TestOptions(nullptr);
  opts.placer.devices.clear();
  s = RunPipeline(opts, TestGraph(), &result);
  EXPECT_EQ(s.code(), absl::StatusCode::kFailedPrecondition) << s;
  EXPECT_EQ(absl::StrJoin(PassNames(result), ","), "prune,place");

  EXPECT_EQ(RunPipeline(opts, nullptr, &result).code(), absl::StatusCode::kInvalidArgument);
}

TEST(PipelineTest, FormatPassStatsPrintsATable) {
  std::vector<PassStats> stats = {{"prune", 12, 9, 0.5}, {"partition", 9, 13, 1.25}};
  EXPECT_EQ(FormatPassStats(stats),
            "pass                 before    after         ms\n"
            "prune                    12        9      0.500\n"
            "partition                 9       13      1.250\n"
            "total                                     1.750\n");
}

}  // namespace
}  // namespace sluice
