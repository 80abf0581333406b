// Eager contexts (tensorflow/c/eager/c_api.h): options, the context and its session, devices,
// placement policies, functions, run metadata and steps.
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "c_api/c_api_internal.h"
#include "c_api/tfe_internal.h"
#include "graph/core/device_name.h"

using sluice::c_api::SetStatus;

namespace sluice {
namespace eager {

absl::Status ResolveDevice(const TFE_Context& ctx, const std::string& spec, std::string* device) {
  ParsedDeviceName wanted;
  if (!ParseFullName(spec, &wanted)) {
    return absl::InvalidArgumentError(absl::StrCat("Malformed device specification '", spec, "'"));
  }
  std::vector<std::string> types;
  std::vector<std::string> names;
  for (const DeviceAttributes& attributes : ctx.devices) {
    ParsedDeviceName parsed;
    if (!ParseFullName(attributes.name(), &parsed)) continue;
    if (IsCompleteSpecification(wanted, parsed)) {
      *device = attributes.name();
      return absl::OkStatus();
    }
    if (std::find(types.begin(), types.end(), parsed.type) == types.end()) {
      types.push_back(parsed.type);
    }
    names.push_back(attributes.name());
  }
  return absl::InvalidArgumentError(absl::StrCat(
      "Could not satisfy device specification '", spec,
      "'. enable_soft_placement=0. Supported device types [", absl::StrJoin(types, ", "),
      "]. All available devices [", absl::StrJoin(names, ", "), "]."));
}

bool FindFunction(TFE_Context* ctx, const std::string& name, FunctionDef* def) {
  absl::MutexLock lock(&ctx->mu);
  auto it = ctx->functions.find(name);
  if (it == ctx->functions.end()) return false;
  *def = it->second;
  return true;
}

}  // namespace eager
}  // namespace sluice

namespace {

// Adds `function` to the context, refusing one that differs from a function of that name the
// context or its session already holds.
absl::Status AddFunction(TFE_Context* ctx, sluice::FunctionDef function) {
  const std::string& name = function.signature().name();
  if (name.empty()) return absl::InvalidArgumentError("The function has no name");
  std::string bytes;
  function.SerializeToString(&bytes);
  absl::MutexLock lock(&ctx->mu);
  auto held = ctx->functions.find(name);
  auto sent = ctx->functions_in_session.find(name);
  const bool differs_from_held =
      held != ctx->functions.end() && held->second.SerializeAsString() != bytes;
  const bool differs_from_sent = sent != ctx->functions_in_session.end() && sent->second != bytes;
  if (differs_from_held || differs_from_sent) {
    return absl::InvalidArgumentError(
        absl::StrCat("Cannot add function '", name,
                     "' because a different function with the same name already exists."));
  }
  ctx->functions[name] = std::move(function);
  return absl::OkStatus();
}

}  // namespace

