// Runs every registered op's shape function on random input shapes, random known input
// values and random int attrs (fixed seed), checking that each run returns a result or an
// error and never crashes: nothing a user can put in a GraphDef may take the process down.
#include <cstdint>
#include <limits>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_types.h"
#include "graph/op/attr_value_util.h"
#include "graph/op/node_def_util.h"
#include "graph/op/op_registry.h"
#include "graph/shape/shape_inference_testutil.h"
#include "gtest/gtest.h"

namespace sluice {
namespace {

constexpr int kRunsPerOp = 200;

// An attr value valid enough for the op to be built: the first allowed value, a small
// count for number attrs, 4-element lists for strides and the like.
AttrValue PlausibleValue(const OpDef::AttrDef& attr) {
  AttrValue value;
  if (attr.has_allowed_values() && attr.type() == "type") {
    value.set_type(attr.allowed_values().list().type(0));
  } else if (attr.has_allowed_values() && attr.type() == "string") {
    value.set_s(attr.allowed_values().list().s(0));
  } else if (attr.type() == "type") {
    value.set_type(DT_FLOAT);
  } else if (attr.type() == "list(type)") {
    SetAttrValue(std::vector<DataType>{DT_FLOAT, DT_INT32}, &value);
  } else if (attr.type() == "int") {
    value.set_i(std::max<int64_t>(attr.minimum(), 2));
  } else if (attr.type() == "list(int)") {
    SetAttrValue(std::vector<int64_t>{1, 1, 1, 1}, &value);
  } else if (attr.type() == "float") {
    value.set_f(1.0f);
  } else if (attr.type() == "bool") {
    value.set_b(false);
  } else if (attr.type() == "shape") {
    value.mutable_shape()->add_dim()->set_size(2);
    value.mutable_shape()->add_dim()->set_size(-1);
  } else if (attr.type() == "tensor") {
    value.mutable_tensor()->set_dtype(DT_FLOAT);
    value.mutable_tensor()->add_float_val(1.0f);
  }
  return value;
}

class Fuzzer {
 public:
  explicit Fuzzer(uint32_t seed) : rng_(seed) {}

  int64_t Pick(const std::vector<int64_t>& choices) {
    return choices[std::uniform_int_distribution<size_t>(0, choices.size() - 1)(rng_)];
  }
  bool Coin() { return Pick({0, 1}) == 1; }

  // A shape of rank 0..4 with small, zero or unknown dims, or an unknown rank.
  std::vector<int64_t> Shape(bool* unknown_rank) {
    *unknown_rank = Pick({0, 0, 0, 0, 1}) == 1;
    std::vector<int64_t> dims(Pick({0, 1, 1, 2, 2, 3, 4}));
    for (int64_t& d : dims) d = Pick({-1, 0, 1, 1, 2, 3, 4, 6});
    return dims;
  }

  int64_t IntValue() {
    return Pick({-2, -1, 0, 1, 1, 2, 3, 4, 6, 31, 32, std::numeric_limits<int32_t>::min(),
                 std::numeric_limits<int32_t>::max(), int64_t{1} << 40});
  }

  // A tensor of `dtype` and `dims` with interesting values; false for dtypes not generated.
  bool Values(DataType dtype, const std::vector<int64_t>& dims, Tensor* t) {
    TensorShape shape(dims);
    if (shape.num_elements() > 16) return false;
    switch (dtype) {
      case DT_INT32:
        *t = Tensor(dtype, shape);
        for (int64_t i = 0; i < shape.num_elements(); ++i) {
          t->flat<int32_t>()(i) = static_cast<int32_t>(IntValue());
        }
        return true;
      case DT_INT64:
        *t = Tensor(dtype, shape);
        for (int64_t i = 0; i < shape.num_elements(); ++i) {
          t->flat<int64_t>()(i) = Coin() ? IntValue()
                                         : Pick({std::numeric_limits<int64_t>::min(),
                                                 std::numeric_limits<int64_t>::max()});
        }
        return true;
      case DT_INT16:
        *t = Tensor(dtype, shape);
        for (int64_t i = 0; i < shape.num_elements(); ++i) {
          t->flat<int16_t>()(i) = static_cast<int16_t>(IntValue());
        }
        return true;
      case DT_FLOAT:
        *t = Tensor(dtype, shape);
        for (int64_t i = 0; i < shape.num_elements(); ++i) {
          const float choices[] = {0.0f,
                                   1.5f,
                                   -2.0f,
                                   1e30f,
                                   std::numeric_limits<float>::quiet_NaN(),
                                   std::numeric_limits<float>::infinity()};
          t->flat<float>()(i) = choices[Pick({0, 1, 2, 3, 4, 5})];
        }
        return true;
      default:
        return false;
    }
  }

 private:
  std::mt19937 rng_;
};

std::string ShapeText(const std::vector<int64_t>& dims, bool unknown_rank) {
  if (unknown_rank) return "?";
  return absl::StrCat("[",
                      absl::StrJoin(dims, ",",
                                    [](std::string* out, int64_t d) {
                                      absl::StrAppend(out, d < 0 ? "?" : absl::StrCat(d));
                                    }),
                      "]");
}

// True for attrs that set how many inputs or outputs an op has.
bool IsNumberAttr(const OpDef& op_def, const std::string& name) {
  for (const auto* args : {&op_def.input_arg(), &op_def.output_arg()}) {
    for (const OpDef::ArgDef& arg : *args) {
      if (arg.number_attr() == name) return true;
    }
  }
  return false;
}

TEST(ShapeFnRobustnessTest, RandomInputsNeverCrash) {
  Fuzzer fuzz(/*seed=*/20240611);
  int runs = 0;
  for (const std::string& op : OpRegistry::Global()->ListOpNames()) {
    const OpDef* op_def = nullptr;
    ASSERT_TRUE(OpRegistry::Global()->LookUpOpDef(op, &op_def).ok());
    for (int run = 0; run < kRunsPerOp; ++run) {
      NodeDef node;
      node.set_name("n");
      node.set_op(op);
      for (const OpDef::AttrDef& attr : op_def->attr()) {
        AttrValue value = attr.has_default_value() ? attr.default_value() : PlausibleValue(attr);
        // Counts stay small; other ints (axes, masks, block sizes) go anywhere.
        if (attr.type() == "int" && !IsNumberAttr(*op_def, attr.name()) && fuzz.Coin()) {
          value.set_i(fuzz.IntValue());
        }
        (*node.mutable_attr())[attr.name()] = value;
      }
      DataTypeVector input_types;
      if (!InputTypesForNode(node, *op_def, &input_types).ok()) continue;
      std::vector<std::string> shapes;
      std::map<int, Tensor> values;
      for (size_t i = 0; i < input_types.size(); ++i) {
        bool unknown_rank = false;
        std::vector<int64_t> dims = fuzz.Shape(&unknown_rank);
        shapes.push_back(ShapeText(dims, unknown_rank));
        bool fully_known = !unknown_rank;
        for (int64_t d : dims) fully_known &= d >= 0;
        Tensor t;
        if (fully_known && fuzz.Coin() && fuzz.Values(input_types[i], dims, &t)) values[i] = t;
      }
      std::vector<const Tensor*> tensors(input_types.size(), nullptr);
      for (const auto& [i, t] : values) tensors[i] = &t;
      // Either outcome is fine; reaching the next line is the point.
      (void)shape_inference::InferShapesForTest(node, absl::StrJoin(shapes, ";"), tensors);
      ++runs;
    }
  }
  EXPECT_GT(runs, 1000);
}

}  // namespace
}  // namespace sluice
