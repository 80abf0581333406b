// A fixture for heap_lint_test, never compiled. Every line that the lint must report, as an
// unjustified site or as an unused justification, says so in a comment in capitals; no other
// line does.
#include <cstdlib>
#include <memory>
#include <new>
#include <vector>

#include "kernels/cpu/scratch.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {

// Declarations and definitions of functions that return containers or tensors are not
// constructions, nor is an array operator new.
std::vector<int64_t> ToDims(const Tensor& t);
std::vector<int64_t> Empty();
Tensor MakeTensor(DataType dtype, const TensorShape& shape);
std::vector<float> Geometry::Weights() const { return weights_; }
void* operator new[](size_t bytes);

void NotAllocations(OpKernelContext* ctx, const Tensor& input, int64_t n) {
  std::vector<float> empty;
  std::vector<int64_t> fixed(4);
  std::vector<int64_t> filled(3, 0);
  absl::InlinedVector<int64_t, 4> braced{n};
  std::vector<int64_t> listed = {n, n + 1};
  const std::vector<int64_t>& dims = input.shape().dim_sizes();
  std::vector<const Tensor*> pointers;
  pointers.reserve(8);
  pointers.resize(0);
  my_map.insert({n, 1});
  pointers.insert(pointers.end(), &input);
  std::unique_ptr<Geometry> one(new Geometry(n));
  auto shared = std::make_shared<Geometry>(n);
  Tensor copy(input);
  Tensor invalid(DT_INVALID);
  Tensor scalar = Tensor(DT_INVALID);
  ScratchArray<float> scratch;
  OP_REQUIRES_OK(ctx, scratch.Allocate(ctx, n));
  Tensor temp;
  OP_REQUIRES_OK(ctx, ctx->allocate_temp(DT_FLOAT, TensorShape({n}), &temp));
  // Not found, by design (heap_lint.h): growth one element at a time, copies by assignment.
  pointers.push_back(&input);
  std::vector<int64_t> assigned = input.shape().dim_sizes();
  // Mentions in comments and strings are not code: std::vector<float> v(n), v.resize(n).
  LOG(INFO) << "std::vector<float> v(n); v.resize(n); new float[n]; malloc(n)";
}

void Unjustified(OpKernelContext* ctx, const Tensor& input, Allocator* cpu, int64_t n) {
  // Sized containers.
  std::vector<float> sums(n);                                   // REPORTED
  std::vector<float> rows(n * 2, 0.0f);                         // REPORTED
  std::deque<int64_t> queue(n);                                 // REPORTED
  absl::InlinedVector<int64_t, 4> dims(input.dims());           // REPORTED
  absl::FixedArray<float> weights(n);                           // REPORTED
  std::vector<int64_t> copied(dims.begin(), dims.end());        // REPORTED
  auto temporary = std::vector<double>(n);                      // REPORTED
  std::vector<std::vector<float>> grid(n,                       // REPORTED
                                       std::vector<float>(n));  // REPORTED

  // Members that size a container.
  sums.resize(n);                     // REPORTED
  rows.reserve(input.NumElements());  // REPORTED
  queue.assign(n, 0);                 // REPORTED
  holder->resize(n);                  // REPORTED
  rows.insert(rows.end(), n, 1.0f);   // REPORTED

  // Raw arrays and the C allocator.
  float* raw = new float[n];                  // REPORTED
  auto owned = std::make_unique<float[]>(n);  // REPORTED
  void* bytes = malloc(n);                    // REPORTED
  void* zeros = std::calloc(n, 4);            // REPORTED
  bytes = realloc(bytes, 2 * n);              // REPORTED

  // Tensors on the process-wide allocator, or on one that CHECKs instead of failing cleanly.
  Tensor local(DT_FLOAT, TensorShape({n}));             // REPORTED
  Tensor on_cpu = Tensor(DT_INT64, input.shape());      // REPORTED
  Tensor braced{DT_FLOAT, input.shape()};               // REPORTED
  Tensor with_allocator(cpu, DT_FLOAT, input.shape());  // REPORTED

  auto allocated = Tensor::Allocate(DefaultCpuAllocator(), DT_FLOAT, input.shape());  // REPORTED
  Tensor deep = input.DeepCopy();                                                     // REPORTED

  // heap-ok:
  std::vector<float> no_reason(n);  // REPORTED: a marker without a reason justifies nothing
  // A reason one statement too high does not reach the next statement.
  // heap-ok: one per input of the node (REPORTED as unused)
  const int unrelated = 0;
  std::vector<float> too_far(n);  // REPORTED
  // heap-ok: a comment after the site's line does not count (REPORTED as unused)
}

void Justified(OpKernelContext* ctx, const Tensor& input) {
  // heap-ok: one per input of the node
  std::vector<const Tensor*> inputs(ctx->num_inputs());
  std::vector<int64_t> dims(input.dims());  // heap-ok: one per dim, and the rank is bounded
  // heap-ok: a comment block above the statement may run over
  // several lines; the marker opens it.
  std::vector<int64_t> perm(input.shape().dim_sizes().begin(), input.shape().dim_sizes().end());
  dims.resize(input.dims() + 1);  // heap-ok: one more than the rank
  OP_REQUIRES_OK(ctx,
                 // heap-ok: inside the statement, above the site
                 Tensor::Allocate(DefaultCpuAllocator(), DT_FLOAT, TensorShape({2})).status());
}

// heap-ok: justifies nothing below (REPORTED as unused)
void Unused() {}

}  // namespace sluice
