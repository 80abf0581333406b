/* Sluice's eager C API (TensorFlow's tensorflow/c/eager/c_api.h): run one operation at a time on
 * tensors, without building a graph first. cppflow, tfjs-node and other bindings sit on it.
 *
 * A TFE_Context holds what operations share: devices, variables and other resources, and the
 * functions added to it. A TFE_TensorHandle is an immutable tensor with the name of the device
 * that produced it. A TFE_Op is one operation being described: its type (an op or a function of
 * the context), attrs, inputs and device; TFE_Execute runs it and returns new handles.
 *
 * The conventions of c_api.h hold: objects are deleted by the matching TFE_Delete... (which
 * accepts NULL), a TF_Status reports the outcome of each call that takes one, and strings
 * returned belong to the object they came from. Execution is synchronous: TFE_Execute returns
 * when the outputs are computed, and reports the operation's error itself. */
#ifndef TENSORFLOW_C_EAGER_C_API_H_
#define TENSORFLOW_C_EAGER_C_API_H_

#include <stddef.h>
#include <stdint.h>

#include "tensorflow/c/c_api.h"
#include "tensorflow/c/c_api_macros.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------------------------------------
 * Contexts. */

/* The options a context is made with: a ConfigProto, async mode and the placement policy. */
typedef struct TFE_ContextOptions TFE_ContextOptions;

/* Returns new default options. */
TF_CAPI_EXPORT extern TFE_ContextOptions* TFE_NewContextOptions(void);

/* Sets the configuration from `proto_len` bytes of a serialized ConfigProto (device counts,
 * thread pools...). Sets `status` to an error, leaving `options` unchanged, if they do not
 * parse. */
TF_CAPI_EXPORT extern void TFE_ContextOptionsSetConfig(TFE_ContextOptions* options,
                                                       const void* proto, size_t proto_len,
                                                       TF_Status* status);

/* What happens when an operation's input lives on another device than the operation. */
typedef enum TFE_ContextDevicePlacementPolicy {
  /* Refuse to run the operation. */
  TFE_DEVICE_PLACEMENT_EXPLICIT = 0,
  /* Copy the input, with a warning. */
  TFE_DEVICE_PLACEMENT_WARN = 1,
  /* Copy the input silently (the default). */
  TFE_DEVICE_PLACEMENT_SILENT = 2,
  /* Copy int32 inputs silently and refuse the others. */
  TFE_DEVICE_PLACEMENT_SILENT_FOR_INT32 = 3,
} TFE_ContextDevicePlacementPolicy;

/* Asks for asynchronous execution (nonzero) or not. Sluice runs every operation synchronously,
 * which an asynchronous caller cannot tell apart except by when errors arrive. */
TF_CAPI_EXPORT extern void TFE_ContextOptionsSetAsync(TFE_ContextOptions*, unsigned char enable);

/* Sets the placement policy of contexts made with these options. */
TF_CAPI_EXPORT extern void TFE_ContextOptionsSetDevicePlacementPolicy(
    TFE_ContextOptions*, TFE_ContextDevicePlacementPolicy);

/* Destroys context options. */
TF_CAPI_EXPORT extern void TFE_DeleteContextOptions(TFE_ContextOptions*);

/* What eager operations run in. A context may be used from several threads at once. */
typedef struct TFE_Context TFE_Context;

/* Returns a new context, or NULL with `status` set if its devices cannot be made. */
TF_CAPI_EXPORT extern TFE_Context* TFE_NewContext(const TFE_ContextOptions* opts,
                                                  TF_Status* status);

/* Destroys a context and the resources (variables...) it holds. Handles made in it stay
 * valid; operations made in it must be deleted first. */
TF_CAPI_EXPORT extern void TFE_DeleteContext(TFE_Context* ctx);

/* The context's devices; the caller deletes the list with TF_DeleteDeviceList. */
TF_CAPI_EXPORT extern TF_DeviceList* TFE_ContextListDevices(TFE_Context* ctx, TF_Status* status);

/* Drops the prepared operations the context keeps to run repeated operations fast. */
TF_CAPI_EXPORT extern void TFE_ContextClearCaches(TFE_Context* ctx);

/* Sets the placement policy for the calling thread only. */
TF_CAPI_EXPORT extern void TFE_ContextSetThreadLocalDevicePlacementPolicy(
    TFE_Context* ctx, TFE_ContextDevicePlacementPolicy policy);

