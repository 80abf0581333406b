// _Send/_Recv (and the _Host variants) on CPU devices: the ends of an edge that
// partitioning cut between two devices, joined through the step's Rendezvous.
//
// Both build their rendezvous key once, at construction, from the node's attrs
// (send_device, send_device_incarnation, recv_device, tensor_name) for the top-level frame
// "0:0", which is what passes/partition.h writes and what almost every execution uses; a
// kernel running inside a loop frame builds the key of its frame_iter per step.
// client_terminated is read for validation only: a key does not depend on it.
//
// _Send hands its input to the rendezvous and never blocks. _Recv is asynchronous: it
// finishes when the value arrives, when the rendezvous is aborted (with the abort status),
// or when the step's cancellation manager is cancelled (CANCELLED "RecvAsync is
// cancelled."), whichever comes first. Without a rendezvous in the context both fail with
// INTERNAL "Op kernel context needs to provide a rendezvous." (TensorFlow's text).
//
// Every dtype is accepted (no type constraint), strings and resources included.
//
// The same kernels serve GPU devices (TensorFlow registers them in one file too). _Send tells
// the rendezvous where its value lives (its GPU's memory, unless it is a _HostSend); _Recv
// copies a value that lives elsewhere than it needs (runtime/framework/device_copy.h): on the
// receiving side, as TensorFlow does, so that each edge is copied once.
#include <atomic>
#include <memory>
#include <string>
#include <utility>

#include "absl/status/status.h"
#include "graph/core/errors.h"
#include "graph/core/tensor.h"
#include "runtime/framework/cancellation.h"
#include "runtime/framework/device_copy.h"
#include "runtime/framework/device_type.h"
#include "runtime/framework/op_kernel.h"
#include "runtime/framework/rendezvous.h"

namespace sluice {
namespace {

constexpr char kTopLevelFrameIter[] = "0:0";

// Reads the key attrs of a _Send/_Recv node and parses its top-level key into *key.
void ParsedKeyFromAttrs(OpKernelConstruction* ctx, Rendezvous::ParsedKey* key) {
  std::string send_device;
  std::string recv_device;
  std::string tensor_name;
  int64_t send_device_incarnation = 0;
  bool client_terminated = false;
  OP_REQUIRES_OK(ctx, ctx->GetAttr("send_device", &send_device));
  OP_REQUIRES_OK(ctx, ctx->GetAttr("recv_device", &recv_device));
  OP_REQUIRES_OK(ctx, ctx->GetAttr("tensor_name", &tensor_name));
  OP_REQUIRES_OK(ctx, ctx->GetAttr("send_device_incarnation", &send_device_incarnation));
  OP_REQUIRES_OK(ctx, ctx->GetAttr("client_terminated", &client_terminated));
  // The attr is an int64 holding the incarnation's bits.
  const std::string full_key =
      Rendezvous::CreateKey(send_device, static_cast<uint64_t>(send_device_incarnation),
                            recv_device, tensor_name, kTopLevelFrameIter);
  OP_REQUIRES_OK(ctx, Rendezvous::ParseKey(full_key, key));
}

// The key for this execution: the cached one at top level, else one for its frame.
const Rendezvous::ParsedKey& KeyForFrame(const Rendezvous::ParsedKey& top_level,
                                         const std::string& frame_iter,
                                         Rendezvous::ParsedKey* scratch) {
  if (frame_iter == kTopLevelFrameIter) return top_level;
  *scratch = top_level;
  scratch->frame_iter = frame_iter;
  scratch->full_key = Rendezvous::CreateKey(top_level.src_device, top_level.src_incarnation,
                                            top_level.dst_device, top_level.edge_name, frame_iter);
  return *scratch;
}

absl::Status MissingRendezvous() {
  return errors::Internal("Op kernel context needs to provide a rendezvous.");
}

class SendOp : public OpKernel {
 public:
  explicit SendOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    ParsedKeyFromAttrs(ctx, &key_);
    // A GPU's value is in its memory unless the kernel is the HostMemory variant.
    if (ctx->device()->gpu_device_context() != nullptr &&
        input_memory_types()[0] == DEVICE_MEMORY) {
      args_.device = ctx->device();
    }
  }

  bool IsExpensive() override { return false; }

