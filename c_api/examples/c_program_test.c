/* A C99 client of the TensorFlow C API, as a language binding would be: it builds a graph
 * op by op and runs it, imports a frozen model and checks its outputs against TensorFlow's,
 * round-trips string tensors, and checks the error codes of misuse. It includes only the
 * public headers and links only the shared library.
 *
 * Usage: c_program_test [DIR], DIR holding digits_cnn.pb, test_images.npy and
 * tf_probabilities.npy (default: models/digits, as in Bazel's runfiles). Exit status 0 when
 * every check passes; each failure prints a line. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tensorflow/c/c_api.h"

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

/* The whole file, or NULL. */
static char* ReadFile(const char* path, size_t* size) {
  FILE* f = fopen(path, "rb");
  char* bytes;
  long length;
  if (f == NULL) return NULL;
  fseek(f, 0, SEEK_END);
  length = ftell(f);
  fseek(f, 0, SEEK_SET);
  bytes = (char*)malloc(length > 0 ? (size_t)length : 1);
  if (bytes != NULL && fread(bytes, 1, (size_t)length, f) != (size_t)length) {
    free(bytes);
    bytes = NULL;
  }
  fclose(f);
  *size = (size_t)length;
  return bytes;
}

/* The float32 data of a version 1 .npy file (its header is not interpreted further). */
static const float* NpyData(const char* bytes, size_t size) {
  size_t header;
  if (size < 10 || memcmp(bytes, "\x93NUMPY", 6) != 0 || bytes[6] != 1) return NULL;
  header = (size_t)(unsigned char)bytes[8] | ((size_t)(unsigned char)bytes[9] << 8);
  if (10 + header > size) return NULL;
  return (const float*)(bytes + 10 + header);
}

static TF_Operation* Placeholder(TF_Graph* graph, TF_Status* status, const char* name,
                                 TF_DataType dtype) {
  TF_OperationDescription* desc = TF_NewOperation(graph, "Placeholder", name);
  TF_SetAttrType(desc, "dtype", dtype);
  return TF_FinishOperation(desc, status);
}

static TF_Operation* ScalarConst(TF_Graph* graph, TF_Status* status, const char* name,
                                 float value) {
  TF_Tensor* tensor = TF_AllocateTensor(TF_FLOAT, NULL, 0, sizeof(float));
  TF_OperationDescription* desc = TF_NewOperation(graph, "Const", name);
  TF_Operation* op;
  memcpy(TF_TensorData(tensor), &value, sizeof(float));
  TF_SetAttrTensor(desc, "value", tensor, status);
  TF_SetAttrType(desc, "dtype", TF_FLOAT);
  op = TF_FinishOperation(desc, status);
  TF_DeleteTensor(tensor);
  return op;
}

