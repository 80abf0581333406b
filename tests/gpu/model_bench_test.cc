// FillSyntheticConstants: what the model benchmark does to the graphs that travel without
// their weights (tools/gpu_bench/make_bench_models.py).
#include "tests/gpu/model_bench.h"

#include <cstdint>

#include "google/protobuf/text_format.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_proto.h"
#include "graph/core/tensor_types.h"
#include "gtest/gtest.h"

namespace sluice {
namespace gpu_bench {
namespace {

GraphDef Parse(const char* text) {
  GraphDef graph;
  EXPECT_TRUE(google::protobuf::TextFormat::ParseFromString(text, &graph));
  return graph;
}

TEST(ModelBenchTest, SyntheticConstantsGetValuesOfTheirShape) {
  GraphDef graph = Parse(R"pb(
    node {
      name: "w"
      op: "Const"
      attr {
        key: "_sluice_synthetic"
        value { b: true }
      }
      attr {
        key: "dtype"
        value { type: DT_FLOAT }
      }
      attr {
        key: "value"
        value {
          tensor {
            dtype: DT_FLOAT
            tensor_shape {
              dim { size: 3 }
              dim { size: 40 }
            }
          }
        }
      }
    }
    node {
      name: "h"
      op: "Const"
      attr {
        key: "_sluice_synthetic"
        value { b: true }
      }
      attr {
        key: "dtype"
        value { type: DT_HALF }
      }
      attr {
        key: "value"
        value {
          tensor {
            dtype: DT_HALF
            tensor_shape { dim { size: 70 } }
          }
        }
      }
    }
    node {
      name: "kept"
      op: "Const"
      attr {
        key: "dtype"
        value { type: DT_FLOAT }
      }
      attr {
        key: "value"
        value {
          tensor {
            dtype: DT_FLOAT
            tensor_shape { dim { size: 2 } }
            float_val: [ 7, 8 ]
          }
        }
      }
    }
  )pb");
  ASSERT_TRUE(FillSyntheticConstants(&graph).ok());
  Tensor w, h, kept;
  ASSERT_TRUE(TensorFromProto(graph.node(0).attr().at("value").tensor(), &w).ok());
  ASSERT_TRUE(TensorFromProto(graph.node(1).attr().at("value").tensor(), &h).ok());
  ASSERT_TRUE(TensorFromProto(graph.node(2).attr().at("value").tensor(), &kept).ok());
  EXPECT_EQ(graph.node(0).attr().count("_sluice_synthetic"), 0u);
  EXPECT_EQ(graph.node(1).attr().count("_sluice_synthetic"), 0u);
  ASSERT_EQ(w.shape(), TensorShape({3, 40}));
  bool varied = false;
  for (int64_t i = 0; i < w.NumElements(); ++i) {
    EXPECT_GE(w.flat<float>()(i), -0.1f);
    EXPECT_LT(w.flat<float>()(i), 0.1f);
    varied |= w.flat<float>()(i) != w.flat<float>()(0);
  }
  EXPECT_TRUE(varied);
  ASSERT_EQ(h.dtype(), DT_HALF);
  ASSERT_EQ(h.shape(), TensorShape({70}));
  EXPECT_EQ(kept.flat<float>()(0), 7.0f);
  EXPECT_EQ(kept.flat<float>()(1), 8.0f);
}

TEST(ModelBenchTest, OnlyFloatingPointConstantsCanBeSynthetic) {
  GraphDef graph = Parse(R"pb(
    node {
      name: "shape"
      op: "Const"
      attr {
        key: "_sluice_synthetic"
        value { b: true }
      }
      attr {
        key: "dtype"
        value { type: DT_INT32 }
      }
      attr {
        key: "value"
        value {
          tensor {
            dtype: DT_INT32
            tensor_shape { dim { size: 4 } }
          }
        }
      }
    }
  )pb");
  const absl::Status s = FillSyntheticConstants(&graph);
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << s;
}

}  // namespace
}  // namespace gpu_bench
}  // namespace sluice
