/* A C99 client of the installed libtensorflow.so that loads the ZeroOut custom-op libraries
 * (built by install_test.sh with g++ and pkg-config tensorflow_framework) through
 * TF_LoadLibrary and runs their ops, as a language binding would.
 * Usage: load_custom_ops DIR   (DIR holds zero_out.so, zero_out_typed.so,
 * zero_out_preserve_index.so and zero_out_conflicting.so). Prints "ok" and exits 0 on success. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tensorflow/c/c_api.h"

static int failures = 0;

#define CHECK(cond, ...)                              \
  do {                                                \
    if (!(cond)) {                                    \
      fprintf(stderr, "%s:%d: ", __FILE__, __LINE__); \
      fprintf(stderr, __VA_ARGS__);                   \
      fprintf(stderr, "\n");                          \
      ++failures;                                     \
    }                                                 \
  } while (0)

/* Reads a protobuf varint at *p (below end); 0 on a malformed one. */
static int read_varint(const unsigned char** p, const unsigned char* end, uint64_t* value) {
  int shift = 0;
  *value = 0;
  while (*p < end && shift < 64) {
    const unsigned char byte = *(*p)++;
    *value |= (uint64_t)(byte & 0x7f) << shift;
    if (!(byte & 0x80)) return 1;
    shift += 7;
  }
  return 0;
}

/* The op names of a serialized OpList (field 1: OpDef, whose field 1 is its name), joined
 * with ';' into out. Returns the number of ops, -1 if the buffer does not parse. */
static int op_names(const TF_Buffer* buffer, char* out, size_t out_size) {
  const unsigned char* p = (const unsigned char*)buffer->data;
  const unsigned char* end = p + buffer->length;
  int count = 0;
  out[0] = '\0';
  while (p < end) {
    uint64_t key, length;
    if (!read_varint(&p, end, &key) || key != ((1 << 3) | 2)) return -1;
    if (!read_varint(&p, end, &length) || length > (uint64_t)(end - p)) return -1;
    const unsigned char* op_end = p + length;
    while (p < op_end) {
      uint64_t field, size;
      if (!read_varint(&p, op_end, &field) || (field & 7) != 2) return -1;
      if (!read_varint(&p, op_end, &size) || size > (uint64_t)(op_end - p)) return -1;
      if (field >> 3 == 1 && strlen(out) + size + 2 < out_size) {
        strncat(out, (const char*)p, (size_t)size);
        strcat(out, ";");
      }
      p += size;
    }
    ++count;
  }
  return count;
}

static TF_Library* load(const char* dir, const char* name, TF_Status* status) {
  char path[4096];
  snprintf(path, sizeof(path), "%s/%s.so", dir, name);
  return TF_LoadLibrary(path, status);
}

/* Runs op `op_type` (with attr preserve_index when >= 0) on an int32 or float vector. */
static void run_vector_op(TF_Graph* graph, TF_Session* session, const char* op_type,
                          const char* name, TF_DataType dtype, long preserve_index,
                          const float* values, int n, float* result, TF_Status* status) {
  char placeholder_name[64];
  snprintf(placeholder_name, sizeof(placeholder_name), "%s_x", name);
  TF_OperationDescription* desc = TF_NewOperation(graph, "Placeholder", placeholder_name);
  TF_SetAttrType(desc, "dtype", dtype);
  TF_Operation* x = TF_FinishOperation(desc, status);
  if (TF_GetCode(status) != TF_OK) return;
  desc = TF_NewOperation(graph, op_type, name);
  TF_AddInput(desc, (TF_Output){x, 0});
  if (preserve_index >= 0) TF_SetAttrInt(desc, "preserve_index", preserve_index);
  TF_Operation* op = TF_FinishOperation(desc, status);
  if (TF_GetCode(status) != TF_OK) return;

  const int64_t dims[1] = {n};
  TF_Tensor* input = TF_AllocateTensor(dtype, dims, 1, (size_t)n * 4);
  for (int i = 0; i < n; ++i) {
    if (dtype == TF_FLOAT) {
      ((float*)TF_TensorData(input))[i] = values[i];
    } else {
      ((int32_t*)TF_TensorData(input))[i] = (int32_t)values[i];
    }
  }
  const TF_Output feed = {x, 0};
  const TF_Output fetch = {op, 0};
  TF_Tensor* output = NULL;
  TF_SessionRun(session, NULL, &feed, &input, 1, &fetch, &output, 1, NULL, 0, NULL, status);
  TF_DeleteTensor(input);
  if (TF_GetCode(status) != TF_OK) return;
  for (int i = 0; i < n; ++i) {
    result[i] = dtype == TF_FLOAT ? ((float*)TF_TensorData(output))[i]
                                  : (float)((int32_t*)TF_TensorData(output))[i];
  }
  TF_DeleteTensor(output);
}

