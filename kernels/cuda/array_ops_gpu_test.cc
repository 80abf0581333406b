// The array kernels of kernels/cpu/array registered for GPUs (their copies are
// kernels/cuda/array_copies.cu's) against the same kernels on the CPU: Transpose, Slice,
// StridedSlice, Tile, BroadcastTo, ReverseV2, Split, SplitV, Unpack, Concat, ConcatV2, Pack,
// Pad, PadV2 and MirrorPad, and the GPU's Gather, GatherV2, GatherNd, Select, SelectV2 and OneHot
// (indexing_ops.cc) and ResizeNearestNeighbor and ResizeBilinear (resize_ops.cc), over dtypes of
// every element size, ranks up to 6, empty and one-element tensors, and the errors of bad arguments
// (same code and message). Outputs must match byte for byte. Skipped, with "no CUDA device", where
// the process has no GPU device.
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_shape.h"
#include "graph/core/types.h"
#include "gtest/gtest.h"
#include "kernels/cuda/gpu_kernel_test_util.h"
#include "kernels/kernel_test_util.h"
#include "runtime/framework/op_kernel_test_util.h"

namespace sluice {
namespace {

using test::DeviceKernelRunner;
using test::MakeTensor;
using test::NodeDefBuilder;
using test::SharedDeviceKernelRunner;

// The dtypes under test: one of each element size the GPU copies take (1, 2, 4, 8, 16 bytes).
constexpr DataType kTypes[] = {DT_BOOL, DT_HALF, DT_FLOAT, DT_INT64, DT_COMPLEX128};

// A tensor of `dtype` whose elements all differ (bool: alternating), so that a misplaced
// element shows.
Tensor Distinct(DataType dtype, const TensorShape& shape) {
  Tensor t(dtype, shape);
  const int64_t size = DataTypeSize(dtype);
  unsigned char* bytes = static_cast<unsigned char*>(t.raw_data());
  for (int64_t i = 0; i < shape.num_elements(); ++i) {
    if (dtype == DT_BOOL) {
      bytes[i] = static_cast<unsigned char>((i * 7 + i / 3) % 2);
      continue;
    }
    // A byte pattern of the element's index, never a NaN for the float types (the pattern
    // only moves, nothing reads it as a number).
    for (int64_t b = 0; b < size; ++b) {
      bytes[i * size + b] = static_cast<unsigned char>((i >> (8 * (b % 4))) + b) & 0x3f;
    }
  }
  return t;
}

class ArrayOpsGpuTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(runner().status().ok()) << runner().status();
    if (runner().gpu() == nullptr) GTEST_SKIP() << "no CUDA device";
  }

  static DeviceKernelRunner& runner() { return SharedDeviceKernelRunner(); }

  // Runs `node` on both devices: same status; same outputs, byte for byte.
  void Compare(const NodeDef& node, const std::vector<Tensor>& inputs) {
    std::string what = node.op();
    for (const Tensor& t : inputs) {
      absl::StrAppend(&what, " ", DataTypeString(t.dtype()), t.shape().DebugString());
    }
    std::vector<Tensor> gpu_out, cpu_out;
    const absl::Status gpu = runner().Run(runner().gpu(), node, inputs, &gpu_out);
    const absl::Status cpu = runner().Run(runner().cpu(), node, inputs, &cpu_out);
    ASSERT_EQ(gpu.code(), cpu.code()) << what << ": GPU " << gpu << ", CPU " << cpu;
    ASSERT_EQ(gpu.message(), cpu.message()) << what;
    if (!cpu.ok()) return;
    ASSERT_EQ(gpu_out.size(), cpu_out.size()) << what;
    for (size_t k = 0; k < cpu_out.size(); ++k) {
      ASSERT_EQ(gpu_out[k].dtype(), cpu_out[k].dtype()) << what;
      ASSERT_EQ(gpu_out[k].shape(), cpu_out[k].shape()) << what << ", output " << k;
      const size_t bytes = cpu_out[k].NumElements() * DataTypeSize(cpu_out[k].dtype());
      EXPECT_EQ(std::memcmp(gpu_out[k].raw_data(), cpu_out[k].raw_data(), bytes), 0)
          << what << ", output " << k;
    }
  }
};

