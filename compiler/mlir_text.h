// MlirTextBuilder: writes MLIR text in SSA form — fresh value names, lines at the current
// indentation — and the arith, vector and math operations compiled clusters are made of, on
// values `width` lanes wide: width 1 is a scalar (f32, f64, i32, i64, i1), any other width a
// vector of that many lanes. Constants are written as their bit patterns, so no decimal
// conversion can round them differently from the C++ values they come from.
#ifndef SLUICE_COMPILER_MLIR_TEXT_H_
#define SLUICE_COMPILER_MLIR_TEXT_H_

#include <cstdint>
#include <string>
#include <utility>

namespace sluice {

class MlirTextBuilder {
 public:
  const std::string& text() const { return text_; }
  std::string TakeText() { return std::move(text_); }

  // A new SSA name (%v0, %v1, ...).
  std::string Fresh();
  // Appends one line at the current indentation.
  void Line(const std::string& line);
  // Appends `name = rhs` with a fresh name and returns the name.
  std::string Assign(const std::string& rhs);
  void Indent(int spaces) { indent_ += spaces; }

  static std::string Type(int width);       // f32 lanes
  static std::string Type64(int width);     // f64 lanes
  static std::string BoolType(int width);   // i1 lanes
  static std::string IntType32(int width);  // i32 lanes
  static std::string IntType64(int width);  // i64 lanes

  // Constants, broadcast to `width` lanes.
  std::string Float(float value, int width);
  std::string Double(double value, int width);
  std::string Int32(int32_t value, int width);
  std::string Long(int64_t value, int width);

  // arith.<op> of two f32 (f64, i32) values; Compare is arith.cmpf with `predicate`.
  std::string Binary(const char* op, const std::string& a, const std::string& b, int width);
  std::string Binary64(const char* op, const std::string& a, const std::string& b, int width);
  std::string BinaryInt32(const char* op, const std::string& a, const std::string& b, int width);
  std::string Compare(const char* predicate, const std::string& a, const std::string& b, int width);
  std::string Compare64(const char* predicate, const std::string& a, const std::string& b,
                        int width);
  // c ? a : b lane by lane.
  std::string Select(const std::string& c, const std::string& a, const std::string& b, int width);
  std::string Select64(const std::string& c, const std::string& a, const std::string& b, int width);
  std::string Or(const std::string& a, const std::string& b, int width);   // of i1 lanes
  std::string And(const std::string& a, const std::string& b, int width);  // of i1 lanes
  // Reinterpretations between f32 and i32 lanes.
  std::string Bits(const std::string& x, int width);
  std::string FromBits(const std::string& bits, int width);

 private:
  std::string text_;
  int indent_ = 0;
  int next_name_ = 0;
};

}  // namespace sluice

#endif  // SLUICE_COMPILER_MLIR_TEXT_H_