  void Compute(OpKernelContext* ctx) override {
    OP_REQUIRES(ctx, ctx->rendezvous() != nullptr, MissingRendezvous());
    Rendezvous::ParsedKey scratch;
    const Rendezvous::ParsedKey& key = KeyForFrame(key_, ctx->frame_iter(), &scratch);
    // A dead input (an untaken branch) crosses to the other partition as deadness.
    if (ctx->is_input_dead()) {
      OP_REQUIRES_OK(ctx, ctx->rendezvous()->Send(key, args_, Tensor(), /*is_dead=*/true));
      return;
    }
    OP_REQUIRES_OK(ctx, ctx->rendezvous()->Send(key, args_, ctx->input(0), /*is_dead=*/false));
  }

 private:
  Rendezvous::ParsedKey key_;
  Rendezvous::Args args_;
};

// What a pending _Recv shares between the rendezvous' callback and the cancellation
// callback: whichever claims it first finishes the kernel; the other does nothing (it may
// run after the context is gone, so it touches only this state).
struct PendingRecv {
  OpKernelContext* ctx;
  AsyncOpKernel::DoneCallback done;
  CancellationManager* cancellation_manager;
  CancellationToken token = CancellationManager::kInvalidToken;
  std::atomic<bool> claimed{false};

  bool Claim() { return !claimed.exchange(true, std::memory_order_acq_rel); }
};

class RecvOp : public AsyncOpKernel {
 public:
  explicit RecvOp(OpKernelConstruction* ctx)
      : AsyncOpKernel(ctx), recv_on_host_(output_memory_types()[0] == HOST_MEMORY) {
    ParsedKeyFromAttrs(ctx, &key_);
  }

  bool IsExpensive() override { return false; }

  void ComputeAsync(OpKernelContext* ctx, DoneCallback done) override {
    OP_REQUIRES_ASYNC(ctx, ctx->rendezvous() != nullptr, MissingRendezvous(), done);
    Rendezvous::ParsedKey scratch;
    const Rendezvous::ParsedKey& key = KeyForFrame(key_, ctx->frame_iter(), &scratch);

    auto pending = std::make_shared<PendingRecv>();
    pending->ctx = ctx;
    pending->done = std::move(done);
    pending->cancellation_manager = ctx->cancellation_manager();
    if (pending->cancellation_manager != nullptr) {
      pending->token = pending->cancellation_manager->get_cancellation_token();
      const bool registered =
          pending->cancellation_manager->RegisterCallback(pending->token, [pending] {
            if (!pending->Claim()) return;
            pending->ctx->SetStatus(absl::CancelledError("RecvAsync is cancelled."));
            pending->done();
          });
      if (!registered) {
        ctx->SetStatus(absl::CancelledError("RecvAsync is cancelled."));
        pending->done();
        return;
      }
    }
    const bool recv_on_host = recv_on_host_;
    ctx->rendezvous()->RecvAsync(
        key, [pending, recv_on_host](const absl::Status& status, const Rendezvous::Args& sent,
                                     const Tensor& value, bool is_dead) {
          if (!pending->Claim()) return;
          if (pending->cancellation_manager != nullptr) {
            // Never waits: this may run inside another cancellation callback.
            pending->cancellation_manager->TryDeregisterCallback(pending->token);
          }
          if (!status.ok()) {
            pending->ctx->SetStatus(status);
          } else if (!is_dead) {
            Tensor received;
            const absl::Status copied =
                CopyForReceiver(sent, pending->ctx->device(), recv_on_host, value, &received);
            if (copied.ok()) {
              pending->ctx->set_output(0, std::move(received));
            } else {
              pending->ctx->SetStatus(copied);
            }
          }
          pending->done();
        });
  }

 private:
  Rendezvous::ParsedKey key_;
  // The output is in host memory: on a CPU device, or a _HostRecv on a GPU.
  const bool recv_on_host_;
};

REGISTER_KERNEL_BUILDER(Name("_Send").Device(DEVICE_CPU), SendOp);
REGISTER_KERNEL_BUILDER(Name("_Recv").Device(DEVICE_CPU), RecvOp);
REGISTER_KERNEL_BUILDER(Name("_HostSend").Device(DEVICE_CPU).HostMemory("tensor"), SendOp);
REGISTER_KERNEL_BUILDER(Name("_HostRecv").Device(DEVICE_CPU).HostMemory("tensor"), RecvOp);

REGISTER_KERNEL_BUILDER(Name("_Send").Device(DEVICE_GPU), SendOp);
REGISTER_KERNEL_BUILDER(Name("_Recv").Device(DEVICE_GPU), RecvOp);
REGISTER_KERNEL_BUILDER(Name("_HostSend").Device(DEVICE_GPU).HostMemory("tensor"), SendOp);
REGISTER_KERNEL_BUILDER(Name("_HostRecv").Device(DEVICE_GPU).HostMemory("tensor"), RecvOp);

}  // namespace
}  // namespace sluice
