// Conv2DBackpropFilter and the depthwise gradients: what the TensorFlow fixtures
// (tests/kernels/fixtures/nn_grad.pbtxt) cannot show. Shapes large enough to split over the
// pool, and the cases TensorFlow's CPU kernels do not compute (dilations in float64, half and
// the depthwise gradients, grouped float64 filters, NCHW with EXPLICIT padding), each checked
// against a direct sum in double; inputs TensorFlow's oneDNN kernels abort on; and the empty
// cases where TensorFlow returns uninitialised memory.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_types.h"
#include "graph/core/types.h"
#include "gtest/gtest.h"
#include "kernels/kernel_test_util.h"

namespace sluice {
namespace test {
namespace {

using ::testing::HasSubstr;

// One convolution, NHWC, its filter [kh, kw, c / groups, oc], with explicit pads.
struct Geo {
  int64_t n, h, w, c;
  int64_t kh, kw, oc, groups;
  int64_t sh, sw, dh, dw;
  int64_t pad_top, pad_bottom, pad_left, pad_right;
  int64_t oh() const { return (h + pad_top + pad_bottom - (kh - 1) * dh - 1) / sh + 1; }
  int64_t ow() const { return (w + pad_left + pad_right - (kw - 1) * dw - 1) / sw + 1; }
  int64_t in_g() const { return c / groups; }
};

// Calls fn(x_offset, filter_offset, dy_offset) for every product of the convolution (NHWC).
template <typename Fn>
void ForEachProduct(const Geo& g, Fn fn) {
  const int64_t oh = g.oh(), ow = g.ow(), in_g = g.in_g(), out_g = g.oc / g.groups;
  for (int64_t n = 0; n < g.n; ++n)
    for (int64_t y = 0; y < oh; ++y)
      for (int64_t x = 0; x < ow; ++x)
        for (int64_t o = 0; o < g.oc; ++o)
          for (int64_t i = 0; i < g.kh; ++i)
            for (int64_t j = 0; j < g.kw; ++j) {
              const int64_t ih = y * g.sh - g.pad_top + i * g.dh;
              const int64_t iw = x * g.sw - g.pad_left + j * g.dw;
              if (ih < 0 || ih >= g.h || iw < 0 || iw >= g.w) continue;
              for (int64_t ic = 0; ic < in_g; ++ic) {
                const int64_t c = (o / out_g) * in_g + ic;
                fn(((n * g.h + ih) * g.w + iw) * g.c + c, ((i * g.kw + j) * in_g + ic) * g.oc + o,
                   ((n * oh + y) * ow + x) * g.oc + o);
              }
            }
}

std::vector<double> FilterGradReference(const Geo& g, const std::vector<double>& x,
                                        const std::vector<double>& dy) {
  std::vector<double> out(g.kh * g.kw * g.in_g() * g.oc, 0.0);
  ForEachProduct(g, [&](int64_t xi, int64_t fi, int64_t di) { out[fi] += x[xi] * dy[di]; });
  return out;
}

std::vector<double> InputGradReference(const Geo& g, const std::vector<double>& f,
                                       const std::vector<double>& dy) {
  std::vector<double> out(g.n * g.h * g.w * g.c, 0.0);
  ForEachProduct(g, [&](int64_t xi, int64_t fi, int64_t di) { out[xi] += f[fi] * dy[di]; });
  return out;
}

std::vector<double> Random(int64_t n, uint32_t seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<double> dist(-1, 1);
  std::vector<double> v(n);
  for (double& x : v) x = dist(gen);
  return v;
}

// NHWC values in `format` (NCHW transposes).
std::vector<double> InFormat(const std::vector<double>& v, int64_t n, int64_t h, int64_t w,
                             int64_t c, const std::string& format) {
  if (format == "NHWC") return v;
  std::vector<double> out(v.size());
  for (int64_t b = 0; b < n; ++b)
    for (int64_t y = 0; y < h; ++y)
      for (int64_t x = 0; x < w; ++x)
        for (int64_t k = 0; k < c; ++k)
          out[((b * c + k) * h + y) * w + x] = v[((b * h + y) * w + x) * c + k];
  return out;
}

template <typename T>
Tensor Typed(const TensorShape& shape, const std::vector<double>& v) {
  Tensor t(DataTypeToEnum<T>::value, shape);
  for (int64_t i = 0; i < t.NumElements(); ++i) t.flat<T>()(i) = static_cast<T>(v[i]);
  return t;
}

Tensor OfType(DataType dtype, const TensorShape& shape, const std::vector<double>& v) {
  switch (dtype) {
    case DT_DOUBLE:
      return Typed<double>(shape, v);
    case DT_HALF:
      return Typed<half>(shape, v);
    case DT_BFLOAT16:
      return Typed<bfloat16>(shape, v);
    default:
      return Typed<float>(shape, v);
  }
}

std::vector<double> Doubles(const Tensor& t) {
  std::vector<double> v(t.NumElements());
  for (int64_t i = 0; i < t.NumElements(); ++i) {
    switch (t.dtype()) {
      case DT_DOUBLE:
        v[i] = t.flat<double>()(i);
        break;
      case DT_HALF:
        v[i] = static_cast<float>(t.flat<half>()(i));
        break;
      case DT_BFLOAT16:
        v[i] = static_cast<float>(t.flat<bfloat16>()(i));
        break;
      default:
        v[i] = t.flat<float>()(i);
    }
  }
  return v;
}

// Every element within tol * (1 + the largest magnitude of `want`).
void ExpectNear(const std::vector<double>& got, const std::vector<double>& want, double tol) {
  ASSERT_EQ(got.size(), want.size());
  double scale = 1;
  for (double v : want) scale = std::max(scale, std::fabs(v));
  for (size_t i = 0; i < got.size(); ++i) {
    ASSERT_NEAR(got[i], want[i], tol * scale) << "element " << i;
  }
}

class ConvGradTest : public KernelTest {
 protected:
  // Builds `op` for geometry g (EXPLICIT padding, NHWC attrs permuted for NCHW).
  absl::Status Init(const std::string& op, const Geo& g, DataType dtype,
                    const std::string& format = "NHWC") {
    const bool nhwc = format == "NHWC";
    const std::vector<int32_t> strides =
        nhwc ? std::vector<int32_t>{1, static_cast<int32_t>(g.sh), static_cast<int32_t>(g.sw), 1}
             : std::vector<int32_t>{1, 1, static_cast<int32_t>(g.sh), static_cast<int32_t>(g.sw)};
    const std::vector<int32_t> dilations =
        nhwc ? std::vector<int32_t>{1, static_cast<int32_t>(g.dh), static_cast<int32_t>(g.dw), 1}
             : std::vector<int32_t>{1, 1, static_cast<int32_t>(g.dh), static_cast<int32_t>(g.dw)};
    const std::vector<int64_t> spatial = {g.pad_top, g.pad_bottom, g.pad_left, g.pad_right};
    std::vector<int64_t> pads = {0, 0, 0, 0, 0, 0, 0, 0};
    std::copy(spatial.begin(), spatial.end(), pads.begin() + (nhwc ? 2 : 4));
    return InitOp(NodeDefBuilder("grad", op)
                      .Input("a")
                      .Input("b")
                      .Input("dy")
                      .Attr("T", dtype)
                      .Attr("strides", strides)
                      .Attr("dilations", dilations)
                      .Attr("padding", std::string("EXPLICIT"))
                      .Attr("explicit_paddings", pads)
                      .Attr("data_format", format)
                      .Build());
  }