/* The placement policy in force for the calling thread. */
TF_CAPI_EXPORT extern TFE_ContextDevicePlacementPolicy TFE_ContextGetDevicePlacementPolicy(
    TFE_Context* ctx);

/* Makes the context part of a cluster described by a serialized ServerDef. Sluice runs in one
 * process: UNIMPLEMENTED. */
TF_CAPI_EXPORT extern void TFE_ContextSetServerDef(TFE_Context* ctx, int keep_alive_secs,
                                                   const void* proto, size_t proto_len,
                                                   TF_Status* status);

/* ---------------------------------------------------------------------------------------------
 * Tensor handles. */

/* An immutable tensor and the device that produced it. */
typedef struct TFE_TensorHandle TFE_TensorHandle;

/* Returns a handle to the contents of `t`, on the host CPU. The handle shares the bytes of
 * fixed-size tensors (the caller must not change them afterwards) and copies strings; `t`
 * itself stays the caller's. */
TF_CAPI_EXPORT extern TFE_TensorHandle* TFE_NewTensorHandle(const TF_Tensor* t, TF_Status* status);

/* Destroys a handle; the tensor lives on while other handles or operations hold it. */
TF_CAPI_EXPORT extern void TFE_DeleteTensorHandle(TFE_TensorHandle* h);

/* The element type, rank, element count and one dimension of the handle's tensor. */
TF_CAPI_EXPORT extern TF_DataType TFE_TensorHandleDataType(TFE_TensorHandle* h);
TF_CAPI_EXPORT extern int TFE_TensorHandleNumDims(TFE_TensorHandle* h, TF_Status* status);
TF_CAPI_EXPORT extern int64_t TFE_TensorHandleNumElements(TFE_TensorHandle* h, TF_Status* status);
/* INVALID_ARGUMENT (and -1) for a dimension index outside [0, rank). */
TF_CAPI_EXPORT extern int64_t TFE_TensorHandleDim(TFE_TensorHandle* h, int dim_index,
                                                  TF_Status* status);

/* The full name of the device that produced the tensor, and of the device whose memory holds
 * it; both belong to the handle. */
TF_CAPI_EXPORT extern const char* TFE_TensorHandleDeviceName(TFE_TensorHandle* h,
                                                             TF_Status* status);
TF_CAPI_EXPORT extern const char* TFE_TensorHandleBackingDeviceName(TFE_TensorHandle* h,
                                                                    TF_Status* status);

/* A new handle to the same tensor. */
TF_CAPI_EXPORT extern TFE_TensorHandle* TFE_TensorHandleCopySharingTensor(TFE_TensorHandle* h,
                                                                          TF_Status* status);

/* A new TF_Tensor with the handle's contents (sharing fixed-size bytes); the caller deletes it
 * with TF_DeleteTensor. */
TF_CAPI_EXPORT extern TF_Tensor* TFE_TensorHandleResolve(TFE_TensorHandle* h, TF_Status* status);

/* A new handle with the tensor on the device named `device_name` of `ctx`. */
TF_CAPI_EXPORT extern TFE_TensorHandle* TFE_TensorHandleCopyToDevice(TFE_TensorHandle* h,
                                                                     TFE_Context* ctx,
                                                                     const char* device_name,
                                                                     TF_Status* status);

/* How a tensor is laid out on its device: for Sluice's devices, its own dims. */
typedef struct TFE_TensorDebugInfo TFE_TensorDebugInfo;

TF_CAPI_EXPORT extern TFE_TensorDebugInfo* TFE_TensorHandleTensorDebugInfo(TFE_TensorHandle* h,
                                                                           TF_Status* status);
TF_CAPI_EXPORT extern void TFE_DeleteTensorDebugInfo(TFE_TensorDebugInfo* debug_info);
TF_CAPI_EXPORT extern int TFE_TensorDebugInfoOnDeviceNumDims(TFE_TensorDebugInfo* debug_info);
TF_CAPI_EXPORT extern int64_t TFE_TensorDebugInfoOnDeviceDim(TFE_TensorDebugInfo* debug_info,
                                                             int dim_index);

/* ---------------------------------------------------------------------------------------------
 * Operations. */

/* One operation to run: its type, attrs, inputs and device. */
typedef struct TFE_Op TFE_Op;

/* Starts an operation of type `op_or_function_name`: a registered op or a function added to
 * `ctx`. NOT_FOUND if it is neither. */
TF_CAPI_EXPORT extern TFE_Op* TFE_NewOp(TFE_Context* ctx, const char* op_or_function_name,
                                        TF_Status* status);

