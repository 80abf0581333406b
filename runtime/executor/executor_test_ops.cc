// Test-only ops and CPU kernels for the executor (see executor_test_ops.h).
#include "runtime/executor/executor_test_ops.h"

#include <functional>
#include <utility>

#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "graph/core/errors.h"
#include "graph/core/tensor_types.h"
#include "graph/op/op_registry.h"
#include "graph/shape/common_shape_fns.h"
#include "proto/device_attributes.pb.h"
#include "runtime/device/device.h"
#include "runtime/framework/call_frame.h"
#include "runtime/framework/cancellation.h"
#include "runtime/framework/op_kernel.h"
#include "unsupported/Eigen/CXX11/ThreadPool"

namespace sluice {
namespace test {

ExecutorTestCounters& Counters() {
  static ExecutorTestCounters* counters = new ExecutorTestCounters;
  return *counters;
}

SeenServices& Seen() {
  static SeenServices* seen = new SeenServices;
  return *seen;
}

namespace {

class ExecutorTestDevice : public Device {
 public:
  explicit ExecutorTestDevice(int threads_worth_running)
      : Device(Device::BuildDeviceAttributes("/job:localhost/replica:0/task:0/device:CPU:0", "CPU",
                                             0, DeviceLocality(), ""),
               DefaultCpuAllocator()),
        threads_worth_running_(threads_worth_running) {}
  int ThreadsWorthRunning() const override { return threads_worth_running_; }

 private:
  const int threads_worth_running_;
};

}  // namespace

std::unique_ptr<Device> NewExecutorTestDevice(int threads_worth_running) {
  return std::make_unique<ExecutorTestDevice>(threads_worth_running);
}

namespace {

using shape_inference::InferenceContext;

// Where asynchronous test kernels call back from; never destroyed, so no callback can
// outlive it.
Eigen::ThreadPool* CallbackPool() {
  static Eigen::ThreadPool* pool = new Eigen::ThreadPool(2);
  return pool;
}

float Scalar(const Tensor& t) { return t.flat<float>()(0); }

// Writes x + 1 into output 0, reusing x's buffer when no one else holds it.
void AddOneInto(OpKernelContext* ctx) {
  const Tensor& x = ctx->input(0);
  Tensor* y = nullptr;
  OP_REQUIRES_OK(ctx, ctx->forward_input_or_allocate_output({0}, 0, x.shape(), &y));
  auto in = x.flat<float>();
  auto out = y->flat<float>();
  for (int64_t i = 0; i < out.size(); ++i) out(i) = in(i) + 1.0f;
}

class CheapKernel : public OpKernel {
 public:
  using OpKernel::OpKernel;
  bool IsExpensive() override { return false; }
};

REGISTER_OP("ExecTestConst")
    .Output("y: float")
    .Attr("value: float")
    .SetShapeFn(shape_inference::ScalarShape);
class ConstOp : public CheapKernel {
 public:
  explicit ConstOp(OpKernelConstruction* ctx) : CheapKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("value", &value_));
  }
  void Compute(OpKernelContext* ctx) override {
    Tensor* y = nullptr;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, TensorShape({}), &y));
    y->flat<float>()(0) = value_;
  }

 private:
  float value_ = 0;
};
REGISTER_KERNEL_BUILDER(Name("ExecTestConst").Device(DEVICE_CPU), ConstOp);

REGISTER_OP("ExecTestFixed")
    .Output("y: float")
    .Attr("value: float")
    .SetShapeFn(shape_inference::ScalarShape);
class FixedOp : public CheapKernel {
 public:
  explicit FixedOp(OpKernelConstruction* ctx) : CheapKernel(ctx), value_(0.0f) {
    float value = 0;
    OP_REQUIRES_OK(ctx, ctx->GetAttr("value", &value));
    value_.flat<float>()(0) = value;
  }
  void Compute(OpKernelContext* ctx) override {
    ++Counters().fixed_runs;
    ctx->set_output(0, value_);
  }
  const Tensor* const_tensor() const override { return &value_; }

