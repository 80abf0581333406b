// OneDnnConvFilterGrad: primitive creation and the run; see onednn_conv_filter_grad.h.
#include "kernels/cpu/linalg/onednn_conv_filter_grad.h"

#include <unordered_map>
#include <utility>

#include "graph/core/errors.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_shape.h"
#include "kernels/cpu/linalg/onednn_conv.h"

namespace sluice {

using dnnl::memory;

absl::Status OneDnnConvFilterGrad::Create(const ConvGeometry& geo, memory::data_type type,
                                          std::shared_ptr<const Primitive>* out) {
  auto p = std::make_shared<Primitive>();
  RETURN_IF_ERROR(OneDnnCall("convolution filter gradient creation", [&] {
    const memory::desc src = ActivationDesc(geo, geo.in_depth, geo.in_rows, geo.in_cols, type);
    const memory::desc diff_dst =
        ActivationDesc(geo, geo.out_depth, geo.out_rows, geo.out_cols, type);
    const memory::desc weights = AnyWeightsDesc(geo, type);
    const memory::dims strides = {geo.stride_rows, geo.stride_cols};
    // oneDNN counts dilation from 0 (no dilation), TensorFlow from 1.
    const memory::dims dilations = {geo.dilation_rows - 1, geo.dilation_cols - 1};
    const memory::dims pad_l = {geo.pad_top, geo.pad_left};
    const memory::dims pad_r = {geo.pad_bottom, geo.pad_right};
    const dnnl::algorithm algo = dnnl::algorithm::convolution_direct;
    // The backward primitive is chosen to match a forward one (oneDNN's hint).
    const dnnl::convolution_forward::primitive_desc hint(
        dnnl::convolution_forward::desc(dnnl::prop_kind::forward_training, algo, src, weights,
                                        diff_dst, strides, dilations, pad_l, pad_r),
        OneDnnEngine());
    p->pd = dnnl::convolution_backward_weights::primitive_desc(
        dnnl::convolution_backward_weights::desc(algo, src, weights, diff_dst, strides, dilations,
                                                 pad_l, pad_r),
        ScratchpadAttr(), OneDnnEngine(), hint);
    p->primitive = dnnl::convolution_backward_weights(p->pd);
    p->plain_weights = PlainWeightsDesc(geo, type);
    p->reorder = p->pd.diff_weights_desc() != p->plain_weights;
    if (p->reorder) {
      p->to_plain_pd =
          dnnl::reorder::primitive_desc(OneDnnEngine(), p->pd.diff_weights_desc(), OneDnnEngine(),
                                        p->plain_weights, ScratchpadAttr());
      p->to_plain = dnnl::reorder(p->to_plain_pd);
    }
  }));
  *out = std::move(p);
  return absl::OkStatus();
}

absl::Status OneDnnConvFilterGrad::Run(OpKernelContext* ctx, const ConvGeometry& geo,
                                       memory::data_type type, const void* src,
                                       const void* diff_dst, void* filter_grad) {
  std::vector<int64_t> key = geo.Key();
  key.push_back(static_cast<int64_t>(type));
  std::shared_ptr<const Primitive> p;
  RETURN_IF_ERROR(cache_.Get(
      key, [&](std::shared_ptr<const Primitive>* made) { return Create(geo, type, made); }, &p));
  Tensor scratch, reorder_scratch;
  std::unordered_map<int, memory> args, reorder_args;
  RETURN_IF_ERROR(AddScratchpad(ctx, p->pd, &scratch, &args));
  if (p->reorder) {
    RETURN_IF_ERROR(AddScratchpad(ctx, p->to_plain_pd, &reorder_scratch, &reorder_args));
  }
  // The primitive's own layout of the result, when it is not HWIO.
  Tensor blocked;
  if (p->reorder) {
    // A size_t: checked, since one of 2**63 or more would turn negative as an int64.
    TensorShape shape;
    RETURN_IF_ERROR(TensorShape::BuildTensorShape(
        {static_cast<int64_t>(p->pd.diff_weights_desc().get_size())}, &shape));
    RETURN_IF_ERROR(ctx->allocate_temp(DT_UINT8, shape, &blocked));
  }
  return OneDnnCall("convolution filter gradient", [&] {
    const memory result = p->reorder ? WrapMemory(p->pd.diff_weights_desc(), blocked.raw_data())
                                     : WrapMemory(p->plain_weights, filter_grad);
    args.emplace(DNNL_ARG_SRC, WrapMemory(p->pd.src_desc(), src));
    args.emplace(DNNL_ARG_DIFF_DST, WrapMemory(p->pd.diff_dst_desc(), diff_dst));
    args.emplace(DNNL_ARG_DIFF_WEIGHTS, result);
    dnnl::stream& stream = OneDnnStream();
    p->primitive.execute(stream, args);
    if (p->reorder) {
      reorder_args.emplace(DNNL_ARG_FROM, result);
      reorder_args.emplace(DNNL_ARG_TO, WrapMemory(p->plain_weights, filter_grad));
      p->to_plain.execute(stream, reorder_args);
    }
    stream.wait();
  });
}

}  // namespace sluice
