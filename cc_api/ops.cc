#include "cc_api/ops.h"

#include <cstring>

#include "absl/hash/hash.h"
#include "absl/strings/str_cat.h"
#include "graph/core/tensor_proto.h"

namespace sluice {

Output Operation::input(int32_t i) const {
  const Edge* e = nullptr;
  if (!node_->input_edge(i, &e).ok()) return Output();
  return Output(e->src(), e->src_output());
}

Output Operation::output(int32_t i) const { return Output(node_, i); }

uint64_t Operation::hash(int32_t index) const {
  return absl::Hash<std::pair<const Node*, int32_t>>()({node_, index});
}

std::string Output::name() const { return absl::StrCat(node()->name(), ":", index_); }

Input::Initializer::Initializer(const std::initializer_list<Initializer>& v) {
  if (v.size() == 0) {
    tensor = Tensor(DT_FLOAT, TensorShape({0}));
    return;
  }
  const Initializer& first = *v.begin();
  for (const Initializer& e : v) {
    if (!e.status.ok()) {
      status = e.status;
      return;
    }
    if (e.tensor.dtype() != first.tensor.dtype()) {
      status =
          absl::InvalidArgumentError("Initializer list components should all have the same type");
      return;
    }
    if (!e.tensor.shape().IsSameSize(first.tensor.shape())) {
      status =
          absl::InvalidArgumentError("Initializer list components should all have the same shape");
      return;
    }
  }
  TensorShape shape({static_cast<int64_t>(v.size())});
  status = shape.AppendShapeWithStatus(first.tensor.shape());
  if (!status.ok()) return;
  absl::StatusOr<Tensor> t = Tensor::Allocate(DefaultCpuAllocator(), first.tensor.dtype(), shape);
  if (!t.ok()) {
    status = t.status();
    return;
  }
  tensor = *std::move(t);
  if (tensor.NumElements() == 0) return;
  if (tensor.dtype() == DT_STRING) {
    std::string* out = tensor.base<std::string>();
    for (const Initializer& e : v) {
      const std::string* in = e.tensor.base<std::string>();
      for (int64_t i = 0; i < e.tensor.NumElements(); ++i) *out++ = in[i];
    }
    return;
  }
  char* out = static_cast<char*>(tensor.raw_data());
  for (const Initializer& e : v) {
    absl::string_view bytes = e.tensor.tensor_data();
    std::memcpy(out, bytes.data(), bytes.size());
    out += bytes.size();
  }
}

TensorProto Input::Initializer::AsTensorProto() const {
  // As TensorFlow: typed fields for a single value (readable in a printed GraphDef), raw
  // content for more.
  TensorProto proto;
  if (tensor.NumElements() > 1) {
    TensorToProtoContent(tensor, &proto);
  } else {
    TensorToProtoField(tensor, &proto);
  }
  return proto;
}

Input::Input(const std::initializer_list<Initializer>& init) {
  Initializer value(init);
  status_ = value.status;
  tensor_ = value.tensor;
}

}  // namespace sluice
