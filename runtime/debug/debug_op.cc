#include "runtime/debug/debug_op.h"

#include <cerrno>
#include <cstdlib>
#include <string>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "graph/core/errors.h"

namespace sluice {
namespace {

// Step 1's failures, in TensorFlow's words (its Copy node holds every op's spec).
absl::Status CopyNodeError(const std::string& tensor_name, const std::string& why) {
  return errors::FailedPrecondition("Failed to create Copy/CopyHost node for tensor ", tensor_name,
                                    ", due to: ", why);
}

// Step 2's, naming the op's spec.
absl::Status DebugNodeError(const DebugOpSpec& spec, const std::string& tensor_name,
                            const std::string& why) {
  return errors::FailedPrecondition("Failed to create debug node ", spec.spec, " for tensor ",
                                    tensor_name, ", due to: ", why);
}

// TensorFlow's bool strings: true, t, 1 and false, f, 0, in any case.
bool ParseBool(absl::string_view text, bool* value) {
  const std::string lower = absl::AsciiStrToLower(text);
  if (lower == "true" || lower == "t" || lower == "1") {
    *value = true;
    return true;
  }
  if (lower == "false" || lower == "f" || lower == "0") {
    *value = false;
    return true;
  }
  return false;
}

// A float attribute: the whole text, spaces around it allowed; out of range is an infinity.
// The bounds are float attributes in TensorFlow, so the value is rounded to a float.
bool ParseFloat(absl::string_view text, float* value) {
  const std::string stripped(absl::StripAsciiWhitespace(text));
  if (stripped.empty()) return false;
  char* end = nullptr;
  errno = 0;
  const float parsed = std::strtof(stripped.c_str(), &end);
  if (end != stripped.c_str() + stripped.size()) return false;
  *value = parsed;
  return true;
}

// The attributes each op accepts, with their types in TensorFlow's OpDefs.
bool IsFloatAttr(DebugOp::Kind kind, const std::string& key) {
  return kind == DebugOp::Kind::kNumericSummary && (key == "lower_bound" || key == "upper_bound");
}
bool IsBoolAttr(DebugOp::Kind kind, const std::string& key) {
  return key == "gated_grpc" ||
         (kind == DebugOp::Kind::kNumericSummary && key == "mute_if_healthy");
}

bool HasKernel(DebugOp::Kind kind, DataType dtype) {
  switch (kind) {
    case DebugOp::Kind::kIdentity:
      return true;
    case DebugOp::Kind::kNanCount:
      return HasNanCount(dtype);
    case DebugOp::Kind::kNumericSummary:
      return HasNumericSummary(dtype);
  }
  return false;
}

}  // namespace

absl::Status ParseDebugOpSpec(const std::string& spec, const std::string& tensor_name,
                              DebugOpSpec* parsed) {
  *parsed = DebugOpSpec();
  parsed->spec = spec;
  const size_t open = spec.find('(');
  const size_t close = spec.find(')');
  if (open == std::string::npos && close == std::string::npos) {
    parsed->name = spec;
    return absl::OkStatus();
  }
  if (open == std::string::npos || close == std::string::npos || open == 0 ||
      close != spec.size() - 1) {
    return CopyNodeError(tensor_name, absl::StrCat("Malformed debug op name \"", spec, "\""));
  }
  parsed->name = spec.substr(0, open);
  const std::string arguments = spec.substr(open + 1, close - open - 1);
  for (absl::string_view segment : absl::StrSplit(arguments, ';')) {
    segment = absl::StripAsciiWhitespace(segment);
    if (segment.empty()) continue;
    const size_t equals = segment.find('=');
    if (equals == absl::string_view::npos || equals == 0 || equals + 1 == segment.size()) {
      return CopyNodeError(tensor_name,
                           absl::StrCat("Malformed attributes in debug op name \"", spec, "\""));
    }
    std::string key(segment.substr(0, equals));
    std::string value(segment.substr(equals + 1));
    for (const auto& [seen, unused] : parsed->attributes) {
      if (seen == key) {
        return CopyNodeError(tensor_name, absl::StrCat("Duplicate attribute name \"", key,
                                                       "\" found in the debug op: \"", spec, "\""));
      }
    }
    if (key == "gated_grpc" && !ParseBool(value, &parsed->gated_grpc)) {
      return CopyNodeError(tensor_name, absl::StrCat("Invalid string for bool value: ", value));
    }
    parsed->attributes.emplace_back(std::move(key), std::move(value));
  }
  return absl::OkStatus();
}

absl::Status MakeDebugOp(const DebugOpSpec& spec, const std::string& tensor_name, int index,
                         DataType dtype, DebugOp* op) {
  *op = DebugOp();
  if (spec.name == "DebugIdentity") {
    op->kind = DebugOp::Kind::kIdentity;
  } else if (spec.name == "DebugNanCount") {
    op->kind = DebugOp::Kind::kNanCount;
  } else if (spec.name == "DebugNumericSummary") {
    op->kind = DebugOp::Kind::kNumericSummary;
  } else {
    return DebugNodeError(spec, tensor_name,
                          absl::StrCat("Failed to create node definition for debug op ", spec.name,
                                       " on watched tensor ", tensor_name));
  }
  // The kernel is looked up before the attributes are set, as in TensorFlow.
  if (!HasKernel(op->kind, dtype)) {
    return DebugNodeError(spec, tensor_name,
                          absl::StrCat("Failed to find kernel definition for debug op ", spec.name,
                                       " on watched tensor ", tensor_name));
  }
  op->name = spec.name;
  op->gated_grpc = spec.gated_grpc;
  // TensorFlow's name for the debug node, which its messages quote.
  const std::string node = absl::StrCat("__dbg_", tensor_name, "_", index, "_", spec.name);
  std::vector<std::string> invalid;
  for (const auto& [key, value] : spec.attributes) {
    if (IsFloatAttr(op->kind, key)) {
      float bound = 0;
      if (!ParseFloat(value, &bound)) {
        return DebugNodeError(spec, tensor_name,
                              absl::StrCat("Invalid value string for float-type attribute ", key,
                                           "of debug node ", node, ": \"", value, "\""));
      }
      (key == "lower_bound" ? op->bounds.lower : op->bounds.upper) = bound;
    } else if (IsBoolAttr(op->kind, key)) {
      bool flag = false;
      if (!ParseBool(value, &flag)) {
        return DebugNodeError(spec, tensor_name,
                              absl::StrCat("Invalid value string for bool-type attribute ", key,
                                           "of debug node ", node, ": \"", value, "\""));
      }
      if (key == "mute_if_healthy") op->mute_if_healthy = flag;
    } else {
      invalid.push_back(key);
    }
  }
  if (!invalid.empty()) {
    return DebugNodeError(
        spec, tensor_name,
        absl::StrCat(invalid.size(), " attribute key(s) were not valid for debug ", "node ", node,
                     ": ", absl::StrJoin(invalid, ", ")));
  }
  return absl::OkStatus();
}

bool ApplyDebugOp(const DebugOp& op, const Tensor& value, Tensor* out) {
  // Made for the output's dtype, so this holds; a value of another dtype is not summarized.
  if (!HasKernel(op.kind, value.dtype())) return false;
  switch (op.kind) {
    case DebugOp::Kind::kIdentity:
      *out = value;
      return true;
    case DebugOp::Kind::kNanCount:
      *out = DebugNanCount(value);
      return true;
    case DebugOp::Kind::kNumericSummary:
      *out = DebugNumericSummary(value, op.bounds);
      return !op.mute_if_healthy || !IsHealthySummary(*out);
  }
  return false;
}

}  // namespace sluice
