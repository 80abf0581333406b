// Winograd against oneDNN's direct convolution, per 3x3 stride-1 shape: the evidence for
// WinogradConv::TileSize's thresholds. For each shape (ResNet50's and InceptionV3's 3x3
// convolutions, and smaller ones around the thresholds) it times oneDNN's direct primitive
// (NHWC, the filter in the layout oneDNN picks, bias and ReLU as in Sluice's _FusedConv2D)
// and Winograd's F(2x2, 3x3) and F(4x4, 3x3) with the same epilogue, and prints a Markdown
// table: median times over --runs runs, speed-ups, the tile size TileSize picks, and each
// path's largest error against a double-precision sum on 2,000 sampled outputs.
//
//   bazel run -c opt //bench:winograd_conv_bench -- [--threads 1] [--batch 1] [--runs 20]
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "kernels/cpu/linalg/conv_params.h"
#include "kernels/cpu/linalg/winograd_conv.h"
#include "kernels/cpu/linalg/winograd_convolve.h"
#include "kernels/cpu/linalg/winograd_transforms.h"
#include "oneapi/dnnl/dnnl.hpp"

namespace sluice {
namespace {

using dnnl::memory;

struct Shape {
  const char* where;
  int64_t size, in_depth, out_depth;
};

const Shape kShapes[] = {
    {"ResNet50 conv2", 56, 64, 64},
    {"ResNet50 conv3", 28, 128, 128},
    {"ResNet50 conv4", 14, 256, 256},
    {"ResNet50 conv5", 7, 512, 512},
    {"InceptionV3 stem", 147, 32, 64},
    {"InceptionV3 mixed5", 35, 64, 96},
    {"InceptionV3 mixed5", 35, 96, 96},
    {"InceptionV3 mixed9", 8, 448, 384},
    {"small", 112, 16, 16},
    {"small", 56, 24, 32},
    {"small", 28, 32, 32},
    {"small", 4, 256, 256},
    {"small", 3, 512, 512},
};

double Now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

template <typename Fn>
double MedianMs(int runs, Fn&& fn) {
  fn();  // warm-up: primitive creation, caches
  std::vector<double> times;
  for (int i = 0; i < runs; ++i) {
    const double start = Now();
    fn();
    times.push_back((Now() - start) * 1e3);
  }
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

void Run(const Shape& s, int64_t batch, int threads, int runs) {
  const int64_t h = s.size, c = s.in_depth, k = s.out_depth;
  std::mt19937 gen(1);
  std::uniform_real_distribution<float> dist(-1, 1);
  std::vector<float> input(batch * h * h * c), filter(9 * c * k), bias(k);
  for (float& x : input) x = dist(gen);
  for (float& x : filter) x = dist(gen) / std::sqrt(9.0f * c);
  for (float& x : bias) x = 0.1f * dist(gen);
  std::vector<float> direct(batch * h * h * k), wino(direct.size());

  // oneDNN's direct convolution, SAME padding, as OneDnnConv sets it up.
  const dnnl::engine engine(dnnl::engine::kind::cpu, 0);
  dnnl::stream stream(engine);
  const memory::desc src({batch, c, h, h}, memory::data_type::f32, memory::format_tag::nhwc);
  const memory::desc dst({batch, k, h, h}, memory::data_type::f32, memory::format_tag::nhwc);
  const memory::desc any({k, c, 3, 3}, memory::data_type::f32, memory::format_tag::any);
  const memory::desc plain({k, c, 3, 3}, memory::data_type::f32, {1, k, 3 * c * k, c * k});
  const memory::desc bias_desc({k}, memory::data_type::f32, memory::format_tag::a);
  dnnl::post_ops ops;
  ops.append_eltwise(1.0f, dnnl::algorithm::eltwise_relu, 0.0f, 0.0f);
  dnnl::primitive_attr attr;
  attr.set_post_ops(ops);
  const dnnl::convolution_forward::primitive_desc pd(
      dnnl::convolution_forward::desc(dnnl::prop_kind::forward_inference,
                                      dnnl::algorithm::convolution_direct, src, any, bias_desc, dst,
                                      {1, 1}, {0, 0}, {1, 1}, {1, 1}),
      attr, engine);
  memory weights(pd.weights_desc(), engine);
  memory plain_weights(plain, engine, filter.data());
  dnnl::reorder(plain_weights, weights).execute(stream, plain_weights, weights);
  memory src_mem(src, engine, input.data()), dst_mem(dst, engine, direct.data());
  memory bias_mem(bias_desc, engine, bias.data());
  const dnnl::convolution_forward conv(pd);
  omp_set_num_threads(threads);
  const double direct_ms = MedianMs(runs, [&] {
    conv.execute(stream, {{DNNL_ARG_SRC, src_mem},
                          {DNNL_ARG_WEIGHTS, weights},
                          {DNNL_ARG_BIAS, bias_mem},
                          {DNNL_ARG_DST, dst_mem}});
    stream.wait();
  });

  // Exact outputs at sampled positions.
  std::mt19937 pick(3);
  struct Sample {
    int64_t index;
    double value;
  };
  std::vector<Sample> samples;
  for (int i = 0; i < 2000; ++i) {
    const int64_t n = pick() % batch, y = pick() % h, x = pick() % h, o = pick() % k;
    double acc = bias[o];
    for (int di = 0; di < 3; ++di) {
      for (int dj = 0; dj < 3; ++dj) {
        const int64_t yy = y + di - 1, xx = x + dj - 1;
        if (yy < 0 || yy >= h || xx < 0 || xx >= h) continue;
        for (int64_t ch = 0; ch < c; ++ch) {
          acc += double(input[((n * h + yy) * h + xx) * c + ch]) *
                 filter[((di * 3 + dj) * c + ch) * k + o];
        }
      }
    }
    samples.push_back({((n * h + y) * h + x) * k + o, std::max(acc, 0.0)});
  }
  const auto max_error = [&](const std::vector<float>& out) {
    double e = 0;
    for (const Sample& sm : samples) e = std::max(e, std::fabs(out[sm.index] - sm.value));
    return e;
  };

  double wino_ms[2], wino_error[2];
  for (int m : {2, 4}) {
    winograd::TileGeometry geo;
    geo.m = m;
    geo.batch = batch;
    geo.in_rows = geo.in_cols = geo.out_rows = geo.out_cols = h;
    geo.in_depth = c;
    geo.out_depth = k;
    geo.pad_top = geo.pad_left = 1;
    std::vector<float> u((m + 2) * (m + 2) * c * k);
    winograd::TransformFilter(m, filter.data(), c, k, k, u.data());
    std::vector<float> scratch(winograd::ScratchFloats(geo, threads));
    winograd::OutputEpilogue epilogue;
    epilogue.bias = bias.data();
    epilogue.activation = winograd::Activation::kRelu;
    wino_ms[m / 4] = MedianMs(runs, [&] {
      const absl::Status status = winograd::Convolve(geo, u.data(), k, input.data(), epilogue,
                                                     threads, scratch.data(), wino.data());
      if (!status.ok()) std::fprintf(stderr, "%s\n", status.ToString().c_str());
    });
    wino_error[m / 4] = max_error(wino);
  }

  ConvGeometry conv_geo;
  conv_geo.batch = batch;
  conv_geo.in_rows = conv_geo.in_cols = conv_geo.out_rows = conv_geo.out_cols = h;
  conv_geo.in_depth = c;
  conv_geo.out_depth = k;
  conv_geo.filter_rows = conv_geo.filter_cols = 3;
  conv_geo.pad_top = conv_geo.pad_bottom = conv_geo.pad_left = conv_geo.pad_right = 1;
  const int chosen = WinogradConv::TileSize(conv_geo);
  std::printf(
      "| %s | %lldx%lldx%lldx%lld -> %lld | %.3f | %.3f (%.2fx) | %.3f (%.2fx) | %s | %.1e | "
      "%.1e | %.1e |\n",
      s.where, static_cast<long long>(batch), static_cast<long long>(h), static_cast<long long>(h),
      static_cast<long long>(c), static_cast<long long>(k), direct_ms, wino_ms[0],
      direct_ms / wino_ms[0], wino_ms[1], direct_ms / wino_ms[1],
      chosen == 0 ? "direct" : (chosen == 2 ? "F(2x2)" : "F(4x4)"), max_error(direct),
      wino_error[0], wino_error[1]);
  std::fflush(stdout);
}

}  // namespace
}  // namespace sluice

int main(int argc, char** argv) {
  int threads = 1, runs = 20;
  int64_t batch = 1;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (std::strcmp(argv[i], "--threads") == 0) threads = std::atoi(argv[i + 1]);
    if (std::strcmp(argv[i], "--batch") == 0) batch = std::atoll(argv[i + 1]);
    if (std::strcmp(argv[i], "--runs") == 0) runs = std::atoi(argv[i + 1]);
  }
  std::printf(
      "threads %d, batch %lld, median of %d runs; errors: largest |output - exact| on "
      "2,000 samples (outputs of magnitude about 1)\n\n",
      threads, static_cast<long long>(batch), runs);
  std::printf(
      "| shape | N x H x W x C -> K | direct ms | F(2x2) ms | F(4x4) ms | TileSize picks | "
      "direct error | F(2x2) error | F(4x4) error |\n");
  std::printf("|---|---|---|---|---|---|---|---|---|\n");
  for (const sluice::Shape& s : sluice::kShapes) sluice::Run(s, batch, threads, runs);
  return 0;
}
