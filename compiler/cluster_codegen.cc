// GenerateClusterCode: kinds and phases of the program's values, then the text: constants,
// scalar values, and the row loop with its phases (see the header for the layout). The
// transcendental functions' code is transcendental_code.h's; the text is MlirTextBuilder's.
#include "compiler/cluster_codegen.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "compiler/mlir_text.h"
#include "compiler/transcendental_code.h"
#include "graph/core/errors.h"
#include "graph/ops/mlir_cluster_spec.h"
#include "numerics/exp_float.h"
#include "numerics/log_float.h"
#include "numerics/reciprocal.h"
#include "numerics/rsqrt.h"
#include "numerics/sigmoid_tanh_float.h"

namespace sluice {
namespace {

// Columns per vector: also the number of partial results of the CPU kernels' row
// reductions, so that one vector register holds them in their order.
constexpr int kWidth = 8;

// The "phase" of the column loop that computes the column and batch-column values.
constexpr int kBatchPhase = -1;

constexpr const char* kCallbackOps[kNumClusterCallbacks] = {"Rsqrt", "Exp", "Log",       "Sigmoid",
                                                            "Tanh",  "Erf", "Reciprocal"};

// Computed values of these kinds are computed once per batch element (kBatchPhase).
bool IsHoisted(ValueKind kind) {
  return kind == ValueKind::kColumn || kind == ValueKind::kBatchColumn;
}

// Values that vary over the columns.
bool IsColumnwise(ValueKind kind) {
  return kind == ValueKind::kFull || kind == ValueKind::kColumn || kind == ValueKind::kBatchColumn;
}

// What the generator knows of each value.
struct ValueInfo {
  ValueKind kind = ValueKind::kFull;
  int input = -1;  // >= 0: the input it is
  // Full and column values: the phase that computes it (inputs: read in any phase, 0).
  // Row values and scalars: the phase before which it is known (0: before the first).
  // Computed column and batch-column values are computed once per batch element, before
  // phase 0 (kBatchPhase), and kept in scratch rows.
  int phase = 0;
  int scratch = -1;  // the scratch row that keeps it for later phases
  bool is_output = false;
};

// One loop body (vector or scalar) or scope being written: the SSA names of values in it.
struct Scope {
  int width = 1;                                // columns at a time in a loop body
  absl::flat_hash_map<int, std::string> names;  // value index -> SSA name
  // Row values and scalars broadcast for a phase: (value index, width) -> SSA name.
  absl::flat_hash_map<std::pair<int, int>, std::string> broadcasts;
};

// The text builder is the generator's own output: it writes the module as it walks the program.
class Generator : public MlirTextBuilder {
 public:
  Generator(absl::Span<const FusedElementwiseStep> steps, absl::Span<const ValueKind> inputs,
            const ClusterCodegenOptions& options)
      : steps_(steps), num_inputs_(static_cast<int>(inputs.size())), options_(options) {
    values_.resize(inputs.size() + steps.size());
    for (int i = 0; i < num_inputs_; ++i) {
      values_[i].kind = inputs[i];
      values_[i].input = i;
    }
  }

  absl::StatusOr<ClusterCode> Run() {
    RETURN_IF_ERROR(AssignKindsAndPhases());
    EmitModule();
    ClusterCode code;
    code.mlir = TakeText();
    for (const ValueInfo& v : values_) code.value_kinds.push_back(v.kind);
    code.scratch_rows = scratch_rows_;
    code.phases = phases_;
    return code;
  }

 private:
  const FusedElementwiseStep& Step(int value) const { return steps_[value - num_inputs_]; }
  bool IsStep(int value) const { return value >= num_inputs_; }

