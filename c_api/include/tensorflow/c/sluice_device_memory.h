/* Device-resident tensors for TF_Session: Sluice's extension of TensorFlow's C API, so that a
 * binding can run models step after step on a GPU without copying their tensors through the
 * host (one session's output on the GPU is the next one's input there).
 *
 * TensorFlow's C API (c_api.h) has none of these functions. Their counterparts:
 *  - TF_NewTensorFromDeviceMemory: TFE_NewTensorHandleFromDeviceMemory (eager API);
 *  - TF_TensorBackingDeviceName: TFE_TensorHandleBackingDeviceName; TF_TensorData of a device
 *    tensor is its device pointer, as TFE_TensorHandleDevicePointer gives it;
 *  - TF_SessionMakeCallable, TF_SessionRunCallable, TF_SessionReleaseCallable: the session
 *    helpers of TensorFlow's Python binding (tf_session_helper.h) of the same names, over
 *    Session::MakeCallable, with TF_Tensors where those take Python objects.
 *
 * A callable is a step signature made once: TensorFlow's CallableOptions proto (feeds, fetches,
 * targets, run options, and feed_devices/fetch_devices naming, by tensor, the device whose
 * memory a feed arrives in or a fetch stays in). Feeds given a GPU there are device tensors
 * (TF_NewTensorFromDeviceMemory or a device fetch of an earlier run); fetches given one come
 * back as device tensors, sharing the run's buffer. int32, string, resource and variant values
 * live in host memory on GPUs, as in TensorFlow: such feeds and fetches are host tensors
 * whatever device the options name. With fetch_skip_sync a run may return before the GPU has
 * computed its device fetches; work on the same GPU (every session shares its stream) is
 * ordered after them.
 *
 * Device tensors never reach host code: TF_SessionRun, TF_SetAttrTensor and every other call
 * that reads a tensor's bytes refuse them (INVALID_ARGUMENT). */
#ifndef TENSORFLOW_C_SLUICE_DEVICE_MEMORY_H_
#define TENSORFLOW_C_SLUICE_DEVICE_MEMORY_H_

#include <stddef.h>
#include <stdint.h>

#include "tensorflow/c/c_api.h"
#include "tensorflow/c/c_api_macros.h"
#include "tensorflow/c/tf_buffer.h"
#include "tensorflow/c/tf_datatype.h"
#include "tensorflow/c/tf_status.h"
#include "tensorflow/c/tf_tensor.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A tensor over `len` bytes of `device_name`'s memory at `data` (a device pointer, such as
 * cudaMalloc returns), where device_name is a GPU of `session` ("/device:GPU:0" or its full
 * name). `deallocator` (may be NULL) is called with data, len and deallocator_arg when the
 * last use of the bytes ends, possibly on another thread; it is called at once when the call
 * fails. INVALID_ARGUMENT for a device the session does not have or that is not a GPU, a
 * dtype that lives in host memory there (int32, string, resource, variant), negative dims or
 * fewer bytes than the elements need. */
TF_CAPI_EXPORT extern TF_Tensor* TF_NewTensorFromDeviceMemory(
    TF_Session* session, const char* device_name, TF_DataType dtype, const int64_t* dims,
    int num_dims, void* data, size_t len, void (*deallocator)(void* data, size_t len, void* arg),
    void* deallocator_arg, TF_Status* status);

/* The full name of the device whose memory holds `tensor`'s bytes (TF_TensorData is then a
 * pointer into that device's memory), or NULL for host memory. Owned by the tensor. */
TF_CAPI_EXPORT extern const char* TF_TensorBackingDeviceName(const TF_Tensor* tensor);

/* Makes a callable from a serialized CallableOptions proto and sets *out_handle. The graph's
 * operations added since the last run are sent to the session first, as TF_SessionRun does.
 * Unknown feeds, fetches or devices are INVALID_ARGUMENT, as the session answers them. */
TF_CAPI_EXPORT extern void TF_SessionMakeCallable(TF_Session* session,
                                                  const TF_Buffer* callable_options,
                                                  int64_t* out_handle, TF_Status* status);

/* Runs callable `handle`: `feed_values` in the order of the options' feeds, `fetch_values`
 * set to new tensors (the caller deletes them) in the order of its fetches. `nfeeds` and
 * `nfetches` must be those counts. A feed in the wrong memory (a host tensor for a GPU feed,
 * a device tensor elsewhere) is INVALID_ARGUMENT naming it. run_metadata, if not NULL, must
 * be empty and receives the RunMetadata proto. On error every fetch slot is NULL. */
TF_CAPI_EXPORT extern void TF_SessionRunCallable(TF_Session* session, int64_t handle,
                                                 TF_Tensor* const* feed_values, int nfeeds,
                                                 TF_Tensor** fetch_values, int nfetches,
                                                 TF_Buffer* run_metadata, TF_Status* status);

/* Releases callable `handle` (releasing it again does nothing); runs of it are then
 * INVALID_ARGUMENT, as are calls with a handle the session never made. */
TF_CAPI_EXPORT extern void TF_SessionReleaseCallable(TF_Session* session, int64_t handle,
                                                     TF_Status* status);

#ifdef __cplusplus
} /* end extern "C" */
#endif

#endif /* TENSORFLOW_C_SLUICE_DEVICE_MEMORY_H_ */