/* Destroys an operation (the handles given as its inputs stay the caller's). */
TF_CAPI_EXPORT extern void TFE_DeleteOp(TFE_Op* op);

/* The operation's type, and the context it was made in. */
TF_CAPI_EXPORT extern const char* TFE_OpGetName(const TFE_Op* op, TF_Status* status);
TF_CAPI_EXPORT extern TFE_Context* TFE_OpGetContext(const TFE_Op* op, TF_Status* status);

/* Sets the device the operation runs on ("/device:CPU:0", "/job:localhost/.../device:CPU:0";
 * "" lets the context choose). INVALID_ARGUMENT for a name that does not parse. */
TF_CAPI_EXPORT extern void TFE_OpSetDevice(TFE_Op* op, const char* device_name, TF_Status* status);
/* The device name as set, "" if none. */
TF_CAPI_EXPORT extern const char* TFE_OpGetDevice(const TFE_Op* op, TF_Status* status);

/* Adds the next input: a single tensor for the next input argument of the op. The type attrs
 * the argument names are inferred from the handle's dtype unless set. The operation keeps its
 * own reference to the tensor. */
TF_CAPI_EXPORT extern void TFE_OpAddInput(TFE_Op* op, TFE_TensorHandle* input, TF_Status* status);
/* Adds `num_inputs` handles as the next input argument, which must be a list; its length and
 * type attrs are inferred unless set. */
TF_CAPI_EXPORT extern void TFE_OpAddInputList(TFE_Op* op, TFE_TensorHandle** inputs, int num_inputs,
                                              TF_Status* status);

/* The inputs added so far, flattened; the handle returned belongs to the operation. */
TF_CAPI_EXPORT extern int TFE_OpGetFlatInputCount(const TFE_Op* op, TF_Status* status);
TF_CAPI_EXPORT extern TFE_TensorHandle* TFE_OpGetFlatInput(const TFE_Op* op, int index,
                                                           TF_Status* status);

/* The type of attr `attr_name` of the operation (or of op `op_or_function_name`), and in
 * *is_list whether it is a list. INVALID_ARGUMENT for an attr the op does not have. */
TF_CAPI_EXPORT extern TF_AttrType TFE_OpGetAttrType(TFE_Op* op, const char* attr_name,
                                                    unsigned char* is_list, TF_Status* status);
TF_CAPI_EXPORT extern TF_AttrType TFE_OpNameGetAttrType(TFE_Context* ctx,
                                                        const char* op_or_function_name,
                                                        const char* attr_name,
                                                        unsigned char* is_list, TF_Status* status);

/* Attr setters. Values are copied. An attr the op does not declare is ignored, as TensorFlow
 * ignores it; a value of the wrong kind fails at TFE_Execute. */
TF_CAPI_EXPORT extern void TFE_OpSetAttrString(TFE_Op* op, const char* attr_name, const void* value,
                                               size_t length);
TF_CAPI_EXPORT extern void TFE_OpSetAttrInt(TFE_Op* op, const char* attr_name, int64_t value);
TF_CAPI_EXPORT extern void TFE_OpSetAttrFloat(TFE_Op* op, const char* attr_name, float value);
TF_CAPI_EXPORT extern void TFE_OpSetAttrBool(TFE_Op* op, const char* attr_name,
                                             unsigned char value);
TF_CAPI_EXPORT extern void TFE_OpSetAttrType(TFE_Op* op, const char* attr_name, TF_DataType value);
/* num_dims = -1 for an unknown rank, -1 in `dims` for an unknown dimension. INVALID_ARGUMENT
 * for more than 254 dimensions. */
TF_CAPI_EXPORT extern void TFE_OpSetAttrShape(TFE_Op* op, const char* attr_name,
                                              const int64_t* dims, const int num_dims,
                                              TF_Status* out_status);
/* A function attr: the function `value` names (its type), with its attrs. */
TF_CAPI_EXPORT extern void TFE_OpSetAttrFunction(TFE_Op* op, const char* attr_name,
                                                 const TFE_Op* value);
TF_CAPI_EXPORT void TFE_OpSetAttrFunctionName(TFE_Op* op, const char* attr_name, const char* data,
                                              size_t length);
TF_CAPI_EXPORT extern void TFE_OpSetAttrTensor(TFE_Op* op, const char* attr_name, TF_Tensor* tensor,
                                               TF_Status* status);