Tensor Ints(std::vector<int32_t> values) {
  const int64_t n = static_cast<int64_t>(values.size());
  return MakeTensor<int32_t>(TensorShape({n}), values);
}

// Index values of `index_type` (int32 or int64) in `shape`.
Tensor Indices(DataType index_type, const TensorShape& shape, const std::vector<int64_t>& values) {
  Tensor t(index_type, shape);
  for (size_t i = 0; i < values.size(); ++i) {
    if (index_type == DT_INT32) {
      t.flat<int32_t>()(i) = static_cast<int32_t>(values[i]);
    } else {
      t.flat<int64_t>()(i) = values[i];
    }
  }
  return t;
}

TEST_F(ArrayOpsGpuTest, Transpose) {
  struct Case {
    TensorShape shape;
    std::vector<int32_t> perm;
  };
  const std::vector<Case> cases = {
      {TensorShape({37, 53}), {1, 0}},              // tiled: partial tiles along both dims
      {TensorShape({64, 96}), {1, 0}},              // tiled: whole tiles
      {TensorShape({3, 40, 70}), {0, 2, 1}},        // tiled, a batch dim
      {TensorShape({2, 33, 5, 40}), {0, 3, 2, 1}},  // tiled, batch dims on both sides
      {TensorShape({9, 2, 65}), {2, 1, 0}},         // tiled, a batch dim between
      {TensorShape({2, 3, 4}), {0, 2, 1}},
      {TensorShape({2, 3, 4}), {2, 0, 1}},
      {TensorShape({1, 5, 1, 7}), {3, 1, 2, 0}},  // size-1 dims dropped
      {TensorShape({2, 3, 4, 5, 6, 2}), {5, 3, 1, 4, 0, 2}},
      {TensorShape({4, 5, 6}), {0, 1, 2}},  // no element moves: a view
      {TensorShape({0, 3}), {1, 0}},        // empty
      {TensorShape({}), {}},                // scalar
      {TensorShape({2, 3}), {0, 0}},        // error: 1 is missing
      {TensorShape({2, 3}), {0, 2}},        // error: out of range
      {TensorShape({2, 3}), {1}},           // error: wrong size
  };
  for (DataType dtype : kTypes) {
    const NodeDef node = NodeDefBuilder("t", "Transpose")
                             .Input("x")
                             .Input("perm")
                             .Attr("T", dtype)
                             .Attr("Tperm", DT_INT32)
                             .Build();
    for (const Case& c : cases) Compare(node, {Distinct(dtype, c.shape), Ints(c.perm)});
  }
}

TEST_F(ArrayOpsGpuTest, SliceAndStridedSlice) {
  for (DataType dtype : kTypes) {
    const NodeDef slice = NodeDefBuilder("s", "Slice")
                              .Input("x")
                              .Input("begin")
                              .Input("size")
                              .Attr("T", dtype)
                              .Attr("Index", DT_INT32)
                              .Build();
    const Tensor x = Distinct(dtype, TensorShape({6, 7, 5}));
    Compare(slice, {x, Ints({1, 2, 0}), Ints({3, -1, 5})});
    Compare(slice, {x, Ints({2, 0, 0}), Ints({3, 7, 5})});  // a range of dim 0: a view
    Compare(slice, {x, Ints({0, 0, 4}), Ints({6, 7, 1})});
    Compare(slice, {x, Ints({0, 0, 0}), Ints({0, 7, 5})});  // empty
    Compare(slice, {x, Ints({5, 0, 0}), Ints({3, 7, 5})});  // error: past the end

    for (int shrink : {0, 2}) {
      const NodeDef strided = NodeDefBuilder("ss", "StridedSlice")
                                  .Input("x")
                                  .Input("begin")
                                  .Input("end")
                                  .Input("strides")
                                  .Attr("T", dtype)
                                  .Attr("Index", DT_INT32)
                                  .Attr("begin_mask", 0)
                                  .Attr("end_mask", 1)
                                  .Attr("ellipsis_mask", 0)
                                  .Attr("new_axis_mask", 0)
                                  .Attr("shrink_axis_mask", shrink)
                                  .Build();
      Compare(strided, {x, Ints({5, 1, 4}), Ints({0, 6, 0}), Ints({-2, 2, -1})});
      Compare(strided, {x, Ints({0, 3, 1}), Ints({6, 4, 5}), Ints({1, 1, 2})});
      Compare(strided, {x, Ints({0, 0, 0}), Ints({6, 7, 5}), Ints({1, 0, 1})});  // error
    }
  }
}

