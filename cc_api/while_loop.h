// BuildWhileLoop: a TensorFlow 1 while loop (an Enter/Merge/Switch/LoopCond/NextIteration/Exit
// frame) built with the C++ API, as TensorFlow's tensorflow/cc/ops/while_loop.h builds it, and
// what TF_FinishWhile builds its loops with.
//
// For loop variables inputs[0..n) the loop is: Enter (into frame `frame_name`) -> Merge (with
// the NextIteration back edge) -> `cond`, built in sub-scope "cond" on the Merge outputs, whose
// boolean scalar feeds a LoopCond -> Switch of each Merge output on it -> `body`, built in
// sub-scope "body" on the Switches' true outputs, returning the next values -> NextIteration
// -> back to Merge; the Switches' false outputs leave through Exit nodes, the loop's outputs.
// The cond and body scopes carry a control dependency on the first loop variable, so constants
// they create run inside the frame once per iteration. Node names follow TensorFlow's
// ("<scope>/Enter_1", "<scope>/cond/Less", ...).
//
// Errors: the scope's status; INVALID_ARGUMENT for no loop variables or a null `outputs`, a
// `cond` that returns a non-boolean or invalid tensor, a `body` that returns the wrong number
// of tensors, an invalid one or one of another type than its loop variable; whatever `cond` or
// `body` return. On error every node the call added is removed again (TensorFlow
// leaves a half-built loop, whose Merge lacks its back edge, in the graph).
//
// Sluice records no WhileContext: `create_while_ctx` is accepted for TensorFlow's signature and
// ignored, and AddSymbolicGradients through the loop's Exit nodes is UNIMPLEMENTED.
#ifndef SLUICE_CC_API_WHILE_LOOP_H_
#define SLUICE_CC_API_WHILE_LOOP_H_

#include <functional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "cc_api/ops.h"
#include "cc_api/scope.h"

namespace sluice {
namespace ops {

// Builds the loop's condition on the Merge outputs: sets *output to a boolean scalar.
using CondGraphBuilderFn =
    std::function<absl::Status(const Scope&, const std::vector<Output>& inputs, Output* output)>;

// Builds the loop's body on the loop variables' current values: sets *outputs to their next
// values, one per loop variable.
using BodyGraphBuilderFn = std::function<absl::Status(
    const Scope&, const std::vector<Output>& inputs, std::vector<Output>* outputs)>;

// Adds the loop; *outputs (which must be empty) receives the Exit outputs. When `cond_output`
// is not null it receives the LoopCond's output.
absl::Status BuildWhileLoop(const Scope& scope, const std::vector<Output>& inputs,
                            const CondGraphBuilderFn& cond, const BodyGraphBuilderFn& body,
                            const std::string& frame_name, OutputList* outputs,
                            bool create_while_ctx = true, Output* cond_output = nullptr);

}  // namespace ops
}  // namespace sluice

#endif  // SLUICE_CC_API_WHILE_LOOP_H_
