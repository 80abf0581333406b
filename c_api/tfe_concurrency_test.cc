// Eager operations from several threads on one context: the prepared-operation cache and the
// session are shared (run under ThreadSanitizer by CI, with the few kernels it links).
#include <thread>
#include <vector>

#include "gtest/gtest.h"
#include "tensorflow/c/c_api.h"
#include "tensorflow/c/eager/c_api.h"

namespace {

TEST(EagerConcurrencyTest, OperationsFromSeveralThreads) {
  TF_Status* status = TF_NewStatus();
  TFE_ContextOptions* options = TFE_NewContextOptions();
  TFE_Context* ctx = TFE_NewContext(options, status);
  TFE_DeleteContextOptions(options);
  ASSERT_EQ(TF_GetCode(status), TF_OK) << TF_Message(status);
  const int64_t dims[] = {2};
  TF_Tensor* t = TF_AllocateTensor(TF_FLOAT, dims, 1, 2 * sizeof(float));
  static_cast<float*>(TF_TensorData(t))[0] = 1;
  static_cast<float*>(TF_TensorData(t))[1] = 2;
  TFE_TensorHandle* a = TFE_NewTensorHandle(t, status);
  TF_DeleteTensor(t);

  std::vector<std::thread> threads;
  std::vector<int> failures(4, 0);
  std::vector<float> sums(4, 0);
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      TF_Status* thread_status = TF_NewStatus();
      for (int i = 0; i < 20; ++i) {
        TFE_Op* op = TFE_NewOp(ctx, i % 2 ? "AddV2" : "Mul", thread_status);
        TFE_OpAddInput(op, a, thread_status);
        TFE_OpAddInput(op, a, thread_status);
        TFE_TensorHandle* out = nullptr;
        int n = 1;
        TFE_Execute(op, &out, &n, thread_status);
        if (TF_GetCode(thread_status) != TF_OK) {
          ++failures[t];
        } else {
          TF_Tensor* value = TFE_TensorHandleResolve(out, thread_status);
          sums[t] += static_cast<const float*>(TF_TensorData(value))[1];
          TF_DeleteTensor(value);
        }
        TFE_DeleteTensorHandle(out);
        TFE_DeleteOp(op);
      }
      TF_DeleteStatus(thread_status);
    });
  }
  for (std::thread& thread : threads) thread.join();
  EXPECT_EQ(failures, (std::vector<int>{0, 0, 0, 0}));
  // Ten products 2 * 2 and ten sums 2 + 2 per thread.
  EXPECT_EQ(sums, (std::vector<float>{80, 80, 80, 80}));
  TFE_DeleteTensorHandle(a);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(status);
}

}  // namespace