 private:
  Tensor value_;
};
REGISTER_KERNEL_BUILDER(Name("ExecTestFixed").Device(DEVICE_CPU), FixedOp);

REGISTER_OP("ExecTestAddOne")
    .Input("x: float")
    .Output("y: float")
    .SetShapeFn(shape_inference::UnchangedShape);
class AddOneOp : public CheapKernel {
 public:
  explicit AddOneOp(OpKernelConstruction* ctx) : CheapKernel(ctx) { ++Counters().add_one_built; }
  void Compute(OpKernelContext* ctx) override {
    ++Counters().add_one_runs;
    AddOneInto(ctx);
  }
};
REGISTER_KERNEL_BUILDER(Name("ExecTestAddOne").Device(DEVICE_CPU), AddOneOp);

REGISTER_OP("ExecTestSlowAddOne")
    .Input("x: float")
    .Output("y: float")
    .SetShapeFn(shape_inference::UnchangedShape);
class SlowAddOneOp : public OpKernel {  // expensive: the default for CPU kernels
 public:
  using OpKernel::OpKernel;
  void Compute(OpKernelContext* ctx) override {
    const int sleep_us = Counters().slow_add_one_sleep_us.load();
    if (sleep_us > 0) absl::SleepFor(absl::Microseconds(sleep_us));
    AddOneInto(ctx);
  }
};
REGISTER_KERNEL_BUILDER(Name("ExecTestSlowAddOne").Device(DEVICE_CPU), SlowAddOneOp);

REGISTER_OP("ExecTestAdd")
    .Input("x: float")
    .Input("y: float")
    .Output("z: float")
    .SetShapeFn(shape_inference::UnchangedShape);
class AddOp : public CheapKernel {
 public:
  using CheapKernel::CheapKernel;
  void Compute(OpKernelContext* ctx) override {
    Tensor* z = nullptr;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, TensorShape({}), &z));
    z->flat<float>()(0) = Scalar(ctx->input(0)) + Scalar(ctx->input(1));
  }
};
REGISTER_KERNEL_BUILDER(Name("ExecTestAdd").Device(DEVICE_CPU), AddOp);

REGISTER_OP("ExecTestSum")
    .Input("x: N * float")
    .Output("y: float")
    .Attr("N: int >= 1")
    .SetShapeFn(shape_inference::ScalarShape);
class SumOp : public CheapKernel {
 public:
  using CheapKernel::CheapKernel;
  void Compute(OpKernelContext* ctx) override {
    float sum = 0;
    for (int i = 0; i < ctx->num_inputs(); ++i) sum += Scalar(ctx->input(i));
    Tensor* y = nullptr;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, TensorShape({}), &y));
    y->flat<float>()(0) = sum;
  }
};
REGISTER_KERNEL_BUILDER(Name("ExecTestSum").Device(DEVICE_CPU), SumOp);

REGISTER_OP("ExecTestFail")
    .Input("x: float")
    .Output("y: float")
    .Attr("step: int = -1")
    .SetShapeFn(shape_inference::UnchangedShape);
class FailOp : public CheapKernel {
 public:
  explicit FailOp(OpKernelConstruction* ctx) : CheapKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("step", &step_));
  }
  void Compute(OpKernelContext* ctx) override {
    OP_REQUIRES(ctx, step_ >= 0 && step_ != ctx->step_id(),
                errors::InvalidArgument("ExecTestFail saw ", Scalar(ctx->input(0))));
    ctx->set_output(0, ctx->input(0));
  }

 private:
  int64_t step_ = -1;
};
REGISTER_KERNEL_BUILDER(Name("ExecTestFail").Device(DEVICE_CPU), FailOp);

REGISTER_OP("ExecTestAsyncAddOne")
    .Input("x: float")
    .Output("y: float")
    .Attr("inline: bool = false")
    .SetShapeFn(shape_inference::UnchangedShape);