  // The filter gradient of g by `op` (Conv2DBackpropFilter, or the depthwise one with
  // filter_sizes [kh, kw, c, oc / c]), as NHWC-independent HWIO doubles.
  std::vector<double> FilterGrad(const std::string& op, const Geo& g, DataType dtype,
                                 const std::vector<double>& x, const std::vector<double>& dy,
                                 const std::string& format = "NHWC") {
    EXPECT_TRUE(Init(op, g, dtype, format).ok());
    const bool nhwc = format == "NHWC";
    const int64_t oh = g.oh(), ow = g.ow();
    AddInput(OfType(dtype,
                    nhwc ? TensorShape({g.n, g.h, g.w, g.c}) : TensorShape({g.n, g.c, g.h, g.w}),
                    InFormat(x, g.n, g.h, g.w, g.c, format)));
    const bool depthwise = op == "DepthwiseConv2dNativeBackpropFilter";
    AddInputFromArray<int32_t>(TensorShape({4}),
                               {static_cast<int32_t>(g.kh), static_cast<int32_t>(g.kw),
                                static_cast<int32_t>(depthwise ? g.c : g.in_g()),
                                static_cast<int32_t>(depthwise ? g.oc / g.c : g.oc)});
    AddInput(OfType(dtype,
                    nhwc ? TensorShape({g.n, oh, ow, g.oc}) : TensorShape({g.n, g.oc, oh, ow}),
                    InFormat(dy, g.n, oh, ow, g.oc, format)));
    const absl::Status status = RunOpKernel();
    EXPECT_TRUE(status.ok()) << status;
    return status.ok() ? Doubles(*GetOutput(0)) : std::vector<double>();
  }

