// Checks every OpDef that Sluice registers for its CPU kernels against TensorFlow's.
//
// tf_op_defs.pbtxt (written by gen_tf_op_defs.py from real TensorFlow) lists the ops; for
// each, Sluice's registered OpDef must have the same input and output args (name, dtype or
// the attr giving it, list lengths, refness), the same attrs in the same order (type,
// default, allowed values, minimum) and the same flags. Docs, deprecation and full-type
// annotations are not compared. Every difference is reported on its own line, e.g.
//   Conv2D: attr 'padding': allowed_values: TensorFlow ["SAME", "VALID", "EXPLICIT"],
//   Sluice ["SAME", "VALID"]
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "google/protobuf/text_format.h"
#include "graph/core/types.h"
#include "graph/op/attr_value_util.h"
#include "graph/op/op_registry.h"
#include "gtest/gtest.h"
#include "proto/op_def.pb.h"

namespace sluice {
namespace {

constexpr char kTfOpDefsPath[] = "tests/op_defs/tf_op_defs.pbtxt";

OpList ReadTfOpDefs() {
  std::ifstream file(kTfOpDefsPath);
  EXPECT_TRUE(file.good()) << "cannot open " << kTfOpDefsPath;
  std::stringstream text;
  text << file.rdbuf();
  OpList ops;
  EXPECT_TRUE(google::protobuf::TextFormat::ParseFromString(text.str(), &ops))
      << kTfOpDefsPath << " is not an OpList in text format";
  return ops;
}

std::string ArgTypeString(const OpDef::ArgDef& arg) {
  std::string s;
  if (!arg.number_attr().empty()) absl::StrAppend(&s, arg.number_attr(), " * ");
  if (!arg.type_attr().empty()) {
    absl::StrAppend(&s, arg.type_attr());
  } else if (!arg.type_list_attr().empty()) {
    absl::StrAppend(&s, arg.type_list_attr());
  } else {
    absl::StrAppend(&s, DataTypeString(arg.type()));
  }
  return arg.is_ref() ? absl::StrCat("Ref(", s, ")") : s;
}

std::string ArgNames(const google::protobuf::RepeatedPtrField<OpDef::ArgDef>& args) {
  return absl::StrJoin(args, ", ", [](std::string* out, const OpDef::ArgDef& arg) {
    absl::StrAppend(out, arg.name());
  });
}

std::string AttrNames(const OpDef& op) {
  return absl::StrJoin(op.attr(), ", ", [](std::string* out, const OpDef::AttrDef& attr) {
    absl::StrAppend(out, attr.name());
  });
}

// Collects the differences between TensorFlow's and Sluice's definitions of one op.
class OpDefDiff {
 public:
  OpDefDiff(const OpDef& tf, const OpDef& sluice) : tf_(tf), sluice_(sluice) {}

  std::vector<std::string> Compute() {
    CompareArgs("input", tf_.input_arg(), sluice_.input_arg());
    CompareArgs("output", tf_.output_arg(), sluice_.output_arg());
    CompareAttrs();
    CompareFlag("is_stateful", tf_.is_stateful(), sluice_.is_stateful());
    CompareFlag("is_commutative", tf_.is_commutative(), sluice_.is_commutative());
    CompareFlag("is_aggregate", tf_.is_aggregate(), sluice_.is_aggregate());
    CompareFlag("allows_uninitialized_input", tf_.allows_uninitialized_input(),
                sluice_.allows_uninitialized_input());
    return diffs_;
  }

 private:
  template <typename... Args>
  void Report(const Args&... args) {
    diffs_.push_back(absl::StrCat(tf_.name(), ": ", args...));
  }

  void CompareArgs(const char* kind, const google::protobuf::RepeatedPtrField<OpDef::ArgDef>& tf,
                   const google::protobuf::RepeatedPtrField<OpDef::ArgDef>& sluice) {
    if (tf.size() != sluice.size()) {
      Report(kind, " args: TensorFlow [", ArgNames(tf), "], Sluice [", ArgNames(sluice), "]");
      return;
    }
    for (int i = 0; i < tf.size(); ++i) {
      if (tf[i].name() != sluice[i].name()) {
        Report(kind, " ", i, ": name: TensorFlow '", tf[i].name(), "', Sluice '", sluice[i].name(),
               "'");
      }
      if (ArgTypeString(tf[i]) != ArgTypeString(sluice[i])) {
        Report(kind, " '", tf[i].name(), "': type: TensorFlow ", ArgTypeString(tf[i]), ", Sluice ",
               ArgTypeString(sluice[i]));
      }
    }
  }