TEST_F(ArrayOpsGpuTest, TileBroadcastToAndReverse) {
  for (DataType dtype : kTypes) {
    const NodeDef tile = NodeDefBuilder("t", "Tile")
                             .Input("x")
                             .Input("multiples")
                             .Attr("T", dtype)
                             .Attr("Tmultiples", DT_INT32)
                             .Build();
    Compare(tile, {Distinct(dtype, TensorShape({3, 4})), Ints({2, 3})});
    Compare(tile, {Distinct(dtype, TensorShape({2, 1, 3})), Ints({1, 5, 1})});
    Compare(tile, {Distinct(dtype, TensorShape({2, 3})), Ints({0, 2})});
    Compare(tile, {Distinct(dtype, TensorShape({2, 3})), Ints({2})});  // error

    const NodeDef broadcast = NodeDefBuilder("b", "BroadcastTo")
                                  .Input("x")
                                  .Input("shape")
                                  .Attr("T", dtype)
                                  .Attr("Tidx", DT_INT32)
                                  .Build();
    Compare(broadcast, {Distinct(dtype, TensorShape({1, 4})), Ints({3, 5, 4})});
    Compare(broadcast, {Distinct(dtype, TensorShape({3, 1})), Ints({3, 6})});
    Compare(broadcast, {Distinct(dtype, TensorShape({3, 2})), Ints({3, 6})});  // error

    const NodeDef reverse = NodeDefBuilder("r", "ReverseV2")
                                .Input("x")
                                .Input("axis")
                                .Attr("T", dtype)
                                .Attr("Tidx", DT_INT32)
                                .Build();
    const Tensor x = Distinct(dtype, TensorShape({4, 5, 6}));
    Compare(reverse, {x, Ints({0})});
    Compare(reverse, {x, Ints({2})});
    Compare(reverse, {x, Ints({-1, 0, 1})});
    Compare(reverse, {x, Ints({3})});  // error
  }
}

TEST_F(ArrayOpsGpuTest, SplitSplitVAndUnpack) {
  for (DataType dtype : kTypes) {
    const Tensor x = Distinct(dtype, TensorShape({6, 4, 9}));
    const Tensor even = Distinct(dtype, TensorShape({6, 4, 10}));
    for (int axis : {0, 1, 2, -1}) {
      const NodeDef split = NodeDefBuilder("s", "Split")
                                .Input("axis")
                                .Input("x")
                                .Attr("T", dtype)
                                .Attr("num_split", 2)
                                .Build();
      Compare(split, {MakeTensor<int32_t>(TensorShape({}), {axis}), even});
    }
    const NodeDef split3 = NodeDefBuilder("s", "Split")
                               .Input("axis")
                               .Input("x")
                               .Attr("T", dtype)
                               .Attr("num_split", 3)
                               .Build();
    Compare(split3, {MakeTensor<int32_t>(TensorShape({}), {1}), x});  // error: 4 % 3

    const NodeDef splitv = NodeDefBuilder("v", "SplitV")
                               .Input("x")
                               .Input("sizes")
                               .Input("axis")
                               .Attr("T", dtype)
                               .Attr("Tlen", DT_INT32)
                               .Attr("num_split", 3)
                               .Build();
    Compare(splitv, {x, Ints({2, -1, 4}), MakeTensor<int32_t>(TensorShape({}), {2})});
    Compare(splitv, {x, Ints({1, 0, 5}), MakeTensor<int32_t>(TensorShape({}), {0})});
    Compare(splitv, {x, Ints({1, 1, 1}), MakeTensor<int32_t>(TensorShape({}), {0})});  // error

    for (int axis : {0, 1, -1}) {
      const int num = static_cast<int>(x.dim_size(axis < 0 ? 2 : axis));
      const NodeDef unpack = NodeDefBuilder("u", "Unpack")
                                 .Input("x")
                                 .Attr("T", dtype)
                                 .Attr("num", num)
                                 .Attr("axis", axis)
                                 .Build();
      Compare(unpack, {x});
    }
  }
}

