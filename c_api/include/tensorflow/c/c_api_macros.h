/* Sluice's TensorFlow C API: the export macro and small helpers every C API header uses. */
#ifndef TENSORFLOW_C_C_API_MACROS_H_
#define TENSORFLOW_C_C_API_MACROS_H_

/* TF_CAPI_EXPORT marks a function the shared library exports. SWIG sees no attribute; Windows
 * exports while building the library (TF_COMPILE_LIBRARY) and imports otherwise; elsewhere the
 * symbol gets default visibility, and TF_CAPI_WEAK also makes it weak. */
#ifdef SWIG
#define TF_CAPI_EXPORT
#elif defined(_WIN32)
#ifdef TF_COMPILE_LIBRARY
#define TF_CAPI_EXPORT __declspec(dllexport)
#else
#define TF_CAPI_EXPORT __declspec(dllimport)
#endif /* TF_COMPILE_LIBRARY */
#elif defined(TF_CAPI_WEAK)
#define TF_CAPI_EXPORT __attribute__((visibility("default"))) __attribute__((weak))
#else
#define TF_CAPI_EXPORT __attribute__((visibility("default")))
#endif /* SWIG, _WIN32, TF_CAPI_WEAK */

/* The C API's boolean: one unsigned byte, the same in C and C++. (TF_BOOL, in capitals, is the
 * data type of boolean tensors.) */
#ifndef TF_Bool
#define TF_Bool unsigned char
#endif /* TF_Bool */

/* The offset just past MEMBER in TYPE: the size a versioned struct has up to and including that
 * member, used to fill a `struct_size` field. Needs offsetof from <stddef.h>. */
#ifndef TF_OFFSET_OF_END
#define TF_OFFSET_OF_END(TYPE, MEMBER) (offsetof(TYPE, MEMBER) + sizeof(((TYPE *)0)->MEMBER))
#endif /* TF_OFFSET_OF_END */

#endif /* TENSORFLOW_C_C_API_MACROS_H_ */
