/* Compiles every public C API header as C99 and exercises the types, enums and inline TF_TString
 * functions (no library function is called: this test links nothing of the API). */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "tensorflow/c/c_api.h"
#include "tensorflow/c/c_api_macros.h"
#include "tensorflow/c/sluice_device_memory.h"
#include "tensorflow/c/tf_attrtype.h"
#include "tensorflow/c/tf_buffer.h"
#include "tensorflow/c/tf_datatype.h"
#include "tensorflow/c/tf_file_statistics.h"
#include "tensorflow/c/tf_status.h"
#include "tensorflow/c/tf_tensor.h"
#include "tensorflow/c/tf_tstring.h"
#include "tensorflow/core/platform/ctstring.h"
#include "tensorflow/core/platform/ctstring_internal.h"
#include "tsl/platform/ctstring.h"
#include "tsl/platform/ctstring_internal.h"
#include "xla/tsl/c/tsl_status.h"

/* _Static_assert is C11; __extension__ lets C99 with -pedantic accept it. */
#define STATIC_CHECK(cond) __extension__ _Static_assert(cond, #cond)

/* The include guards clients test for. */
#if !defined(TENSORFLOW_C_C_API_H_) || !defined(TENSORFLOW_C_TF_TSTRING_H_) ||            \
    !defined(TENSORFLOW_C_TF_STATUS_H_) || !defined(TENSORFLOW_C_TF_TENSOR_H_) ||         \
    !defined(TENSORFLOW_C_TF_BUFFER_H_) || !defined(TENSORFLOW_C_TF_DATATYPE_H_) ||       \
    !defined(TENSORFLOW_C_TF_ATTRTYPE_H_) || !defined(TENSORFLOW_C_C_API_MACROS_H_) ||    \
    !defined(TENSORFLOW_C_TF_FILE_STATISTICS_H_) || !defined(XLA_TSL_C_TSL_STATUS_H_) ||  \
    !defined(TENSORFLOW_C_SLUICE_DEVICE_MEMORY_H_) ||                                     \
    !defined(TENSORFLOW_CORE_PLATFORM_CTSTRING_H_) ||                                     \
    !defined(TENSORFLOW_CORE_PLATFORM_CTSTRING_INTERNAL_H_) ||                            \
    !defined(TENSORFLOW_TSL_PLATFORM_CTSTRING_H_) ||                                      \
    !defined(TENSORFLOW_TSL_PLATFORM_CTSTRING_INTERNAL_H_) || !defined(TF_CAPI_EXPORT) || \
    !defined(TF_ALLOCATOR_ATTRIBUTES_STRUCT_SIZE) || !defined(TF_PayloadVisitor)
#error "a TensorFlow include guard or macro is missing"
#endif

/* Enum values are ABI. */
STATIC_CHECK(TF_FLOAT == 1);
STATIC_CHECK(TF_STRING == 7);
STATIC_CHECK(TF_COMPLEX == TF_COMPLEX64 && TF_COMPLEX64 == 8);
STATIC_CHECK(TF_BOOL == 10);
STATIC_CHECK(TF_BFLOAT16 == 14);
STATIC_CHECK(TF_HALF == 19);
STATIC_CHECK(TF_RESOURCE == 20 && TF_VARIANT == 21);
STATIC_CHECK(TF_UINT64 == 23);
STATIC_CHECK(TF_FLOAT8_E4M3FN == 25);
STATIC_CHECK(TF_INT4 == 29 && TF_UINT2 == 32);
STATIC_CHECK(TF_FLOAT4_E2M1FN == 33);
STATIC_CHECK(TF_OK == 0 && TSL_OK == 0);
STATIC_CHECK(TF_CANCELLED == 1);
STATIC_CHECK(TF_INVALID_ARGUMENT == 3);
STATIC_CHECK(TF_NOT_FOUND == 5);
STATIC_CHECK(TF_FAILED_PRECONDITION == 9);
STATIC_CHECK(TF_DATA_LOSS == 15);
STATIC_CHECK(TF_UNAUTHENTICATED == 16);
STATIC_CHECK(TF_ATTR_STRING == 0);
STATIC_CHECK(TF_ATTR_SHAPE == 5);
STATIC_CHECK(TF_ATTR_FUNC == 8);
STATIC_CHECK(TF_TSTR_SMALL == 0 && TF_TSTR_LARGE == 1 && TF_TSTR_OFFSET == 2 && TF_TSTR_VIEW == 3 &&
             TF_TSTR_TYPE_MASK == 3);
STATIC_CHECK(TF_TString_SmallCapacity == 22);