TEST_F(ArrayOpsGpuTest, ConcatAndPack) {
  for (DataType dtype : kTypes) {
    const Tensor a = Distinct(dtype, TensorShape({3, 4, 5}));
    const Tensor b = Distinct(dtype, TensorShape({3, 2, 5}));
    const Tensor c = Distinct(dtype, TensorShape({3, 1, 5}));
    const Tensor empty = Distinct(dtype, TensorShape({3, 0, 5}));
    const NodeDef concat3 = NodeDefBuilder("c", "ConcatV2")
                                .Input("a")
                                .Input("b")
                                .Input("c")
                                .Input("axis")
                                .Attr("T", dtype)
                                .Attr("N", 3)
                                .Attr("Tidx", DT_INT32)
                                .Build();
    const Tensor axis1 = MakeTensor<int32_t>(TensorShape({}), {1});
    Compare(concat3, {a, b, c, axis1});
    Compare(concat3, {a, empty, c, MakeTensor<int32_t>(TensorShape({}), {-2})});
    Compare(concat3, {a, a, a, MakeTensor<int32_t>(TensorShape({}), {0})});
    Compare(concat3, {a, a, a, MakeTensor<int32_t>(TensorShape({}), {2})});
    Compare(concat3, {a, b, c, MakeTensor<int32_t>(TensorShape({}), {0})});  // error

    const NodeDef concat_v1 = NodeDefBuilder("c1", "Concat")
                                  .Input("axis")
                                  .Input("a")
                                  .Input("b")
                                  .Attr("T", dtype)
                                  .Attr("N", 2)
                                  .Build();
    Compare(concat_v1, {axis1, a, b});

    for (int axis : {0, 1, 3, -1}) {
      const NodeDef pack = NodeDefBuilder("p", "Pack")
                               .Input("a")
                               .Input("b")
                               .Input("c")
                               .Attr("T", dtype)
                               .Attr("N", 3)
                               .Attr("axis", axis)
                               .Build();
      Compare(pack, {a, a, a});
      Compare(pack, {a, b, a});  // error: shapes differ
    }
  }
}

TEST_F(ArrayOpsGpuTest, PadAndPadV2) {
  struct Case {
    TensorShape shape;
    std::vector<int32_t> paddings;  // [rank, 2], row-major
  };
  const std::vector<Case> cases = {
      {TensorShape({1, 5, 5, 3}), {0, 0, 1, 1, 2, 1, 0, 0}},  // NHWC image, H and W
      {TensorShape({4, 6}), {2, 0, 0, 3}},
      {TensorShape({3}), {4, 4}},
      {TensorShape({2, 3, 4}), {0, 0, 0, 0, 0, 0}},  // nothing: forwarded
      {TensorShape({0, 3}), {1, 1, 0, 0}},           // empty input, padded output
      {TensorShape({2, 3}), {1, -1, 0, 0}},          // error: negative
      {TensorShape({2, 3}), {1, 1}},                 // error: wrong rows
  };
  for (DataType dtype : kTypes) {
    const NodeDef pad = NodeDefBuilder("p", "Pad")
                            .Input("x")
                            .Input("paddings")
                            .Attr("T", dtype)
                            .Attr("Tpaddings", DT_INT32)
                            .Build();
    const NodeDef pad_v2 = NodeDefBuilder("p2", "PadV2")
                               .Input("x")
                               .Input("paddings")
                               .Input("value")
                               .Attr("T", dtype)
                               .Attr("Tpaddings", DT_INT32)
                               .Build();
    for (const Case& c : cases) {
      const int64_t rows = static_cast<int64_t>(c.paddings.size()) / 2;
      const Tensor paddings = MakeTensor<int32_t>(TensorShape({rows, 2}), c.paddings);
      const Tensor x = Distinct(dtype, c.shape);
      Compare(pad, {x, paddings});
      Compare(pad_v2, {x, paddings, Distinct(dtype, TensorShape({}))});
    }
  }
}

