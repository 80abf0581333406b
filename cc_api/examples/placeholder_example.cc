// TensorFlow's C++ guide, second example: a Placeholder fed [1 2; 3 4] plus a constant 3
// over [2, 2]. Prints "c = [4 5][6 7]", then the same with a second feed.
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
  auto a = Placeholder(root, DT_INT32);
  // [3 3; 3 3]
  auto b = Const(root, 3, {2, 2});
  auto c = Add(root, a, b);
  SLUICE_CHECK_OK(root.status());
  ClientSession session(root);
  std::vector<Tensor> outputs;
  // Feed a <- [1 2; 3 4]
  SLUICE_CHECK_OK(session.Run({{a, {{1, 2}, {3, 4}}}}, {c}, &outputs));
  std::cout << "c = " << outputs[0].SummarizeValue(-1) << "\n";
  // Feed a <- [10 20; 30 40] as a Tensor.
  Tensor t(DT_INT32, TensorShape({2, 2}));
  t.flat<int32_t>().setValues({10, 20, 30, 40});
  SLUICE_CHECK_OK(session.Run({{a, t}}, {c}, &outputs));
  std::cout << "c = " << outputs[0].SummarizeValue(-1) << "\n";
  return 0;
}