  absl::Status AssignKindsAndPhases() {
    for (size_t k = 0; k < steps_.size(); ++k) {
      const FusedElementwiseStep& step = steps_[k];
      ValueInfo& out = values_[num_inputs_ + k];
      const ValueInfo& a = values_[step.operands[0]];
      if (IsClusterReduction(step.op)) {
        if (a.kind != ValueKind::kFull) {
          return errors::InvalidArgument("_MlirCluster op ", k, " (", step.op, ") reduces a ",
                                         ValueKindName(a.kind), " value; only full values reduce");
        }
        out.kind = ValueKind::kRow;
        out.phase = a.phase + 1;
        continue;
      }
      if (step.arity == 1) {
        if (!IsKnownUnary(step.op)) {
          return errors::InvalidArgument("_MlirCluster cannot compile op ", k, " '", step.op, "'");
        }
        out.kind = a.kind;
        out.phase = a.phase;
        continue;
      }
      if (!IsKnownBinary(step.op)) {
        return errors::InvalidArgument("_MlirCluster cannot compile op ", k, " '", step.op, "'");
      }
      const ValueInfo& b = values_[step.operands[1]];
      out.kind = CombineKinds(a.kind, b.kind);
      out.phase = std::max(a.phase, b.phase);
    }
    ValueInfo& output = values_.back();
    if (!IsColumnwise(output.kind) && output.kind != ValueKind::kRow) {
      return errors::InvalidArgument("_MlirCluster's output is a ", ValueKindName(output.kind),
                                     " value; it must be a full or a row value");
    }
    if (output.kind == ValueKind::kColumn || output.kind == ValueKind::kBatchColumn) {
      return errors::InvalidArgument("_MlirCluster's output is a ", ValueKindName(output.kind),
                                     " value; it must be a full or a row value");
    }
    output.is_output = true;
    phases_ = 0;
    for (size_t v = 0; v < values_.size(); ++v) {
      const ValueInfo& info = values_[v];
      if (IsStep(v) && IsColumnwise(info.kind)) phases_ = std::max(phases_, info.phase + 1);
      if (IsStep(v) && IsClusterReduction(Step(v).op)) phases_ = std::max(phases_, info.phase);
    }
    // Scratch rows: every computed column and batch-column value (computed once per batch
    // element and read by its rows: a squeeze-and-excitation gate's Sigmoid is not repeated
    // for every row), and computed full values that a later phase reads.
    for (size_t k = 0; k < steps_.size(); ++k) {
      ValueInfo& info = values_[num_inputs_ + k];
      if (IsHoisted(info.kind)) {
        info.scratch = scratch_rows_++;
        has_hoisted_steps_ = true;
      }
    }
    for (size_t k = 0; k < steps_.size(); ++k) {
      const FusedElementwiseStep& step = steps_[k];
      const int reader_phase = ReaderPhase(num_inputs_ + k);
      for (int j = 0; j < step.arity; ++j) {
        ValueInfo& operand = values_[step.operands[j]];
        if (IsStep(step.operands[j]) && IsColumnwise(operand.kind) &&
            reader_phase > operand.phase && operand.scratch < 0) {
          operand.scratch = scratch_rows_++;
        }
      }
    }
    return absl::OkStatus();
  }

  // The phase whose loop evaluates the step: a reduction's is its operand's.
  int ReaderPhase(int value) const {
    const FusedElementwiseStep& step = Step(value);
    if (IsClusterReduction(step.op)) return values_[step.operands[0]].phase;
    return values_[value].phase;
  }

  static bool IsKnownUnary(absl::string_view op) {
    return ClusterCallbackId(op) >= 0 || op == "Neg" || op == "Abs" || op == "Square" ||
           op == "Sqrt" || op == "Relu" || op == "Relu6" || op == "Erfc";
  }
  static bool IsKnownBinary(absl::string_view op) {
    return op == "Add" || op == "AddV2" || op == "Sub" || op == "Mul" || op == "Div" ||
           op == "RealDiv" || op == "Maximum" || op == "Minimum" || op == "SquaredDifference";
  }

  // The vector loops' widths, widest first: 16 then 8, or 8.
  std::vector<int> VectorWidths() const {
    if (options_.vector_width == 2 * kWidth) return {2 * kWidth, kWidth};
    return {kWidth};
  }

  static std::string MemRef() { return "memref<?xf32>"; }

  std::string Constant(const char* name, int width) {
    return width == 1 ? absl::StrCat("%", name, "_s") : absl::StrCat("%", name, "_v", width);
  }

  // A reduction's Combine, as reducers.h defines it.
  std::string Combine(absl::string_view op, const std::string& acc, const std::string& x,
                      int width) {
    if (op == "Sum" || op == "Mean") return Binary("addf", acc, x, width);
    // Max: x replaces acc when greater or NaN (a NaN, once met, sticks); Min likewise.
    const std::string better = Compare(op == "Max" ? "ogt" : "olt", x, acc, width);
    const std::string nan = Compare("uno", x, x, width);
    return Select(Or(better, nan, width), x, acc, width);
  }

