// The random ops: stateful ones seeded by attrs (RandomUniform, RandomStandardNormal,
// TruncatedNormal, RandomUniformInt, Multinomial, RandomShuffle), whose kernels keep a generator
// that moves on every run, and the stateless ones (StatelessRandom*, V1 seeded by a pair of
// integers, V2 by a Philox key, counter and algorithm), whose output depends only on their inputs.
#include "graph/core/errors.h"
#include "graph/op/op_registry.h"
#include "graph/shape/common_shape_fns.h"

namespace sluice {

using shape_inference::DimensionHandle;
using shape_inference::InferenceContext;
using shape_inference::ShapeHandle;

namespace {

// The key of a V2 stateless op holds one uint64; its counter up to two.
constexpr int kKeySize = 1;
constexpr int kMaxCounterSize = 2;

absl::Status ScalarBound(InferenceContext* c, int input, const char* name) {
  ShapeHandle unused;
  if (!c->WithRank(c->input(input), 0, &unused).ok()) {
    return errors::InvalidArgument(name, " must be a scalar; got a tensor of shape ",
                                   c->DebugString(c->input(input)));
  }
  return absl::OkStatus();
}

absl::Status SeedPair(InferenceContext* c, int input) {
  ShapeHandle seed;
  RETURN_IF_ERROR(c->WithRank(c->input(input), 1, &seed));
  DimensionHandle unused;
  return c->WithValue(c->Dim(seed, 0), 2, &unused);
}

absl::Status StatelessShape(InferenceContext* c) {
  RETURN_IF_ERROR(SeedPair(c, 1));
  return shape_inference::RandomShape(c);
}

absl::Status StatelessShapeV2(InferenceContext* c) {
  ShapeHandle key, counter, alg;
  RETURN_IF_ERROR(c->WithRank(c->input(1), 1, &key));
  RETURN_IF_ERROR(c->WithRank(c->input(2), 1, &counter));
  RETURN_IF_ERROR(c->WithRank(c->input(3), 0, &alg));
  DimensionHandle unused;
  RETURN_IF_ERROR(c->WithValue(c->Dim(key, 0), kKeySize, &unused));
  return shape_inference::RandomShape(c);
}

// Multinomial's output: [batch, num_samples].
absl::Status MultinomialShape(InferenceContext* c) {
  ShapeHandle logits, unused;
  DimensionHandle num_samples;
  RETURN_IF_ERROR(c->WithRank(c->input(0), 2, &logits));
  RETURN_IF_ERROR(c->WithRank(c->input(1), 0, &unused));
  RETURN_IF_ERROR(c->MakeDimForScalarInput(1, &num_samples));
  c->set_output(0, c->Matrix(c->Dim(logits, 0), num_samples));
  return absl::OkStatus();
}

}  // namespace

// ---- Stateful -------------------------------------------------------------------------

REGISTER_OP("RandomUniform")
    .Input("shape: T")
    .Output("output: dtype")
    .Attr("seed: int = 0")
    .Attr("seed2: int = 0")
    .Attr("dtype: {half,bfloat16,float,double}")
    .Attr("T: {int32, int64}")
    .SetIsStateful()
    .SetShapeFn(shape_inference::RandomShape);

REGISTER_OP("RandomStandardNormal")
    .Input("shape: T")
    .Output("output: dtype")
    .Attr("seed: int = 0")
    .Attr("seed2: int = 0")
    .Attr("dtype: {half,bfloat16,float,double}")
    .Attr("T: {int32, int64}")
    .SetIsStateful()
    .SetShapeFn(shape_inference::RandomShape);

REGISTER_OP("TruncatedNormal")
    .Input("shape: T")
    .Output("output: dtype")
    .Attr("seed: int = 0")
    .Attr("seed2: int = 0")
    .Attr("dtype: {half,bfloat16,float,double}")
    .Attr("T: {int32, int64}")
    .SetIsStateful()
    .SetShapeFn(shape_inference::RandomShape);

REGISTER_OP("RandomUniformInt")
    .Input("shape: T")
    .Input("minval: Tout")
    .Input("maxval: Tout")
    .Output("output: Tout")
    .Attr("seed: int = 0")
    .Attr("seed2: int = 0")
    .Attr("Tout: {int32, int64}")
    .Attr("T: {int32, int64}")
    .SetIsStateful()
    .SetShapeFn([](InferenceContext* c) {
      ShapeHandle unused;
      RETURN_IF_ERROR(c->WithRank(c->input(1), 0, &unused));
      RETURN_IF_ERROR(c->WithRank(c->input(2), 0, &unused));
      return shape_inference::RandomShape(c);
    });

REGISTER_OP("Multinomial")
    .Input("logits: T")
    .Input("num_samples: int32")
    .Output("output: output_dtype")
    .Attr("seed: int = 0")
    .Attr("seed2: int = 0")
    .Attr("T: realnumbertype")
    .Attr("output_dtype: {int32, int64} = DT_INT64")
    .SetIsStateful()
    .SetShapeFn(MultinomialShape);

REGISTER_OP("RandomShuffle")
    .Input("value: T")
    .Output("output: T")
    .Attr("seed: int = 0")
    .Attr("seed2: int = 0")
    .Attr("T: type")
    .SetIsStateful()
    .SetShapeFn(shape_inference::UnchangedShape);

// ---- Stateless, seeded by a pair of integers ---------------------------------------------

#define SLUICE_STATELESS_REAL_OP(name)                        \
  REGISTER_OP(name)                                           \
      .Input("shape: T")                                      \
      .Input("seed: Tseed")                                   \
      .Output("output: dtype")                                \
      .Attr("dtype: {half,bfloat16,float,double} = DT_FLOAT") \
      .Attr("T: {int32, int64} = DT_INT32")                   \
      .Attr("Tseed: {int32, int64} = DT_INT64")               \
      .SetShapeFn(StatelessShape)

SLUICE_STATELESS_REAL_OP("StatelessRandomUniform");
SLUICE_STATELESS_REAL_OP("StatelessRandomNormal");
SLUICE_STATELESS_REAL_OP("StatelessTruncatedNormal");
#undef SLUICE_STATELESS_REAL_OP

REGISTER_OP("StatelessRandomUniformInt")
    .Input("shape: T")
    .Input("seed: Tseed")
    .Input("minval: dtype")
    .Input("maxval: dtype")
    .Output("output: dtype")
    .Attr("dtype: {int32, int64}")
    .Attr("T: {int32, int64}")
    .Attr("Tseed: {int32, int64} = DT_INT64")
    .SetShapeFn([](InferenceContext* c) {
      RETURN_IF_ERROR(ScalarBound(c, 2, "minval"));
      RETURN_IF_ERROR(ScalarBound(c, 3, "maxval"));
      return StatelessShape(c);
    });

REGISTER_OP("StatelessRandomUniformFullInt")
    .Input("shape: T")
    .Input("seed: Tseed")
    .Output("output: dtype")
    .Attr("dtype: {int32, int64, uint32, uint64} = DT_UINT64")
    .Attr("T: {int32, int64} = DT_INT32")
    .Attr("Tseed: {int32, int64, uint32, uint64} = DT_INT64")
    .SetShapeFn(StatelessShape);

REGISTER_OP("StatelessMultinomial")
    .Input("logits: T")
    .Input("num_samples: int32")
    .Input("seed: Tseed")
    .Output("output: output_dtype")
    .Attr("T: realnumbertype")
    .Attr("Tseed: {int32, int64} = DT_INT64")
    .Attr("output_dtype: {int32, int64} = DT_INT64")
    .SetShapeFn([](InferenceContext* c) {
      RETURN_IF_ERROR(SeedPair(c, 2));
      return MultinomialShape(c);
    });

// ---- Stateless, given a Philox key, counter and algorithm ---------------------------------

#define SLUICE_STATELESS_REAL_OP_V2(name)                     \
  REGISTER_OP(name)                                           \
      .Input("shape: Tshape")                                 \
      .Input("key: uint64")                                   \
      .Input("counter: uint64")                               \
      .Input("alg: int32")                                    \
      .Output("output: dtype")                                \
      .Attr("dtype: {half,bfloat16,float,double} = DT_FLOAT") \
      .Attr("Tshape: {int32, int64} = DT_INT32")              \
      .SetShapeFn(StatelessShapeV2)

SLUICE_STATELESS_REAL_OP_V2("StatelessRandomUniformV2");
SLUICE_STATELESS_REAL_OP_V2("StatelessRandomNormalV2");
SLUICE_STATELESS_REAL_OP_V2("StatelessTruncatedNormalV2");
#undef SLUICE_STATELESS_REAL_OP_V2

REGISTER_OP("StatelessRandomUniformIntV2")
    .Input("shape: Tshape")
    .Input("key: uint64")
    .Input("counter: uint64")
    .Input("alg: int32")
    .Input("minval: dtype")
    .Input("maxval: dtype")
    .Output("output: dtype")
    .Attr("dtype: {int32, int64, uint32, uint64}")
    .Attr("Tshape: {int32, int64} = DT_INT32")
    .SetShapeFn([](InferenceContext* c) {
      RETURN_IF_ERROR(ScalarBound(c, 4, "minval"));
      RETURN_IF_ERROR(ScalarBound(c, 5, "maxval"));
      return StatelessShapeV2(c);
    });

REGISTER_OP("StatelessRandomUniformFullIntV2")
    .Input("shape: Tshape")
    .Input("key: uint64")
    .Input("counter: uint64")
    .Input("alg: int32")
    .Output("output: dtype")
    .Attr("dtype: {int32, int64, uint32, uint64} = DT_UINT64")
    .Attr("Tshape: {int32, int64} = DT_INT32")
    .SetShapeFn(StatelessShapeV2);

REGISTER_OP("StatelessRandomGetKeyCounterAlg")
    .Input("seed: Tseed")
    .Output("key: uint64")
    .Output("counter: uint64")
    .Output("alg: int32")
    .Attr("Tseed: {int32, int64} = DT_INT64")
    .SetShapeFn([](InferenceContext* c) {
      RETURN_IF_ERROR(SeedPair(c, 0));
      c->set_output(0, c->MakeShape({kKeySize}));
      c->set_output(1, c->MakeShape({kMaxCounterSize}));
      c->set_output(2, c->Scalar());
      return absl::OkStatus();
    });

REGISTER_OP("StatelessRandomGetKeyCounter")
    .Input("seed: Tseed")
    .Output("key: uint64")
    .Output("counter: uint64")
    .Attr("Tseed: {int32, int64} = DT_INT64")
    .SetShapeFn([](InferenceContext* c) {
      RETURN_IF_ERROR(SeedPair(c, 0));
      c->set_output(0, c->MakeShape({kKeySize}));
      c->set_output(1, c->MakeShape({kMaxCounterSize}));
      return absl::OkStatus();
    });

// Stateful in TensorFlow: the algorithm depends on the device the node is placed on.
REGISTER_OP("StatelessRandomGetAlg")
    .Output("alg: int32")
    .SetIsStateful()
    .SetShapeFn([](InferenceContext* c) {
      c->set_output(0, c->Scalar());
      return absl::OkStatus();
    });

}  // namespace sluice
