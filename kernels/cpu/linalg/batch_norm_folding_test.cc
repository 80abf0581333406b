// BatchNormFolder: the folded values, and when a cached fold is reused.
#include "kernels/cpu/linalg/batch_norm_folding.h"

#include <memory>
#include <vector>

#include "graph/core/tensor.h"
#include "graph/core/tensor_types.h"
#include "graph/op/op_registry.h"
#include "gtest/gtest.h"
#include "runtime/framework/create_op_kernel.h"
#include "runtime/framework/op_kernel_test_util.h"

namespace sluice {
namespace {

// The folder allocates through a kernel's context: a do-nothing kernel provides one.
class FoldingTestOp : public OpKernel {
 public:
  using OpKernel::OpKernel;
  void Compute(OpKernelContext*) override {}
};
REGISTER_OP("FoldingTestOp");
REGISTER_KERNEL_BUILDER(Name("FoldingTestOp").Device(DEVICE_CPU), FoldingTestOp);

class KernelContext {
 public:
  KernelContext() {
    const absl::Status status =
        CreateOpKernel(DEVICE_CPU, &device_, device_.GetAllocator(),
                       test::MakeNodeDef("fold", "FoldingTestOp"), &kernel_);
    EXPECT_TRUE(status.ok()) << status;
    invocation_ =
        std::make_unique<test::TestInvocation>(kernel_.get(), &device_, std::vector<Tensor>{});
  }
  OpKernelContext* get() { return invocation_->context(); }

 private:
  test::CpuTestDevice device_;
  std::unique_ptr<OpKernel> kernel_;
  std::unique_ptr<test::TestInvocation> invocation_;
};

Tensor Floats(const TensorShape& shape, const std::vector<float>& values) {
  Tensor t(DT_FLOAT, shape);
  for (int64_t i = 0; i < t.NumElements(); ++i) t.flat<float>()(i) = values[i];
  return t;
}

struct Sources {
  // A 1x1 filter with two input and two output channels (HWIO: output channel innermost).
  Tensor filter = Floats(TensorShape({1, 1, 2, 2}), {1, 2, 3, 4});
  Tensor scale = Floats(TensorShape({2}), {3, 6});
  Tensor offset = Floats(TensorShape({2}), {1, -1});
  Tensor mean = Floats(TensorShape({2}), {0.5f, 2});
  Tensor variance = Floats(TensorShape({2}), {3, 8});

  KernelContext ctx;

  void Fold(BatchNormFolder* folder, Tensor* filter_out, Tensor* bias_out) {
    const absl::Status status = folder->Fold(ctx.get(), filter, scale, offset, mean, variance,
                                             /*epsilon=*/1.0f, filter_out, bias_out);
    ASSERT_TRUE(status.ok()) << status;
  }
};

TEST(BatchNormFolderTest, FoldsScaleIntoFilterAndShiftIntoBias) {
  Sources src;
  BatchNormFolder folder;
  Tensor w, b;
  src.Fold(&folder, &w, &b);
  // s = scale / sqrt(variance + epsilon) = {3 / 2, 6 / 3}.
  const float s0 = 1.5f, s1 = 2.0f;
  EXPECT_FLOAT_EQ(w.flat<float>()(0), 1 * s0);
  EXPECT_FLOAT_EQ(w.flat<float>()(1), 2 * s1);
  EXPECT_FLOAT_EQ(w.flat<float>()(2), 3 * s0);
  EXPECT_FLOAT_EQ(w.flat<float>()(3), 4 * s1);
  EXPECT_FLOAT_EQ(b.flat<float>()(0), 1 - 0.5f * s0);
  EXPECT_FLOAT_EQ(b.flat<float>()(1), -1 - 2 * s1);
  EXPECT_TRUE(w.IsReadOnly());
  EXPECT_TRUE(b.IsReadOnly());
}

// Writable sources are fingerprinted: new values in the same buffers give a new fold.
TEST(BatchNormFolderTest, WritableSourcesChangedInPlaceAreFoldedAgain) {
  Sources src;
  BatchNormFolder folder;
  Tensor w1, b1, w2, b2;
  src.Fold(&folder, &w1, &b1);
  src.Fold(&folder, &w2, &b2);
  EXPECT_TRUE(w2.SharesBufferWith(w1));  // unchanged: the cached fold

  src.scale.flat<float>()(0) = 4;  // s0 = 4 / 2 = 2
  Tensor w3, b3;
  src.Fold(&folder, &w3, &b3);
  EXPECT_FALSE(w3.SharesBufferWith(w1));
  EXPECT_FLOAT_EQ(w3.flat<float>()(0), 2.0f);
  EXPECT_FLOAT_EQ(b3.flat<float>()(0), 1 - 0.5f * 2);
}

// Read-only sources (a Const's value) cannot change in place, so their contents are not read
// again: the same buffers reuse the fold, and other buffers still give a new one.
TEST(BatchNormFolderTest, ReadOnlySourcesAreNotReadAgain) {
  Sources src;
  for (Tensor* t : {&src.filter, &src.scale, &src.offset, &src.mean, &src.variance}) {
    t->MarkReadOnly();
  }
  BatchNormFolder folder;
  Tensor w1, b1;
  src.Fold(&folder, &w1, &b1);
  // Breaking the promise shows that the contents were not fingerprinted.
  src.filter.flat<float>()(0) = 100;
  Tensor w2, b2;
  src.Fold(&folder, &w2, &b2);
  EXPECT_TRUE(w2.SharesBufferWith(w1));
  EXPECT_FLOAT_EQ(w2.flat<float>()(0), 1 * 1.5f);

  src.filter = Floats(TensorShape({1, 1, 2, 2}), {5, 2, 3, 4});
  src.filter.MarkReadOnly();
  Tensor w3, b3;
  src.Fold(&folder, &w3, &b3);
  EXPECT_FALSE(w3.SharesBufferWith(w1));
  EXPECT_FLOAT_EQ(w3.flat<float>()(0), 5 * 1.5f);
}

}  // namespace
}  // namespace sluice
