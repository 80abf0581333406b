// Functions (tensorflow/c/c_api.h): TF_Function as a FunctionDef, copied into and read out of
// a graph's library. Building one from a graph (TF_GraphToFunction) is in
// c_api_graph_to_function.cc.
#include <string>

#include "absl/strings/str_cat.h"
#include "c_api/c_api_internal.h"
#include "proto/attr_value.pb.h"
#include "proto/function.pb.h"

using sluice::c_api::MessageToBuffer;
using sluice::c_api::SetStatus;

extern "C" {

void TF_GraphCopyFunction(TF_Graph* g, const TF_Function* func, const TF_Function* grad,
                          TF_Status* status) {
  if (func == nullptr) {
    return SetStatus(status, absl::InvalidArgumentError(
                                 "'func' argument to TF_GraphCopyFunction cannot be null"));
  }
  sluice::FunctionDefLibrary library;
  *library.add_function() = func->fdef;
  if (grad != nullptr) {
    *library.add_function() = grad->fdef;
    sluice::GradientDef* gradient = library.add_gradient();
    gradient->set_function_name(func->fdef.signature().name());
    gradient->set_gradient_func(grad->fdef.signature().name());
  }
  absl::MutexLock lock(&g->mu);
  SetStatus(status, g->graph.AddFunctionLibrary(library));
}

int TF_GraphNumFunctions(TF_Graph* g) {
  absl::MutexLock lock(&g->mu);
  return g->graph.library().function_size();
}

int TF_GraphGetFunctions(TF_Graph* g, TF_Function** funcs, int max_func, TF_Status* status) {
  absl::MutexLock lock(&g->mu);
  const auto& functions = g->graph.library().function();
  int count = 0;
  for (int i = 0; i < functions.size() && count < max_func; ++i) {
    funcs[count++] = new TF_Function{functions.Get(i)};
  }
  SetStatus(status, absl::OkStatus());
  return count;
}

const char* TF_FunctionName(TF_Function* func) { return func->fdef.signature().name().c_str(); }

void TF_FunctionToFunctionDef(TF_Function* func, TF_Buffer* output_func_def, TF_Status* status) {
  SetStatus(status, MessageToBuffer(func->fdef, output_func_def));
}

TF_Function* TF_FunctionImportFunctionDef(const void* proto, size_t proto_len, TF_Status* status) {
  auto* func = new TF_Function;
  if (!sluice::c_api::ParseFromBytes(proto, proto_len, &func->fdef)) {
    delete func;
    SetStatus(status, absl::InvalidArgumentError(
                          "Invalid FunctionDef given to TF_FunctionImportFunctionDef"));
    return nullptr;
  }
  SetStatus(status, absl::OkStatus());
  return func;
}

void TF_FunctionSetAttrValueProto(TF_Function* func, const char* attr_name, const void* proto,
                                  size_t proto_len, TF_Status* status) {
  sluice::AttrValue value;
  if (!sluice::c_api::ParseFromBytes(proto, proto_len, &value)) {
    return SetStatus(status, absl::InvalidArgumentError("Unparseable AttrValue proto passed to "
                                                        "TF_FunctionSetAttrValueProto"));
  }
  (*func->fdef.mutable_attr())[attr_name] = std::move(value);
  SetStatus(status, absl::OkStatus());
}

void TF_FunctionGetAttrValueProto(TF_Function* func, const char* attr_name,
                                  TF_Buffer* output_attr_value, TF_Status* status) {
  auto it = func->fdef.attr().find(attr_name);
  if (it == func->fdef.attr().end()) {
    return SetStatus(
        status, absl::InvalidArgumentError(absl::StrCat("Function '", func->fdef.signature().name(),
                                                        "' has no attr named '", attr_name, "'.")));
  }
  SetStatus(status, MessageToBuffer(it->second, output_attr_value));
}

void TF_DeleteFunction(TF_Function* func) { delete func; }

}  // extern "C"