/* y = x * 3 + 1, built op by op, run on [1, 2, 3]. */
static void BuildAndRun(void) {
  TF_Status* status = TF_NewStatus();
  TF_Graph* graph = TF_NewGraph();
  TF_Operation* x = Placeholder(graph, status, "x", TF_FLOAT);
  TF_Operation* three = ScalarConst(graph, status, "three", 3.0f);
  TF_Operation* one = ScalarConst(graph, status, "one", 1.0f);
  TF_OperationDescription* desc;
  TF_Operation* mul;
  TF_Operation* y;
  TF_Session* session;
  TF_Output feed, fetch;
  TF_Tensor* input;
  TF_Tensor* output = NULL;
  const int64_t dims[1] = {3};
  const float values[3] = {1, 2, 3};
  CHECK_OK(status);

  desc = TF_NewOperation(graph, "Mul", "mul");
  feed.oper = x;
  feed.index = 0;
  TF_AddInput(desc, feed);
  fetch.oper = three;
  fetch.index = 0;
  TF_AddInput(desc, fetch);
  mul = TF_FinishOperation(desc, status);
  CHECK_OK(status);
  desc = TF_NewOperation(graph, "AddV2", "y");
  fetch.oper = mul;
  TF_AddInput(desc, fetch);
  fetch.oper = one;
  TF_AddInput(desc, fetch);
  y = TF_FinishOperation(desc, status);
  CHECK_OK(status);
  CHECK(strcmp(TF_OperationOpType(y), "AddV2") == 0);

  session = TF_NewSession(graph, NULL, status);
  CHECK_OK(status);
  input = TF_AllocateTensor(TF_FLOAT, dims, 1, sizeof(values));
  memcpy(TF_TensorData(input), values, sizeof(values));
  fetch.oper = y;
  TF_SessionRun(session, NULL, &feed, &input, 1, &fetch, &output, 1, NULL, 0, NULL, status);
  CHECK_OK(status);
  if (output != NULL) {
    const float* got = (const float*)TF_TensorData(output);
    CHECK(TF_NumDims(output) == 1 && TF_Dim(output, 0) == 3);
    CHECK(got[0] == 4.0f && got[1] == 7.0f && got[2] == 10.0f);
    TF_DeleteTensor(output);
  }

  /* Misuse: an output index out of range, a feed of the wrong type. */
  fetch.index = 5;
  output = (TF_Tensor*)&output;
  TF_SessionRun(session, NULL, &feed, &input, 1, &fetch, &output, 1, NULL, 0, NULL, status);
  CHECK(TF_GetCode(status) == TF_OUT_OF_RANGE);
  CHECK(output == NULL);
  fetch.index = 0;
  {
    TF_Tensor* ints = TF_AllocateTensor(TF_INT32, dims, 1, 3 * sizeof(int32_t));
    memset(TF_TensorData(ints), 0, 3 * sizeof(int32_t));
    TF_SessionRun(session, NULL, &feed, &ints, 1, &fetch, &output, 1, NULL, 0, NULL, status);
    CHECK(TF_GetCode(status) == TF_INVALID_ARGUMENT);
    CHECK(output == NULL);
    TF_DeleteTensor(ints);
  }
  CHECK(TF_GraphOperationByName(graph, "no such op") == NULL);

  TF_DeleteTensor(input);
  TF_CloseSession(session, status);
  CHECK_OK(status);
  TF_DeleteSession(session, status);
  CHECK_OK(status);
  TF_DeleteGraph(graph);
  TF_DeleteStatus(status);
}

/* The frozen digits CNN on four test images, against TensorFlow's probabilities. */
static void ImportAndRunFrozenModel(const char* dir) {
  char path[4096];
  size_t model_size, images_size, expected_size;
  char* model;
  char* images;
  char* expected;
  const float* image_data;
  const float* expected_data;
  TF_Status* status = TF_NewStatus();
  TF_Graph* graph = TF_NewGraph();
  TF_Buffer* buffer;
  TF_ImportGraphDefOptions* options = TF_NewImportGraphDefOptions();
  TF_Session* session;
  TF_Output feed, fetch;
  TF_Tensor* input;
  TF_Tensor* output = NULL;
  const int64_t dims[4] = {4, 8, 8, 1};
  int i;

  snprintf(path, sizeof(path), "%s/digits_cnn.pb", dir);
  model = ReadFile(path, &model_size);
  snprintf(path, sizeof(path), "%s/test_images.npy", dir);
  images = ReadFile(path, &images_size);
  snprintf(path, sizeof(path), "%s/tf_probabilities.npy", dir);
  expected = ReadFile(path, &expected_size);
  CHECK(model != NULL && images != NULL && expected != NULL);
  if (model == NULL || images == NULL || expected == NULL) return;
  image_data = NpyData(images, images_size);
  expected_data = NpyData(expected, expected_size);
  CHECK(image_data != NULL && expected_data != NULL);

  buffer = TF_NewBufferFromString(model, model_size);
  TF_GraphImportGraphDef(graph, buffer, options, status);
  CHECK_OK(status);
  feed.oper = TF_GraphOperationByName(graph, "images");
  feed.index = 0;
  fetch.oper = TF_GraphOperationByName(graph, "probabilities");
  fetch.index = 0;
  CHECK(feed.oper != NULL && fetch.oper != NULL);
  if (feed.oper == NULL || fetch.oper == NULL) return;

  session = TF_NewSession(graph, NULL, status);
  CHECK_OK(status);
  input = TF_AllocateTensor(TF_FLOAT, dims, 4, 4 * 64 * sizeof(float));
  memcpy(TF_TensorData(input), image_data, 4 * 64 * sizeof(float));
  TF_SessionRun(session, NULL, &feed, &input, 1, &fetch, &output, 1, NULL, 0, NULL, status);
  CHECK_OK(status);
  if (output != NULL) {
    const float* got = (const float*)TF_TensorData(output);
    CHECK(TF_TensorType(output) == TF_FLOAT);
    CHECK(TF_NumDims(output) == 2 && TF_Dim(output, 0) == 4 && TF_Dim(output, 1) == 10);
    for (i = 0; i < 40; ++i) CHECK(fabsf(got[i] - expected_data[i]) < 1e-5f);
    TF_DeleteTensor(output);
  }
  TF_DeleteTensor(input);
  TF_DeleteSession(session, status);
  TF_DeleteImportGraphDefOptions(options);
  TF_DeleteBuffer(buffer);
  TF_DeleteGraph(graph);
  TF_DeleteStatus(status);
  free(model);
  free(images);
  free(expected);
}