class AsyncAddOneOp : public AsyncOpKernel {
 public:
  explicit AsyncAddOneOp(OpKernelConstruction* ctx) : AsyncOpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("inline", &inline_));
  }
  void ComputeAsync(OpKernelContext* ctx, DoneCallback done) override {
    if (inline_) {
      AddOneInto(ctx);
      done();
      return;
    }
    CallbackPool()->Schedule([ctx, done = std::move(done)]() {
      AddOneInto(ctx);
      done();
    });
  }

 private:
  bool inline_ = false;
};
REGISTER_KERNEL_BUILDER(Name("ExecTestAsyncAddOne").Device(DEVICE_CPU), AsyncAddOneOp);

REGISTER_OP("ExecTestBlockUntilCancelled")
    .Input("x: float")
    .Output("y: float")
    .SetShapeFn(shape_inference::UnchangedShape);
class BlockUntilCancelledOp : public AsyncOpKernel {
 public:
  using AsyncOpKernel::AsyncOpKernel;
  void ComputeAsync(OpKernelContext* ctx, DoneCallback done) override {
    CancellationManager* cm = ctx->cancellation_manager();
    OP_REQUIRES_ASYNC(ctx, cm != nullptr,
                      errors::InvalidArgument("ExecTestBlockUntilCancelled needs cancellation"),
                      done);
    const absl::Status cancelled = errors::Cancelled("ExecTestBlockUntilCancelled was cancelled");
    // The callback owns `done`; shared so the already-cancelled path can still run it.
    auto shared_done = std::make_shared<DoneCallback>(std::move(done));
    const bool registered =
        cm->RegisterCallback(cm->get_cancellation_token(), [ctx, cancelled, shared_done]() {
          ctx->SetStatus(cancelled);
          (*shared_done)();
        });
    if (!registered) {
      ctx->SetStatus(cancelled);
      (*shared_done)();
    }
  }
};
REGISTER_KERNEL_BUILDER(Name("ExecTestBlockUntilCancelled").Device(DEVICE_CPU),
                        BlockUntilCancelledOp);

REGISTER_OP("ExecTestNoOutput")
    .Input("x: float")
    .Output("y: float")
    .SetShapeFn(shape_inference::UnchangedShape);
class NoOutputOp : public CheapKernel {
 public:
  using CheapKernel::CheapKernel;
  void Compute(OpKernelContext*) override {}
};
REGISTER_KERNEL_BUILDER(Name("ExecTestNoOutput").Device(DEVICE_CPU), NoOutputOp);

REGISTER_OP("ExecTestBadCtor")
    .Input("x: float")
    .Output("y: float")
    .SetShapeFn(shape_inference::UnchangedShape);
class BadCtorOp : public CheapKernel {
 public:
  explicit BadCtorOp(OpKernelConstruction* ctx) : CheapKernel(ctx) {
    ctx->CtxFailure(errors::InvalidArgument("ExecTestBadCtor always fails"));
  }
  void Compute(OpKernelContext*) override {}
};
REGISTER_KERNEL_BUILDER(Name("ExecTestBadCtor").Device(DEVICE_CPU), BadCtorOp);

REGISTER_OP("ExecTestRetval")
    .Input("x: float")
    .Attr("index: int >= 0")
    .SetIsStateful()
    .SetShapeFn(shape_inference::NoOutputs);
class RetvalOp : public CheapKernel {
 public:
  explicit RetvalOp(OpKernelConstruction* ctx) : CheapKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("index", &index_));
  }
  void Compute(OpKernelContext* ctx) override {
    OP_REQUIRES(ctx, ctx->call_frame() != nullptr,
                errors::Internal("ExecTestRetval needs a call frame"));
    OP_REQUIRES_OK(ctx, ctx->call_frame()->SetRetval(index_, ctx->input(0)));
  }

 private:
  int index_ = 0;
};
REGISTER_KERNEL_BUILDER(Name("ExecTestRetval").Device(DEVICE_CPU), RetvalOp);

