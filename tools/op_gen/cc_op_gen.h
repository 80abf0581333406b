// Generates the C++ client wrappers (one class per op in namespace sluice::ops) for a list of
// OpDefs, as TensorFlow's cc_op_gen does.
//
// For each visible op (not internal "_X", not Const, which const_op.h provides by hand):
//   class MatMul {
//    public:
//     struct Attrs { Attrs TransposeA(bool x); ... };   // optional attrs, chainable
//     MatMul(const Scope& scope, Input a, Input b);      // inputs, then required attrs
//     MatMul(const Scope& scope, Input a, Input b, const MatMul::Attrs& attrs);
//     operator Output() const;  operator Input() const;  Node* node() const;
//     static Attrs TransposeA(bool x);                   // shortcut: Attrs().TransposeA(x)
//     Operation operation;
//     Output product;                                    // one member per output arg
//   };
// Attrs inferred from inputs (T, N, list(type) of an input) are not parameters. A list
// input is an InputList; a list output an OutputList (and, when it is the only output, the
// class is indexable and converts to InputList). Optional attrs left unset get the OpDef's
// default when the node is built. The op's signature (and its summary and description, when
// the OpDef has them) becomes the class comment.
//
// The header declares, the source defines; the source includes the header as
// `header_include`. Output is deterministic: ops in name order.
#ifndef SLUICE_TOOLS_OP_GEN_CC_OP_GEN_H_
#define SLUICE_TOOLS_OP_GEN_CC_OP_GEN_H_

#include <string>

#include "proto/op_def.pb.h"

namespace sluice {
namespace op_gen {

struct GeneratedCode {
  std::string header;
  std::string source;
};

GeneratedCode GenerateCcOps(const OpList& ops, const std::string& header_include);

}  // namespace op_gen
}  // namespace sluice

#endif  // SLUICE_TOOLS_OP_GEN_CC_OP_GEN_H_