Tensor Int64s(std::vector<int64_t> values) {
  const int64_t n = static_cast<int64_t>(values.size());
  return MakeTensor<int64_t>(TensorShape({n}), values);
}

TEST_F(ArrayOpsGpuTest, GatherAndGatherV2) {
  struct Case {
    TensorShape params;
    std::vector<int64_t> indices;
    TensorShape indices_shape;
    int axis;
    int batch_dims;
  };
  const std::vector<Case> cases = {
      {TensorShape({7, 5}), {3, 0, 6, 6, 1}, TensorShape({5}), 0, 0},  // embedding rows
      {TensorShape({4, 6, 3}), {5, 0, 2, 2}, TensorShape({2, 2}), 1, 0},
      {TensorShape({4, 6, 3}), {2, 1}, TensorShape({2}), -1, 0},  // innermost dim
      {TensorShape({2, 5, 3}), {4, 0, 1, 3, 3, 2}, TensorShape({2, 3}), 1, 1},
      {TensorShape({3, 4}), {}, TensorShape({0}), 0, 0},            // no index
      {TensorShape({0, 4}), {}, TensorShape({0}), 1, 0},            // empty params
      {TensorShape({5}), {1}, TensorShape({}), 0, 0},               // scalar index: a scalar
      {TensorShape({3, 4}), {0}, TensorShape({1}), 2, 0},           // error: axis out of range
      {TensorShape({2, 5, 3}), {0, 1, 2}, TensorShape({3}), 1, 1},  // error: batch mismatch
  };
  for (DataType dtype : kTypes) {
    for (DataType index_type : {DT_INT32, DT_INT64}) {
      const NodeDef gather = NodeDefBuilder("g", "GatherV2")
                                 .Input("params")
                                 .Input("indices")
                                 .Input("axis")
                                 .Attr("Tparams", dtype)
                                 .Attr("Tindices", index_type)
                                 .Attr("Taxis", DT_INT32)
                                 .Attr("batch_dims", 0)
                                 .Build();
      for (const Case& c : cases) {
        NodeDef node = gather;
        (*node.mutable_attr())["batch_dims"].set_i(c.batch_dims);
        const Tensor indices = Indices(index_type, c.indices_shape, c.indices);
        Compare(node, {Distinct(dtype, c.params), indices, Ints({c.axis})});
      }
    }
    const NodeDef gather_v1 = NodeDefBuilder("g1", "Gather")
                                  .Input("params")
                                  .Input("indices")
                                  .Attr("Tparams", dtype)
                                  .Attr("Tindices", DT_INT64)
                                  .Attr("validate_indices", true)
                                  .Build();
    Compare(gather_v1, {Distinct(dtype, TensorShape({6, 2})), Int64s({5, 5, 0, 2})});
  }
}

// The CPU fails on an index out of range; the GPU cannot check indices in device memory and,
// as TensorFlow's GPU kernel, writes zeros for that slice and gathers the others.
TEST_F(ArrayOpsGpuTest, GatherGivesZerosForABadIndexOnTheGpu) {
  const NodeDef gather = NodeDefBuilder("g", "GatherV2")
                             .Input("params")
                             .Input("indices")
                             .Input("axis")
                             .Attr("Tparams", DT_FLOAT)
                             .Attr("Tindices", DT_INT64)
                             .Attr("Taxis", DT_INT32)
                             .Attr("batch_dims", 0)
                             .Build();
  const Tensor params = MakeTensor<float>(TensorShape({3, 2}), {1.f, 2.f, 3.f, 4.f, 5.f, 6.f});
  std::vector<Tensor> out;
  const absl::Status cpu =
      runner().Run(runner().cpu(), gather, {params, Int64s({2, 3, -1, 0}), Ints({0})}, &out);
  EXPECT_EQ(cpu.code(), absl::StatusCode::kInvalidArgument) << cpu;
  const absl::Status gpu =
      runner().Run(runner().gpu(), gather, {params, Int64s({2, 3, -1, 0}), Ints({0})}, &out);
  ASSERT_TRUE(gpu.ok()) << gpu;
  ASSERT_EQ(out[0].shape(), TensorShape({4, 2}));
  const std::vector<float> expected = {5.f, 6.f, 0.f, 0.f, 0.f, 0.f, 1.f, 2.f};
  for (int i = 0; i < 8; ++i) EXPECT_EQ(out[0].flat<float>()(i), expected[i]) << i;
}

