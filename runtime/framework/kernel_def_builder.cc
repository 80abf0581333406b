// KernelDefBuilder: fills a KernelDef and records the first misuse.
#include "runtime/framework/kernel_def_builder.h"

#include <utility>

#include "graph/core/errors.h"
#include "proto/kernel_def.pb.h"

namespace sluice {

KernelDefBuilder::KernelDefBuilder(const char* op_name)
    : kernel_def_(std::make_unique<KernelDef>()) {
  kernel_def_->set_op(op_name);
}

KernelDefBuilder::~KernelDefBuilder() = default;

KernelDefBuilder& KernelDefBuilder::Device(const char* device_type) {
  kernel_def_->set_device_type(device_type);
  return *this;
}

KernelDefBuilder& KernelDefBuilder::TypeConstraint(const char* attr_name,
                                                   absl::Span<const DataType> allowed) {
  if (allowed.empty()) {
    RecordError(errors::InvalidArgument("Kernel for op '", kernel_def_->op(),
                                        "': TypeConstraint on attr '", attr_name,
                                        "' allows no types"));
    return *this;
  }
  KernelDef::AttrConstraint* constraint = kernel_def_->add_constraint();
  constraint->set_name(attr_name);
  AttrValue_ListValue* list = constraint->mutable_allowed_values()->mutable_list();
  for (DataType dtype : allowed) list->add_type(dtype);
  return *this;
}

KernelDefBuilder& KernelDefBuilder::TypeConstraint(const char* attr_name,
                                                   std::initializer_list<DataType> allowed) {
  return TypeConstraint(attr_name, absl::Span<const DataType>(allowed.begin(), allowed.size()));
}

KernelDefBuilder& KernelDefBuilder::TypeConstraint(const char* attr_name, DataType allowed) {
  return TypeConstraint(attr_name, absl::Span<const DataType>(&allowed, 1));
}

KernelDefBuilder& KernelDefBuilder::HostMemory(const char* arg_name) {
  kernel_def_->add_host_memory_arg(arg_name);
  return *this;
}

KernelDefBuilder& KernelDefBuilder::Label(const char* label) {
  if (label_set_) {
    RecordError(errors::InvalidArgument("Kernel for op '", kernel_def_->op(),
                                        "': Label() called twice ('", kernel_def_->label(),
                                        "' then '", label, "')"));
    return *this;
  }
  label_set_ = true;
  kernel_def_->set_label(label);
  return *this;
}

KernelDefBuilder& KernelDefBuilder::Priority(int32_t priority) {
  kernel_def_->set_priority(priority);
  return *this;
}

void KernelDefBuilder::RecordError(absl::Status error) {
  if (status_.ok()) status_ = std::move(error);
}

}  // namespace sluice
