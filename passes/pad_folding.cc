// FoldPadIntoConvolutions: find each Pad → convolution pair, check the paddings, infer shapes
// once if a depthwise convolution needs them, then rewire and drop the Pad.
#include "passes/pad_folding.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "graph/core/tensor.h"
#include "graph/core/tensor_proto.h"
#include "graph/core/tensor_types.h"
#include "graph/core/types.h"
#include "graph/graph.h"
#include "graph/op/node_def_util.h"
#include "graph/shape/shape_inference.h"
#include "graph/shape_refiner.h"
#include "proto/attr_value.pb.h"

namespace sluice {
namespace {

using shape_inference::InferenceContext;

// Spatial paddings: {top, bottom, left, right}.
using SpatialPads = std::array<int64_t, 4>;

// One Pad to fold into its convolution.
struct Candidate {
  Node* pad = nullptr;
  Node* conv = nullptr;
  SpatialPads pads = {0, 0, 0, 0};
};

const Edge* DataInput(const Node* n, int index) {
  const Edge* e = nullptr;
  return n->input_edge(index, &e).ok() ? e : nullptr;
}

// The value of the Const feeding n's input `index`.
bool ConstInput(const Node* n, int index, Tensor* value) {
  const Edge* e = DataInput(n, index);
  if (e == nullptr || !e->src()->IsConstant()) return false;
  const auto it = e->src()->def().attr().find("value");
  return it != e->src()->def().attr().end() && TensorFromProto(it->second.tensor(), value).ok();
}

// Whether a PadV2 constant pads with zeros: a scalar whose bytes are all zero (0, or +0.0).
bool IsZeroScalar(const Tensor& t) {
  if (t.NumElements() != 1 || !DataTypeIsFloating(t.dtype())) return false;
  const char* bytes = static_cast<const char*>(t.raw_data());
  return std::all_of(bytes, bytes + t.TotalBytes(), [](char b) { return b == 0; });
}

// The spatial paddings of a [4, 2] paddings tensor when the batch and channel rows are zero
// and none is negative.
bool SpatialPaddings(const Tensor& paddings, bool nchw, SpatialPads* pads) {
  if (paddings.dims() != 2 || paddings.dim_size(0) != 4 || paddings.dim_size(1) != 2) {
    return false;
  }
  std::array<int64_t, 8> p;
  for (int i = 0; i < 8; ++i) {
    if (paddings.dtype() == DT_INT32) {
      p[i] = paddings.flat<int32_t>()(i);
    } else if (paddings.dtype() == DT_INT64) {
      p[i] = paddings.flat<int64_t>()(i);
    } else {
      return false;
    }
    if (p[i] < 0) return false;
  }
  const int batch = 0, channels = nchw ? 1 : 3, rows = nchw ? 2 : 1, cols = nchw ? 3 : 2;
  if (p[2 * batch] != 0 || p[2 * batch + 1] != 0 || p[2 * channels] != 0 ||
      p[2 * channels + 1] != 0) {
    return false;
  }
  *pads = {p[2 * rows], p[2 * rows + 1], p[2 * cols], p[2 * cols + 1]};
  return true;
}

// The paddings SAME gives one spatial dim: {before, after}.
std::array<int64_t, 2> SamePadding(int64_t in, int64_t filter, int64_t stride, int64_t dilation) {
  const int64_t effective = (filter - 1) * dilation + 1;
  const int64_t out = (in + stride - 1) / stride;
  const int64_t total = std::max<int64_t>((out - 1) * stride + effective - in, 0);
  return {total / 2, total - total / 2};
}

class PadFolder {
 public:
  PadFolder(const PadFoldingOptions& opts, Graph* g) : opts_(opts), g_(g) {}

  absl::Status Run(bool* changed) {
    *changed = false;
    std::vector<Candidate> candidates;
    bool need_shapes = false;
    for (Node* n : g_->op_nodes()) {
      Candidate c;
      if (!Match(n, &c)) continue;
      need_shapes = need_shapes || c.conv->type_string() == "DepthwiseConv2dNative";
      candidates.push_back(c);
    }
    if (need_shapes) InferShapes();
    for (const Candidate& c : candidates) {
      if (c.conv->type_string() == "Conv2D") {
        Fold(c, "EXPLICIT");
      } else if (SameIsEquivalent(c)) {
        Fold(c, "SAME");
      } else {
        continue;
      }
      *changed = true;
    }
    return absl::OkStatus();
  }

 private:
  bool Match(Node* p, Candidate* c) const {
    const bool v2 = p->type_string() == "PadV2";
    if ((p->type_string() != "Pad" && !v2) || opts_.protected_names.contains(p->name()) ||
        DataInput(p, 0) == nullptr) {
      return false;
    }
    Node* conv = nullptr;
    for (const Edge* e : p->out_edges()) {
      if (e->IsControlEdge() || e->src_output() != 0 || e->dst_input() != 0 || conv != nullptr) {
        return false;
      }
      conv = e->dst();
    }
    if (conv == nullptr || opts_.protected_names.contains(conv->name())) return false;
    const bool depthwise = conv->type_string() == "DepthwiseConv2dNative";
    if (conv->type_string() != "Conv2D" && !depthwise) return false;
    if (conv->assigned_device_name() != p->assigned_device_name() ||
        conv->requested_device() != p->requested_device()) {
      return false;
    }
    const std::string padding = GetNodeAttrOr<std::string>(conv->attrs(), "padding", "");
    if (padding != "VALID" && !(padding == "EXPLICIT" && !depthwise)) return false;
    const std::string format = GetNodeAttrOr<std::string>(conv->attrs(), "data_format", "NHWC");
    if (format != "NHWC" && format != "NCHW") return false;
    Tensor paddings, constant;
    if (!ConstInput(p, 1, &paddings)) return false;
    if (v2 && (!ConstInput(p, 2, &constant) || !IsZeroScalar(constant))) return false;
    c->pad = p;
    c->conv = conv;
    if (!SpatialPaddings(paddings, format == "NCHW", &c->pads)) return false;
    if (padding == "EXPLICIT") {
      const std::vector<int64_t> own =
          GetNodeAttrOr<std::vector<int64_t>>(conv->attrs(), "explicit_paddings", {});
      if (own.size() != 8) return false;
      const int rows = format == "NCHW" ? 2 : 1, cols = format == "NCHW" ? 3 : 2;
      c->pads[0] += own[2 * rows];
      c->pads[1] += own[2 * rows + 1];
      c->pads[2] += own[2 * cols];
      c->pads[3] += own[2 * cols + 1];
    }
    return true;
  }