TEST_F(ArrayOpsGpuTest, GatherNd) {
  struct Case {
    TensorShape params;
    std::vector<int64_t> indices;
    TensorShape indices_shape;
  };
  const std::vector<Case> cases = {
      {TensorShape({4, 5, 3}), {3, 1, 0, 4, 2, 2}, TensorShape({3, 2})},  // rows of 3
      {TensorShape({4, 5}), {1, 3, 0}, TensorShape({3, 1})},              // whole rows
      {TensorShape({2, 3, 4}), {1, 2, 3, 0, 0, 0}, TensorShape({2, 3})},  // single elements
      {TensorShape({3, 2}), {}, TensorShape({2, 0})},                     // depth 0: params per row
      {TensorShape({3, 2}), {}, TensorShape({0, 1})},                     // no row
      {TensorShape({0, 2}), {0}, TensorShape({1, 1})},                    // error: params empty
      {TensorShape({3}), {0, 0}, TensorShape({1, 2})},  // error: depth past the rank
  };
  for (DataType dtype : kTypes) {
    for (DataType index_type : {DT_INT32, DT_INT64}) {
      const NodeDef node = NodeDefBuilder("g", "GatherNd")
                               .Input("params")
                               .Input("indices")
                               .Attr("Tparams", dtype)
                               .Attr("Tindices", index_type)
                               .Build();
      for (const Case& c : cases) {
        const Tensor indices = Indices(index_type, c.indices_shape, c.indices);
        Compare(node, {Distinct(dtype, c.params), indices});
      }
    }
  }
  // A bad index row: the CPU fails; the GPU gives zeros, as TensorFlow's GPU kernel.
  const NodeDef node = NodeDefBuilder("g", "GatherNd")
                           .Input("params")
                           .Input("indices")
                           .Attr("Tparams", DT_FLOAT)
                           .Attr("Tindices", DT_INT64)
                           .Build();
  const Tensor params = MakeTensor<float>(TensorShape({2, 2}), {1.f, 2.f, 3.f, 4.f});
  const Tensor indices = MakeTensor<int64_t>(TensorShape({3, 1}), {1, 2, 0});
  std::vector<Tensor> out;
  EXPECT_EQ(runner().Run(runner().cpu(), node, {params, indices}, &out).code(),
            absl::StatusCode::kInvalidArgument);
  ASSERT_TRUE(runner().Run(runner().gpu(), node, {params, indices}, &out).ok());
  const std::vector<float> expected = {3.f, 4.f, 0.f, 0.f, 1.f, 2.f};
  for (int i = 0; i < 6; ++i) EXPECT_EQ(out[0].flat<float>()(i), expected[i]) << i;
}

// A condition of alternating bools in `shape`.
Tensor Condition(const TensorShape& shape) { return Distinct(DT_BOOL, shape); }

TEST_F(ArrayOpsGpuTest, SelectAndSelectV2) {
  struct Case {
    TensorShape cond, t, e;
  };
  // Select's forms: one shape, rows by a vector, a scalar condition; then its errors.
  const std::vector<Case> select_cases = {
      {TensorShape({4, 5}), TensorShape({4, 5}), TensorShape({4, 5})},
      {TensorShape({4}), TensorShape({4, 3, 2}), TensorShape({4, 3, 2})},
      {TensorShape({}), TensorShape({3, 2}), TensorShape({3, 2})},
      {TensorShape({6}), TensorShape({6}), TensorShape({6})},
      {TensorShape({0, 2}), TensorShape({0, 2}), TensorShape({0, 2})},
      {TensorShape({4, 5}), TensorShape({4, 5}), TensorShape({5})},  // error
      {TensorShape({3}), TensorShape({4, 2}), TensorShape({4, 2})},  // error: batches
      {TensorShape({}), TensorShape({3, 2}), TensorShape({2, 3})},   // error
  };
  // SelectV2 broadcasts all three.
  const std::vector<Case> select_v2_cases = {
      {TensorShape({4, 1}), TensorShape({1, 5}), TensorShape({4, 5})},
      {TensorShape({}), TensorShape({3, 2}), TensorShape({2})},
      {TensorShape({2, 1, 3}), TensorShape({4, 1}), TensorShape({})},
      {TensorShape({2, 3}), TensorShape({3, 3}), TensorShape({3})},  // error
  };
  for (DataType dtype : kTypes) {
    for (const char* op : {"Select", "SelectV2"}) {
      const NodeDef node =
          NodeDefBuilder("s", op).Input("c").Input("t").Input("e").Attr("T", dtype).Build();
      for (const Case& c : std::string(op) == "Select" ? select_cases : select_v2_cases) {
        Compare(node, {Condition(c.cond), Distinct(dtype, c.t), Distinct(dtype, c.e)});
      }
    }
  }
}

