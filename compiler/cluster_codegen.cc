// GenerateClusterCode: kinds and phases of the program's values, then the text: constants,
// scalar values, and the row loop with its phases (see the header for the layout).
#include "compiler/cluster_codegen.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "absl/base/casts.h"
#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "graph/core/errors.h"
#include "graph/ops/mlir_cluster_spec.h"
#include "numerics/erfc_float.h"

namespace sluice {
namespace {

// Columns per vector: also the number of partial results of the CPU kernels' row
// reductions, so that one vector register holds them in their order.
constexpr int kWidth = 8;

constexpr const char* kCallbackOps[kNumClusterCallbacks] = {"Sqrt",    "Rsqrt", "Exp", "Log",
                                                            "Sigmoid", "Tanh",  "Erf"};

bool IsColumnwise(ValueKind kind) { return kind == ValueKind::kFull || kind == ValueKind::kColumn; }

// What the generator knows of each value.
struct ValueInfo {
  ValueKind kind = ValueKind::kFull;
  int input = -1;  // >= 0: the input it is
  // Full and column values: the phase that computes it (inputs: read in any phase, 0).
  // Row values and scalars: the phase before which it is known (0: before the first).
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

class Generator {
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
    code.mlir = std::move(text_);
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
    if (output.kind == ValueKind::kColumn) {
      return errors::InvalidArgument(
          "_MlirCluster's output is a column value; it must be a "
          "full or a row value");
    }
    output.is_output = true;
    phases_ = 0;
    for (size_t v = 0; v < values_.size(); ++v) {
      const ValueInfo& info = values_[v];
      if (IsStep(v) && IsColumnwise(info.kind)) phases_ = std::max(phases_, info.phase + 1);
      if (IsStep(v) && IsClusterReduction(Step(v).op)) phases_ = std::max(phases_, info.phase);
    }
    // Scratch rows: computed full or column values that a later phase reads.
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
           op == "Reciprocal" || op == "Relu" || op == "Relu6" || op == "Erfc";
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

  // ---- text ----

  std::string Fresh() { return absl::StrCat("%v", next_name_++); }
  void Line(const std::string& line) {
    absl::StrAppend(&text_, std::string(indent_, ' '), line, "\n");
  }
  std::string Assign(const std::string& rhs) {
    std::string name = Fresh();
    Line(absl::StrCat(name, " = ", rhs));
    return name;
  }

  // Values are computed `width` columns at a time: 1 (f32), 8 or 16 (vectors).
  static std::string Type(int width) {
    return width == 1 ? "f32" : absl::StrCat("vector<", width, "xf32>");
  }
  static std::string BoolType(int width) {
    return width == 1 ? "i1" : absl::StrCat("vector<", width, "xi1>");
  }
  static std::string MemRef() { return "memref<?xf32>"; }

  std::string Constant(const char* name, int width) {
    return width == 1 ? absl::StrCat("%", name, "_s") : absl::StrCat("%", name, "_v", width);
  }

