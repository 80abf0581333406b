/* Sluice's TensorFlow C API: TF_Tensor, an n-dimensional array of one data type. */
#ifndef TENSORFLOW_C_TF_TENSOR_H_
#define TENSORFLOW_C_TF_TENSOR_H_

#include <stdbool.h>
#include <stdint.h>

#include "tensorflow/c/c_api_macros.h"
#include "tensorflow/c/tf_datatype.h"
#include "tensorflow/c/tf_status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Where a tensor's memory is to be allocated. Set `struct_size` to
 * TF_ALLOCATOR_ATTRIBUTES_STRUCT_SIZE so that fields added later can be told apart. */
typedef struct TF_AllocatorAttributes {
  size_t struct_size;
  /* 1: allocate in host (CPU) memory; 0: the device's own memory. */
  TF_Bool on_host;
} TF_AllocatorAttributes;

#define TF_ALLOCATOR_ATTRIBUTES_STRUCT_SIZE TF_OFFSET_OF_END(TF_AllocatorAttributes, on_host)

/* A tensor: a data type, a shape and a buffer of elements. Opaque.
 *
 * Elements lie in row-major order: the last index varies fastest. A TF_STRING tensor holds one
 * 24-byte TF_TString per element (see tf_tstring.h); each one owns, views or embeds its bytes.
 * A tensor's buffer may be shared with other tensors (TF_TensorBitcastFrom, the session). */
typedef struct TF_Tensor TF_Tensor;

/* Returns a tensor of type `dtype` and shape `dims[0, num_dims)` over the caller's `len` bytes
 * at `data`, without copying them. The tensor takes ownership: once no tensor uses the bytes any
 * more, `deallocator(data, len, deallocator_arg)` is called (TF_DeleteTensor of the last user).
 *
 * If `data` is not aligned as TF_TensorDefaultAlignment() asks, the bytes may be copied into an
 * aligned buffer and the deallocator called at once. Returns NULL, after calling the
 * deallocator, if `len` is smaller than the number of elements times TF_DataTypeSize(dtype)
 * (for types with a fixed size). */
TF_CAPI_EXPORT extern TF_Tensor* TF_NewTensor(
    TF_DataType, const int64_t* dims, int num_dims, void* data, size_t len,
    void (*deallocator)(void* data, size_t len, void* arg), void* deallocator_arg);

/* The alignment in bytes that tensor buffers get from TF_AllocateTensor. A caller that
 * allocates its own buffer for TF_NewTensor should align it this way too. */
TF_CAPI_EXPORT extern size_t TF_TensorDefaultAlignment(void);

/* Returns a tensor of type `dtype` and shape `dims[0, num_dims)` over a new buffer of `len`
 * bytes, aligned to TF_TensorDefaultAlignment(). The contents are not initialized: write them
 * through TF_TensorData (TF_TensorByteSize bytes); for TF_STRING, initialize each element with
 * TF_TString_Init before using it. Free it with TF_DeleteTensor. */
TF_CAPI_EXPORT extern TF_Tensor* TF_AllocateTensor(TF_DataType, const int64_t* dims, int num_dims,
                                                   size_t len);

/* If `tensor` is the only user of its buffer, deletes it and returns a new tensor that takes
 * the buffer over (so the buffer may be reused in place). Otherwise returns NULL and leaves
 * `tensor` as it was. */
TF_CAPI_EXPORT extern TF_Tensor* TF_TensorMaybeMove(TF_Tensor* tensor);

/* Destroys a tensor, releasing its buffer if no other tensor uses it. Safe to call with NULL. */
TF_CAPI_EXPORT extern void TF_DeleteTensor(TF_Tensor*);

/* Returns the element type of a tensor. */
TF_CAPI_EXPORT extern TF_DataType TF_TensorType(const TF_Tensor*);

/* Gives `tensor` the shape `dims[0, num_dims)`, keeping its type and buffer. The new shape
 * should have as many elements as the old one. */
TF_CAPI_EXPORT extern void TF_SetShape(TF_Tensor* tensor, const int64_t* dims, int num_dims);

/* Returns the number of dimensions of a tensor (0 for a scalar). */
TF_CAPI_EXPORT extern int TF_NumDims(const TF_Tensor*);

/* Returns the size of dimension `dim_index` of `tensor`.
 * REQUIRES: 0 <= dim_index < TF_NumDims(tensor). */
TF_CAPI_EXPORT extern int64_t TF_Dim(const TF_Tensor* tensor, int dim_index);

/* Returns the size in bytes of a tensor's buffer. */
TF_CAPI_EXPORT extern size_t TF_TensorByteSize(const TF_Tensor*);

/* Returns a pointer to a tensor's buffer, valid while the tensor exists. It may be NULL for a
 * tensor with no elements. */
TF_CAPI_EXPORT extern void* TF_TensorData(const TF_Tensor*);

/* Returns the number of elements of a tensor: the product of its dimensions (1 for a scalar). */
TF_CAPI_EXPORT extern int64_t TF_TensorElementCount(const TF_Tensor* tensor);

/* Makes `to` a tensor of type `type` and shape `new_dims[0, num_new_dims)` that shares the
 * buffer of `from` (no copy). Both types must have a fixed size (TF_DataTypeSize != 0), and the
 * new type and shape must occupy exactly as many bytes as `from` does; otherwise sets `status`
 * to TF_INVALID_ARGUMENT and leaves `to` unchanged. Sets `status` to TF_OK on success. */
TF_CAPI_EXPORT extern void TF_TensorBitcastFrom(const TF_Tensor* from, TF_DataType type,
                                                TF_Tensor* to, const int64_t* new_dims,
                                                int num_new_dims, TF_Status* status);

/* Returns whether a tensor's buffer is aligned to TF_TensorDefaultAlignment(). */
TF_CAPI_EXPORT extern bool TF_TensorIsAligned(const TF_Tensor*);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* TENSORFLOW_C_TF_TENSOR_H_ */