/* Struct layouts. */
STATIC_CHECK(sizeof(TF_Bool) == 1);
STATIC_CHECK(offsetof(TF_Buffer, data) == 0);
STATIC_CHECK(offsetof(TF_Buffer, length) == sizeof(void *));
STATIC_CHECK(offsetof(TF_Buffer, data_deallocator) == sizeof(void *) + sizeof(size_t));
STATIC_CHECK(sizeof(TF_Buffer) == 2 * sizeof(void *) + sizeof(size_t));
STATIC_CHECK(offsetof(TF_Output, oper) == 0 && offsetof(TF_Output, index) == sizeof(void *));
STATIC_CHECK(offsetof(TF_Input, oper) == 0 && offsetof(TF_Input, index) == sizeof(void *));
STATIC_CHECK(offsetof(TF_StringView, data) == 0 && offsetof(TF_StringView, len) == sizeof(void *));
STATIC_CHECK(offsetof(TF_AttrMetadata, is_list) == 0);
STATIC_CHECK(offsetof(TF_AttrMetadata, list_size) == 8);
STATIC_CHECK(offsetof(TF_AttrMetadata, type) == 16);
STATIC_CHECK(offsetof(TF_AttrMetadata, total_size) == 24);
STATIC_CHECK(offsetof(TF_AllocatorAttributes, on_host) == sizeof(size_t));
STATIC_CHECK(TF_ALLOCATOR_ATTRIBUTES_STRUCT_SIZE == sizeof(size_t) + 1);
STATIC_CHECK(offsetof(TF_FileStatistics, mtime_nsec) == 8);
STATIC_CHECK(offsetof(TF_FileStatistics, is_directory) == 16);
STATIC_CHECK(sizeof(TF_TString) == 24);
STATIC_CHECK(sizeof(TF_TString_Small) == 24);
STATIC_CHECK(offsetof(TF_TString_Small, str) == 1);
STATIC_CHECK(offsetof(TF_TString_Offset, offset) == 4 && offsetof(TF_TString_Offset, count) == 8);
STATIC_CHECK(offsetof(TF_TString_Large, cap) == sizeof(size_t));
STATIC_CHECK(offsetof(TF_TString_Large, ptr) == 2 * sizeof(size_t));
STATIC_CHECK(offsetof(TF_TString_View, ptr) == sizeof(size_t));
STATIC_CHECK(offsetof(TF_TString_View, owner_ref) == sizeof(size_t) + sizeof(void *));

/* Declarations have the documented types (sizeof does not evaluate, so nothing is linked). */
STATIC_CHECK(sizeof(TF_GetCode((const TF_Status *)NULL)) == sizeof(TF_Code));
STATIC_CHECK(sizeof(TF_DataTypeSize(TF_FLOAT)) == sizeof(size_t));
STATIC_CHECK(sizeof(TF_Dim((const TF_Tensor *)NULL, 0)) == sizeof(int64_t));
STATIC_CHECK(sizeof(TF_GetBuffer((TF_Buffer *)NULL)) == sizeof(TF_Buffer));
STATIC_CHECK(sizeof(TF_OperationInput(*(TF_Input *)NULL)) == sizeof(TF_Output));
STATIC_CHECK(sizeof(TF_NewWhile(NULL, NULL, 0, NULL)) == sizeof(TF_WhileParams));
STATIC_CHECK(sizeof(TF_DeviceListIncarnation(NULL, 0, NULL)) == sizeof(uint64_t));

static int failures = 0;

#define EXPECT(cond)                                             \
  do {                                                           \
    if (!(cond)) {                                               \
      fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, #cond); \
      ++failures;                                                \
    }                                                            \
  } while (0)

/* Whether `s` holds exactly the `n` bytes at `want`. */
static int Holds(const TF_TString *s, const char *want, size_t n) {
  return TF_TString_GetSize(s) == n && memcmp(TF_TString_GetDataPointer(s), want, n) == 0;
}

static void Visitor(const char *key, const char *value, void *capture) {
  (void)key;
  (void)value;
  (void)capture;
}

static void TestSmall(void) {
  TF_TString s;
  TF_TString_Init(&s);
  EXPECT(TF_TString_GetType(&s) == TF_TSTR_SMALL);
  EXPECT(TF_TString_GetSize(&s) == 0);
  EXPECT(TF_TString_GetCapacity(&s) == 22);
  TF_TString_Copy(&s, "hello", 5);
  EXPECT(TF_TString_GetType(&s) == TF_TSTR_SMALL);
  EXPECT(Holds(&s, "hello", 5));
  EXPECT(TF_TString_GetDataPointer(&s)[5] == '\0');
  EXPECT(s.u.raw.raw[0] == (5 << 2));
  /* The data lies inside the struct. */
  EXPECT(TF_TString_GetDataPointer(&s) == (const char *)&s + 1);
  TF_TString_Dealloc(&s);
}

static void TestLarge(void) {
  const char text[] = "a string of forty bytes, too long inline";
  const size_t n = sizeof(text) - 1;
  TF_TString s;
  EXPECT(n == 40);
  TF_TString_Init(&s);
  TF_TString_Copy(&s, text, n);
  EXPECT(TF_TString_GetType(&s) == TF_TSTR_LARGE);
  EXPECT(Holds(&s, text, n));
  EXPECT(TF_TString_GetCapacity(&s) >= n);
  EXPECT(TF_TString_GetDataPointer(&s)[n] == '\0');
  EXPECT(s.u.large.size == ((n << 2) | TF_TSTR_LARGE));
  TF_TString_Dealloc(&s);
  EXPECT(TF_TString_GetType(&s) == TF_TSTR_SMALL && TF_TString_GetSize(&s) == 0);
}

