/* A C99 client of the eager C API, as cppflow-style bindings use it: tensors become handles,
 * each operation is described and executed on its own, a variable keeps state between
 * operations, and results are resolved back into tensors. It includes only the public headers
 * and links only the shared library. The expected outputs are TensorFlow 2.21's for the same
 * dense layer (tf.nn.softmax(tf.nn.relu(tf.nn.bias_add(tf.matmul(x, W), b)))).
 *
 * Exit status 0 when every check passes; each failure prints a line. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "tensorflow/c/c_api.h"
#include "tensorflow/c/eager/c_api.h"

static int failures = 0;

#define CHECK(cond)                                                            \
  do {                                                                         \
    if (!(cond)) {                                                             \
      fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
      ++failures;                                                              \
    }                                                                          \
  } while (0)

#define CHECK_OK(status)                                                      \
  do {                                                                        \
    if (TF_GetCode(status) != TF_OK) {                                        \
      fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, TF_Message(status)); \
      ++failures;                                                             \
    }                                                                         \
  } while (0)

static TFE_TensorHandle* FloatHandle(const int64_t* dims, int num_dims, const float* values,
                                     size_t count, TF_Status* status) {
  TF_Tensor* t = TF_AllocateTensor(TF_FLOAT, dims, num_dims, count * sizeof(float));
  TFE_TensorHandle* h;
  memcpy(TF_TensorData(t), values, count * sizeof(float));
  h = TFE_NewTensorHandle(t, status);
  TF_DeleteTensor(t);
  return h;
}

/* Runs a one-output operation on `a` and `b` (b may be NULL) and deletes it. */
static TFE_TensorHandle* Run2(TFE_Context* ctx, const char* type, TFE_TensorHandle* a,
                              TFE_TensorHandle* b, TF_Status* status) {
  TFE_Op* op = TFE_NewOp(ctx, type, status);
  TFE_TensorHandle* out = NULL;
  int n = 1;
  if (op == NULL) return NULL;
  TFE_OpAddInput(op, a, status);
  if (b != NULL) TFE_OpAddInput(op, b, status);
  TFE_Execute(op, &out, &n, status);
  TFE_DeleteOp(op);
  return TF_GetCode(status) == TF_OK && n == 1 ? out : NULL;
}

int main(void) {
  static const int64_t x_dims[] = {1, 3};
  static const int64_t w_dims[] = {3, 2};
  static const int64_t b_dims[] = {2};
  static const float x_values[] = {1, 2, 3};
  static const float w_values[] = {0.1f, 0.2f, 0.3f, 0.4f, 0.5f, 0.6f};
  static const float b_values[] = {0.01f, -0.02f};
  TF_Status* status = TF_NewStatus();
  TFE_ContextOptions* options = TFE_NewContextOptions();
  TFE_Context* ctx = TFE_NewContext(options, status);
  TFE_TensorHandle *x, *w, *b, *var = NULL, *weights = NULL, *product, *biased, *relu, *softmax;
  TFE_Op* op;
  TF_Tensor* result;
  int n = 1;
  TFE_DeleteContextOptions(options);
  CHECK_OK(status);
  if (ctx == NULL) return 1;

  x = FloatHandle(x_dims, 2, x_values, 3, status);
  w = FloatHandle(w_dims, 2, w_values, 6, status);
  b = FloatHandle(b_dims, 1, b_values, 2, status);
  CHECK_OK(status);

  /* The weights go through a resource variable, as a model's do. */
  op = TFE_NewOp(ctx, "VarHandleOp", status);
  TFE_OpSetAttrType(op, "dtype", TF_FLOAT);
  TFE_OpSetAttrShape(op, "shape", w_dims, 2, status);
  TFE_OpSetAttrString(op, "shared_name", "kernel", 6);
  TFE_Execute(op, &var, &n, status);
  TFE_DeleteOp(op);
  CHECK_OK(status);
  op = TFE_NewOp(ctx, "AssignVariableOp", status);
  TFE_OpAddInput(op, var, status);
  TFE_OpAddInput(op, w, status);
  TFE_OpSetAttrType(op, "dtype", TF_FLOAT);
  n = 0;
  TFE_Execute(op, NULL, &n, status);
  TFE_DeleteOp(op);
  CHECK_OK(status);
  op = TFE_NewOp(ctx, "ReadVariableOp", status);
  TFE_OpAddInput(op, var, status);
  TFE_OpSetAttrType(op, "dtype", TF_FLOAT);
  n = 1;
  TFE_Execute(op, &weights, &n, status);
  TFE_DeleteOp(op);
  CHECK_OK(status);

  product = Run2(ctx, "MatMul", x, weights, status);
  CHECK_OK(status);
  biased = Run2(ctx, "BiasAdd", product, b, status);
  relu = Run2(ctx, "Relu", biased, NULL, status);
  softmax = Run2(ctx, "Softmax", relu, NULL, status);
  CHECK_OK(status);
  CHECK(softmax != NULL);
  if (softmax != NULL) {
    CHECK(TFE_TensorHandleNumDims(softmax, status) == 2);
    CHECK(TFE_TensorHandleDim(softmax, 1, status) == 2);
    CHECK(strcmp(TFE_TensorHandleDeviceName(softmax, status),
                 "/job:localhost/replica:0/task:0/device:CPU:0") == 0);
    result = TFE_TensorHandleResolve(softmax, status);
    CHECK_OK(status);
    if (result != NULL) {
      const float* y = (const float*)TF_TensorData(result);
      CHECK(y[0] == 0x1.71e80ep-2f);
      CHECK(y[1] == 0x1.470bfap-1f);
      TF_DeleteTensor(result);
    }
  }

  /* Misuse is an error, not a crash. */
  CHECK(Run2(ctx, "MatMul", b, b, status) == NULL);
  CHECK(TF_GetCode(status) == TF_INVALID_ARGUMENT);
  CHECK(TFE_NewOp(ctx, "NoSuchOp", status) == NULL);
  CHECK(TF_GetCode(status) == TF_NOT_FOUND);

  TFE_DeleteTensorHandle(softmax);
  TFE_DeleteTensorHandle(relu);
  TFE_DeleteTensorHandle(biased);
  TFE_DeleteTensorHandle(product);
  TFE_DeleteTensorHandle(weights);
  TFE_DeleteTensorHandle(var);
  TFE_DeleteTensorHandle(b);
  TFE_DeleteTensorHandle(w);
  TFE_DeleteTensorHandle(x);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(status);
  if (failures == 0) printf("eager_program_test: all checks passed\n");
  return failures == 0 ? 0 : 1;
}
