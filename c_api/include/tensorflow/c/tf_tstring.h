/* Sluice's TensorFlow C API: exported, non-inline entry points over TF_TString. */
#ifndef TENSORFLOW_C_TF_TSTRING_H_
#define TENSORFLOW_C_TF_TSTRING_H_

#include "tensorflow/c/c_api_macros.h"
#include "tensorflow/c/tf_tensor.h"
#include "tensorflow/core/platform/ctstring.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Each of these does exactly what the static inline TF_TString_ function of the same name does
 * (see tsl/platform/ctstring.h), as a library call, for bindings that cannot compile C. */
TF_CAPI_EXPORT extern void TF_StringInit(TF_TString *t);
TF_CAPI_EXPORT extern void TF_StringCopy(TF_TString *dst, const char *src, size_t size);
TF_CAPI_EXPORT extern void TF_StringAssignView(TF_TString *dst, const char *src, size_t size);
TF_CAPI_EXPORT extern const char *TF_StringGetDataPointer(const TF_TString *tstr);
TF_CAPI_EXPORT extern TF_TString_Type TF_StringGetType(const TF_TString *str);
TF_CAPI_EXPORT extern size_t TF_StringGetSize(const TF_TString *tstr);
TF_CAPI_EXPORT extern size_t TF_StringGetCapacity(const TF_TString *str);
TF_CAPI_EXPORT extern void TF_StringDealloc(TF_TString *tstr);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* TENSORFLOW_C_TF_TSTRING_H_ */