TEST_F(ArrayOpsGpuTest, OneHot) {
  struct Case {
    std::vector<int64_t> indices;
    TensorShape shape;
    int32_t depth;
    int axis;
  };
  const std::vector<Case> cases = {
      {{0, 3, 1, 5, -1, 2}, TensorShape({6}), 4, -1},  // 5 and -1: rows of off_value
      {{0, 3, 1, 2, 2, 0}, TensorShape({2, 3}), 4, 0},
      {{0, 3, 1, 2, 2, 0}, TensorShape({2, 3}), 5, 1},
      {{1}, TensorShape({}), 3, -1},       // a scalar index: a vector
      {{}, TensorShape({0, 2}), 3, -1},    // empty
      {{1, 2}, TensorShape({2}), 0, -1},   // depth 0: empty
      {{1, 2}, TensorShape({2}), -1, -1},  // error: negative depth
      {{1, 2}, TensorShape({2}), 3, 2},    // error: axis
  };
  for (DataType dtype : kTypes) {
    for (DataType index_type : {DT_INT32, DT_INT64}) {
      NodeDef node = NodeDefBuilder("h", "OneHot")
                         .Input("indices")
                         .Input("depth")
                         .Input("on")
                         .Input("off")
                         .Attr("T", dtype)
                         .Attr("TI", index_type)
                         .Attr("axis", -1)
                         .Build();
      // Two distinct values: on, then off.
      const Tensor on_off = Distinct(dtype, TensorShape({2}));
      for (const Case& c : cases) {
        (*node.mutable_attr())["axis"].set_i(c.axis);
        const Tensor indices = Indices(index_type, c.shape, c.indices);
        Tensor depth(DT_INT32, TensorShape({}));
        depth.flat<int32_t>()(0) = c.depth;
        Tensor on_scalar(dtype, TensorShape({}));
        Tensor off_scalar(dtype, TensorShape({}));
        const int64_t bytes = DataTypeSize(dtype);
        std::memcpy(on_scalar.raw_data(), on_off.raw_data(), bytes);
        std::memcpy(off_scalar.raw_data(), static_cast<const char*>(on_off.raw_data()) + bytes,
                    bytes);
        Compare(node, {indices, depth, on_scalar, off_scalar});
      }
    }
  }
}

TEST_F(ArrayOpsGpuTest, MirrorPad) {
  struct Case {
    TensorShape shape;
    std::vector<int32_t> paddings;
  };
  const std::vector<Case> cases = {
      {TensorShape({3}), {2, 2}},
      {TensorShape({1, 5, 5, 3}), {0, 0, 2, 1, 1, 2, 0, 0}},  // NHWC image, H and W
      {TensorShape({2, 3, 4}), {1, 1, 2, 0, 0, 3}},
      {TensorShape({4, 6}), {0, 0, 0, 0}},   // nothing: forwarded
      {TensorShape({2, 3}), {3, 0, 0, 0}},   // error for REFLECT (>= size), fine for SYMMETRIC
      {TensorShape({2, 3}), {0, 4, 0, 0}},   // error for both
      {TensorShape({2, 3}), {1, -1, 0, 0}},  // error: negative
      {TensorShape({2, 3}), {1, 1}},         // error: wrong rows
  };
  for (DataType dtype : kTypes) {
    for (const char* mode : {"REFLECT", "SYMMETRIC"}) {
      const NodeDef node = NodeDefBuilder("m", "MirrorPad")
                               .Input("x")
                               .Input("paddings")
                               .Attr("T", dtype)
                               .Attr("Tpaddings", DT_INT32)
                               .Attr("mode", mode)
                               .Build();
      for (const Case& c : cases) {
        const int64_t rows = static_cast<int64_t>(c.paddings.size()) / 2;
        Compare(node, {Distinct(dtype, c.shape),
                       MakeTensor<int32_t>(TensorShape({rows, 2}), c.paddings)});
      }
    }
  }
}