  std::string Identity(absl::string_view op, int width) {
    if (op == "Max") return Constant("neg_inf", width);
    if (op == "Min") return Constant("pos_inf", width);
    return Constant("zero", width);
  }

  // Flat index and size of element `c` (or the row) of a value of `kind`, as i64 names.
  std::pair<std::string, std::string> FlatIndex(ValueKind kind, const std::string& column) {
    switch (kind) {
      case ValueKind::kFull:
        return {Assign(absl::StrCat("arith.addi %row_flat, ", column, " : i64")), "%total"};
      case ValueKind::kColumn:
        return {column, "%cols_i64"};
      case ValueKind::kBatchColumn:
        return {Assign(absl::StrCat("arith.addi %batch_flat, ", column, " : i64")), "%batch_total"};
      case ValueKind::kRow:
        return {"%row_i64", "%rows_i64"};
      case ValueKind::kScalar:
        break;
    }
    return {"%zero_i64", "%one_i64"};
  }

  // The kernel's own functor through the callback: the value goes through the scratch slot.
  std::string Callback(int id, const std::string& x, int width, ValueKind kind,
                       const std::string& column_i64) {
    const auto [flat, total] = FlatIndex(kind, column_i64);
    if (width > 1) {
      Line(absl::StrCat("vector.store ", x, ", %scratch[%c0] : ", MemRef(), ", ", Type(width)));
    } else {
      Line(absl::StrCat("memref.store ", x, ", %scratch[%c0] : ", MemRef()));
    }
    Line(absl::StrCat("func.call @", kClusterCallback, "(%op", id, ", %scratch_address, ", "%count",
                      width, "_i64, ", flat, ", ", total, ") : (i64, i64, i64, i64, i64) -> ()"));
    if (width > 1) {
      return Assign(absl::StrCat("vector.load %scratch[%c0] : ", MemRef(), ", ", Type(width)));
    }
    return Assign(absl::StrCat("memref.load %scratch[%c0] : ", MemRef()));
  }

  // `computed`, or the kernel's values (a callback) when the i1 `condition` holds.
  std::string CallbackIf(const std::string& condition, int id, const std::string& computed,
                         const std::string& x, int width, ValueKind kind,
                         const std::string& column_i64) {
    const std::string result = Fresh();
    Line(absl::StrCat(result, " = scf.if ", condition, " -> (", Type(width), ") {"));
    Indent(2);
    const std::string called = Callback(id, x, width, kind, column_i64);
    Line(absl::StrCat("scf.yield ", called, " : ", Type(width)));
    Indent(-2);
    Line("} else {");
    Indent(2);
    Line(absl::StrCat("scf.yield ", computed, " : ", Type(width)));
    Indent(-2);
    Line("}");
    return result;
  }

  // `computed` (the op's packet path written out), except where this group of elements
  // reaches the value's last size % `packet` elements, which the kernel computes with its
  // scalar form: there, the kernel's own function through the callback. `packet` is Eigen's
  // floats per packet in the kernels' build unless the op's kernel says otherwise.
  std::string UnlessScalarTail(int id, const std::string& computed, const std::string& x, int width,
                               ValueKind kind, const std::string& column_i64,
                               int64_t packet_floats) {
    const auto [flat, total] = FlatIndex(kind, column_i64);
    const std::string packet = Assign(absl::StrCat("arith.constant ", packet_floats, " : i64"));
    const std::string rem = Assign(absl::StrCat("arith.remsi ", total, ", ", packet, " : i64"));
    const std::string vector_end = Assign(absl::StrCat("arith.subi ", total, ", ", rem, " : i64"));
    const std::string group_end = Assign(
        absl::StrCat("arith.addi ", flat, ", ",
                     width == 1 ? "%one_i64" : absl::StrCat("%count", width, "_i64"), " : i64"));
    std::string in_tail =
        Assign(absl::StrCat("arith.cmpi sgt, ", group_end, ", ", vector_end, " : i64"));
    return CallbackIf(in_tail, id, computed, x, width, kind, column_i64);
  }

