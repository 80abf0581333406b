#include "cc_api/node_builder.h"

#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "graph/core/errors.h"
#include "graph/op/op_registry.h"

namespace sluice {

NodeBuilder::NodeBuilder(std::string name, std::string op_name) {
  def_.set_name(std::move(name));
  def_.set_op(std::move(op_name));
}

NodeBuilder& NodeBuilder::Input(const Output& src) {
  if (src.node() == nullptr) {
    status_.Update(
        errors::InvalidArgument("Attempt to add nullptr Node to node with type ", def_.op()));
  }
  args_.push_back(Arg{false, {src}});
  return *this;
}

NodeBuilder& NodeBuilder::Input(absl::Span<const Output> src_list) {
  for (const Output& src : src_list) {
    if (src.node() == nullptr) {
      status_.Update(
          errors::InvalidArgument("Attempt to add nullptr Node to node with type ", def_.op()));
    }
  }
  args_.push_back(Arg{true, std::vector<Output>(src_list.begin(), src_list.end())});
  return *this;
}

NodeBuilder& NodeBuilder::ControlInput(Node* src) {
  control_inputs_.push_back(src);
  return *this;
}

NodeBuilder& NodeBuilder::ControlInputs(absl::Span<Node* const> src_nodes) {
  control_inputs_.insert(control_inputs_.end(), src_nodes.begin(), src_nodes.end());
  return *this;
}

NodeBuilder& NodeBuilder::Device(absl::string_view device) {
  def_.set_device(std::string(device));
  return *this;
}

NodeBuilder& NodeBuilder::AssignedDevice(absl::string_view device) {
  assigned_device_ = std::string(device);
  return *this;
}

absl::Status NodeBuilder::InferAttrsFromInputs(const OpDef& op_def) {
  if (static_cast<size_t>(op_def.input_arg_size()) != args_.size()) {
    return errors::InvalidArgument(op_def.name(), " expects ", op_def.input_arg_size(),
                                   " inputs, but ", args_.size(), " were given");
  }
  for (int i = 0; i < op_def.input_arg_size(); ++i) {
    const OpDef::ArgDef& arg = op_def.input_arg(i);
    const Arg& given = args_[i];
    const bool wants_list = !arg.number_attr().empty() || !arg.type_list_attr().empty();
    if (wants_list != given.is_list) {
      return errors::InvalidArgument(
          "Input '", arg.name(), "' of '", op_def.name(), "' Op ",
          wants_list ? "expects a list of tensors" : "expects a single tensor, not a list");
    }
    if (!arg.number_attr().empty() && !HasNodeAttr(def_, arg.number_attr())) {
      AddNodeAttr(arg.number_attr(), static_cast<int64_t>(given.outputs.size()), &def_);
    }
    if (!arg.type_list_attr().empty() && !HasNodeAttr(def_, arg.type_list_attr())) {
      DataTypeVector types;
      for (const Output& o : given.outputs) types.push_back(BaseType(o.type()));
      AddNodeAttr(arg.type_list_attr(), absl::Span<const DataType>(types), &def_);
    }
    if (!arg.type_attr().empty() && !HasNodeAttr(def_, arg.type_attr()) && !given.outputs.empty()) {
      AddNodeAttr(arg.type_attr(), BaseType(given.outputs[0].type()), &def_);
    }
  }
  return absl::OkStatus();
}

absl::Status NodeBuilder::CheckInputTypes(const DataTypeVector& input_types) const {
  size_t flat = 0;
  for (const Arg& arg : args_) {
    for (const Output& o : arg.outputs) {
      if (flat >= input_types.size()) {
        return errors::InvalidArgument(def_.op(), " was given more inputs than it takes");
      }
      const DataType want = input_types[flat];
      const DataType got = o.type();
      // A ref output may feed a value input (it is read), never the reverse.
      const bool ok = IsRefType(want) ? got == want : BaseType(got) == want;
      if (!ok) {
        return errors::InvalidArgument("Input ", flat, " of node ", def_.name(), " was passed ",
                                       DataTypeString(got), " from ", o.name(),
                                       " incompatible with expected ", DataTypeString(want), ".");
      }
      ++flat;
    }
  }
  return absl::OkStatus();
}

absl::Status NodeBuilder::Finalize(Graph* graph, Node** created) {
  RETURN_IF_ERROR(status_);
  const OpDef* op_def = nullptr;
  RETURN_IF_ERROR(graph->op_registry()->LookUpOpDef(def_.op(), &op_def));
  for (const Arg& arg : args_) {
    for (const Output& o : arg.outputs) {
      if (o.node()->graph() != graph) {
        return errors::InvalidArgument("Input ", o.name(), " of node ", def_.name(),
                                       " belongs to another graph");
      }
      if (o.index() < 0 || o.index() >= o.node()->num_outputs()) {
        return errors::InvalidArgument("Input ", o.name(), " of node ", def_.name(),
                                       " names an output that ", o.node()->name(),
                                       " does not have (it has ", o.node()->num_outputs(), ")");
      }
    }
  }
  for (Node* c : control_inputs_) {
    if (c == nullptr || c->graph() != graph) {
      return errors::InvalidArgument("Control input of node ", def_.name(),
                                     " is null or belongs to another graph");
    }
  }
  RETURN_IF_ERROR(InferAttrsFromInputs(*op_def));
  NodeDef def = def_;
  AddDefaultsToNodeDef(*op_def, &def);
  // ValidateNodeDef counts the inputs; Graph::AddNode drops them again (edges carry them).
  for (const Arg& arg : args_) {
    for (const Output& o : arg.outputs) {
      def.add_input(o.index() == 0 ? o.node()->name() : o.name());
    }
  }
  for (Node* c : control_inputs_) def.add_input(absl::StrCat("^", c->name()));
  RETURN_IF_ERROR(ValidateNodeDef(def, *op_def));
  DataTypeVector input_types;
  RETURN_IF_ERROR(InputTypesForNode(def, *op_def, &input_types));
  RETURN_IF_ERROR(CheckInputTypes(input_types));
  ASSIGN_OR_RETURN(Node * node, graph->AddNode(std::move(def)));
  int dst_input = 0;
  for (const Arg& arg : args_) {
    for (const Output& o : arg.outputs) {
      graph->AddEdge(o.node(), o.index(), node, dst_input++);
    }
  }
  for (Node* c : control_inputs_) graph->AddControlEdge(c, node);
  if (!assigned_device_.empty()) node->set_assigned_device_name(assigned_device_);
  *created = node;
  return absl::OkStatus();
}

}  // namespace sluice