TF_CAPI_EXPORT extern void TFE_OpSetAttrStringList(TFE_Op* op, const char* attr_name,
                                                   const void* const* values, const size_t* lengths,
                                                   int num_values);
TF_CAPI_EXPORT extern void TFE_OpSetAttrIntList(TFE_Op* op, const char* attr_name,
                                                const int64_t* values, int num_values);
TF_CAPI_EXPORT extern void TFE_OpSetAttrFloatList(TFE_Op* op, const char* attr_name,
                                                  const float* values, int num_values);
TF_CAPI_EXPORT extern void TFE_OpSetAttrBoolList(TFE_Op* op, const char* attr_name,
                                                 const unsigned char* values, int num_values);
TF_CAPI_EXPORT extern void TFE_OpSetAttrTypeList(TFE_Op* op, const char* attr_name,
                                                 const TF_DataType* values, int num_values);
TF_CAPI_EXPORT extern void TFE_OpSetAttrShapeList(TFE_Op* op, const char* attr_name,
                                                  const int64_t** dims, const int* num_dims,
                                                  int num_values, TF_Status* out_status);
TF_CAPI_EXPORT extern void TFE_OpSetAttrFunctionList(TFE_Op* op, const char* attr_name,
                                                     const TFE_Op** value, int num_values);

/* How many tensors the input or output argument named `input_name`/`output_name` takes, as
 * the attrs set so far make it. INVALID_ARGUMENT for an argument the op does not have. */
TF_CAPI_EXPORT extern int TFE_OpGetInputLength(TFE_Op* op, const char* input_name,
                                               TF_Status* status);
TF_CAPI_EXPORT extern int TFE_OpGetOutputLength(TFE_Op* op, const char* output_name,
                                                TF_Status* status);

/* Runs the operation. `retvals` has room for *num_retvals handles; on success *num_retvals is
 * set to the number of outputs and retvals[0, *num_retvals) to new handles the caller deletes.
 * INVALID_ARGUMENT when the operation has more outputs than that ("Expecting N outputs, but
 * *num_retvals is M"), for inputs whose number or types the op does not take, and for an
 * invalid attr; the operation's own error otherwise. The operation may be run again. */
TF_CAPI_EXPORT extern void TFE_Execute(TFE_Op* op, TFE_TensorHandle** retvals, int* num_retvals,
                                       TF_Status* status);

/* ---------------------------------------------------------------------------------------------
 * Functions. */

/* Adds the function in `size` bytes of a serialized FunctionDef to the context, to be run by
 * TFE_NewOp with its name or called from other functions. */
TF_CAPI_EXPORT extern void TFE_ContextAddFunctionDef(TFE_Context* ctx,
                                                     const char* serialized_function_def,
                                                     size_t size, TF_Status* status);
/* The same for a TF_Function (which stays the caller's). */
TF_CAPI_EXPORT extern void TFE_ContextAddFunction(TFE_Context* ctx, TF_Function* function,
                                                  TF_Status* status);
/* Removes the function named `name`: INVALID_ARGUMENT if the context has none. */
TF_CAPI_EXPORT extern void TFE_ContextRemoveFunction(TFE_Context* ctx, const char* name,
                                                     TF_Status* status);
/* 1 if the context has a function named `name`. */
TF_CAPI_EXPORT unsigned char TFE_ContextHasFunction(TFE_Context* ctx, const char* name);

/* ---------------------------------------------------------------------------------------------
 * Run metadata and steps. */

/* Starts and stops collecting the step stats of the operations run. */
TF_CAPI_EXPORT extern void TFE_ContextEnableRunMetadata(TFE_Context* ctx);
TF_CAPI_EXPORT extern void TFE_ContextDisableRunMetadata(TFE_Context* ctx);
/* Writes the RunMetadata collected since the last export into `buf` (which must be empty),
 * and starts collecting anew. */
TF_CAPI_EXPORT extern void TFE_ContextExportRunMetadata(TFE_Context* ctx, TF_Buffer* buf,
                                                        TF_Status* status);

/* Mark the start and end of a step: a group of operations whose step-scoped resources may be
 * dropped at its end. Calls nest. */
TF_CAPI_EXPORT extern void TFE_ContextStartStep(TFE_Context* ctx);
TF_CAPI_EXPORT extern void TFE_ContextEndStep(TFE_Context* ctx);

#ifdef __cplusplus
} /* end extern "C" */
#endif

#endif /* TENSORFLOW_C_EAGER_C_API_H_ */
