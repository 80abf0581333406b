// Einsum on the CPU, the part that looks only at the equation and the shapes: parsing and
// validating the equation, and planning the computation for given input shapes. The kernel
// (einsum_op.cc) runs the plan.
//
// The equation is "<in0>->out" or "<in0>,<in1>->out" (TensorFlow's kernel requires the "->"
// and one or two inputs). A subscript is a string of one-character labels (any character
// but '.') with at most one ellipsis "...", which stands for the dims that the named labels
// leave over; the inputs' ellipsis dims broadcast numpy-style (right-aligned, 1 against n),
// and the output must have an ellipsis when any input's ellipsis covers dims. Named labels
// must have one size everywhere, size-1 ones included (TensorFlow does not broadcast them).
//
// The plan reduces every equation to at most three strided passes over memory and one
// batched matrix product:
//  - One input: a single pass from the input to the output. It transposes, takes the
//    generalized diagonal of a label repeated in the input ("ii->i": the label's stride is
//    the sum of its axes' strides), sums out the labels missing from the output ("ij->i"),
//    and writes onto the diagonal of an output that repeats a label ("i->ii", the rest
//    zero). An equation that changes nothing but size-1 dims forwards the input.
//  - Two inputs: each label is a batch label (both inputs and the output), a free label
//    (one input and the output), a contracted label (both inputs, not the output) or a
//    summed one (one input only). Each input is prepared as a batch of matrices, X [batch,
//    M, K] and Y [batch, K, N], where M is the product of X's free labels, N of Y's and K of
//    the contracted ones; that pass also takes diagonals and sums out the summed labels. An
//    input already laid out that way, or as the transposed matrices, is used as it is (no
//    pass): "bij,bjk->bik", "bhqd,bhkd->bhqk", "bhqk,bhkd->bhqd", "abc,cd->abd" and
//    "...ij,...jk->...ik" touch no memory before the product. The product's batch dims
//    broadcast (an input's size-1 ellipsis dim is its stride 0). Its result [batch, M, N]
//    is the output when the output lists the labels in that order; otherwise a last pass
//    permutes (or inflates) it into the output. The inputs are swapped when the output
//    lists the second input's free labels first ("aecd,abcd->acbe"), so that the product's
//    result is already in the output's order.
// Labels are ordered as follows: batch labels and each input's free labels in the order of
// the output, contracted labels in the order of whichever input keeps more inputs
// unprepared.
//
// Errors are INVALID_ARGUMENT, with TensorFlow's messages where it has one, naming the
// label, input or dims at fault.
#ifndef SLUICE_KERNELS_CPU_LINALG_EINSUM_PLAN_H_
#define SLUICE_KERNELS_CPU_LINALG_EINSUM_PLAN_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/types/span.h"
#include "graph/core/tensor_shape.h"

namespace sluice {
namespace einsum {

// The label id of "..." in a parsed subscript.
inline constexpr int kEllipsis = -1;

// A parsed equation. Labels are numbered in order of first appearance (inputs, then output).
struct Equation {
  std::string text;
  std::vector<std::vector<int>> inputs;  // one subscript per input
  std::vector<int> output;
  std::string names;  // names[id]: the label's character
  bool output_has_ellipsis = false;
};

// Parses `text` for an Einsum node with `num_inputs` inputs (its N attr).
absl::Status ParseEquation(const std::string& text, int num_inputs, Equation* equation);

// One pass over memory: for each index (i_0, ..., i_n) of `dims`, outermost first,
//   dst[sum_d i_d * dst_strides[d]] =
//       sum over indices r of reduce_dims of src[sum_d i_d * src_strides[d] +
//                                               sum_e r_e * reduce_strides[e]]
// (strides count elements). Every transpose, diagonal, sum over labels and inflation of an
// einsum is one of these.
struct StridedPass {
  std::vector<int64_t> dims, src_strides, dst_strides;
  std::vector<int64_t> reduce_dims, reduce_strides;

  int64_t NumKept() const;     // product of dims
  int64_t NumReduced() const;  // product of reduce_dims
  // No sum, and dst is the row-major array of dims: a gather of a strided view of src.
  bool IsGather() const;
  // Drops size-1 dims and merges neighbours that are contiguous in both buffers, so a plain
  // copy becomes one dim; reduce dims are ordered from the largest stride to the smallest.
  void Simplify();
};

// One input of the product, as a batch of matrices: X [batch..., M, K], Y [batch..., K, N]
// (row-major), or their transposes [batch..., K, M] / [batch..., N, K] when `transposed`.
struct Operand {
  int input = 0;
  bool direct = false;  // the input's own buffer has this layout (then `prepare` copies it)
  bool transposed = false;
  StridedPass prepare;  // input -> the contiguous prepared buffer
  int64_t num_elements = 0;
};

struct Plan {
  TensorShape output_shape;
  bool output_empty = false;  // no element to compute
  bool zeros = false;         // an input is empty and the output is not: it is all zeros
  int num_inputs = 0;
  // One input: x.prepare writes the output (dst strides are the output's); `forward`: the
  // output is the input itself, reshaped.
  bool forward = false;
  // Two inputs: out[b, m, n] = sum_k X[b, m, k] * Y[b, k, n].
  Operand x, y;
  int64_t m = 1, k = 1, n = 1;
  // Batch dims of the product with neighbours that broadcast alike merged; x_batch and
  // y_batch hold 1 where that operand is broadcast.
  std::vector<int64_t> batch, x_batch, y_batch;
  // The product's result [batch..., M, N] is the output as it is, or `finish` moves it there
  // (a gather in the output's order unless `inflate`).
  bool result_is_output = false;
  StridedPass finish;
  // The output repeats a label of size > 1: it is zeroed, then the last pass writes its
  // diagonal.
  bool inflate = false;
};

// Validates the inputs' shapes against `equation` and plans the computation.
absl::Status MakePlan(const Equation& equation, absl::Span<const TensorShape> shapes, Plan* plan);

}  // namespace einsum
}  // namespace sluice

#endif  // SLUICE_KERNELS_CPU_LINALG_EINSUM_PLAN_H_