/* Strings in and out of a run: small, empty and large TF_TStrings through Identity. */
static void StringRoundTrip(void) {
  TF_Status* status = TF_NewStatus();
  TF_Graph* graph = TF_NewGraph();
  TF_Operation* s = Placeholder(graph, status, "s", TF_STRING);
  TF_OperationDescription* desc = TF_NewOperation(graph, "Identity", "out");
  TF_Output feed, fetch;
  TF_Session* session;
  TF_Tensor* input;
  TF_Tensor* output = NULL;
  TF_TString* strings;
  const int64_t dims[1] = {3};
  char large[64];
  feed.oper = s;
  feed.index = 0;
  TF_AddInput(desc, feed);
  fetch.oper = TF_FinishOperation(desc, status);
  fetch.index = 0;
  CHECK_OK(status);
  memset(large, 'z', sizeof(large));

  input = TF_AllocateTensor(TF_STRING, dims, 1, 3 * sizeof(TF_TString));
  strings = (TF_TString*)TF_TensorData(input);
  TF_TString_Init(&strings[0]);
  TF_TString_Init(&strings[1]);
  TF_TString_Init(&strings[2]);
  TF_TString_Copy(&strings[0], "hello", 5);
  TF_TString_Copy(&strings[2], large, sizeof(large));
  session = TF_NewSession(graph, NULL, status);
  TF_SessionRun(session, NULL, &feed, &input, 1, &fetch, &output, 1, NULL, 0, NULL, status);
  CHECK_OK(status);
  if (output != NULL) {
    const TF_TString* got = (const TF_TString*)TF_TensorData(output);
    CHECK(TF_TensorType(output) == TF_STRING);
    CHECK(TF_TString_GetSize(&got[0]) == 5);
    CHECK(memcmp(TF_TString_GetDataPointer(&got[0]), "hello", 5) == 0);
    CHECK(TF_TString_GetSize(&got[1]) == 0);
    CHECK(TF_TString_GetSize(&got[2]) == sizeof(large));
    CHECK(memcmp(TF_TString_GetDataPointer(&got[2]), large, sizeof(large)) == 0);
    TF_DeleteTensor(output);
  }
  TF_DeleteTensor(input);
  TF_DeleteSession(session, status);
  TF_DeleteGraph(graph);
  TF_DeleteStatus(status);
}

static int deallocator_calls = 0;
static void CountDeallocation(void* data, size_t len, void* arg) {
  (void)data;
  (void)len;
  (void)arg;
  ++deallocator_calls;
}

/* Tensor misuse: a byte size that does not match the shape still releases the caller's data. */
static void TensorMisuse(void) {
  static float data[4];
  const int64_t dims[1] = {4};
  TF_Status* status = TF_NewStatus();
  TF_Graph* graph = TF_NewGraph();
  TF_ImportGraphDefOptions* options = TF_NewImportGraphDefOptions();
  TF_Buffer* junk = TF_NewBufferFromString("\x01\x02\x03", 3);
  CHECK(TF_NewTensor(TF_FLOAT, dims, 1, data, 3, CountDeallocation, NULL) == NULL);
  CHECK(deallocator_calls == 1);
  TF_GraphImportGraphDef(graph, junk, options, status);
  CHECK(TF_GetCode(status) == TF_INVALID_ARGUMENT);
  TF_DeleteBuffer(junk);
  TF_DeleteImportGraphDefOptions(options);
  TF_DeleteGraph(graph);
  TF_DeleteStatus(status);
}

int main(int argc, char** argv) {
  const char* dir = argc > 1 ? argv[1] : "models/digits";
  printf("TF_Version: %s\n", TF_Version());
  BuildAndRun();
  ImportAndRunFrozenModel(dir);
  StringRoundTrip();
  TensorMisuse();
  if (failures != 0) {
    fprintf(stderr, "%d checks failed\n", failures);
    return 1;
  }
  printf("all checks passed\n");
  return 0;
}
