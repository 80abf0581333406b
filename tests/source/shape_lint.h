// Finds the shape constructions and mutators that CHECK-fail (abort the process) on bad dims,
// so that each one either goes through a Status-returning form or says why it cannot fail.
//
// TensorShape and PartialTensorShape CHECK on a negative dim, a rank above kMaxDims or an
// element count that overflows int64 when built by their constructors or changed by their
// plain mutators; the *WithStatus / Build* forms return INVALID_ARGUMENT instead. Dims that
// come from users (tensor values, attrs, feeds, GraphDefs) must use the latter, since no input
// may abort the process. What is reported, in the code of one file (comments and string
// literals ignored):
//  - a construction `TensorShape(...)`, `TensorShape{...}`, `TensorShape name(...)`,
//    `TensorShape name{...}` or `TensorShape name = {...}` (and the same for
//    PartialTensorShape) whose arguments are not compile-time literals: `()`, `({})` and a
//    braced list of integer literals such as `({2, 3})` are literals;
//  - a braced list with anything but integer literals passed where a shape is expected, to
//    allocate_output, allocate_temp, Tensor(...) and the like, which builds a TensorShape
//    through the same constructor;
//  - a call of a CHECKing mutator (`.AddDim(`, `.set_dim(`, `.AppendShape(`, `.InsertDim(`,
//    `.RemoveDim(`, `.RemoveLastDims(`, `.RemoveDimRange(`, and PartialTensorShape's
//    one-argument `.Concatenate(`), whatever its arguments: even a literal one can exceed the
//    rank limit or name a dim that is not there.
// A site is justified by a comment whose text starts with "shape-safe:" and a reason, either on
// a line of the statement up to the site's line, or in the comment lines directly above the
// statement:
//   // shape-safe: the dims of the input's shape, one of them replaced by a smaller size
//   TensorShape shape(input.shape().dim_sizes());
// A "shape-safe:" comment that justifies no site is reported too, so that reasons do not
// outlive the code they were written for.
//
// Not found (no type information): a braced list returned from a function that returns a
// TensorShape, or passed to a function not named above. Taken for a construction: a function
// declared to return a TensorShape whose parameters have no names (`TensorShape F(int);`);
// name them.
#ifndef SLUICE_TESTS_SOURCE_SHAPE_LINT_H_
#define SLUICE_TESTS_SOURCE_SHAPE_LINT_H_

#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "tests/source/layering.h"
#include "tests/source/lint_text.h"

namespace sluice {
namespace shape_lint {

constexpr absl::string_view kMarker = "shape-safe:";

// A construction or call, e.g. "TensorShape(dims)", its line, and whether it is justified.
using Site = lint_text::Site;

// Every site of `text`, justified or not, in order.
std::vector<Site> FindSites(absl::string_view text);

// The lines (1-based) of "shape-safe:" comments in `text` that justify no site.
std::vector<int> UnusedJustifications(absl::string_view text);

// Whether the lint covers `path`: the non-test .cc and .h files of kernels/, graph/ops/ and
// graph/shape/, the code that turns graphs, attrs and tensors into shapes.
bool IsScanned(absl::string_view path);

// One line per unjustified site ("path:line: what") and per unused justification, over the
// scanned files among `files`.
std::vector<std::string> FindViolations(const std::vector<layering::SourceFile>& files);

// `text` with every comment, string literal and character literal replaced by spaces, newlines
// kept, so offsets and line numbers stay those of `text`.
std::string CodeOnly(absl::string_view text);

}  // namespace shape_lint
}  // namespace sluice

#endif  // SLUICE_TESTS_SOURCE_SHAPE_LINT_H_
