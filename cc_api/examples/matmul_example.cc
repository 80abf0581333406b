// TensorFlow's C++ guide, first example: v = A * b^T for A = [3 2; -1 0], b = [3 5].
// Prints "v = [19][-3]".
#include <iostream>
#include <vector>

#include "cc_api/client_session.h"
#include "cc_api/logging.h"
#include "cc_api/standard_ops.h"
#include "graph/core/tensor.h"

int main() {
  using namespace sluice;       // NOLINT(build/namespaces)
  using namespace sluice::ops;  // NOLINT(build/namespaces)
  Scope root = Scope::NewRootScope();
  auto A = Const(root, {{3.f, 2.f}, {-1.f, 0.f}});
  auto b = Const(root, {{3.f, 5.f}});  // a row; TransposeB makes it a column
  auto v = MatMul(root.WithOpName("v"), A, b, MatMul::TransposeB(true));
  std::vector<Tensor> outputs;
  SLUICE_CHECK_OK(root.status());
  ClientSession session(root);
  SLUICE_CHECK_OK(session.Run({v}, &outputs));
  LOG(INFO) << "v:\n" << outputs[0].matrix<float>();
  std::cout << "v = " << outputs[0].SummarizeValue(-1) << "\n";
  return 0;
}
