// Written against TensorFlow's C++ API (the computations of its C++ guide, plus multi-output
// and list-output ops) with only TensorFlow's include paths: it builds with
// //compat:tensorflow on the include path. Prints
// one line per result; compat_examples_test checks them against TensorFlow's.
#include <iostream>
#include <vector>

#include "tensorflow/cc/client/client_session.h"
#include "tensorflow/cc/ops/standard_ops.h"
#include "tensorflow/core/framework/tensor.h"

int main() {
  using namespace tensorflow;
  using namespace tensorflow::ops;
  {
    // A 2x2 matrix times the transpose of a 1x2 row: a column of two dot products.
    Scope scope = Scope::NewRootScope();
    auto matrix = Const(scope, {{3.f, 2.f}, {-1.f, 0.f}});
    auto row = Const(scope, {{3.f, 5.f}});
    auto product = MatMul(scope.WithOpName("product"), matrix, row, MatMul::TransposeB(true));
    ClientSession client(scope);
    std::vector<Tensor> fetched;
    TF_CHECK_OK(client.Run({product}, &fetched));
    LOG(INFO) << "product:\n" << fetched[0].matrix<float>();
    std::cout << "v = " << fetched[0].SummarizeValue(-1) << std::endl;
  }
  {
    // A fed int32 matrix plus a constant matrix of threes.
    Scope scope = Scope::NewRootScope();
    auto fed = Placeholder(scope, DT_INT32);
    auto threes = Const(scope, 3, {2, 2});
    auto sum = Add(scope, fed, threes);
    ClientSession client(scope);
    std::vector<Tensor> fetched;
    TF_CHECK_OK(client.Run({{fed, {{1, 2}, {3, 4}}}}, {sum}, &fetched));
    std::cout << "c = " << fetched[0].SummarizeValue(-1) << std::endl;
  }
  {
    Scope root = Scope::NewRootScope();
    auto x = Const(root, {{1.f, 5.f, 3.f, 2.f}, {4.f, 0.f, 6.f, 7.f}});
    auto split = Split(root, 1, x, 2);
    auto top = TopK(root, x, 2);
    auto rows = Unstack(root, x, 2);
    auto stacked = Stack(root, rows.output, Stack::Axis(1));
    auto joined = Concat(root, {split[1], split[0]}, 1);
    TF_CHECK_OK(root.status());
    ClientSession session(root);
    std::vector<Tensor> outputs;
    TF_CHECK_OK(session.Run({split[0], top.values, top.indices, stacked, joined}, &outputs));
    std::cout << "split0 = " << outputs[0].SummarizeValue(-1) << std::endl;
    std::cout << "top.values = " << outputs[1].SummarizeValue(-1) << std::endl;
    std::cout << "top.indices = " << outputs[2].SummarizeValue(-1) << std::endl;
    std::cout << "stacked = " << outputs[3].SummarizeValue(-1) << std::endl;
    std::cout << "joined = " << outputs[4].SummarizeValue(-1) << std::endl;
  }
  return 0;
}