  std::string Unary(absl::string_view op, const std::string& x, int width, ValueKind kind,
                    const std::string& column_i64) {
    if (op == "Erfc") return EmitErfc(*this, x, width);
    if (op == "Exp") {
      // numerics::ExpFloat's vector form; a tensor's last total % 8 take std::exp.
      return UnlessScalarTail(ClusterCallbackId(op), EmitTensorFlowExp(*this, x, width), x, width,
                              kind, column_i64, numerics::kExpFloatPacket);
    }
    if (op == "Log") {
      // numerics::LogFloat's vector form; a tensor's last total % 8 take its scalar form.
      return UnlessScalarTail(ClusterCallbackId(op), EmitTensorFlowLog(*this, x, width), x, width,
                              kind, column_i64, numerics::kLogFloatPacket);
    }
    // The correctly rounded square root, as the kernel's (numerics/sqrt.h): LLVM lowers
    // math.sqrt without fast-math flags to the sqrt instruction, on every CPU.
    if (op == "Sqrt") return Assign(absl::StrCat("math.sqrt ", x, " : ", Type(width)));
    if (options_.avx_estimates && op == "Rsqrt") {
      // numerics::RsqrtFloat's vector form; a tensor's last total % 8 take its scalar form.
      return UnlessScalarTail(ClusterCallbackId(op), EmitTensorFlowRsqrt(*this, x, width), x, width,
                              kind, column_i64, numerics::kRsqrtFloatPacket);
    }
    if (options_.avx_estimates && op == "Reciprocal") {
      // numerics::ReciprocalFloat's, likewise.
      return UnlessScalarTail(ClusterCallbackId(op), EmitTensorFlowReciprocal(*this, x, width), x,
                              width, kind, column_i64, numerics::kReciprocalFloatPacket);
    }
    if (op == "Sigmoid") {
      // numerics::SigmoidFloat's vector form; a tensor's last total % 8 take its scalar form.
      return UnlessScalarTail(ClusterCallbackId(op), EmitTensorFlowSigmoid(*this, x, width), x,
                              width, kind, column_i64, numerics::kSigmoidFloatPacket);
    }
    if (op == "Erf") return EmitTensorFlowErf(*this, x, width);
    if (op == "Tanh") return EmitTensorFlowTanh(*this, x, width);
    const int id = ClusterCallbackId(op);
    if (id >= 0) return Callback(id, x, width, kind, column_i64);
    if (op == "Neg") return Assign(absl::StrCat("arith.negf ", x, " : ", Type(width)));
    if (op == "Abs") return Assign(absl::StrCat("math.abs ", x, " : ", Type(width)));
    if (op == "Square") return Binary("mulf", x, x, width);
    // Relu is x < 0 ? 0 : x (NaN and -0 pass through, as Eigen's max keeps its first
    // operand); Relu6 then takes 6 < r ? 6 : r.
    const std::string zero = Constant("zero", width);
    std::string r = Select(Compare("olt", x, zero, width), zero, x, width);
    if (op == "Relu6") {
      const std::string six = Constant("six", width);
      r = Select(Compare("olt", six, r, width), six, r, width);
    }
    return r;
  }

  std::string BinaryOp(absl::string_view op, const std::string& a, const std::string& b,
                       int width) {
    if (op == "Add" || op == "AddV2") return Binary("addf", a, b, width);
    if (op == "Sub") return Binary("subf", a, b, width);
    if (op == "Mul") return Binary("mulf", a, b, width);
    if (op == "Div" || op == "RealDiv") return Binary("divf", a, b, width);
    if (op == "SquaredDifference") {
      const std::string d = Binary("subf", a, b, width);
      return Binary("mulf", d, d, width);
    }
    // Maximum and Minimum: a NaN operand wins, the first one if both are NaN.
    const std::string pick =
        op == "Maximum" ? Compare("olt", a, b, width) : Compare("olt", b, a, width);
    std::string r = Select(pick, b, a, width);
    r = Select(Compare("uno", b, b, width), b, r, width);
    return Select(Compare("uno", a, a, width), a, r, width);
  }

  std::string Load(const std::string& memref, const std::string& index, int width) {
    if (width == 1)
      return Assign(absl::StrCat("memref.load ", memref, "[", index, "] : ", MemRef()));
    return Assign(
        absl::StrCat("vector.load ", memref, "[", index, "] : ", MemRef(), ", ", Type(width)));
  }
  void Store(const std::string& value, const std::string& memref, const std::string& index,
             int width) {
    if (width == 1) {
      Line(absl::StrCat("memref.store ", value, ", ", memref, "[", index, "] : ", MemRef()));
    } else {
      Line(absl::StrCat("vector.store ", value, ", ", memref, "[", index, "] : ", MemRef(), ", ",
                        Type(width)));
    }
  }

