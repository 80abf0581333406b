// Written against TensorFlow's C++ API with only TensorFlow's include paths: trains a linear
// model y = w x + b by gradient descent, its gradients added with AddSymbolicGradients and its
// variables updated with ApplyGradientDescent, as C++ training programs written for
// TensorFlow do. Prints the loss every 50 steps and the trained parameters, each to 4
// decimals; compat_examples_test checks them against TensorFlow's run of the same graph
// (compat/examples/tf_train_example.py).
#include <cstdio>
#include <vector>

#include "tensorflow/cc/client/client_session.h"
#include "tensorflow/cc/framework/gradients.h"
#include "tensorflow/cc/ops/standard_ops.h"
#include "tensorflow/core/framework/tensor.h"

int main() {
  using namespace tensorflow;
  using namespace tensorflow::ops;
  Scope scope = Scope::NewRootScope();
  auto x = Placeholder(scope.WithOpName("x"), DT_FLOAT);
  auto y = Placeholder(scope.WithOpName("y"), DT_FLOAT);
  auto w = Variable(scope.WithOpName("w"), {}, DT_FLOAT);
  auto b = Variable(scope.WithOpName("b"), {}, DT_FLOAT);
  auto init_w = Assign(scope, w, Const(scope, 0.5f));
  auto init_b = Assign(scope, b, Const(scope, 0.0f));
  auto prediction = Add(scope, Mul(scope, w, x), b);
  auto loss = Mean(scope.WithOpName("loss"), Square(scope, Sub(scope, prediction, y)), {0});

  std::vector<Output> grads;
  TF_CHECK_OK(AddSymbolicGradients(scope, {loss}, {w, b}, &grads));
  auto rate = Const(scope, 0.1f);
  auto update_w = ApplyGradientDescent(scope, w, rate, grads[0]);
  auto update_b = ApplyGradientDescent(scope, b, rate, grads[1]);

  Tensor xs(DT_FLOAT, TensorShape({8}));
  Tensor ys(DT_FLOAT, TensorShape({8}));
  for (int i = 0; i < 8; ++i) {
    xs.flat<float>()(i) = i / 4.0f;
    ys.flat<float>()(i) = 3.0f * (i / 4.0f) - 2.0f;
  }
  ClientSession session(scope);
  TF_CHECK_OK(session.Run({init_w, init_b}, nullptr));
  std::vector<Tensor> out;
  for (int step = 0; step <= 200; ++step) {
    TF_CHECK_OK(
        session.Run({{x, xs}, {y, ys}}, {loss}, {update_w.operation, update_b.operation}, &out));
    if (step % 50 == 0) std::printf("step %d loss = %.4f\n", step, out[0].scalar<float>()());
  }
  TF_CHECK_OK(session.Run({w, b}, &out));
  std::printf("w = %.4f b = %.4f\n", out[0].scalar<float>()(), out[1].scalar<float>()());
  return 0;
}
