// A C++ client of the installed libtensorflow_cc that loads a ZeroOut custom-op library with
// the C++ LoadLibrary and runs it through Scope, NodeBuilder and ClientSession. Built by
// install_test.sh with `c++ ... $(pkg-config --cflags --libs tensorflow_cc)`.
// Usage: zero_out_client LIBRARY.so. Prints the zeroed vector.
#include <iostream>
#include <vector>

#include "runtime/framework/load_library.h"
#include "tensorflow/cc/client/client_session.h"
#include "tensorflow/cc/ops/standard_ops.h"
#include "tensorflow/core/framework/tensor.h"
#include "tensorflow/core/graph/node_builder.h"

int main(int argc, char** argv) {
  using namespace tensorflow;  // NOLINT(build/namespaces): client code as users write it
  if (argc != 2) {
    std::cerr << "usage: " << argv[0] << " LIBRARY.so\n";
    return 2;
  }
  void* handle = nullptr;
  OpList ops;
  TF_CHECK_OK(LoadLibrary(argv[1], &handle, &ops));
  if (ops.op_size() != 1 || ops.op(0).name() != "ZeroOut") {
    std::cerr << "unexpected ops: " << ops.ShortDebugString() << "\n";
    return 1;
  }

  Scope scope = Scope::NewRootScope();
  auto x = ops::Const(scope, {4, 3, 2, 1});
  auto doubled = ops::Mul(scope, x, 2);
  Node* node = nullptr;
  TF_CHECK_OK(NodeBuilder("zeroed", "ZeroOut").Input(doubled).Finalize(scope.graph(), &node));
  TF_CHECK_OK(scope.DoShapeInference(node));
  ClientSession session(scope);
  std::vector<Tensor> outputs;
  TF_CHECK_OK(session.Run({Output(node, 0)}, &outputs));
  std::cout << "zeroed = " << outputs[0].SummarizeValue(-1) << std::endl;

  // An error keeps TensorFlow's code: a placeholder run without its feed.
  auto unfed = ops::Placeholder(scope.WithOpName("unfed"), DT_FLOAT);
  ClientSession second(scope);
  const Status missing = second.Run({unfed}, &outputs);
  std::cout << "unfed placeholder is INVALID_ARGUMENT: "
            << (missing.code() == error::INVALID_ARGUMENT) << std::endl;
  return 0;
}
