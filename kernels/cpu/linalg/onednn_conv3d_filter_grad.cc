// OneDnnConv3DFilterGrad: primitive creation and the run; see onednn_conv3d_filter_grad.h.
#include "kernels/cpu/linalg/onednn_conv3d_filter_grad.h"

#include <unordered_map>
#include <utility>

#include "graph/core/errors.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_shape.h"

namespace sluice {

using dnnl::memory;

namespace {

// The cache key's layout (see the header).
constexpr int kDimFields = 6;
int64_t Field(const std::vector<int64_t>& key, int d, int field) {
  return key[3 + d * kDimFields + field];
}

}  // namespace

absl::Status OneDnnConv3DFilterGrad::Create(const std::vector<int64_t>& key, memory::data_type type,
                                            std::shared_ptr<const Primitive>* out) {
  auto p = std::make_shared<Primitive>();
  const int64_t batch = key[0], in_depth = key[1], out_depth = key[2];
  memory::dims in, window, out_size, strides, pad_l, pad_r, dilations;
  for (int d = 0; d < 3; ++d) {
    in.push_back(Field(key, d, 0));
    window.push_back(Field(key, d, 1));
    strides.push_back(Field(key, d, 2));
    pad_l.push_back(Field(key, d, 3));
    pad_r.push_back(Field(key, d, 4));
    out_size.push_back(Field(key, d, 5));
    dilations.push_back(0);  // oneDNN counts dilation from 0 (none)
  }
  RETURN_IF_ERROR(OneDnnCall("3-D convolution filter gradient creation", [&] {
    const memory::desc src({batch, in_depth, in[0], in[1], in[2]}, type, memory::format_tag::ndhwc);
    const memory::desc diff_dst({batch, out_depth, out_size[0], out_size[1], out_size[2]}, type,
                                memory::format_tag::ndhwc);
    const memory::dims weight_dims = {out_depth, in_depth, window[0], window[1], window[2]};
    const memory::desc weights(weight_dims, type, memory::format_tag::any);
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
    // TensorFlow's [planes, rows, cols, in, out] read as oneDNN's oidhw.
    const int64_t col_stride = in_depth * out_depth;
    const int64_t row_stride = window[2] * col_stride;
    const int64_t plane_stride = window[1] * row_stride;
    p->plain_weights =
        memory::desc(weight_dims, type, {1, out_depth, plane_stride, row_stride, col_stride});
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

absl::Status OneDnnConv3DFilterGrad::Run(OpKernelContext* ctx, const Conv3DSpatialDim dims[3],
                                         int64_t batch, int64_t in_depth, int64_t out_depth,
                                         memory::data_type type, const void* src,
                                         const void* diff_dst, void* filter_grad) {
  std::vector<int64_t> key = {batch, in_depth, out_depth};
  for (int d = 0; d < 3; ++d) {
    const Conv3DSpatialDim& dim = dims[d];
    key.insert(key.end(), {dim.in, dim.window, dim.stride, dim.pad, dim.pad_after, dim.out});
  }
  key.push_back(static_cast<int64_t>(type));
  std::shared_ptr<const Primitive> p;
  RETURN_IF_ERROR(cache_.Get(
      key, [&](std::shared_ptr<const Primitive>* made) { return Create(key, type, made); }, &p));
  Tensor scratch, reorder_scratch;
  std::unordered_map<int, memory> args, reorder_args;
  RETURN_IF_ERROR(AddScratchpad(ctx, p->pd, &scratch, &args));
  if (p->reorder) {
    RETURN_IF_ERROR(AddScratchpad(ctx, p->to_plain_pd, &reorder_scratch, &reorder_args));
  }
  // The primitive's own layout of the result, when it is not DHWIO.
  Tensor blocked;
  if (p->reorder) {
    // A size_t: checked, since one of 2**63 or more would turn negative as an int64.
    TensorShape shape;
    RETURN_IF_ERROR(TensorShape::BuildTensorShape(
        {static_cast<int64_t>(p->pd.diff_weights_desc().get_size())}, &shape));
    RETURN_IF_ERROR(ctx->allocate_temp(DT_UINT8, shape, &blocked));
  }
  return OneDnnCall("3-D convolution filter gradient", [&] {
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
