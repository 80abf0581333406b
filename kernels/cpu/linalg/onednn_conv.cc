// OneDnnConv: primitive creation, weight reordering and the cached run.
#include "kernels/cpu/linalg/onednn_conv.h"

#include <unordered_map>
#include <utility>

#include "absl/base/casts.h"
#include "graph/core/errors.h"
#include "kernels/cpu/linalg/onednn_util.h"

namespace sluice {

using dnnl::memory;

struct OneDnnConv::Primitive {
  dnnl::primitive primitive;
  memory::desc src, dst, scratchpad, bias;
  memory::desc plain_weights;  // TensorFlow's HWIO filter, through strides
  memory::desc weights;        // the layout the primitive wants
};

struct OneDnnConv::Weights {
  Tensor filter;             // keeps the source buffer alive, so its address identifies it
  uint64_t fingerprint = 0;  // of the filter's contents; 0 for a read-only filter
  memory reordered;
};

memory::desc ActivationDesc(const ConvGeometry& geo, int64_t depth, int64_t rows, int64_t cols,
                            memory::data_type type) {
  return memory::desc(
      {geo.batch, depth, rows, cols}, type,
      geo.data_format == FORMAT_NHWC ? memory::format_tag::nhwc : memory::format_tag::nchw);
}

// The filter [rows, cols, in/groups, out] as oneDNN's (g)oihw dims with strides.
memory::desc PlainWeightsDesc(const ConvGeometry& geo, memory::data_type type) {
  const int64_t in_g = geo.in_depth / geo.groups;
  const int64_t out_g = geo.out_depth / geo.groups;
  const int64_t out = geo.out_depth;
  const int64_t col_stride = in_g * out;
  const int64_t row_stride = geo.filter_cols * col_stride;
  if (geo.groups == 1) {
    return memory::desc({out, in_g, geo.filter_rows, geo.filter_cols}, type,
                        {1, out, row_stride, col_stride});
  }
  return memory::desc({geo.groups, out_g, in_g, geo.filter_rows, geo.filter_cols}, type,
                      {out_g, 1, out, row_stride, col_stride});
}

memory::desc AnyWeightsDesc(const ConvGeometry& geo, memory::data_type type) {
  const int64_t in_g = geo.in_depth / geo.groups;
  const int64_t out_g = geo.out_depth / geo.groups;
  if (geo.groups == 1) {
    return memory::desc({geo.out_depth, in_g, geo.filter_rows, geo.filter_cols}, type,
                        memory::format_tag::any);
  }
  return memory::desc({geo.groups, out_g, in_g, geo.filter_rows, geo.filter_cols}, type,
                      memory::format_tag::any);
}

absl::Status OneDnnConv::CreatePrimitive(const ConvGeometry& geo, memory::data_type type,
                                         const ConvEpilogue& epilogue,
                                         std::shared_ptr<const Primitive>* primitive) const {
  auto p = std::make_shared<Primitive>();
  RETURN_IF_ERROR(OneDnnCall("convolution creation", [&] {
    const memory::desc input = ActivationDesc(geo, geo.in_depth, geo.in_rows, geo.in_cols, type);
    const memory::desc output =
        ActivationDesc(geo, geo.out_depth, geo.out_rows, geo.out_cols, type);
    const memory::desc weights = AnyWeightsDesc(geo, type);
    const memory::dims strides = {geo.stride_rows, geo.stride_cols};
    // oneDNN counts dilation from 0 (no dilation), TensorFlow from 1.
    const memory::dims dilations = {geo.dilation_rows - 1, geo.dilation_cols - 1};
    const memory::dims pad_l = {geo.pad_top, geo.pad_left};
    const memory::dims pad_r = {geo.pad_bottom, geo.pad_right};
    dnnl::primitive_attr attr = ScratchpadAttr();
    const dnnl::algorithm algo = dnnl::algorithm::convolution_direct;
    if (direction_ == Direction::kForward) {
      dnnl::post_ops ops;
      if (epilogue.sum) ops.append_sum(1.0f);
      if (epilogue.activation != dnnl::algorithm::undef) {
        ops.append_eltwise(1.0f, epilogue.activation, epilogue.alpha, epilogue.beta);
      }
      attr.set_post_ops(ops);
      const auto prop = dnnl::prop_kind::forward_inference;
      const dnnl::convolution_forward::desc desc =
          epilogue.bias == nullptr
              ? dnnl::convolution_forward::desc(prop, algo, input, weights, output, strides,
                                                dilations, pad_l, pad_r)
              : dnnl::convolution_forward::desc(
                    prop, algo, input, weights,
                    memory::desc({geo.out_depth}, type, memory::format_tag::a), output, strides,
                    dilations, pad_l, pad_r);
      const dnnl::convolution_forward::primitive_desc pd(desc, attr, OneDnnEngine());
      p->bias = pd.bias_desc();
      p->primitive = dnnl::convolution_forward(pd);
      p->src = pd.src_desc();
      p->dst = pd.dst_desc();
      p->weights = pd.weights_desc();
      p->scratchpad = pd.scratchpad_desc();
    } else {
      // The backward primitive is chosen to match a forward one (oneDNN's hint).
      const dnnl::convolution_forward::primitive_desc hint(
          dnnl::convolution_forward::desc(dnnl::prop_kind::forward_training, algo, input, weights,
                                          output, strides, dilations, pad_l, pad_r),
          OneDnnEngine());
      const dnnl::convolution_backward_data::primitive_desc pd(
          dnnl::convolution_backward_data::desc(algo, input, weights, output, strides, dilations,
                                                pad_l, pad_r),
          attr, OneDnnEngine(), hint);
      p->primitive = dnnl::convolution_backward_data(pd);
      p->src = pd.diff_dst_desc();
      p->dst = pd.diff_src_desc();
      p->weights = pd.weights_desc();
      p->scratchpad = pd.scratchpad_desc();
    }
    p->plain_weights = PlainWeightsDesc(geo, type);
  }));
  *primitive = std::move(p);
  return absl::OkStatus();
}

absl::Status OneDnnConv::ReorderWeights(const Primitive& primitive, const Tensor& filter,
                                        std::shared_ptr<const Weights>* weights) const {
  auto w = std::make_shared<Weights>();
  w->filter = filter;
  w->fingerprint = filter.IsReadOnly() ? 0 : TensorFingerprint(filter);
  RETURN_IF_ERROR(OneDnnCall("weight reorder", [&] {
    memory plain = WrapMemory(primitive.plain_weights, filter.raw_data());
    w->reordered = memory(primitive.weights, OneDnnEngine());
    dnnl::stream& stream = OneDnnStream();
    dnnl::reorder(plain, w->reordered).execute(stream, plain, w->reordered);
    stream.wait();
  }));
  *weights = std::move(w);
  return absl::OkStatus();
}

absl::Status OneDnnConv::Run(OpKernelContext* ctx, const ConvGeometry& geo, memory::data_type type,
                             const Tensor& filter, const void* src, void* dst,
                             const ConvEpilogue& epilogue) {
  std::vector<int64_t> key = geo.Key();
  key.push_back(static_cast<int64_t>(type));
  key.push_back(epilogue.bias != nullptr);
  key.push_back(epilogue.sum);
  key.push_back(static_cast<int64_t>(epilogue.activation));
  key.push_back(absl::bit_cast<int32_t>(epilogue.alpha));
  key.push_back(absl::bit_cast<int32_t>(epilogue.beta));
  key.push_back(OneDnnThreads());
  const bool caching = OneDnnCachingEnabled();
  Entry entry;
  if (caching) {
    absl::MutexLock lock(&mu_);
    auto it = cache_.find(key);
    if (it != cache_.end()) entry = it->second;
  }
  bool changed = false;
  if (entry.primitive == nullptr) {
    RETURN_IF_ERROR(CreatePrimitive(geo, type, epilogue, &entry.primitive));
    changed = true;
    // The same convolution for another team size usually wants the same weight layout:
    // share its reordered filter rather than hold a second copy.
    if (caching && entry.primitive->weights != entry.primitive->plain_weights) {
      absl::MutexLock lock(&mu_);
      for (const auto& [other_key, other] : cache_) {
        if (other.weights != nullptr && other.primitive->weights == entry.primitive->weights) {
          entry.weights = other.weights;
          break;
        }
      }
    }
  }
  const Primitive& p = *entry.primitive;
  const bool reorder = p.weights != p.plain_weights;
  if (reorder) {
    const Weights* w = entry.weights.get();
    // The same buffer keeps its read-only mark, so the mark needs no separate comparison.
    const bool valid = w != nullptr && w->filter.raw_data() == filter.raw_data() &&
                       w->filter.shape() == filter.shape() &&
                       (filter.IsReadOnly() || w->fingerprint == TensorFingerprint(filter));
    if (!valid) {
      RETURN_IF_ERROR(ReorderWeights(p, filter, &entry.weights));
      changed = true;
    }
  }
  if (caching && changed) {
    absl::MutexLock lock(&mu_);
    // Shapes that change every step would grow the cache without bound; start over.
    if (cache_.size() >= kMaxCachedShapes && !cache_.contains(key)) cache_.clear();
    cache_[key] = entry;
  }

  Tensor scratch;
  if (p.scratchpad.get_size() > 0) {
    // A size_t: checked, since one of 2**63 or more would turn negative as an int64.
    TensorShape scratch_shape;
    RETURN_IF_ERROR(TensorShape::BuildTensorShape({static_cast<int64_t>(p.scratchpad.get_size())},
                                                  &scratch_shape));
    RETURN_IF_ERROR(ctx->allocate_temp(DT_UINT8, scratch_shape, &scratch));
  }
  return OneDnnCall("convolution", [&] {
    const bool forward = direction_ == Direction::kForward;
    std::unordered_map<int, memory> args;
    args.emplace(forward ? DNNL_ARG_SRC : DNNL_ARG_DIFF_DST, WrapMemory(p.src, src));
    args.emplace(forward ? DNNL_ARG_DST : DNNL_ARG_DIFF_SRC, WrapMemory(p.dst, dst));
    args.emplace(DNNL_ARG_WEIGHTS, reorder ? entry.weights->reordered
                                           : WrapMemory(p.plain_weights, filter.raw_data()));
    args.emplace(DNNL_ARG_SCRATCHPAD, WrapMemory(p.scratchpad, scratch.raw_data()));
    if (epilogue.bias != nullptr) args.emplace(DNNL_ARG_BIAS, WrapMemory(p.bias, epilogue.bias));
    dnnl::stream& stream = OneDnnStream();
    p.primitive.execute(stream, args);
    stream.wait();
  });
}

}  // namespace sluice