  // The name of `value` inside a column loop body.
  std::string Operand(int value, Scope& body, Scope& row) {
    const auto it = body.names.find(value);
    if (it != body.names.end()) return it->second;
    const ValueInfo& info = values_[value];
    std::string name;
    if (!IsColumnwise(info.kind)) {
      name = body.width == 1 ? row.names.at(value) : row.broadcasts.at({value, body.width});
    } else if (info.input >= 0) {
      const char* index = info.kind == ValueKind::kFull          ? "%index"
                          : info.kind == ValueKind::kBatchColumn ? "%batch_index"
                                                                 : "%c";
      name = Load(absl::StrCat("%in", info.input), index, body.width);
    } else {
      // Computed in an earlier phase (or for this batch element) and kept in its scratch row.
      const std::string at =
          Assign(absl::StrCat("arith.addi %scratch_row", info.scratch, ", %c : index"));
      name = Load("%scratch", at, body.width);
    }
    body.names[value] = name;
    return name;
  }

  // Row values and scalars: the value of a step (row or scalar kind) in `scope`.
  void EmitRowStep(int value, Scope& scope) {
    const FusedElementwiseStep& step = Step(value);
    const std::string a = scope.names.at(step.operands[0]);
    std::string result;
    if (step.arity == 1) {
      result = Unary(step.op, a, /*width=*/1, values_[value].kind, "%zero_i64");
    } else {
      result = BinaryOp(step.op, a, scope.names.at(step.operands[1]), /*width=*/1);
    }
    scope.names[value] = result;
  }

  // The body of phase p's column loop, or with p = kBatchPhase of the loop that computes the
  // column and batch-column values: computes the phase's values, stores those kept for later
  // (and the output), and returns the reductions' new accumulators.
  std::vector<std::string> EmitColumnBody(int p, int width, Scope& row,
                                          const std::vector<int>& reductions,
                                          const std::vector<std::string>& accumulators) {
    Scope body;
    body.width = width;
    Line("%index = arith.addi %row_base, %c : index");
    Line("%batch_index = arith.addi %batch_base, %c : index");
    Line("%c_i64 = arith.index_cast %c : index to i64");
    for (size_t v = num_inputs_; v < values_.size(); ++v) {
      const ValueInfo& info = values_[v];
      const FusedElementwiseStep& step = Step(v);
      if (!IsColumnwise(info.kind) || IsClusterReduction(step.op)) continue;
      // The batch loop computes the column and batch-column values; the phases, the rest.
      if (p == kBatchPhase ? !IsHoisted(info.kind) : IsHoisted(info.kind) || info.phase != p) {
        continue;
      }
      const std::string a = Operand(step.operands[0], body, row);
      std::string result;
      if (step.arity == 1) {
        result = Unary(step.op, a, width, info.kind, "%c_i64");
      } else {
        result = BinaryOp(step.op, a, Operand(step.operands[1], body, row), width);
      }
      body.names[v] = result;
      if (info.scratch >= 0) {
        const std::string at =
            Assign(absl::StrCat("arith.addi %scratch_row", info.scratch, ", %c : index"));
        Store(result, "%scratch", at, width);
      }
      if (info.is_output) Store(result, "%out", "%index", width);
    }
    std::vector<std::string> next;
    for (size_t j = 0; j < reductions.size(); ++j) {
      const FusedElementwiseStep& step = Step(reductions[j]);
      const std::string x = Operand(step.operands[0], body, row);
      if (width == kWidth) {
        next.push_back(Combine(step.op, accumulators[j], x, kWidth));
      } else if (width == 2 * kWidth) {
        // Sixteen columns are two rounds of the eight partial results, in column order.
        std::string acc = accumulators[j];
        for (int half = 0; half < 2; ++half) {
          const std::string part = Assign(absl::StrCat(
              "vector.extract_strided_slice ", x, " {offsets = [", half * kWidth, "], sizes = [",
              kWidth, "], strides = [1]} : ", Type(width), " to ", Type(kWidth)));
          acc = Combine(step.op, acc, part, kWidth);
        }
        next.push_back(acc);
      } else {
        // The tail goes into the first partial result.
        const std::string first =
            Assign(absl::StrCat("vector.extract ", accumulators[j], "[0] : vector<8xf32>"));
        const std::string combined = Combine(step.op, first, x, 1);
        next.push_back(Assign(absl::StrCat("vector.insert ", combined, ", ", accumulators[j],
                                           "[0] : f32 into vector<8xf32>")));
      }
    }
    return next;
  }