  // The input gradient of g by `op` (Conv2DBackpropInput, or the depthwise one with the
  // filter [kh, kw, c, oc / c]), NHWC.
  std::vector<double> InputGrad(const std::string& op, const Geo& g, DataType dtype,
                                const std::vector<double>& f, const std::vector<double>& dy) {
    EXPECT_TRUE(Init(op, g, dtype).ok());
    const bool depthwise = op == "DepthwiseConv2dNativeBackpropInput";
    AddInputFromArray<int32_t>(TensorShape({4}),
                               {static_cast<int32_t>(g.n), static_cast<int32_t>(g.h),
                                static_cast<int32_t>(g.w), static_cast<int32_t>(g.c)});
    AddInput(OfType(dtype,
                    depthwise ? TensorShape({g.kh, g.kw, g.c, g.oc / g.c})
                              : TensorShape({g.kh, g.kw, g.in_g(), g.oc}),
                    f));
    AddInput(OfType(dtype, TensorShape({g.n, g.oh(), g.ow(), g.oc}), dy));
    const absl::Status status = RunOpKernel();
    EXPECT_TRUE(status.ok()) << status;
    return status.ok() ? Doubles(*GetOutput(0)) : std::vector<double>();
  }
};

TEST_F(ConvGradTest, LargeFilterGradientMatchesReference) {
  // Strided, padded on every side: thousands of products per filter element.
  const Geo g{4, 30, 27, 16, 3, 3, 24, 1, 2, 2, 1, 1, 1, 1, 0, 1};
  const std::vector<double> x = Random(g.n * g.h * g.w * g.c, 1);
  const std::vector<double> dy = Random(g.n * g.oh() * g.ow() * g.oc, 2);
  const std::vector<double> want = FilterGradReference(g, x, dy);
  ExpectNear(FilterGrad("Conv2DBackpropFilter", g, DT_FLOAT, x, dy), want, 1e-5);
  ExpectNear(FilterGrad("Conv2DBackpropFilter", g, DT_DOUBLE, x, dy), want, 1e-12);
}

TEST_F(ConvGradTest, DilatedGroupedFilterGradientInEveryDtype) {
  // TensorFlow computes neither dilations nor groups in float64 and float16.
  const Geo g{2, 11, 9, 6, 3, 2, 4, 2, 1, 2, 2, 3, 2, 1, 0, 2};
  const std::vector<double> x = Random(g.n * g.h * g.w * g.c, 3);
  const std::vector<double> dy = Random(g.n * g.oh() * g.ow() * g.oc, 4);
  const std::vector<double> want = FilterGradReference(g, x, dy);
  ExpectNear(FilterGrad("Conv2DBackpropFilter", g, DT_DOUBLE, x, dy), want, 1e-12);
  ExpectNear(FilterGrad("Conv2DBackpropFilter", g, DT_FLOAT, x, dy), want, 1e-5);
  // Inputs rounded to half and bfloat16 first, so the reference rounds them too.
  std::vector<double> x_h = Doubles(OfType(DT_HALF, TensorShape({int64_t(x.size())}), x));
  std::vector<double> dy_h = Doubles(OfType(DT_HALF, TensorShape({int64_t(dy.size())}), dy));
  ExpectNear(FilterGrad("Conv2DBackpropFilter", g, DT_HALF, x_h, dy_h),
             FilterGradReference(g, x_h, dy_h), 2e-3);
  std::vector<double> x_b = Doubles(OfType(DT_BFLOAT16, TensorShape({int64_t(x.size())}), x));
  std::vector<double> dy_b = Doubles(OfType(DT_BFLOAT16, TensorShape({int64_t(dy.size())}), dy));
  ExpectNear(FilterGrad("Conv2DBackpropFilter", g, DT_BFLOAT16, x_b, dy_b),
             FilterGradReference(g, x_b, dy_b), 1e-2);
}

TEST_F(ConvGradTest, NchwWithExplicitPaddingMatchesReference) {
  const Geo g{2, 8, 7, 3, 3, 2, 5, 1, 2, 1, 1, 1, 2, 0, 1, 1};
  const std::vector<double> x = Random(g.n * g.h * g.w * g.c, 5);
  const std::vector<double> dy = Random(g.n * g.oh() * g.ow() * g.oc, 6);
  ExpectNear(FilterGrad("Conv2DBackpropFilter", g, DT_FLOAT, x, dy, "NCHW"),
             FilterGradReference(g, x, dy), 1e-5);
}

TEST_F(ConvGradTest, DilatedDepthwiseGradientsMatchReference) {
  // A depthwise convolution of 4 channels times 3 is the grouped one with 4 groups.
  const Geo g{2, 12, 11, 4, 3, 3, 12, 4, 1, 2, 2, 2, 2, 2, 1, 3};
  const std::vector<double> x = Random(g.n * g.h * g.w * g.c, 7);
  const std::vector<double> f = Random(g.kh * g.kw * g.oc, 8);
  const std::vector<double> dy = Random(g.n * g.oh() * g.ow() * g.oc, 9);
  const std::vector<double> want_f = FilterGradReference(g, x, dy);
  const std::vector<double> want_x = InputGradReference(g, f, dy);
  for (DataType dtype : {DT_FLOAT, DT_DOUBLE}) {
    const double tol = dtype == DT_FLOAT ? 1e-5 : 1e-12;
    ExpectNear(FilterGrad("DepthwiseConv2dNativeBackpropFilter", g, dtype, x, dy), want_f, tol);
    ExpectNear(InputGrad("DepthwiseConv2dNativeBackpropInput", g, dtype, f, dy), want_x, tol);
  }
}

TEST_F(ConvGradTest, LargeDepthwiseGradientsMatchReference) {
  const Geo g{4, 24, 24, 32, 3, 3, 32, 32, 1, 1, 1, 1, 1, 1, 1, 1};
  const std::vector<double> x = Random(g.n * g.h * g.w * g.c, 10);
  const std::vector<double> f = Random(g.kh * g.kw * g.oc, 11);
  const std::vector<double> dy = Random(g.n * g.oh() * g.ow() * g.oc, 12);
  ExpectNear(FilterGrad("DepthwiseConv2dNativeBackpropFilter", g, DT_FLOAT, x, dy),
             FilterGradReference(g, x, dy), 1e-5);
  ExpectNear(InputGrad("DepthwiseConv2dNativeBackpropInput", g, DT_DOUBLE, f, dy),
             InputGradReference(g, f, dy), 1e-12);
}

TEST_F(ConvGradTest, EmptyOperandsGiveZeros) {
  // TensorFlow's float64 kernels return uninitialised memory for these.
  const Geo g{2, 5, 5, 3, 3, 3, 0, 3, 1, 1, 1, 1, 0, 0, 0, 0};
  EXPECT_THAT(InputGrad("DepthwiseConv2dNativeBackpropInput", g, DT_DOUBLE, {}, {}),
              ::testing::Each(0.0));
  const Geo empty_batch{0, 5, 5, 3, 3, 3, 6, 3, 1, 1, 1, 1, 0, 0, 0, 0};
  EXPECT_THAT(FilterGrad("DepthwiseConv2dNativeBackpropFilter", empty_batch, DT_DOUBLE, {}, {}),
              ::testing::Each(0.0));
  const Geo no_rows{2, 0, 5, 3, 3, 3, 4, 1, 1, 1, 1, 1, 1, 1, 1, 1};
  const std::vector<double> grad = FilterGrad("Conv2DBackpropFilter", no_rows, DT_DOUBLE, {}, {});
  EXPECT_EQ(grad.size(), 3u * 3 * 3 * 4);
  EXPECT_THAT(grad, ::testing::Each(0.0));
}

TEST_F(ConvGradTest, BadInputsAreErrorsInEveryDtype) {
  // TensorFlow's oneDNN kernels abort on inputs of the wrong rank.
  const Geo g{2, 5, 5, 3, 3, 3, 4, 1, 1, 1, 1, 1, 0, 0, 0, 0};
  for (const char* op : {"Conv2DBackpropFilter", "DepthwiseConv2dNativeBackpropFilter"}) {
    ASSERT_TRUE(Init(op, g, DT_FLOAT).ok());
    AddInputFromArray<float>(TensorShape({5, 5, 3}), std::vector<float>(75));
    AddInputFromArray<int32_t>(TensorShape({4}), {3, 3, 3, 4});
    AddInputFromArray<float>(TensorShape({2, 3, 3, 4}), std::vector<float>(72));
    absl::Status status = RunOpKernel();
    EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument) << op;
    EXPECT_THAT(std::string(status.message()), HasSubstr("input must be 4-dimensional"));

    ASSERT_TRUE(Init(op, g, DT_FLOAT).ok());
    AddInputFromArray<float>(TensorShape({2, 5, 5, 3}), std::vector<float>(150));
    AddInputFromArray<int32_t>(TensorShape({5}), {3, 3, 3, 4, 1});
    AddInputFromArray<float>(TensorShape({2, 3, 3, 4}), std::vector<float>(72));
    status = RunOpKernel();
    EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument) << op;
    EXPECT_THAT(std::string(status.message()), HasSubstr("filter must be 4-dimensional"));
  }
  ASSERT_TRUE(Init("DepthwiseConv2dNativeBackpropInput", g, DT_FLOAT).ok());
  AddInputFromArray<int32_t>(TensorShape({3}), {2, 5, 5});
  AddInputFromArray<float>(TensorShape({3, 3, 3, 1}), std::vector<float>(27));
  AddInputFromArray<float>(TensorShape({2, 3, 3}), std::vector<float>(18));
  EXPECT_EQ(RunOpKernel().code(), absl::StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace test
}  // namespace sluice
