// The CPU engine, per-thread streams, scratchpads and the weight fingerprint.
#include "kernels/cpu/linalg/onednn_util.h"

#include <omp.h>

#include <atomic>
#include <cstring>

#include "graph/core/tensor_shape.h"

namespace sluice {

int OneDnnThreads() { return omp_get_max_threads(); }
namespace {

std::atomic<bool> caching_enabled{true};

}  // namespace

const dnnl::engine& OneDnnEngine() {
  static const dnnl::engine* engine = new dnnl::engine(dnnl::engine::kind::cpu, 0);
  return *engine;
}

dnnl::stream& OneDnnStream() {
  thread_local dnnl::stream stream(OneDnnEngine());
  return stream;
}

dnnl::primitive_attr ScratchpadAttr() {
  dnnl::primitive_attr attr;
  attr.set_scratchpad_mode(dnnl::scratchpad_mode::user);
  return attr;
}

dnnl::memory::dims BatchedMatrixStrides(absl::Span<const int64_t> batch, int64_t rows, int64_t cols,
                                        bool transposed) {
  dnnl::memory::dims strides(batch.size() + 2);
  strides[batch.size()] = transposed ? 1 : cols;
  strides[batch.size() + 1] = transposed ? cols : 1;
  int64_t step = rows * cols;
  for (size_t i = batch.size(); i-- > 0;) {
    strides[i] = step;
    step *= batch[i];
  }
  return strides;
}

dnnl::matmul::primitive_desc BatchedMatMulDesc(
    dnnl::memory::data_type type, absl::Span<const int64_t> x_batch,
    absl::Span<const int64_t> y_batch, absl::Span<const int64_t> batch, int64_t m, int64_t k,
    int64_t n, const dnnl::memory::dims& x_strides, const dnnl::memory::dims& y_strides) {
  auto dims = [](absl::Span<const int64_t> lead, int64_t rows, int64_t cols) {
    dnnl::memory::dims d(lead.begin(), lead.end());
    d.push_back(rows);
    d.push_back(cols);
    return d;
  };
  const dnnl::memory::desc x_desc(dims(x_batch, m, k), type, x_strides);
  const dnnl::memory::desc y_desc(dims(y_batch, k, n), type, y_strides);
  const dnnl::memory::desc out_desc(dims(batch, m, n), type,
                                    BatchedMatrixStrides(batch, m, n, false));
  return dnnl::matmul::primitive_desc(dnnl::matmul::desc(x_desc, y_desc, out_desc),
                                      ScratchpadAttr(), OneDnnEngine());
}

absl::Status AddScratchpad(OpKernelContext* ctx, const dnnl::primitive_desc_base& pd,
                           Tensor* scratch, std::unordered_map<int, dnnl::memory>* args) {
  const dnnl::memory::desc desc = pd.scratchpad_desc();
  const int64_t bytes = static_cast<int64_t>(desc.get_size());
  void* data = nullptr;
  if (bytes > 0) {
    // shape-safe: one dim, checked > 0 just above
    RETURN_IF_ERROR(ctx->allocate_temp(DT_UINT8, TensorShape({bytes}), scratch));
    data = scratch->raw_data();
  }
  args->emplace(DNNL_ARG_SCRATCHPAD, WrapMemory(desc, data));
  return absl::OkStatus();
}

absl::Status RunSrcDstPrimitive(OpKernelContext* ctx, absl::string_view what,
                                const dnnl::primitive& primitive,
                                const dnnl::primitive_desc_base& pd, const void* src, void* dst) {
  Tensor scratch;
  std::unordered_map<int, dnnl::memory> args;
  RETURN_IF_ERROR(AddScratchpad(ctx, pd, &scratch, &args));
  return OneDnnCall(what, [&] {
    args.emplace(DNNL_ARG_SRC, WrapMemory(pd.src_desc(), src));
    args.emplace(DNNL_ARG_DST, WrapMemory(pd.dst_desc(), dst));
    dnnl::stream& stream = OneDnnStream();
    primitive.execute(stream, args);
    stream.wait();
  });
}

uint64_t TensorFingerprint(const Tensor& t) {
  const absl::string_view bytes = t.tensor_data();
  const size_t words = bytes.size() / 8;
  // Four independent multiply-xor lanes keep the loop at memory speed; the position of each
  // word matters, so permuted weights give another fingerprint.
  uint64_t lane[4] = {0x9e3779b97f4a7c15ull, 0xc2b2ae3d27d4eb4full, 0x165667b19e3779f9ull,
                      0x27d4eb2f165667c5ull};
  constexpr uint64_t kMul = 0xff51afd7ed558ccdull;
  size_t i = 0;
  for (; i + 4 <= words; i += 4) {
    for (int l = 0; l < 4; ++l) {
      uint64_t w;
      std::memcpy(&w, bytes.data() + 8 * (i + l), 8);
      lane[l] = (lane[l] ^ w) * kMul;
    }
  }
  uint64_t h = lane[0] ^ (lane[1] << 1) ^ (lane[2] << 2) ^ (lane[3] << 3);
  for (size_t b = 8 * i; b < bytes.size(); ++b) {
    h = (h ^ static_cast<unsigned char>(bytes[b])) * kMul;
  }
  return h ^ (h >> 29) ^ bytes.size();
}

bool OneDnnCachingEnabled() { return caching_enabled.load(std::memory_order_relaxed); }

void SetOneDnnCachingEnabled(bool enabled) {
  caching_enabled.store(enabled, std::memory_order_relaxed);
}

}  // namespace sluice