  // One column loop: `scf.for` over [lower, upper) with the accumulators as iter_args.
  std::vector<std::string> EmitColumnLoop(int p, int width, Scope& row,
                                          const std::vector<int>& reductions,
                                          const std::vector<std::string>& initial) {
    const std::string results = Fresh();
    std::string header;
    const size_t n = reductions.size();
    if (n > 0) absl::StrAppend(&header, results, n > 1 ? absl::StrCat(":", n) : "", " = ");
    // Columns [0, cols16) sixteen at a time (with 16-wide vectors), then up to cols8 eight at
    // a time, then one at a time.
    const char* bounds = width == 16                                 ? "%c0 to %cols16 step %c16"
                         : width == 8 && options_.vector_width == 16 ? "%cols16 to %cols8 step %c8"
                         : width == 8                                ? "%c0 to %cols8 step %c8"
                                                                     : "%cols8 to %cols step %c1";
    absl::StrAppend(&header, "scf.for %c = ", bounds);
    std::vector<std::string> accumulators;
    if (n > 0) {
      std::vector<std::string> args, types;
      for (size_t j = 0; j < n; ++j) {
        accumulators.push_back(Fresh());
        args.push_back(absl::StrCat(accumulators.back(), " = ", initial[j]));
        types.push_back("vector<8xf32>");
      }
      absl::StrAppend(&header, " iter_args(", absl::StrJoin(args, ", "), ") -> (",
                      absl::StrJoin(types, ", "), ")");
    }
    Line(header + " {");
    Indent(2);
    const std::vector<std::string> next = EmitColumnBody(p, width, row, reductions, accumulators);
    if (n > 0) {
      std::vector<std::string> types(n, "vector<8xf32>");
      Line(
          absl::StrCat("scf.yield ", absl::StrJoin(next, ", "), " : ", absl::StrJoin(types, ", ")));
    }
    Indent(-2);
    Line("}");
    std::vector<std::string> out;
    for (size_t j = 0; j < n; ++j) out.push_back(n > 1 ? absl::StrCat(results, "#", j) : results);
    return out;
  }

  // The reductions' partial results folded pairwise (lanes j and j + width, width 4, 2, 1),
  // then Mean's division by the count.
  std::string Fold(absl::string_view op, const std::string& accumulator) {
    std::vector<std::string> lanes;
    for (int j = 0; j < kWidth; ++j) {
      lanes.push_back(
          Assign(absl::StrCat("vector.extract ", accumulator, "[", j, "] : vector<8xf32>")));
    }
    for (int width = kWidth / 2; width > 0; width /= 2) {
      for (int j = 0; j < width; ++j) lanes[j] = Combine(op, lanes[j], lanes[j + width], 1);
    }
    if (op == "Mean") return Binary("divf", lanes[0], "%cols_f32", 1);
    return lanes[0];
  }

  // Row values (and, at the function's start, scalars) known before phase `before`.
  void EmitRowValues(int before, Scope& scope, bool scalars) {
    for (size_t v = num_inputs_; v < values_.size(); ++v) {
      const ValueInfo& info = values_[v];
      if (IsColumnwise(info.kind) || IsClusterReduction(Step(v).op) || info.phase != before) {
        continue;
      }
      if ((info.kind == ValueKind::kScalar) != scalars) continue;
      EmitRowStep(v, scope);
    }
  }