// Float images with values in [0, 1), and with_infinity one infinity (for same-size resizes,
// which keep it; an interpolation through it gives a NaN, whose bits differ between devices).
Tensor Image(DataType dtype, const TensorShape& shape, bool with_infinity) {
  Tensor f(DT_FLOAT, shape);
  for (int64_t i = 0; i < shape.num_elements(); ++i) {
    f.flat<float>()(i) = static_cast<float>((i * 37) % 101) / 101.0f;
  }
  if (with_infinity && shape.num_elements() > 7) {
    f.flat<float>()(7) = std::numeric_limits<float>::infinity();
  }
  if (dtype == DT_FLOAT) return f;
  Tensor t(dtype, shape);
  for (int64_t i = 0; i < shape.num_elements(); ++i) {
    if (dtype == DT_HALF) t.flat<half>()(i) = static_cast<half>(f.flat<float>()(i));
    if (dtype == DT_BFLOAT16) t.flat<bfloat16>()(i) = static_cast<bfloat16>(f.flat<float>()(i));
  }
  return t;
}

// ResizeNearestNeighbor (every element size) and ResizeBilinear (float, half, bfloat16) in
// every coordinate mode: the same source pixels and, for bilinear, the same float rounding as
// the CPU, byte for byte.
TEST_F(ArrayOpsGpuTest, ResizeNearestNeighborAndBilinear) {
  struct Mode {
    bool align_corners, half_pixel_centers;
  };
  const Mode modes[] = {{false, false}, {true, false}, {false, true}, {true, true}};
  struct Case {
    TensorShape images;
    std::vector<int32_t> size;
  };
  const std::vector<Case> cases = {
      {TensorShape({2, 5, 7, 3}), {9, 4}},  // up in height, down in width
      {TensorShape({1, 8, 8, 1}), {3, 3}},  // down
      {TensorShape({1, 4, 6, 2}), {4, 6}},  // the same size
      {TensorShape({1, 1, 1, 4}), {5, 2}},  // from a single pixel
      {TensorShape({0, 4, 4, 1}), {2, 2}},  // no image
      {TensorShape({1, 4, 4, 1}), {0, 2}},  // error: size not positive
      {TensorShape({4, 4, 1}), {2, 2}},     // error: not 4-D
  };
  for (const Mode& mode : modes) {
    for (const Case& c : cases) {
      for (DataType dtype : kTypes) {
        const NodeDef nearest = NodeDefBuilder("n", "ResizeNearestNeighbor")
                                    .Input("images")
                                    .Input("size")
                                    .Attr("T", dtype)
                                    .Attr("align_corners", mode.align_corners)
                                    .Attr("half_pixel_centers", mode.half_pixel_centers)
                                    .Build();
        if (dtype == DT_BOOL || dtype == DT_COMPLEX128) continue;  // not the op's dtypes
        Compare(nearest, {Distinct(dtype, c.images), Ints(c.size)});
      }
      for (DataType dtype : {DT_FLOAT, DT_HALF, DT_BFLOAT16}) {
        const NodeDef bilinear = NodeDefBuilder("b", "ResizeBilinear")
                                     .Input("images")
                                     .Input("size")
                                     .Attr("T", dtype)
                                     .Attr("align_corners", mode.align_corners)
                                     .Attr("half_pixel_centers", mode.half_pixel_centers)
                                     .Build();
        const bool same_size = c.images.dims() == 4 && c.size.size() == 2 &&
                               c.images.dim_size(1) == c.size[0] &&
                               c.images.dim_size(2) == c.size[1];
        Compare(bilinear, {Image(dtype, c.images, same_size), Ints(c.size)});
      }
    }
  }
}

}  // namespace
}  // namespace sluice
