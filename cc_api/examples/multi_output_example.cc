// Ops with several outputs and with list outputs: Split and Unstack (lists, indexable and
// passable as an InputList), TopK (named outputs `values` and `indices`), ShapeN (a list
// input and a list output). Prints one line per result.
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
  auto x = Const(root, {{1.f, 5.f, 3.f, 2.f}, {4.f, 0.f, 6.f, 7.f}});

  // Two [2, 2] halves along axis 1, joined back in the other order.
  auto halves = Split(root, /*axis=*/1, x, /*num_split=*/2);
  auto swapped = Concat(root, {halves[1], halves[0]}, /*axis=*/1);
  // The rows of x as a list, stacked back along axis 1 (a transpose).
  auto rows = Unstack(root, x, /*num=*/2);
  auto stacked = Stack(root, rows.output, Stack::Axis(1));
  // The two largest entries of each row.
  auto top = TopK(root, x, 2);
  auto shapes = ShapeN(root, {x, halves[0]});

  SLUICE_CHECK_OK(root.status());
  ClientSession session(root);
  std::vector<Tensor> out;
  SLUICE_CHECK_OK(session.Run(
      {halves[0], halves[1], swapped, stacked, top.values, top.indices, shapes[0], shapes[1]},
      &out));
  const char* names[] = {"half0",      "half1",       "swapped", "stacked",
                         "top.values", "top.indices", "shape0",  "shape1"};
  for (size_t i = 0; i < out.size(); ++i) {
    std::cout << names[i] << " = " << out[i].SummarizeValue(-1) << "\n";
  }
  return 0;
}