  // The computed column and batch-column values of the row's batch element, into their
  // scratch rows: at the first row of each batch element, and at the first row of the range
  // (a thread's range may start inside one).
  void EmitBatchValues(const Scope& row) {
    Line("%row_in_batch = arith.remui %r, %batch_rows : index");
    Line("%batch_start = arith.cmpi eq, %row_in_batch, %c0 : index");
    Line("%range_start = arith.cmpi eq, %r, %row_begin : index");
    Line("%batch_values_due = arith.ori %batch_start, %range_start : i1");
    Line("scf.if %batch_values_due {");
    Indent(2);
    Scope batch = row;
    for (size_t v = 0; v < values_.size(); ++v) {
      if (values_[v].kind != ValueKind::kScalar || !batch.names.contains(v)) continue;
      for (const int width : VectorWidths()) {
        batch.broadcasts[{static_cast<int>(v), width}] =
            Assign(absl::StrCat("vector.broadcast ", batch.names.at(v), " : f32 to ", Type(width)));
      }
    }
    for (const int width : VectorWidths()) EmitColumnLoop(kBatchPhase, width, batch, {}, {});
    EmitColumnLoop(kBatchPhase, 1, batch, {}, {});
    Indent(-2);
    Line("}");
  }

  void EmitModule() {
    std::vector<std::string> params;
    for (int i = 0; i < num_inputs_; ++i) params.push_back(absl::StrCat("%in", i, ": ", MemRef()));
    params.push_back("%out: " + MemRef());
    params.push_back("%scratch: " + MemRef());
    params.push_back("%scratch_address: i64");
    params.push_back("%row_begin: index");
    params.push_back("%row_end: index");
    params.push_back("%rows: index");
    params.push_back("%cols: index");
    params.push_back("%batch_rows: index");
    Line("module {");
    Indent(2);
    Line(absl::StrCat("func.func private @", kClusterCallback, "(i64, i64, i64, i64, i64)"));
    if (options_.avx_estimates) Line(kAvxReciprocalDeclaration);
    Line(absl::StrCat("func.func @", kClusterFunction, "(", absl::StrJoin(params, ", "), ") {"));
    Indent(2);
    EmitConstants();
    // Scalars, once.
    Scope function_scope;
    for (int i = 0; i < num_inputs_; ++i) {
      if (values_[i].kind == ValueKind::kScalar) {
        function_scope.names[i] = Assign(absl::StrCat("memref.load %in", i, "[%c0] : ", MemRef()));
      }
    }
    EmitRowValues(0, function_scope, /*scalars=*/true);
    Line("scf.for %r = %row_begin to %row_end step %c1 {");
    Indent(2);
    Line("%row_base = arith.muli %r, %cols : index");
    Line("%row_i64 = arith.index_cast %r : index to i64");
    Line("%row_flat = arith.muli %row_i64, %cols_i64 : i64");
    Line("%batch = arith.divui %r, %batch_rows : index");
    Line("%batch_base = arith.muli %batch, %cols : index");
    Line("%batch_i64 = arith.index_cast %batch : index to i64");
    Line("%batch_flat = arith.muli %batch_i64, %cols_i64 : i64");
    Scope row = function_scope;
    if (has_hoisted_steps_) EmitBatchValues(row);
    for (int i = 0; i < num_inputs_; ++i) {
      if (values_[i].kind == ValueKind::kRow) {
        row.names[i] = Assign(absl::StrCat("memref.load %in", i, "[%r] : ", MemRef()));
      }
    }
    EmitRowValues(0, row, /*scalars=*/false);
    for (int p = 0; p < phases_; ++p) {
      // Row values and scalars the phase reads, as vectors of each width its loops use.
      for (size_t v = 0; v < values_.size(); ++v) {
        if (IsColumnwise(values_[v].kind) || !row.names.contains(v)) continue;
        for (const int width : VectorWidths()) {
          row.broadcasts[{static_cast<int>(v), width}] =
              Assign(absl::StrCat("vector.broadcast ", row.names.at(v), " : f32 to ", Type(width)));
        }
      }
      std::vector<int> reductions;
      std::vector<std::string> initial;
      for (size_t v = num_inputs_; v < values_.size(); ++v) {
        if (IsClusterReduction(Step(v).op) && ReaderPhase(v) == p) {
          reductions.push_back(v);
          initial.push_back(Identity(Step(v).op, kWidth));
        }
      }
      std::vector<std::string> partial = initial;
      for (const int width : VectorWidths()) {
        partial = EmitColumnLoop(p, width, row, reductions, partial);
      }
      const std::vector<std::string> final_partial = EmitColumnLoop(p, 1, row, reductions, partial);
      for (size_t j = 0; j < reductions.size(); ++j) {
        row.names[reductions[j]] = Fold(Step(reductions[j]).op, final_partial[j]);
      }
      EmitRowValues(p + 1, row, /*scalars=*/false);
    }
    if (values_.back().kind == ValueKind::kRow) {
      Line(absl::StrCat("memref.store ", row.names.at(values_.size() - 1),
                        ", %out[%r] : ", MemRef()));
    }
    Indent(-2);
    Line("}");
    Line("return");
    Indent(-2);
    Line("}");
    Indent(-2);
    Line("}");
  }

