// sluice ops: the registered ops and their kernels (device types and dtypes), or one OpDef.
#include <cstdio>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "google/protobuf/text_format.h"
#include "graph/core/errors.h"
#include "graph/op/op_registry.h"
#include "proto/op_def.pb.h"
#include "runtime/framework/kernel_registry.h"
#include "tools/cli/args.h"
#include "tools/cli/commands.h"
#include "tools/cli/json_writer.h"
#include "tools/cli/kernel_info.h"
#include "tools/cli/report.h"

namespace sluice {
namespace cli {
namespace {

// The dtypes a device's kernels for `op` accept, over all their type constraints
// ("float, int32"); "any" for kernels without constraints.
std::string KernelDtypes(const std::vector<const KernelDef*>& defs) {
  std::set<std::string> types;
  bool unconstrained = false;
  for (const KernelDef* def : defs) {
    if (def->constraint_size() == 0) unconstrained = true;
    for (const KernelDef::AttrConstraint& constraint : def->constraint()) {
      for (int type : constraint.allowed_values().list().type()) {
        types.insert(DataTypeString(static_cast<DataType>(type)));
      }
    }
  }
  if (unconstrained) types.insert("any");
  return absl::StrJoin(types, ",");
}

absl::Status ListOps(const std::string& device_filter, bool json) {
  KernelList all = GetAllRegisteredKernels();
  // op -> device -> kernels
  std::map<std::string, std::map<std::string, std::vector<const KernelDef*>>> kernels;
  for (const KernelDef& def : all.kernel()) {
    if (device_filter.empty() || def.device_type() == device_filter) {
      kernels[def.op()][def.device_type()].push_back(&def);
    }
  }
  int with_kernel = 0;
  JsonWriter writer;
  writer.BeginObject().Key("ops").BeginArray();
  std::vector<std::string> names = OpRegistry::Global()->ListOpNames();
  for (const std::string& op : names) {
    auto it = kernels.find(op);
    if (it != kernels.end()) ++with_kernel;
    if (json) {
      writer.BeginObject().Key("op").String(op).Key("kernels").BeginObject();
      if (it != kernels.end()) {
        for (const auto& [device, defs] : it->second) writer.Key(device).String(KernelDtypes(defs));
      }
      writer.EndObject().EndObject();
      continue;
    }
    std::vector<std::string> parts;
    if (it != kernels.end()) {
      for (const auto& [device, defs] : it->second) {
        parts.push_back(absl::StrCat(device, "[", KernelDtypes(defs), "]"));
      }
    }
    std::printf("%-40s %s\n", op.c_str(), parts.empty() ? "-" : absl::StrJoin(parts, " ").c_str());
  }
  writer.EndArray().EndObject();
  const std::string where = device_filter.empty() ? "" : absl::StrCat(" ", device_filter);
  if (json) {
    std::fputs(writer.str().c_str(), stdout);
  } else {
    std::printf("%zu ops registered, %d with a%s kernel\n", names.size(), with_kernel,
                where.c_str());
  }
  return absl::OkStatus();
}

absl::Status ShowOp(const std::string& name, const std::string& device_filter) {
  const OpDef* op_def = nullptr;
  if (!OpRegistry::Global()->LookUpOpDef(name, &op_def).ok()) {
    std::vector<std::string> similar;
    for (const std::string& op : OpRegistry::Global()->ListOpNames()) {
      if (absl::StrContains(absl::AsciiStrToLower(op), absl::AsciiStrToLower(name))) {
        similar.push_back(op);
      }
    }
    return errors::NotFound("no op named '", name, "'",
                            similar.empty() ? "" : "; similar: ", absl::StrJoin(similar, ", "));
  }
  std::string text;
  google::protobuf::TextFormat::PrintToString(*op_def, &text);
  std::printf("%s", text.c_str());
  std::printf("# kernels:\n");
  int shown = 0;
  const KernelList kernels = GetRegisteredKernelsForOp(name);
  for (const KernelDef& def : kernels.kernel()) {
    if (!device_filter.empty() && def.device_type() != device_filter) continue;
    std::printf("#   %s: %s\n", def.device_type().c_str(), DescribeKernelDef(def).c_str());
    ++shown;
  }
  if (shown == 0) std::printf("#   none%s\n", device_filter.empty() ? "" : " on this device");
  return absl::OkStatus();
}

}  // namespace

int OpsCommand(const Args& args) {
  std::string device, op;
  bool json = false;
  ArgParser parser("ops [--device cpu|gpu] [--op NAME] [--json]",
                   "Lists every registered op with the device types and dtypes of its kernels\n"
                   "(\"-\" when it has none), or prints one op's OpDef and kernels.");
  parser.AddString("device", "cpu|gpu", "only kernels of this device type", &device);
  parser.AddString("op", "NAME", "print this op's OpDef (text format) and its kernels", &op);
  parser.AddBool("json", "list as JSON", &json);
  const int parsed = HandleParseResult("ops", parser, parser.Parse(args));
  if (parsed >= 0) return parsed;
  const std::string device_type = absl::AsciiStrToUpper(device);
  absl::Status status = op.empty() ? ListOps(device_type, json) : ShowOp(op, device_type);
  return status.ok() ? 0 : ReportError("ops", status);
}

}  // namespace cli
}  // namespace sluice
