#include "compiler/mlir_text.h"

#include "absl/base/casts.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

namespace sluice {
namespace {

std::string Lanes(int width, const char* element) {
  return width == 1 ? std::string(element) : absl::StrCat("vector<", width, "x", element, ">");
}

}  // namespace

std::string MlirTextBuilder::Fresh() { return absl::StrCat("%v", next_name_++); }

void MlirTextBuilder::Line(const std::string& line) {
  absl::StrAppend(&text_, std::string(indent_, ' '), line, "\n");
}

std::string MlirTextBuilder::Assign(const std::string& rhs) {
  std::string name = Fresh();
  Line(absl::StrCat(name, " = ", rhs));
  return name;
}

std::string MlirTextBuilder::Type(int width) { return Lanes(width, "f32"); }
std::string MlirTextBuilder::Type64(int width) { return Lanes(width, "f64"); }
std::string MlirTextBuilder::BoolType(int width) { return Lanes(width, "i1"); }
std::string MlirTextBuilder::IntType32(int width) { return Lanes(width, "i32"); }
std::string MlirTextBuilder::IntType64(int width) { return Lanes(width, "i64"); }

std::string MlirTextBuilder::Float(float value, int width) {
  const std::string scalar =
      Assign(absl::StrFormat("arith.constant 0x%08X : f32", absl::bit_cast<uint32_t>(value)));
  if (width == 1) return scalar;
  return Assign(absl::StrCat("vector.broadcast ", scalar, " : f32 to ", Type(width)));
}

std::string MlirTextBuilder::Double(double value, int width) {
  const std::string scalar =
      Assign(absl::StrFormat("arith.constant 0x%016X : f64", absl::bit_cast<uint64_t>(value)));
  if (width == 1) return scalar;
  return Assign(absl::StrCat("vector.broadcast ", scalar, " : f64 to ", Type64(width)));
}

std::string MlirTextBuilder::Int32(int32_t value, int width) {
  const std::string scalar = Assign(absl::StrCat("arith.constant ", value, " : i32"));
  if (width == 1) return scalar;
  return Assign(absl::StrCat("vector.broadcast ", scalar, " : i32 to ", IntType32(width)));
}

std::string MlirTextBuilder::Long(int64_t value, int width) {
  const std::string scalar = Assign(absl::StrCat("arith.constant ", value, " : i64"));
  if (width == 1) return scalar;
  return Assign(absl::StrCat("vector.broadcast ", scalar, " : i64 to ", IntType64(width)));
}

std::string MlirTextBuilder::Binary(const char* op, const std::string& a, const std::string& b,
                                    int width) {
  return Assign(absl::StrCat("arith.", op, " ", a, ", ", b, " : ", Type(width)));
}

std::string MlirTextBuilder::Binary64(const char* op, const std::string& a, const std::string& b,
                                      int width) {
  return Assign(absl::StrCat("arith.", op, " ", a, ", ", b, " : ", Type64(width)));
}

std::string MlirTextBuilder::BinaryInt32(const char* op, const std::string& a, const std::string& b,
                                         int width) {
  return Assign(absl::StrCat("arith.", op, " ", a, ", ", b, " : ", IntType32(width)));
}

std::string MlirTextBuilder::Compare(const char* predicate, const std::string& a,
                                     const std::string& b, int width) {
  return Assign(absl::StrCat("arith.cmpf ", predicate, ", ", a, ", ", b, " : ", Type(width)));
}

std::string MlirTextBuilder::Compare64(const char* predicate, const std::string& a,
                                       const std::string& b, int width) {
  return Assign(absl::StrCat("arith.cmpf ", predicate, ", ", a, ", ", b, " : ", Type64(width)));
}

std::string MlirTextBuilder::Select(const std::string& c, const std::string& a,
                                    const std::string& b, int width) {
  if (width == 1) return Assign(absl::StrCat("arith.select ", c, ", ", a, ", ", b, " : f32"));
  return Assign(absl::StrCat("arith.select ", c, ", ", a, ", ", b, " : ", BoolType(width), ", ",
                             Type(width)));
}

std::string MlirTextBuilder::Select64(const std::string& c, const std::string& a,
                                      const std::string& b, int width) {
  if (width == 1) return Assign(absl::StrCat("arith.select ", c, ", ", a, ", ", b, " : f64"));
  return Assign(absl::StrCat("arith.select ", c, ", ", a, ", ", b, " : ", BoolType(width), ", ",
                             Type64(width)));
}

std::string MlirTextBuilder::Or(const std::string& a, const std::string& b, int width) {
  return Assign(absl::StrCat("arith.ori ", a, ", ", b, " : ", BoolType(width)));
}

std::string MlirTextBuilder::And(const std::string& a, const std::string& b, int width) {
  return Assign(absl::StrCat("arith.andi ", a, ", ", b, " : ", BoolType(width)));
}

std::string MlirTextBuilder::Bits(const std::string& x, int width) {
  return Assign(absl::StrCat("arith.bitcast ", x, " : ", Type(width), " to ", IntType32(width)));
}

std::string MlirTextBuilder::FromBits(const std::string& bits, int width) {
  return Assign(absl::StrCat("arith.bitcast ", bits, " : ", IntType32(width), " to ", Type(width)));
}

}  // namespace sluice