  void EmitConstants() {
    Line("%c0 = arith.constant 0 : index");
    Line("%c1 = arith.constant 1 : index");
    Line("%c8 = arith.constant 8 : index");
    Line(absl::StrCat("%slot = arith.constant ", kClusterScratchSlot, " : index"));
    Line("%zero_i64 = arith.constant 0 : i64");
    Line("%one_i64 = arith.constant 1 : i64");
    Line("%count1_i64 = arith.constant 1 : i64");
    Line("%count8_i64 = arith.constant 8 : i64");
    Line("%count16_i64 = arith.constant 16 : i64");
    Line("%c16 = arith.constant 16 : index");
    for (int id = 0; id < kNumClusterCallbacks; ++id) {
      Line(absl::StrCat("%op", id, " = arith.constant ", id, " : i64"));
    }
    Line("%rows_i64 = arith.index_cast %rows : index to i64");
    Line("%cols_i64 = arith.index_cast %cols : index to i64");
    Line("%total = arith.muli %rows_i64, %cols_i64 : i64");
    Line("%batches = arith.divui %rows, %batch_rows : index");
    Line("%batches_i64 = arith.index_cast %batches : index to i64");
    Line("%batch_total = arith.muli %batches_i64, %cols_i64 : i64");
    Line("%cols_f32 = arith.sitofp %cols_i64 : i64 to f32");
    Line("%cols_rem = arith.remui %cols, %c8 : index");
    Line("%cols8 = arith.subi %cols, %cols_rem : index");
    Line("%cols_rem16 = arith.remui %cols, %c16 : index");
    Line("%cols16 = arith.subi %cols, %cols_rem16 : index");
    for (int s = 0; s < scratch_rows_; ++s) {
      Line(absl::StrCat("%scratch_offset", s, " = arith.constant ", s, " : index"));
      Line(absl::StrCat("%scratch_skip", s, " = arith.muli %scratch_offset", s, ", %cols : index"));
      Line(absl::StrCat("%scratch_row", s, " = arith.addi %scratch_skip", s, ", %slot : index"));
    }
    const std::pair<const char*, const char*> floats[] = {{"zero", "0.0"},
                                                          {"one", "1.0"},
                                                          {"six", "6.0"},
                                                          {"pos_inf", "0x7F800000"},
                                                          {"neg_inf", "0xFF800000"}};
    for (const auto& [name, literal] : floats) {
      Line(absl::StrCat("%", name, "_s = arith.constant ", literal, " : f32"));
      for (const int width : {kWidth, 2 * kWidth}) {
        Line(absl::StrCat("%", name, "_v", width, " = vector.broadcast %", name, "_s : f32 to ",
                          Type(width)));
      }
    }
  }

  absl::Span<const FusedElementwiseStep> steps_;
  const int num_inputs_;
  const ClusterCodegenOptions options_;
  std::vector<ValueInfo> values_;
  int phases_ = 0;
  int scratch_rows_ = 0;
  bool has_hoisted_steps_ = false;  // a computed column or batch-column value
};

}  // namespace

int ClusterCallbackId(absl::string_view op) {
  for (int id = 0; id < kNumClusterCallbacks; ++id) {
    if (op == kCallbackOps[id]) return id;
  }
  return -1;
}

const char* ClusterCallbackOp(int id) { return kCallbackOps[id]; }

absl::StatusOr<ClusterCode> GenerateClusterCode(absl::Span<const FusedElementwiseStep> steps,
                                                absl::Span<const ValueKind> input_kinds,
                                                const ClusterCodegenOptions& options) {
  if (steps.empty()) return errors::InvalidArgument("_MlirCluster has no ops");
  if (options.vector_width != kWidth && options.vector_width != 2 * kWidth) {
    return errors::InvalidArgument("cluster code takes vectors of 8 or 16 columns, not ",
                                   options.vector_width);
  }
  return Generator(steps, input_kinds, options).Run();
}

}  // namespace sluice