  std::string Binary(const char* op, const std::string& a, const std::string& b, int width) {
    return Assign(absl::StrCat("arith.", op, " ", a, ", ", b, " : ", Type(width)));
  }
  std::string Compare(const char* predicate, const std::string& a, const std::string& b,
                      int width) {
    return Assign(absl::StrCat("arith.cmpf ", predicate, ", ", a, ", ", b, " : ", Type(width)));
  }
  std::string Select(const std::string& c, const std::string& a, const std::string& b, int width) {
    if (width > 1) {
      return Assign(absl::StrCat("arith.select ", c, ", ", a, ", ", b, " : ", BoolType(width), ", ",
                                 Type(width)));
    }
    return Assign(absl::StrCat("arith.select ", c, ", ", a, ", ", b, " : f32"));
  }
  std::string Or(const std::string& a, const std::string& b, int width) {
    return Assign(absl::StrCat("arith.ori ", a, ", ", b, " : ", BoolType(width)));
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

  // A float constant with exactly the bits `value` has here (MLIR's hexadecimal form, so that
  // no decimal conversion can round it differently).
  std::string Float(float value, int width) {
    const std::string scalar =
        Assign(absl::StrFormat("arith.constant 0x%08X : f32", absl::bit_cast<uint32_t>(value)));
    if (width == 1) return scalar;
    return Assign(absl::StrCat("vector.broadcast ", scalar, " : f32 to ", Type(width)));
  }

  // Eigen's pmadd without FMA: a multiply, then an add.
  std::string MultiplyAdd(const std::string& a, const std::string& b, float c, int width) {
    return Binary("addf", Binary("mulf", a, b, width), Float(c, width), width);
  }

  // x * p(x^2) / q(x^2) with x clamped to [-limit, limit], as Eigen's generic_fast_erf_float
  // and generic_fast_tanh_float: Eigen's pmin(a, b) is b < a ? b : a and pmax(a, b) is
  // b > a ? b : a. `alpha` and `beta` run from the highest coefficient down.
  std::string Rational(const std::string& a, int width, float limit, absl::Span<const float> alpha,
                       absl::Span<const float> beta, std::string* clamped) {
    const std::string hi = Float(limit, width);
    const std::string lo = Float(-limit, width);
    std::string x = Select(Compare("olt", hi, a, width), hi, a, width);
    x = Select(Compare("ogt", lo, x, width), lo, x, width);
    *clamped = x;
    const std::string x2 = Binary("mulf", x, x, width);
    std::string p = MultiplyAdd(x2, Float(alpha[0], width), alpha[1], width);
    for (size_t i = 2; i < alpha.size(); ++i) p = MultiplyAdd(x2, p, alpha[i], width);
    p = Binary("mulf", x, p, width);
    std::string q = MultiplyAdd(x2, Float(beta[0], width), beta[1], width);
    for (size_t i = 2; i < beta.size(); ++i) q = MultiplyAdd(x2, q, beta[i], width);
    return Binary("divf", p, q, width);
  }

  std::string Erf(const std::string& a, int width) {
    // Eigen 3.4, SpecialFunctionsImpl.h, generic_fast_erf_float.
    static constexpr float kAlpha[] = {-2.72614225801306e-10f, 2.77068142495902e-08f,
                                       -2.10102402082508e-06f, -5.69250639462346e-05f,
                                       -7.34990630326855e-04f, -2.95459980854025e-03f,
                                       -1.60960333262415e-02f};
    static constexpr float kBeta[] = {-1.45660718464996e-05f, -2.13374055278905e-04f,
                                      -1.68282697438203e-03f, -7.37332916720468e-03f,
                                      -1.42647390514189e-02f};
    std::string clamped;
    return Rational(a, width, 4.f, kAlpha, kBeta, &clamped);
  }

  std::string Tanh(const std::string& a, int width) {
    // Eigen 3.4, MathFunctionsImpl.h, generic_fast_tanh_float without FMA; below 0.0004 in
    // magnitude the (clamped) input itself.
    static constexpr float kAlpha[] = {-2.76076847742355e-16f, 2.00018790482477e-13f,
                                       -8.60467152213735e-11f, 5.12229709037114e-08f,
                                       1.48572235717979e-05f,  6.37261928875436e-04f,
                                       4.89352455891786e-03f};
    static constexpr float kBeta[] = {1.19825839466702e-06f, 1.18534705686654e-04f,
                                      2.26843463243900e-03f, 4.89352518554385e-03f};
    std::string clamped;
    const std::string ratio = Rational(a, width, 7.90531110763549805f, kAlpha, kBeta, &clamped);
    const std::string magnitude = Assign(absl::StrCat("math.abs ", a, " : ", Type(width)));
    const std::string tiny = Compare("olt", magnitude, Float(0.0004f, width), width);
    return Select(tiny, clamped, ratio, width);
  }

  // ---- double precision, for Erfc ----

  static std::string Type64(int width) {
    return width == 1 ? "f64" : absl::StrCat("vector<", width, "xf64>");
  }
  static std::string IntType64(int width) {
    return width == 1 ? "i64" : absl::StrCat("vector<", width, "xi64>");
  }
  std::string Double(double value, int width) {
    const std::string scalar =
        Assign(absl::StrFormat("arith.constant 0x%016X : f64", absl::bit_cast<uint64_t>(value)));
    if (width == 1) return scalar;
    return Assign(absl::StrCat("vector.broadcast ", scalar, " : f64 to ", Type64(width)));
  }
  std::string Long(int64_t value, int width) {
    const std::string scalar = Assign(absl::StrCat("arith.constant ", value, " : i64"));
    if (width == 1) return scalar;
    return Assign(absl::StrCat("vector.broadcast ", scalar, " : i64 to ", IntType64(width)));
  }
  std::string Binary64(const char* op, const std::string& a, const std::string& b, int width) {
    return Assign(absl::StrCat("arith.", op, " ", a, ", ", b, " : ", Type64(width)));
  }
  std::string Select64(const std::string& c, const std::string& a, const std::string& b,
                       int width) {
    if (width == 1) return Assign(absl::StrCat("arith.select ", c, ", ", a, ", ", b, " : f64"));
    return Assign(absl::StrCat("arith.select ", c, ", ", a, ", ", b, " : ", BoolType(width), ", ",
                               Type64(width)));
  }
  // a * b + c, rounded twice.
  std::string MultiplyAdd64(const std::string& a, const std::string& b, const std::string& c,
                            int width) {
    return Binary64("addf", Binary64("mulf", a, b, width), c, width);
  }

  // numerics::ErfcFloat, operation for operation (numerics/erfc_float.cc holds the order).
  std::string Erfc(const std::string& x, int width) {
    using namespace numerics;  // NOLINT: the constants of erfc_float.h
    const std::string xd =
        Assign(absl::StrCat("arith.extf ", x, " : ", Type(width), " to ", Type64(width)));
    const std::string negative = Assign(
        absl::StrCat("arith.cmpf olt, ", xd, ", ", Double(0.0, width), " : ", Type64(width)));
    std::string a = Select64(
        negative, Assign(absl::StrCat("arith.negf ", xd, " : ", Type64(width))), xd, width);
    const std::string largest = Double(kErfcLargest, width);
    a = Select64(Assign(absl::StrCat("arith.cmpf olt, ", a, ", ", largest, " : ", Type64(width))),
                 a, largest, width);
    const std::string two = Double(2.0, width);
    const std::string t = Binary64("divf", two, Binary64("addf", two, a, width), width);
    const std::string u = Binary64("subf", Binary64("mulf", t, Double(kErfcUScale, width), width),
                                   Double(kErfcUOffset, width), width);
    std::string p = MultiplyAdd64(u, Double(kErfcPolynomial[kErfcDegree], width),
                                  Double(kErfcPolynomial[kErfcDegree - 1], width), width);
    for (int j = kErfcDegree - 2; j >= 0; --j) {
      p = MultiplyAdd64(p, u, Double(kErfcPolynomial[j], width), width);
    }
    const std::string v = Binary64("subf", p, Binary64("mulf", a, a, width), width);

    const std::string shift = Double(kExpRoundShift, width);
    const std::string shifted = MultiplyAdd64(v, Double(kExpInverseLn2, width), shift, width);
    const std::string k = Binary64("subf", shifted, shift, width);
    const std::string r = Binary64(
        "subf", Binary64("subf", v, Binary64("mulf", k, Double(kExpLn2High, width), width), width),
        Binary64("mulf", k, Double(kExpLn2Low, width), width), width);
    std::string q = MultiplyAdd64(r, Double(kExpPolynomial[kExpDegree], width),
                                  Double(kExpPolynomial[kExpDegree - 1], width), width);
    for (int j = kExpDegree - 2; j >= 0; --j) {
      q = MultiplyAdd64(q, r, Double(kExpPolynomial[j], width), width);
    }
    const std::string bits = Assign(
        absl::StrCat("arith.bitcast ", shifted, " : ", Type64(width), " to ", IntType64(width)));
    const std::string moved =
        Assign(absl::StrCat("arith.shli ", bits, ", ", Long(52, width), " : ", IntType64(width)));
    const std::string scale_bits = Assign(absl::StrCat(
        "arith.addi ", moved, ", ", Long(kExpOneBits, width), " : ", IntType64(width)));
    const std::string power_of_two = Assign(
        absl::StrCat("arith.bitcast ", scale_bits, " : ", IntType64(width), " to ", Type64(width)));
    const std::string e = Binary64("mulf", Binary64("mulf", q, power_of_two, width), t, width);

    const std::string y = Select64(negative, Binary64("subf", two, e, width), e, width);
    const std::string rounded =
        Assign(absl::StrCat("arith.truncf ", y, " : ", Type64(width), " to ", Type(width)));
    return Select(Compare("uno", x, x, width), x, rounded, width);
  }

  // ---- Eigen 3.4's exp and logistic for float (packet path, pmadd without FMA) ----

  static std::string IntType32(int width) {
    return width == 1 ? "i32" : absl::StrCat("vector<", width, "xi32>");
  }
  std::string Int32(int32_t value, int width) {
    const std::string scalar = Assign(absl::StrCat("arith.constant ", value, " : i32"));
    if (width == 1) return scalar;
    return Assign(absl::StrCat("vector.broadcast ", scalar, " : i32 to ", IntType32(width)));
  }
  std::string BinaryInt32(const char* op, const std::string& a, const std::string& b, int width) {
    return Assign(absl::StrCat("arith.", op, " ", a, ", ", b, " : ", IntType32(width)));
  }
  // Eigen's pmadd(a, b, c) without FMA.
  std::string MultiplyAdd(const std::string& a, const std::string& b, const std::string& c,
                          int width) {
    return Binary("addf", Binary("mulf", a, b, width), c, width);
  }
  // Eigen's pmin(a, b) = b < a ? b : a and pmax(a, b) = b > a ? b : a (SSE's operand order).
  std::string EigenMin(const std::string& a, const std::string& b, int width) {
    return Select(Compare("olt", b, a, width), b, a, width);
  }
  std::string EigenMax(const std::string& a, const std::string& b, int width) {
    return Select(Compare("ogt", b, a, width), b, a, width);
  }
  // 2^e as the float whose exponent field is e + 127 (e a float holding an integer).
  std::string PowerOfTwo(const std::string& e_i32, int width) {
    const std::string biased = BinaryInt32("addi", e_i32, Int32(127, width), width);
    const std::string bits = BinaryInt32("shli", biased, Int32(23, width), width);
    return Assign(
        absl::StrCat("arith.bitcast ", bits, " : ", IntType32(width), " to ", Type(width)));
  }

  // Eigen 3.4's pexp_float, then pldexp_generic for 2^m.
  std::string EigenExp(const std::string& a, int width) {
    const std::string x =
        EigenMax(EigenMin(a, Float(88.723f, width), width), Float(-88.723f, width), width);
    const std::string m = Assign(
        absl::StrCat("math.floor ",
                     MultiplyAdd(x, Float(1.44269504088896341f, width), Float(0.5f, width), width),
                     " : ", Type(width)));
    std::string r = MultiplyAdd(m, Float(-0.693359375f, width), x, width);
    r = MultiplyAdd(m, Float(2.12194440e-4f, width), r, width);
    const std::string r2 = Binary("mulf", r, r, width);
    const std::string r3 = Binary("mulf", r2, r, width);
    std::string y =
        MultiplyAdd(Float(1.9875691500E-4f, width), r, Float(1.3981999507E-3f, width), width);
    std::string y1 =
        MultiplyAdd(Float(4.1665795894E-2f, width), r, Float(1.6666665459E-1f, width), width);
    const std::string y2 = Binary("addf", r, Float(1.0f, width), width);
    y = MultiplyAdd(y, r, Float(8.3334519073E-3f, width), width);
    y1 = MultiplyAdd(y1, r, Float(5.0000001201E-1f, width), width);
    y = MultiplyAdd(y, r3, y1, width);
    y = MultiplyAdd(y, r2, y2, width);
    // pldexp_generic(y, m): e = clamp(m, -278, 278), b = e >> 2,
    // y * 2^b * 2^b * 2^b * 2^(e - 3b). m is NaN only where x is, and then so is y: it is
    // made 0 first, as converting NaN to an integer has no defined value in LLVM.
    std::string e =
        EigenMin(EigenMax(m, Float(-278.0f, width), width), Float(278.0f, width), width);
    e = Select(Compare("uno", e, e, width), Constant("zero", width), e, width);
    const std::string e_i32 =
        Assign(absl::StrCat("arith.fptosi ", e, " : ", Type(width), " to ", IntType32(width)));
    const std::string b = BinaryInt32("shrsi", e_i32, Int32(2, width), width);
    const std::string c = PowerOfTwo(b, width);
    std::string out =
        Binary("mulf", Binary("mulf", Binary("mulf", y, c, width), c, width), c, width);
    const std::string rest = BinaryInt32(
        "subi", BinaryInt32("subi", BinaryInt32("subi", e_i32, b, width), b, width), b, width);
    out = Binary("mulf", out, PowerOfTwo(rest, width), width);
    return EigenMax(out, a, width);
  }

  // Eigen 3.4's scalar_logistic_op<float>::packetOp without FMA: a rational function of
  // min(x, 15.64...) plus 0.5, and pexp(x) below -9.
  std::string EigenLogistic(const std::string& a, int width) {
    const std::string small = Compare("olt", a, Float(-9.0f, width), width);
    const std::string x = EigenMin(a, Float(15.6437711715698242f, width), width);
    const std::string x2 = Binary("mulf", x, x, width);
    std::string p = MultiplyAdd(x2, Float(4.37031012579801e-11f, width),
                                Float(1.15627324459942e-07f, width), width);
    p = MultiplyAdd(x2, p, Float(6.08574864600143e-05f, width), width);
    p = MultiplyAdd(x2, p, Float(8.51377133304701e-03f, width), width);
    p = MultiplyAdd(x2, p, Float(2.48287947061529e-01f, width), width);
    p = Binary("mulf", x, p, width);
    std::string q = MultiplyAdd(x2, Float(6.10247389755681e-13f, width),
                                Float(5.76102136993427e-09f, width), width);
    q = MultiplyAdd(x2, q, Float(6.29106785017040e-06f, width), width);
    q = MultiplyAdd(x2, q, Float(1.70198817374094e-03f, width), width);
    q = MultiplyAdd(x2, q, Float(1.16817656904453e-01f, width), width);
    q = MultiplyAdd(x2, q, Float(9.93151921023180e-01f, width), width);
    const std::string logistic =
        Binary("addf", Binary("divf", p, q, width), Float(0.5f, width), width);
    return Select(small, EigenExp(a, width), logistic, width);
  }

  std::string Bits(const std::string& x, int width) {
    return Assign(absl::StrCat("arith.bitcast ", x, " : ", Type(width), " to ", IntType32(width)));
  }
  std::string FromBits(const std::string& bits, int width) {
    return Assign(
        absl::StrCat("arith.bitcast ", bits, " : ", IntType32(width), " to ", Type(width)));
  }

  // Eigen 3.4's plog_float (plog_impl_float, natural log): x = max(x, FLT_MIN), then
  // pfrexp_generic's mantissa in [0.5, 1) and exponent, the shift to [sqrt(1/2), sqrt(2)),
  // Cephes' polynomial, e * ln 2 added, and the masks for 0, +inf and negative or NaN input.
  std::string EigenLog(const std::string& a, int width) {
    const std::string x = EigenMax(a, Float(std::numeric_limits<float>::min(), width), width);
    // pfrexp_generic; x is normal, +inf or NaN here, so its denormal branch never applies.
    const std::string bits = Bits(x, width);
    const std::string biased =
        BinaryInt32("shrui", BinaryInt32("andi", bits, Int32(0x7fffffff, width), width),
                    Int32(23, width), width);
    const std::string exponent =
        Assign(absl::StrCat("arith.sitofp ", biased, " : ", IntType32(width), " to ", Type(width)));
    const std::string zero = Constant("zero", width);
    const std::string zero_or_not_finite =
        Or(Compare("oeq", x, zero, width), Compare("oeq", exponent, Float(255.0f, width), width),
           width);
    const std::string mantissa = FromBits(
        BinaryInt32(
            "ori",
            BinaryInt32("andi", bits, Int32(static_cast<int32_t>(0x807fffffu), width), width),
            Int32(0x3f000000, width), width),
        width);
    const std::string m = Select(zero_or_not_finite, x, mantissa, width);
    std::string e = Select(zero_or_not_finite, zero,
                           Binary("addf", exponent, Float(-126.0f, width), width), width);
    // Below sqrt(1/2): e - 1 and 2m - 1, written as Eigen does (m - 1 + m).
    const std::string below = Compare("olt", m, Float(0.707106781186547524f, width), width);
    const std::string one = Constant("one", width);
    std::string v = Binary("subf", m, one, width);
    e = Binary("subf", e, Select(below, one, zero, width), width);
    v = Binary("addf", v, Select(below, m, zero, width), width);
    const std::string v2 = Binary("mulf", v, v, width);
    const std::string v3 = Binary("mulf", v2, v, width);
    std::string y =
        MultiplyAdd(Float(7.0376836292E-2f, width), v, Float(-1.1514610310E-1f, width), width);
    std::string y1 =
        MultiplyAdd(Float(-1.2420140846E-1f, width), v, Float(+1.4249322787E-1f, width), width);
    std::string y2 =
        MultiplyAdd(Float(+2.0000714765E-1f, width), v, Float(-2.4999993993E-1f, width), width);
    y = MultiplyAdd(y, v, Float(1.1676998740E-1f, width), width);
    y1 = MultiplyAdd(y1, v, Float(-1.6668057665E-1f, width), width);
    y2 = MultiplyAdd(y2, v, Float(+3.3333331174E-1f, width), width);
    y = MultiplyAdd(y, v3, y1, width);
    y = MultiplyAdd(y, v3, y2, width);
    y = Binary("mulf", y, v3, width);
    y = MultiplyAdd(Float(-0.5f, width), v2, y, width);
    v = Binary("addf", v, y, width);
    // Eigen's ln 2 is its long double EIGEN_LN2 rounded to float.
    std::string r = MultiplyAdd(
        e, Float(static_cast<float>(0.693147180559945309417232121458L), width), v, width);
    // Eigen's filters: +inf stays, a negative or NaN input gives the all-ones NaN (por with
    // the mask), 0 gives -inf.
    const std::string pos_inf = Constant("pos_inf", width);
    r = Select(Compare("oeq", a, pos_inf, width), pos_inf, r, width);
    r = Select(Compare("ult", a, zero, width), Float(absl::bit_cast<float>(0xffffffffu), width), r,
               width);
    return Select(Compare("oeq", a, zero, width), Constant("neg_inf", width), r, width);
  }

  // Whether any element of the group is a positive subnormal, which Log's kernel computes
  // with std::log (unary_functors.h, SubnormalExactLog).
  std::string AnySubnormal(const std::string& x, int width) {
    const std::string positive = Compare("ogt", x, Constant("zero", width), width);
    const std::string small =
        Compare("olt", x, Float(std::numeric_limits<float>::min(), width), width);
    const std::string both =
        Assign(absl::StrCat("arith.andi ", positive, ", ", small, " : ", BoolType(width)));
    if (width == 1) return both;
    return Assign(
        absl::StrCat("vector.reduction <or>, ", both, " : ", BoolType(width), " into i1"));
  }

  // `computed` (the op's packet path written out), except where this group of elements
  // reaches the value's last size % P elements, which Eigen computes with its scalar form:
  // there, the kernel's own functor through the callback.
  std::string UnlessScalarTail(int id, const std::string& computed, const std::string& x, int width,
                               ValueKind kind, const std::string& column_i64,
                               const std::string& also = "") {
    const auto [flat, total] = FlatIndex(kind, column_i64);
    const std::string packet =
        Assign(absl::StrCat("arith.constant ", options_.eigen_packet_floats, " : i64"));
    const std::string rem = Assign(absl::StrCat("arith.remsi ", total, ", ", packet, " : i64"));
    const std::string vector_end = Assign(absl::StrCat("arith.subi ", total, ", ", rem, " : i64"));
    const std::string group_end = Assign(
        absl::StrCat("arith.addi ", flat, ", ",
                     width == 1 ? "%one_i64" : absl::StrCat("%count", width, "_i64"), " : i64"));
    std::string in_tail =
        Assign(absl::StrCat("arith.cmpi sgt, ", group_end, ", ", vector_end, " : i64"));
    if (!also.empty()) in_tail = Assign(absl::StrCat("arith.ori ", in_tail, ", ", also, " : i1"));
    const std::string result = Fresh();
    Line(absl::StrCat(result, " = scf.if ", in_tail, " -> (", Type(width), ") {"));
    indent_ += 2;
    const std::string called = Callback(id, x, width, kind, column_i64);
    Line(absl::StrCat("scf.yield ", called, " : ", Type(width)));
    indent_ -= 2;
    Line("} else {");
    indent_ += 2;
    Line(absl::StrCat("scf.yield ", computed, " : ", Type(width)));
    indent_ -= 2;
    Line("}");
    return result;
  }

  std::string Unary(absl::string_view op, const std::string& x, int width, ValueKind kind,
                    const std::string& column_i64) {
    if (op == "Erfc") return Erfc(x, width);
    if (options_.eigen_rationals && op == "Exp") {
      return UnlessScalarTail(ClusterCallbackId(op), EigenExp(x, width), x, width, kind,
                              column_i64);
    }
    if (options_.eigen_rationals && op == "Log") {
      return UnlessScalarTail(ClusterCallbackId(op), EigenLog(x, width), x, width, kind, column_i64,
                              AnySubnormal(x, width));
    }
    if (options_.eigen_rationals && op == "Sigmoid") {
      return UnlessScalarTail(ClusterCallbackId(op), EigenLogistic(x, width), x, width, kind,
                              column_i64);
    }
    if (options_.eigen_rationals && op == "Erf") return Erf(x, width);
    if (options_.eigen_rationals && op == "Tanh") return Tanh(x, width);
    const int id = ClusterCallbackId(op);
    if (id >= 0) return Callback(id, x, width, kind, column_i64);
    if (op == "Neg") return Assign(absl::StrCat("arith.negf ", x, " : ", Type(width)));
    if (op == "Abs") return Assign(absl::StrCat("math.abs ", x, " : ", Type(width)));
    if (op == "Square") return Binary("mulf", x, x, width);
    if (op == "Reciprocal") return Binary("divf", Constant("one", width), x, width);
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
      const char* index = info.kind == ValueKind::kFull ? "%index" : "%c";
      name = Load(absl::StrCat("%in", info.input), index, body.width);
    } else {
      // Computed in an earlier phase and kept in its scratch row.
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

  // The body of phase p's column loop: computes its full and column values, stores those kept
  // for later (and the output), and returns the reductions' new accumulators.
  std::vector<std::string> EmitColumnBody(int p, int width, Scope& row,
                                          const std::vector<int>& reductions,
                                          const std::vector<std::string>& accumulators) {
    Scope body;
    body.width = width;
    Line("%index = arith.addi %row_base, %c : index");
    Line("%c_i64 = arith.index_cast %c : index to i64");
    for (size_t v = num_inputs_; v < values_.size(); ++v) {
      const ValueInfo& info = values_[v];
      const FusedElementwiseStep& step = Step(v);
      if (!IsColumnwise(info.kind) || info.phase != p || IsClusterReduction(step.op)) continue;
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
    indent_ += 2;
    const std::vector<std::string> next = EmitColumnBody(p, width, row, reductions, accumulators);
    if (n > 0) {
      std::vector<std::string> types(n, "vector<8xf32>");
      Line(
          absl::StrCat("scf.yield ", absl::StrJoin(next, ", "), " : ", absl::StrJoin(types, ", ")));
    }
    indent_ -= 2;
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
    Line("module {");
    indent_ += 2;
    Line(absl::StrCat("func.func private @", kClusterCallback, "(i64, i64, i64, i64, i64)"));
    Line(absl::StrCat("func.func @", kClusterFunction, "(", absl::StrJoin(params, ", "), ") {"));
    indent_ += 2;
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
    indent_ += 2;
    Line("%row_base = arith.muli %r, %cols : index");
    Line("%row_i64 = arith.index_cast %r : index to i64");
    Line("%row_flat = arith.muli %row_i64, %cols_i64 : i64");
    Scope row = function_scope;
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
    indent_ -= 2;
    Line("}");
    Line("return");
    indent_ -= 2;
    Line("}");
    indent_ -= 2;
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
  std::string text_;
  int indent_ = 0;
  int next_name_ = 0;
};

}  // namespace

const char* ValueKindName(ValueKind kind) {
  switch (kind) {
    case ValueKind::kFull:
      return "full";
    case ValueKind::kRow:
      return "row";
    case ValueKind::kColumn:
      return "column";
    case ValueKind::kScalar:
      return "scalar";
  }
  return "unknown";
}

ValueKind CombineKinds(ValueKind a, ValueKind b) {
  if (a == ValueKind::kFull || b == ValueKind::kFull) return ValueKind::kFull;
  if (a == ValueKind::kScalar) return b;
  if (b == ValueKind::kScalar || a == b) return a;
  return ValueKind::kFull;  // a row and a column
}

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