REGISTER_OP("ExecTestFresh")
    .Input("x: float")
    .Output("y: float")
    .SetShapeFn(shape_inference::UnchangedShape);
class FreshOp : public CheapKernel {
 public:
  using CheapKernel::CheapKernel;
  void Compute(OpKernelContext* ctx) override {
    const Tensor& x = ctx->input(0);
    Tensor* y = nullptr;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, x.shape(), &y));
    for (int64_t i = 0; i < x.NumElements(); ++i) y->flat<float>()(i) = x.flat<float>()(i);
  }
};
REGISTER_KERNEL_BUILDER(Name("ExecTestFresh").Device(DEVICE_CPU), FreshOp);

REGISTER_OP("ExecTestInPlace")
    .Input("x: float")
    .Output("y: float")
    .SetShapeFn(shape_inference::UnchangedShape);
class InPlaceOp : public CheapKernel {
 public:
  using CheapKernel::CheapKernel;
  void Compute(OpKernelContext* ctx) override {
    ++(ctx->input(0).RefCountIsOne() ? Counters().in_place_sole_owner : Counters().in_place_shared);
    AddOneInto(ctx);
  }
};
REGISTER_KERNEL_BUILDER(Name("ExecTestInPlace").Device(DEVICE_CPU), InPlaceOp);

REGISTER_OP("ExecTestRefVar")
    .Output("ref: Ref(float)")
    .Attr("value: float")
    .SetIsStateful()
    .SetShapeFn(shape_inference::ScalarShape);
class RefVarOp : public CheapKernel {
 public:
  explicit RefVarOp(OpKernelConstruction* ctx) : CheapKernel(ctx), var_(DT_FLOAT, TensorShape({})) {
    float value = 0;
    OP_REQUIRES_OK(ctx, ctx->GetAttr("value", &value));
    var_.flat<float>()(0) = value;
  }
  void Compute(OpKernelContext* ctx) override { ctx->set_output_ref(0, &mu_, &var_); }

 private:
  absl::Mutex mu_;
  Tensor var_;
};
REGISTER_KERNEL_BUILDER(Name("ExecTestRefVar").Device(DEVICE_CPU), RefVarOp);

REGISTER_OP("ExecTestRefAddOne")
    .Input("ref: Ref(float)")
    .Output("y: float")
    .SetShapeFn(shape_inference::UnchangedShape);
class RefAddOneOp : public CheapKernel {
 public:
  using CheapKernel::CheapKernel;
  void Compute(OpKernelContext* ctx) override {
    absl::MutexLock lock(ctx->input_ref_mutex(0));
    Tensor var = ctx->mutable_input(0, /*lock_held=*/true);
    var.flat<float>()(0) += 1.0f;
    ctx->set_output(0, var.DeepCopy());
  }
};
REGISTER_KERNEL_BUILDER(Name("ExecTestRefAddOne").Device(DEVICE_CPU), RefAddOneOp);

REGISTER_OP("ExecTestServices")
    .Input("x: float")
    .Output("y: float")
    .SetShapeFn(shape_inference::UnchangedShape);
class ServicesOp : public CheapKernel {
 public:
  using CheapKernel::CheapKernel;
  void Compute(OpKernelContext* ctx) override {
    SeenServices& seen = Seen();
    absl::MutexLock lock(&seen.mu);
    seen.step_id = ctx->step_id();
    seen.rendezvous = ctx->rendezvous();
    seen.call_frame = ctx->call_frame();
    seen.cancellation_manager = ctx->cancellation_manager();
    seen.resource_manager = ctx->resource_manager();
    seen.has_runner = ctx->runner() != nullptr;
    ctx->set_output(0, ctx->input(0));
  }
};
REGISTER_KERNEL_BUILDER(Name("ExecTestServices").Device(DEVICE_CPU), ServicesOp);

}  // namespace
}  // namespace test
}  // namespace sluice