  // Shapes of the graph as it is now (best effort); the depthwise checks read the Pad's
  // input and the filter, which folding other Pads does not change.
  void InferShapes() {
    shapes_ = std::make_unique<ShapeRefiner>(g_->op_registry());
    InferShapesBestEffort(*g_, shapes_.get());
  }

  // The known value of dim `d` of the shape of `e`'s source output, or -1.
  int64_t KnownDim(const Edge* e, int rank, int d) const {
    if (shapes_ == nullptr || e == nullptr) return -1;
    const InferenceContext* ctx = shapes_->GetContext(e->src());
    if (ctx == nullptr) return -1;
    const shape_inference::ShapeHandle s = ctx->output(e->src_output());
    if (!InferenceContext::RankKnown(s) || InferenceContext::Rank(s) != rank) return -1;
    const int64_t v = InferenceContext::Value(InferenceContext::DimKnownRank(s, d));
    return v == InferenceContext::kUnknownDim ? -1 : v;
  }

  bool SameIsEquivalent(const Candidate& c) const {
    const bool nchw = GetNodeAttrOr<std::string>(c.conv->attrs(), "data_format", "NHWC") == "NCHW";
    const int rows = nchw ? 2 : 1, cols = nchw ? 3 : 2;
    const std::vector<int64_t> strides =
        GetNodeAttrOr<std::vector<int64_t>>(c.conv->attrs(), "strides", {});
    std::vector<int64_t> dilations =
        GetNodeAttrOr<std::vector<int64_t>>(c.conv->attrs(), "dilations", {});
    if (dilations.empty()) dilations = {1, 1, 1, 1};
    if (strides.size() != 4 || dilations.size() != 4) return false;
    const Edge* x = DataInput(c.pad, 0);
    const Edge* filter = DataInput(c.conv, 1);
    const int64_t in_rows = KnownDim(x, 4, rows), in_cols = KnownDim(x, 4, cols);
    const int64_t filter_rows = KnownDim(filter, 4, 0), filter_cols = KnownDim(filter, 4, 1);
    if (in_rows < 0 || in_cols < 0 || filter_rows <= 0 || filter_cols <= 0) return false;
    if (strides[rows] <= 0 || strides[cols] <= 0 || dilations[rows] <= 0 || dilations[cols] <= 0) {
      return false;
    }
    const std::array<int64_t, 2> r =
        SamePadding(in_rows, filter_rows, strides[rows], dilations[rows]);
    const std::array<int64_t, 2> w =
        SamePadding(in_cols, filter_cols, strides[cols], dilations[cols]);
    return c.pads == SpatialPads{r[0], r[1], w[0], w[1]};
  }

  void Fold(const Candidate& c, const std::string& padding) {
    const bool nchw = GetNodeAttrOr<std::string>(c.conv->attrs(), "data_format", "NHWC") == "NCHW";
    if (padding == "EXPLICIT") {
      std::vector<int64_t> explicit_paddings(8, 0);
      const int rows = nchw ? 2 : 1, cols = nchw ? 3 : 2;
      explicit_paddings[2 * rows] = c.pads[0];
      explicit_paddings[2 * rows + 1] = c.pads[1];
      explicit_paddings[2 * cols] = c.pads[2];
      explicit_paddings[2 * cols + 1] = c.pads[3];
      c.conv->AddAttr("explicit_paddings", explicit_paddings);
    } else {
      c.conv->AddAttr("explicit_paddings", std::vector<int64_t>{});
    }
    c.conv->AddAttr("padding", padding);
    const Edge* x = DataInput(c.pad, 0);
    std::vector<Node*> operands;
    for (int i = 1; i < c.pad->num_inputs(); ++i) {
      const Edge* e = DataInput(c.pad, i);
      if (e != nullptr) operands.push_back(e->src());
    }
    std::vector<Node*> control_sources;
    for (const Edge* e : c.pad->in_edges()) {
      if (e->IsControlEdge()) control_sources.push_back(e->src());
    }
    // UpdateEdge rewires the conv's input 0 (and its NodeDef's input string).
    g_->UpdateEdge(x->src(), x->src_output(), c.conv, 0).IgnoreError();
    for (Node* src : control_sources) g_->AddControlEdge(src, c.conv);
    g_->RemoveNode(c.pad);
    for (Node* operand : operands) {
      if (operand->out_edges().empty() && operand->IsConstant() &&
          !opts_.protected_names.contains(operand->name())) {
        g_->RemoveNode(operand);
      }
    }
  }

  const PadFoldingOptions& opts_;
  Graph* g_;
  std::unique_ptr<ShapeRefiner> shapes_;
};

}  // namespace

absl::Status FoldPadIntoConvolutions(const PadFoldingOptions& opts, Graph* g, bool* changed) {
  return PadFolder(opts, g).Run(changed);
}

}  // namespace sluice