static void TestView(void) {
  static const char buffer[] = "viewed, not copied";
  TF_TString s;
  TF_TString_Init(&s);
  TF_TString_AssignView(&s, buffer, 6);
  EXPECT(TF_TString_GetType(&s) == TF_TSTR_VIEW);
  EXPECT(TF_TString_GetDataPointer(&s) == buffer);
  EXPECT(TF_TString_GetSize(&s) == 6);
  EXPECT(TF_TString_GetCapacity(&s) == 0);
  /* Writing makes an owned copy and leaves the buffer alone. */
  TF_TString_GetMutableDataPointer(&s)[0] = 'V';
  EXPECT(TF_TString_GetType(&s) == TF_TSTR_SMALL);
  EXPECT(Holds(&s, "Viewed", 6));
  EXPECT(buffer[0] == 'v');
  TF_TString_Dealloc(&s);
}

static void TestEditing(void) {
  TF_TString s, t;
  size_t i;
  int all_x = 1;
  TF_TString_Init(&s);
  TF_TString_Init(&t);
  TF_TString_Copy(&s, "abc", 3);
  TF_TString_AppendN(&s, "def", 3);
  EXPECT(Holds(&s, "abcdef", 6));
  TF_TString_Copy(&t, "0123456789012345678901234567890123456789", 40);
  TF_TString_Append(&s, &t);
  EXPECT(TF_TString_GetType(&s) == TF_TSTR_LARGE);
  EXPECT(Holds(&s, "abcdef0123456789012345678901234567890123456789", 46));
  TF_TString_Resize(&s, 60, 'x');
  EXPECT(TF_TString_GetSize(&s) == 60);
  for (i = 46; i < 60; ++i) all_x &= TF_TString_GetDataPointer(&s)[i] == 'x';
  EXPECT(all_x);
  TF_TString_Resize(&s, 4, 'y');
  EXPECT(TF_TString_GetType(&s) == TF_TSTR_SMALL);
  EXPECT(Holds(&s, "abcd", 4));
  TF_TString_Reserve(&s, 100);
  EXPECT(TF_TString_GetType(&s) == TF_TSTR_LARGE && TF_TString_GetCapacity(&s) >= 100);
  EXPECT(Holds(&s, "abcd", 4));
  TF_TString_Assign(&t, &s);
  EXPECT(Holds(&t, "abcd", 4));
  EXPECT(TF_TString_GetDataPointer(&t) != TF_TString_GetDataPointer(&s));
  TF_TString_Move(&t, &s);
  EXPECT(Holds(&t, "abcd", 4) && TF_TString_GetSize(&s) == 0);
  TF_TString_Dealloc(&s);
  TF_TString_Dealloc(&t);
}

/* A TF_STRING tensor's buffer is an array of TF_TStrings. */
static void TestArray(void) {
  TF_TString elements[3];
  size_t i;
  STATIC_CHECK(sizeof(elements) == 72);
  for (i = 0; i < 3; ++i) TF_TString_Init(&elements[i]);
  TF_TString_Copy(&elements[0], "short", 5);
  TF_TString_Copy(&elements[1], "a rather longer element than fits inline", 40);
  TF_TString_AssignView(&elements[2], "view", 4);
  EXPECT(TF_TString_GetType(&elements[0]) == TF_TSTR_SMALL);
  EXPECT(TF_TString_GetType(&elements[1]) == TF_TSTR_LARGE);
  EXPECT(TF_TString_GetType(&elements[2]) == TF_TSTR_VIEW);
  for (i = 0; i < 3; ++i) TF_TString_Dealloc(&elements[i]);
}

static void TestTypes(void) {
  TF_PayloadVisitor visitor = Visitor;
  TF_Buffer buffer = {NULL, 0, NULL};
  TF_Output output = {NULL, 1};
  TF_Input input = {NULL, 2};
  TF_AttrMetadata meta;
  TF_AllocatorAttributes attrs;
  TF_FileStatistics stats;
  TF_Code code = TF_NOT_FOUND;
  memset(&meta, 0, sizeof(meta));
  meta.type = TF_ATTR_SHAPE;
  attrs.struct_size = TF_ALLOCATOR_ATTRIBUTES_STRUCT_SIZE;
  attrs.on_host = 1;
  stats.is_directory = true;
  EXPECT(visitor == Visitor);
  EXPECT(buffer.length == 0 && output.index == 1 && input.index == 2);
  EXPECT(meta.type == TF_ATTR_SHAPE && attrs.on_host == 1 && stats.is_directory);
  EXPECT(code == TSL_NOT_FOUND);
}

int main(void) {
  TestSmall();
  TestLarge();
  TestView();
  TestEditing();
  TestArray();
  TestTypes();
  if (failures == 0) printf("headers_c_test: all checks passed\n");
  return failures == 0 ? 0 : 1;
}