  void CompareAttrs() {
    if (AttrNames(tf_) != AttrNames(sluice_)) {
      Report("attrs: TensorFlow [", AttrNames(tf_), "], Sluice [", AttrNames(sluice_), "]");
    }
    for (const OpDef::AttrDef& tf_attr : tf_.attr()) {
      for (const OpDef::AttrDef& sluice_attr : sluice_.attr()) {
        if (sluice_attr.name() == tf_attr.name()) CompareAttr(tf_attr, sluice_attr);
      }
    }
  }

  void CompareAttr(const OpDef::AttrDef& tf, const OpDef::AttrDef& sluice) {
    const std::string where = absl::StrCat("attr '", tf.name(), "': ");
    if (tf.type() != sluice.type()) {
      Report(where, "type: TensorFlow ", tf.type(), ", Sluice ", sluice.type());
    }
    CompareOptionalValue(where, "default_value", tf.has_default_value(), tf.default_value(),
                         sluice.has_default_value(), sluice.default_value());
    CompareOptionalValue(where, "allowed_values", tf.has_allowed_values(), tf.allowed_values(),
                         sluice.has_allowed_values(), sluice.allowed_values());
    if (tf.has_minimum() != sluice.has_minimum() || tf.minimum() != sluice.minimum()) {
      Report(where, "minimum: TensorFlow ", MinimumString(tf), ", Sluice ", MinimumString(sluice));
    }
  }

  void CompareOptionalValue(const std::string& where, const char* field, bool tf_has,
                            const AttrValue& tf, bool sluice_has, const AttrValue& sluice) {
    if (tf_has == sluice_has && (!tf_has || AreAttrValuesEqual(tf, sluice))) return;
    Report(where, field, ": TensorFlow ", tf_has ? SummarizeAttrValue(tf) : "(none)", ", Sluice ",
           sluice_has ? SummarizeAttrValue(sluice) : "(none)");
  }

  static std::string MinimumString(const OpDef::AttrDef& attr) {
    return attr.has_minimum() ? absl::StrCat(">= ", attr.minimum()) : "(none)";
  }

  void CompareFlag(const char* flag, bool tf, bool sluice) {
    if (tf != sluice) {
      Report(flag, ": TensorFlow ", tf ? "true" : "false", ", Sluice ", sluice ? "true" : "false");
    }
  }

  const OpDef& tf_;
  const OpDef& sluice_;
  std::vector<std::string> diffs_;
};

TEST(OpDefConformanceTest, ReferenceFileListsOps) { EXPECT_GT(ReadTfOpDefs().op_size(), 100); }

TEST(OpDefConformanceTest, RegisteredOpDefsMatchTensorFlow) {
  const OpList tf_ops = ReadTfOpDefs();
  std::vector<std::string> problems;
  for (const OpDef& tf_op : tf_ops.op()) {
    const OpRegistrationData* data = nullptr;
    absl::Status s = OpRegistry::Global()->LookUp(tf_op.name(), &data);
    if (!s.ok()) {
      problems.push_back(absl::StrCat(tf_op.name(), ": not registered"));
      continue;
    }
    if (!data->shape_inference_fn) {
      problems.push_back(absl::StrCat(tf_op.name(), ": no shape function"));
    }
    for (std::string& diff : OpDefDiff(tf_op, data->op_def).Compute()) {
      problems.push_back(std::move(diff));
    }
  }
  EXPECT_TRUE(problems.empty()) << problems.size() << " differences from TensorFlow:\n"
                                << absl::StrJoin(problems, "\n");
}

TEST(OpDefConformanceTest, RegistrationsSucceeded) {
  std::vector<std::string> errors;
  for (const absl::Status& s : OpRegistry::Global()->registration_errors()) {
    errors.push_back(s.ToString());
  }
  EXPECT_TRUE(errors.empty()) << absl::StrJoin(errors, "\n");
}

}  // namespace
}  // namespace sluice