int main(int argc, char** argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: %s DIR\n", argv[0]);
    return 2;
  }
  const char* dir = argv[1];
  TF_Status* status = TF_NewStatus();
  char names[256];

  const char* libraries[3] = {"zero_out", "zero_out_typed", "zero_out_preserve_index"};
  const char* expected[3] = {"ZeroOut;", "ZeroOutTyped;", "ZeroOutPreserveIndex;"};
  TF_Library* handles[3];
  for (int i = 0; i < 3; ++i) {
    handles[i] = load(dir, libraries[i], status);
    CHECK(TF_GetCode(status) == TF_OK, "loading %s: %s", libraries[i], TF_Message(status));
    if (handles[i] == NULL) return 1;
    TF_Buffer ops = TF_GetOpList(handles[i]);
    CHECK(op_names(&ops, names, sizeof(names)) == 1 && strcmp(names, expected[i]) == 0,
          "%s registered '%s', expected '%s'", libraries[i], names, expected[i]);
  }
  /* A second load of the same library is harmless and reports the same op. */
  TF_Library* again = load(dir, "zero_out", status);
  CHECK(TF_GetCode(status) == TF_OK, "second load: %s", TF_Message(status));
  if (again != NULL) {
    TF_Buffer ops = TF_GetOpList(again);
    CHECK(op_names(&ops, names, sizeof(names)) == 1 && strcmp(names, "ZeroOut;") == 0,
          "second load registered '%s'", names);
    TF_DeleteLibraryHandle(again);
  }
  /* A library that redefines ZeroOut fails and registers nothing (its ZeroOutExtra neither). */
  TF_Library* conflicting = load(dir, "zero_out_conflicting", status);
  CHECK(conflicting == NULL && TF_GetCode(status) == TF_ALREADY_EXISTS,
        "conflicting library: code %d, %s", (int)TF_GetCode(status), TF_Message(status));

  TF_Graph* graph = TF_NewGraph();
  TF_OperationDescription* extra = TF_NewOperation(graph, "ZeroOutExtra", "extra");
  TF_FinishOperation(extra, status);
  CHECK(TF_GetCode(status) != TF_OK, "ZeroOutExtra was registered by a failed load");

  TF_SessionOptions* options = TF_NewSessionOptions();
  TF_Session* session = TF_NewSession(graph, options, status);
  CHECK(TF_GetCode(status) == TF_OK, "session: %s", TF_Message(status));
  const float values[4] = {7, 8, 9, 10};
  float result[4];

  run_vector_op(graph, session, "ZeroOut", "z1", TF_INT32, -1, values, 4, result, status);
  CHECK(TF_GetCode(status) == TF_OK, "ZeroOut: %s", TF_Message(status));
  CHECK(result[0] == 7 && result[1] == 0 && result[3] == 0, "ZeroOut gave %g %g %g %g", result[0],
        result[1], result[2], result[3]);

  run_vector_op(graph, session, "ZeroOutTyped", "z2", TF_FLOAT, -1, values, 4, result, status);
  CHECK(TF_GetCode(status) == TF_OK, "ZeroOutTyped: %s", TF_Message(status));
  CHECK(result[0] == 7 && result[2] == 0, "ZeroOutTyped gave %g %g", result[0], result[2]);

  run_vector_op(graph, session, "ZeroOutPreserveIndex", "z3", TF_INT32, 2, values, 4, result,
                status);
  CHECK(TF_GetCode(status) == TF_OK, "ZeroOutPreserveIndex: %s", TF_Message(status));
  CHECK(result[0] == 0 && result[2] == 9 && result[3] == 0, "ZeroOutPreserveIndex gave %g %g %g",
        result[0], result[2], result[3]);

  /* The kernel's constructor rejects a negative index, and Compute an index past the input. */
  run_vector_op(graph, session, "ZeroOutPreserveIndex", "z4", TF_INT32, 9, values, 4, result,
                status);
  CHECK(TF_GetCode(status) == TF_INVALID_ARGUMENT &&
            strstr(TF_Message(status), "preserve_index out of range") != NULL,
        "out-of-range index: code %d, %s", (int)TF_GetCode(status), TF_Message(status));
  run_vector_op(graph, session, "ZeroOutPreserveIndex", "z5", TF_INT32, 0, values, 4, result,
                status);
  CHECK(TF_GetCode(status) == TF_OK, "index 0: %s", TF_Message(status));

  TF_CloseSession(session, status);
  TF_DeleteSession(session, status);
  TF_DeleteSessionOptions(options);
  TF_DeleteGraph(graph);
  for (int i = 0; i < 3; ++i) TF_DeleteLibraryHandle(handles[i]);
  TF_DeleteStatus(status);
  if (failures != 0) return 1;
  printf("ok\n");
  return 0;
}
