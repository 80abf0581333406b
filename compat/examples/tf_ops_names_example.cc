// Written against TensorFlow's C++ API with only TensorFlow's include paths, through its
// per-family op headers and the wrapper names TensorFlow's api_defs give (ops::Subtract,
// ops::Where3 for Select, Squeeze::Axis, ops::SetDiff1D, ops::BroadcastDynamicShape,
// ops::RandomNormal, ops::internal::ReluGrad): an image-preprocessing step in the manner of
// TensorFlow's label_image example, then one line per renamed wrapper. compat_examples_test
// checks the lines against tf_ops_names_example.py's run of the same graph in TensorFlow.
#include <cstdio>
#include <string>
#include <vector>

#include "tensorflow/cc/client/client_session.h"
#include "tensorflow/cc/ops/array_ops.h"
#include "tensorflow/cc/ops/const_op.h"
#include "tensorflow/cc/ops/image_ops.h"
#include "tensorflow/cc/ops/math_ops.h"
#include "tensorflow/cc/ops/nn_ops_internal.h"
#include "tensorflow/cc/ops/random_ops.h"
#include "tensorflow/core/framework/tensor.h"

// "NAME = [d0,d1] v0 v1 ...", floats to four decimals (TensorFlow's Python prints the same).
void PrintTensor(const char* name, const tensorflow::Tensor& t) {
  std::string dims;
  for (int d = 0; d < t.dims(); ++d) dims += (d ? "," : "") + std::to_string(t.dim_size(d));
  std::printf("%s = [%s]", name, dims.c_str());
  for (int64_t i = 0; i < t.NumElements(); ++i) {
    if (t.dtype() == tensorflow::DT_FLOAT) {
      std::printf(" %.4f", t.flat<float>()(i));
    } else {
      std::printf(" %d", t.flat<int32_t>()(i));
    }
  }
  std::printf("\n");
}

int main() {
  using namespace tensorflow;  // NOLINT: as TensorFlow's own examples write it
  Scope root = Scope::NewRootScope();

  // A 4x4 RGB image (uint8) scaled to 2x2, normalised, and its batch dimension squeezed away.
  Tensor image(DT_UINT8, TensorShape({4, 4, 3}));
  auto pixels = image.flat<uint8_t>();
  for (int i = 0; i < pixels.size(); ++i) pixels(i) = static_cast<uint8_t>((i * 37) % 256);
  auto as_float = ops::Cast(root, ops::Const(root, image), DT_FLOAT);
  auto batched = ops::ExpandDims(root, as_float, 0);
  auto resized = ops::ResizeBilinear(root, batched, ops::Const(root, {2, 2}),
                                     ops::ResizeBilinear::HalfPixelCenters(true));
  auto normalised = ops::Div(root, ops::Subtract(root, resized, {128.f}), {64.f});
  auto squeezed = ops::Squeeze(root, normalised, ops::Squeeze::Axis({0}));
  auto channel_sums = ops::Sum(root, squeezed, {0, 1}, ops::Sum::KeepDims(true));

  // One wrapper per renamed op.
  auto x = ops::Const(root, {-2.f, -1.f, 0.f, 1.f, 2.f});
  auto where = ops::Where3(root, ops::Greater(root, x, 0.f), x, ops::Negate(root, x));
  auto product = ops::Multiply(root, x, ops::Mul(root, x, 2.f));
  auto relu_grad = ops::internal::ReluGrad(root, ops::Const(root, {1.f, 2.f, 3.f, 4.f, 5.f}), x);
  auto diff = ops::SetDiff1D(root, ops::Const(root, {1, 2, 3, 4, 5, 6}), ops::Const(root, {2, 4}));
  auto shape =
      ops::BroadcastDynamicShape(root, ops::Const(root, {2, 1, 3}), ops::Const(root, {4, 1}));
  auto noise = ops::RandomNormal(root, ops::Const(root, {3}), DT_FLOAT,
                                 ops::RandomNormal::Seed(7).Seed2(11));
  TF_CHECK_OK(root.status());

  ClientSession session(root);
  std::vector<Tensor> out;
  TF_CHECK_OK(session.Run(
      {squeezed, channel_sums, where, product, relu_grad, diff.out, diff.idx, shape, noise}, &out));
  const char* names[] = {"squeezed", "channel_sums", "where", "product", "relu_grad",
                         "diff.out", "diff.idx",     "shape", "noise"};
  for (size_t i = 0; i < out.size(); ++i) PrintTensor(names[i], out[i]);
  return 0;
}
