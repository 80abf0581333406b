#include "tools/op_gen/api_names.h"

#include <map>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/str_split.h"
#include "glog/logging.h"

namespace sluice {
namespace op_gen {
namespace {

struct Table {
  std::map<std::string, ApiNames> by_op;
  // Every class name and alias, for hiding ops whose name another op's wrapper took.
  std::set<std::string> wrapper_names;
};

// Parses tf_cc_api_names.txt (format: extract_tf_cc_api.py). The file is ours and checked by
// cc_op_gen_test, so a malformed line is a build-time bug, not a user error.
Table ParseTable(absl::string_view text) {
  Table table;
  ApiNames* current = nullptr;
  for (absl::string_view line : absl::StrSplit(text, '\n', absl::SkipEmpty())) {
    if (line[0] == '#') continue;
    std::vector<std::string> f = absl::StrSplit(line, ' ', absl::SkipEmpty());
    if (f[0] == "op") {
      CHECK(f.size() >= 4 && f[2] == "class") << line;
      current = &table.by_op[f[1]];
      current->class_name = f[3];
      table.wrapper_names.insert(f[3]);
      for (size_t i = 4; i < f.size(); ++i) {
        if (f[i] == "internal") {
          current->internal = true;
        } else {
          CHECK(f[i] == "alias" && i + 1 < f.size()) << line;
          current->aliases.push_back(f[++i]);
          table.wrapper_names.insert(f[i]);
        }
      }
      continue;
    }
    CHECK(current != nullptr && f.size() == 3) << line;
    if (f[0] == "param") {
      current->params.push_back({f[2], f[1]});
    } else if (f[0] == "setter") {
      current->setters[f[2]] = f[1];
    } else {
      CHECK(f[0] == "output") << line;
      current->outputs[f[2]] = f[1];
    }
  }
  return table;
}

const Table& TheTable() {
  static const Table* table = new Table(ParseTable(TfCcApiNamesText()));
  return *table;
}

}  // namespace

ApiNames ApiNamesForOp(const std::string& op_name) {
  const Table& table = TheTable();
  auto it = table.by_op.find(op_name);
  if (it != table.by_op.end()) return it->second;
  ApiNames names;
  names.class_name = op_name;
  names.visible = table.wrapper_names.count(op_name) == 0;
  return names;
}

}  // namespace op_gen
}  // namespace sluice