extern "C" {

TFE_ContextOptions* TFE_NewContextOptions(void) { return new TFE_ContextOptions; }

void TFE_ContextOptionsSetConfig(TFE_ContextOptions* options, const void* proto, size_t proto_len,
                                 TF_Status* status) {
  sluice::ConfigProto config;
  if (!sluice::c_api::ParseFromBytes(proto, proto_len, &config)) {
    return SetStatus(status, absl::InvalidArgumentError("Unparseable ConfigProto"));
  }
  options->session_options.config = std::move(config);
  SetStatus(status, absl::OkStatus());
}

void TFE_ContextOptionsSetAsync(TFE_ContextOptions* options, unsigned char enable) {
  options->async = enable != 0;
}

void TFE_ContextOptionsSetDevicePlacementPolicy(TFE_ContextOptions* options,
                                                TFE_ContextDevicePlacementPolicy policy) {
  options->policy = policy;
}

void TFE_DeleteContextOptions(TFE_ContextOptions* options) { delete options; }

TFE_Context* TFE_NewContext(const TFE_ContextOptions* opts, TF_Status* status) {
  auto ctx = std::make_unique<TFE_Context>();
  TFE_ContextOptions defaults;
  if (opts == nullptr) opts = &defaults;
  absl::Status made = sluice::NewSession(opts->session_options, &ctx->session);
  if (made.ok()) made = ctx->session->ListDevices(&ctx->devices);
  if (!made.ok()) {
    SetStatus(status, made);
    return nullptr;
  }
  for (const sluice::DeviceAttributes& device : ctx->devices) {
    if (device.device_type() == "CPU") {
      ctx->host_device = device.name();
      break;
    }
  }
  if (ctx->host_device.empty()) {
    SetStatus(status, absl::InternalError("The eager context has no CPU device"));
    return nullptr;
  }
  ctx->default_policy = opts->policy;
  SetStatus(status, absl::OkStatus());
  return ctx.release();
}

void TFE_DeleteContext(TFE_Context* ctx) {
  if (ctx == nullptr) return;
  ctx->session->Close().IgnoreError();  // Closing a session only fails when already closed.
  delete ctx;
}

TF_DeviceList* TFE_ContextListDevices(TFE_Context* ctx, TF_Status* status) {
  auto list = std::make_unique<TF_DeviceList>();
  list->devices = ctx->devices;
  SetStatus(status, absl::OkStatus());
  return list.release();
}

void TFE_ContextClearCaches(TFE_Context* ctx) {
  absl::MutexLock lock(&ctx->mu);
  for (const auto& [key, prepared] : ctx->prepared) {
    // A callable the session no longer knows (closed) needs no release.
    ctx->session->ReleaseCallable(prepared.callable).IgnoreError();
  }
  ctx->prepared.clear();
}

void TFE_ContextSetThreadLocalDevicePlacementPolicy(TFE_Context* ctx,
                                                    TFE_ContextDevicePlacementPolicy policy) {
  absl::MutexLock lock(&ctx->mu);
  ctx->thread_policies[std::this_thread::get_id()] = policy;
}

TFE_ContextDevicePlacementPolicy TFE_ContextGetDevicePlacementPolicy(TFE_Context* ctx) {
  absl::MutexLock lock(&ctx->mu);
  auto it = ctx->thread_policies.find(std::this_thread::get_id());
  return it == ctx->thread_policies.end() ? ctx->default_policy : it->second;
}

void TFE_ContextSetServerDef(TFE_Context*, int, const void*, size_t, TF_Status* status) {
  SetStatus(status, absl::UnimplementedError(
                        "TFE_ContextSetServerDef: Sluice runs in one process and joins no "
                        "cluster"));
}

void TFE_ContextAddFunctionDef(TFE_Context* ctx, const char* serialized_function_def, size_t size,
                               TF_Status* status) {
  sluice::FunctionDef function;
  if (!sluice::c_api::ParseFromBytes(serialized_function_def, size, &function)) {
    return SetStatus(status, absl::InvalidArgumentError("Invalid FunctionDef proto"));
  }
  SetStatus(status, AddFunction(ctx, std::move(function)));
}

void TFE_ContextAddFunction(TFE_Context* ctx, TF_Function* function, TF_Status* status) {
  if (function == nullptr) {
    return SetStatus(status, absl::InvalidArgumentError("The function is null"));
  }
  SetStatus(status, AddFunction(ctx, function->fdef));
}

void TFE_ContextRemoveFunction(TFE_Context* ctx, const char* name, TF_Status* status) {
  const std::string function = name == nullptr ? "" : name;
  absl::MutexLock lock(&ctx->mu);
  if (ctx->functions.erase(function) == 0) {
    return SetStatus(status, absl::InvalidArgumentError(absl::StrCat(
                                 "Tried to remove non-existent function '", function, "'.")));
  }
  SetStatus(status, absl::OkStatus());
}

unsigned char TFE_ContextHasFunction(TFE_Context* ctx, const char* name) {
  absl::MutexLock lock(&ctx->mu);
  return name != nullptr && ctx->functions.count(name) > 0 ? 1 : 0;
}

void TFE_ContextEnableRunMetadata(TFE_Context* ctx) {
  absl::MutexLock lock(&ctx->mu);
  ctx->run_metadata = true;
}

void TFE_ContextDisableRunMetadata(TFE_Context* ctx) {
  absl::MutexLock lock(&ctx->mu);
  ctx->run_metadata = false;
}

void TFE_ContextExportRunMetadata(TFE_Context* ctx, TF_Buffer* buf, TF_Status* status) {
  absl::MutexLock lock(&ctx->mu);
  absl::Status exported = sluice::c_api::MessageToBuffer(ctx->metadata, buf);
  if (exported.ok()) ctx->metadata.Clear();
  SetStatus(status, exported);
}

void TFE_ContextStartStep(TFE_Context* ctx) {
  absl::MutexLock lock(&ctx->mu);
  ++ctx->step_depth;
}

void TFE_ContextEndStep(TFE_Context* ctx) {
  absl::MutexLock lock(&ctx->mu);
  if (ctx->step_depth > 0) --ctx->step_depth;
}

}  // extern "C"
