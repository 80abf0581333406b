/* Sluice's TensorFlow C API: graphs, operations, functions, sessions and plugins, in C. */
#ifndef TENSORFLOW_C_C_API_H_
#define TENSORFLOW_C_C_API_H_

#include <stddef.h>
#include <stdint.h>

#include "tensorflow/c/c_api_macros.h"
#include "tensorflow/c/tf_attrtype.h"
#include "tensorflow/c/tf_buffer.h"
#include "tensorflow/c/tf_datatype.h"
#include "tensorflow/c/tf_status.h"
#include "tensorflow/c/tf_tensor.h"
#include "tensorflow/c/tf_tstring.h"

/* Conventions of the whole API:
 *  - Every name starts with TF_. Objects are opaque structs, handled through pointers, created
 *    by a TF_New... call and destroyed by the matching TF_Delete... call, which accepts NULL.
 *  - A call that takes a TF_Status* sets it to TF_OK on success and to the error otherwise; on
 *    error, pointer results are NULL unless stated.
 *  - Booleans are unsigned char (0 or 1), not bool, so that C and C++ callers agree on their
 *    size. Byte sizes are size_t; indices and counts are int.
 *  - Strings passed in are copied unless stated; strings returned are owned by the object they
 *    came from and stay valid until it changes or is destroyed.
 *  - Protocol buffers cross the API serialized, in a TF_Buffer or as (pointer, length). */

#ifdef __cplusplus
extern "C" {
#endif

/* Returns the version of the TensorFlow API this library implements, e.g. "2.21.0". */
TF_CAPI_EXPORT extern const char* TF_Version(void);

/* Parses the serialized TensorProto in `from` and makes `to` hold its type, shape and values. */
TF_CAPI_EXPORT extern void TF_TensorFromProto(const TF_Buffer* from, TF_Tensor* to,
                                              TF_Status* status);

/* A string returned by the API without a NUL: `len` bytes at `data`, owned by the API. */
typedef struct TF_StringView {
  const char* data;
  size_t len;
} TF_StringView;

/* ---------------------------------------------------------------------------------------------
 * Session options. */

/* The options a session is created with (a target and a ConfigProto). */
typedef struct TF_SessionOptions TF_SessionOptions;

/* Returns new default options (local target, default ConfigProto). */
TF_CAPI_EXPORT extern TF_SessionOptions* TF_NewSessionOptions(void);

/* Sets the target the session runs on: "" or "local" for this process, or a comma-separated
 * list of "host:port" addresses. */
TF_CAPI_EXPORT extern void TF_SetTarget(TF_SessionOptions* options, const char* target);

/* Sets the configuration from `proto_len` bytes of a serialized ConfigProto at `proto`. Sets
 * `status` to an error, and leaves `options` unchanged, if the bytes do not parse. */
TF_CAPI_EXPORT extern void TF_SetConfig(TF_SessionOptions* options, const void* proto,
                                        size_t proto_len, TF_Status* status);

/* Destroys session options. */
TF_CAPI_EXPORT extern void TF_DeleteSessionOptions(TF_SessionOptions*);

/* ---------------------------------------------------------------------------------------------
 * Graphs and building operations. */

/* A computation graph. Several threads may add operations and read the graph at once; a graph
 * may be shared by several sessions. */
typedef struct TF_Graph TF_Graph;

/* Returns a new empty graph. */
TF_CAPI_EXPORT extern TF_Graph* TF_NewGraph(void);

/* Drops the caller's reference to a graph. The graph is freed once no session uses it either. */
TF_CAPI_EXPORT extern void TF_DeleteGraph(TF_Graph*);

/* An operation under construction; TF_FinishOperation adds it to its graph and frees it. The
 * graph must outlive it. */
typedef struct TF_OperationDescription TF_OperationDescription;

/* An operation of a graph. Owned by the graph and valid until the graph is freed; adding more
 * operations does not invalidate it. */
typedef struct TF_Operation TF_Operation;

/* Input number `index` of `oper`. */
typedef struct TF_Input {
  TF_Operation* oper;
  int index;
} TF_Input;

/* Output number `index` of `oper`. */
typedef struct TF_Output {
  TF_Operation* oper;
  int index;
} TF_Output;

/* A function: a graph fragment with named inputs and outputs. Once copied into a graph, it is
 * called by an operation whose type is the function's name. */
typedef struct TF_Function TF_Function;

/* Options for TF_GraphToFunction. None are defined; pass NULL. */
typedef struct TF_FunctionOptions TF_FunctionOptions;

/* Merges the shape `dims[0, num_dims)` into what `graph` knows of the shape of `output`. Use
 * num_dims = -1 (dims may be NULL) for an unknown rank and -1 in `dims` for an unknown
 * dimension; e.g. [-1, 2] merged into [2, -1] gives [2, 2]. Sets `status` to an error if
 * `output` is not in `graph` or the shapes are incompatible. */
TF_CAPI_EXPORT extern void TF_GraphSetTensorShape(TF_Graph* graph, TF_Output output,
                                                  const int64_t* dims, const int num_dims,
                                                  TF_Status* status);

/* Returns the rank of `output` as `graph` knows it, or -1 if the rank is unknown. Sets `status`
 * to an error if `output` is not in `graph`. */
TF_CAPI_EXPORT extern int TF_GraphGetTensorNumDims(TF_Graph* graph, TF_Output output,
                                                   TF_Status* status);

/* Writes the known shape of `output` into `dims[0, num_dims)`, -1 for an unknown dimension.
 * `num_dims` must be the rank from TF_GraphGetTensorNumDims; `dims` is left untouched for an
 * unknown rank or a scalar. Sets `status` to an error if `output` is not in `graph` or
 * `num_dims` is not its rank. */
TF_CAPI_EXPORT extern void TF_GraphGetTensorShape(TF_Graph* graph, TF_Output output, int64_t* dims,
                                                  int num_dims, TF_Status* status);

/* As TF_NewOperation, for a caller that already holds the lock of `graph` (e.g. a gradient
 * function building operations during TF_AddGradients). */
TF_CAPI_EXPORT extern TF_OperationDescription* TF_NewOperationLocked(TF_Graph* graph,
                                                                     const char* op_type,
                                                                     const char* oper_name);

/* Starts an operation of type `op_type` named `oper_name` in `graph`. Nothing is added to the
 * graph until TF_FinishOperation succeeds. */
TF_CAPI_EXPORT extern TF_OperationDescription* TF_NewOperation(TF_Graph* graph, const char* op_type,
                                                               const char* oper_name);

/* Sets the requested device of the operation; "" (the default) leaves placement free. */
TF_CAPI_EXPORT extern void TF_SetDevice(TF_OperationDescription* desc, const char* device);

/* Inputs are added in the order, number and types of the op's registered input arguments: one
 * TF_AddInput for an argument that is a single tensor, one TF_AddInputList for an argument that
 * is a list (even a list of one). E.g. for Concat(concat_dim: int32, values: N * T), call
 * TF_AddInput once, then TF_AddInputList once with the N values. */

/* Adds `input` as the next single-tensor input argument. */
TF_CAPI_EXPORT extern void TF_AddInput(TF_OperationDescription* desc, TF_Output input);

/* Adds `inputs[0, num_inputs)` as the next list input argument. */
TF_CAPI_EXPORT extern void TF_AddInputList(TF_OperationDescription* desc, const TF_Output* inputs,
                                           int num_inputs);

/* Makes the operation run only after `input` has run. */
TF_CAPI_EXPORT extern void TF_AddControlInput(TF_OperationDescription* desc, TF_Operation* input);

/* Asks that the operation be placed on the same device as `op`. */
TF_CAPI_EXPORT extern void TF_ColocateWith(TF_OperationDescription* desc, TF_Operation* op);

/* Attribute setters. Set every attribute that is neither inferred from the inputs nor left at its
 * default. A setter replaces an earlier value of the same attribute. Arrays are copied. */

/* A string attribute of `length` bytes at `value` (not NUL-terminated). */
TF_CAPI_EXPORT extern void TF_SetAttrString(TF_OperationDescription* desc, const char* attr_name,
                                            const void* value, size_t length);
/* A list of `num_values` strings: string i is `lengths[i]` bytes at `values[i]`. */
TF_CAPI_EXPORT extern void TF_SetAttrStringList(TF_OperationDescription* desc,
                                                const char* attr_name, const void* const* values,
                                                const size_t* lengths, int num_values);
TF_CAPI_EXPORT extern void TF_SetAttrInt(TF_OperationDescription* desc, const char* attr_name,
                                         int64_t value);
TF_CAPI_EXPORT extern void TF_SetAttrIntList(TF_OperationDescription* desc, const char* attr_name,
                                             const int64_t* values, int num_values);
TF_CAPI_EXPORT extern void TF_SetAttrFloat(TF_OperationDescription* desc, const char* attr_name,
                                           float value);
TF_CAPI_EXPORT extern void TF_SetAttrFloatList(TF_OperationDescription* desc, const char* attr_name,
                                               const float* values, int num_values);
TF_CAPI_EXPORT extern void TF_SetAttrBool(TF_OperationDescription* desc, const char* attr_name,
                                          unsigned char value);
TF_CAPI_EXPORT extern void TF_SetAttrBoolList(TF_OperationDescription* desc, const char* attr_name,
                                              const unsigned char* values, int num_values);
TF_CAPI_EXPORT extern void TF_SetAttrType(TF_OperationDescription* desc, const char* attr_name,
                                          TF_DataType value);
TF_CAPI_EXPORT extern void TF_SetAttrTypeList(TF_OperationDescription* desc, const char* attr_name,
                                              const TF_DataType* values, int num_values);
/* Makes the attribute refer to the attribute `placeholder` of the enclosing function. */
TF_CAPI_EXPORT extern void TF_SetAttrPlaceholder(TF_OperationDescription* desc,
                                                 const char* attr_name, const char* placeholder);

/* A function attribute naming the function of `length` bytes at `value`. */
TF_CAPI_EXPORT extern void TF_SetAttrFuncName(TF_OperationDescription* desc, const char* attr_name,
                                              const char* value, size_t length);

/* A shape attribute of `num_dims` dimensions at `dims`; num_dims = -1 means an unknown rank and
 * a dimension of -1 an unknown size. */
TF_CAPI_EXPORT extern void TF_SetAttrShape(TF_OperationDescription* desc, const char* attr_name,
                                           const int64_t* dims, int num_dims);
/* A list of `num_shapes` shapes: shape i has `num_dims[i]` dimensions at `dims[i]` (-1 as in
 * TF_SetAttrShape). */
TF_CAPI_EXPORT extern void TF_SetAttrShapeList(TF_OperationDescription* desc, const char* attr_name,
                                               const int64_t* const* dims, const int* num_dims,
                                               int num_shapes);
/* A shape attribute from `proto_len` bytes of a serialized TensorShapeProto. Sets `status` to
 * an error if they do not parse. */
TF_CAPI_EXPORT extern void TF_SetAttrTensorShapeProto(TF_OperationDescription* desc,
                                                      const char* attr_name, const void* proto,
                                                      size_t proto_len, TF_Status* status);
/* A list of `num_shapes` shapes, shape i serialized in `proto_lens[i]` bytes at `protos[i]`. */
TF_CAPI_EXPORT extern void TF_SetAttrTensorShapeProtoList(TF_OperationDescription* desc,
                                                          const char* attr_name,
                                                          const void* const* protos,
                                                          const size_t* proto_lens, int num_shapes,
                                                          TF_Status* status);

/* A tensor attribute holding a copy of `value`, which the caller still owns. */
TF_CAPI_EXPORT extern void TF_SetAttrTensor(TF_OperationDescription* desc, const char* attr_name,
                                            TF_Tensor* value, TF_Status* status);
/* A list of `num_values` tensors, copied as in TF_SetAttrTensor. */
TF_CAPI_EXPORT extern void TF_SetAttrTensorList(TF_OperationDescription* desc,
                                                const char* attr_name, TF_Tensor* const* values,
                                                int num_values, TF_Status* status);

/* Any attribute, from `proto_len` bytes of a serialized AttrValue at `proto`. Sets `status` to
 * an error if they do not parse. */
TF_CAPI_EXPORT extern void TF_SetAttrValueProto(TF_OperationDescription* desc,
                                                const char* attr_name, const void* proto,
                                                size_t proto_len, TF_Status* status);

/* As TF_FinishOperation, for a caller that already holds the lock of the graph. */
TF_CAPI_EXPORT extern TF_Operation* TF_FinishOperationLocked(TF_OperationDescription* desc,
                                                             TF_Status* status);

/* Validates the operation (its op is registered, its inputs and attributes match the op, its
 * name is new in the graph), runs shape inference and adds it to the graph. Returns the new
 * operation, valid until the graph is freed. On error returns NULL and leaves the graph
 * unchanged. Frees `desc` in both cases. */
TF_CAPI_EXPORT extern TF_Operation* TF_FinishOperation(TF_OperationDescription* desc,
                                                       TF_Status* status);

/* ---------------------------------------------------------------------------------------------
 * Reading operations. An operation does not change once it is added, except that new consumers
 * may appear as operations are added. */

/* The name, op type and requested device ("" if none) of `oper`, owned by the graph. */
TF_CAPI_EXPORT extern const char* TF_OperationName(TF_Operation* oper);
TF_CAPI_EXPORT extern const char* TF_OperationOpType(TF_Operation* oper);
TF_CAPI_EXPORT extern const char* TF_OperationDevice(TF_Operation* oper);

/* The number of outputs of `oper`, the type of one of them, and the number of outputs the
 * output argument `arg_name` expands to (an error if there is no such argument). */
TF_CAPI_EXPORT extern int TF_OperationNumOutputs(TF_Operation* oper);
TF_CAPI_EXPORT extern TF_DataType TF_OperationOutputType(TF_Output oper_out);
TF_CAPI_EXPORT extern int TF_OperationOutputListLength(TF_Operation* oper, const char* arg_name,
                                                       TF_Status* status);

/* The same three for inputs. */
TF_CAPI_EXPORT extern int TF_OperationNumInputs(TF_Operation* oper);
TF_CAPI_EXPORT extern TF_DataType TF_OperationInputType(TF_Input oper_in);
TF_CAPI_EXPORT extern int TF_OperationInputListLength(TF_Operation* oper, const char* arg_name,
                                                      TF_Status* status);

/* Returns the output that feeds input `oper_in`. */
TF_CAPI_EXPORT extern TF_Output TF_OperationInput(TF_Input oper_in);

/* Writes the outputs feeding the inputs of `oper`, in input order, into `inputs`, at most
 * `max_inputs` of them (TF_OperationNumInputs is enough). */
TF_CAPI_EXPORT extern void TF_OperationAllInputs(TF_Operation* oper, TF_Output* inputs,
                                                 int max_inputs);

/* Returns how many inputs `oper_out` currently feeds. */
TF_CAPI_EXPORT extern int TF_OperationOutputNumConsumers(TF_Output oper_out);

/* Writes up to `max_consumers` of the inputs `oper_out` feeds into `consumers` and returns how
 * many it feeds in all. */
TF_CAPI_EXPORT extern int TF_OperationOutputConsumers(TF_Output oper_out, TF_Input* consumers,
                                                      int max_consumers);

/* Returns the number of control inputs of `oper`. */
TF_CAPI_EXPORT extern int TF_OperationNumControlInputs(TF_Operation* oper);

/* Writes up to `max_control_inputs` control inputs of `oper` into `control_inputs` and returns
 * how many it has in all. */
TF_CAPI_EXPORT extern int TF_OperationGetControlInputs(TF_Operation* oper,
                                                       TF_Operation** control_inputs,
                                                       int max_control_inputs);

/* Returns the number of operations that have `oper` as a control input. */
TF_CAPI_EXPORT extern int TF_OperationNumControlOutputs(TF_Operation* oper);

/* Writes up to `max_control_outputs` operations that have `oper` as a control input into
 * `control_outputs` and returns how many there are in all. */
TF_CAPI_EXPORT extern int TF_OperationGetControlOutputs(TF_Operation* oper,
                                                        TF_Operation** control_outputs,
                                                        int max_control_outputs);

/* What an attribute holds, for sizing the arrays passed to the getters below. */
typedef struct TF_AttrMetadata {
  /* 1 if the value is a list, 0 if it is a single value. */
  unsigned char is_list;
  /* The number of elements of a list; undefined for a single value. */
  int64_t list_size;
  /* The type of the value, or of each element of a list. */
  TF_AttrType type;
  /* For strings, the byte length (of all the strings of a list together); for shapes, the
   * rank, -1 if unknown (the sum of the ranks for a list); otherwise undefined. */
  int64_t total_size;
} TF_AttrMetadata;

/* Returns what the attribute `attr_name` of `oper` holds. */
TF_CAPI_EXPORT extern TF_AttrMetadata TF_OperationGetAttrMetadata(TF_Operation* oper,
                                                                  const char* attr_name,
                                                                  TF_Status* status);

/* Attribute getters. Each sets `status` to an error if `oper` has no attribute `attr_name` or
 * it holds another type. List getters write at most `max_values` elements. */

/* Copies at most `max_length` bytes of a string attribute into `value` (no NUL is added). */
TF_CAPI_EXPORT extern void TF_OperationGetAttrString(TF_Operation* oper, const char* attr_name,
                                                     void* value, size_t max_length,
                                                     TF_Status* status);

/* Copies the strings of a list attribute into `storage` (`storage_size` bytes) and sets
 * `values[i]` and `lengths[i]` to where string i lies and its length. An error if `storage` is
 * too small; TF_AttrMetadata's list_size and total_size give the sizes needed. */
TF_CAPI_EXPORT extern void TF_OperationGetAttrStringList(TF_Operation* oper, const char* attr_name,
                                                         void** values, size_t* lengths,
                                                         int max_values, void* storage,
                                                         size_t storage_size, TF_Status* status);

TF_CAPI_EXPORT extern void TF_OperationGetAttrInt(TF_Operation* oper, const char* attr_name,
                                                  int64_t* value, TF_Status* status);
TF_CAPI_EXPORT extern void TF_OperationGetAttrIntList(TF_Operation* oper, const char* attr_name,
                                                      int64_t* values, int max_values,
                                                      TF_Status* status);
TF_CAPI_EXPORT extern void TF_OperationGetAttrFloat(TF_Operation* oper, const char* attr_name,
                                                    float* value, TF_Status* status);
TF_CAPI_EXPORT extern void TF_OperationGetAttrFloatList(TF_Operation* oper, const char* attr_name,
                                                        float* values, int max_values,
                                                        TF_Status* status);
TF_CAPI_EXPORT extern void TF_OperationGetAttrBool(TF_Operation* oper, const char* attr_name,
                                                   unsigned char* value, TF_Status* status);
TF_CAPI_EXPORT extern void TF_OperationGetAttrBoolList(TF_Operation* oper, const char* attr_name,
                                                       unsigned char* values, int max_values,
                                                       TF_Status* status);
TF_CAPI_EXPORT extern void TF_OperationGetAttrType(TF_Operation* oper, const char* attr_name,
                                                   TF_DataType* value, TF_Status* status);
TF_CAPI_EXPORT extern void TF_OperationGetAttrTypeList(TF_Operation* oper, const char* attr_name,
                                                       TF_DataType* values, int max_values,
                                                       TF_Status* status);

/* Writes at most `num_dims` dimensions of a shape attribute into `value` (-1 for an unknown
 * dimension); TF_AttrMetadata's total_size gives the rank. */
TF_CAPI_EXPORT extern void TF_OperationGetAttrShape(TF_Operation* oper, const char* attr_name,
                                                    int64_t* value, int num_dims,
                                                    TF_Status* status);

/* Writes the dimensions of a list of shapes into `storage` (`storage_size` int64_ts) and sets
 * `dims[i]` to where shape i lies and `num_dims[i]` to its rank (-1 if unknown), for at most
 * `num_shapes` shapes. An error if `storage` is too small (TF_AttrMetadata's total_size). */
TF_CAPI_EXPORT extern void TF_OperationGetAttrShapeList(TF_Operation* oper, const char* attr_name,
                                                        int64_t** dims, int* num_dims,
                                                        int num_shapes, int64_t* storage,
                                                        int storage_size, TF_Status* status);

/* Fills `value` with a shape attribute serialized as a TensorShapeProto. */
TF_CAPI_EXPORT extern void TF_OperationGetAttrTensorShapeProto(TF_Operation* oper,
                                                               const char* attr_name,
                                                               TF_Buffer* value, TF_Status* status);

/* Sets `values[i]` to a new buffer holding shape i of a list serialized as a TensorShapeProto,
 * for at most `max_values` shapes. The caller frees each with TF_DeleteBuffer. */
TF_CAPI_EXPORT extern void TF_OperationGetAttrTensorShapeProtoList(TF_Operation* oper,
                                                                   const char* attr_name,
                                                                   TF_Buffer** values,
                                                                   int max_values,
                                                                   TF_Status* status);

/* Sets `*value` to a new tensor holding a tensor attribute. The caller frees it with
 * TF_DeleteTensor. */
TF_CAPI_EXPORT extern void TF_OperationGetAttrTensor(TF_Operation* oper, const char* attr_name,
                                                     TF_Tensor** value, TF_Status* status);

/* Sets `values[i]` to a new tensor holding element i of a list of tensors, for at most
 * `max_values` elements. The caller frees each non-NULL one with TF_DeleteTensor. */
TF_CAPI_EXPORT extern void TF_OperationGetAttrTensorList(TF_Operation* oper, const char* attr_name,
                                                         TF_Tensor** values, int max_values,
                                                         TF_Status* status);

/* Fills `output_attr_value` with the attribute serialized as an AttrValue. */
TF_CAPI_EXPORT extern void TF_OperationGetAttrValueProto(TF_Operation* oper, const char* attr_name,
                                                         TF_Buffer* output_attr_value,
                                                         TF_Status* status);

/* Returns the number of attributes of `oper`. */
TF_CAPI_EXPORT extern int TF_OperationGetNumAttrs(TF_Operation* oper);

/* Returns the length of the name of attribute `i` of `oper` (attributes are numbered in name
 * order), or -1 if there is no attribute `i`. */
TF_CAPI_EXPORT extern int TF_OperationGetAttrNameLength(TF_Operation* oper, int i);

/* Copies the name of attribute `i` into `output`, which must have room for
 * TF_OperationGetAttrNameLength(oper, i) bytes. No NUL is added. */
TF_CAPI_EXPORT extern void TF_OperationGetAttrName(TF_Operation* oper, int i, char* output,
                                                   TF_Status* status);

/* Returns the operation of `graph` named `oper_name`, or NULL if there is none. */
TF_CAPI_EXPORT extern TF_Operation* TF_GraphOperationByName(TF_Graph* graph, const char* oper_name);

/* Iterates over the operations of `graph`: start with *pos = 0 and call until it returns NULL.
 *   size_t pos = 0;
 *   TF_Operation* oper;
 *   while ((oper = TF_GraphNextOperation(graph, &pos)) != NULL) { ... } */
TF_CAPI_EXPORT extern TF_Operation* TF_GraphNextOperation(TF_Graph* graph, size_t* pos);

/* Fills `output_graph_def` (e.g. from TF_NewBuffer) with `graph` serialized as a GraphDef. */
TF_CAPI_EXPORT extern void TF_GraphToGraphDef(TF_Graph* graph, TF_Buffer* output_graph_def,
                                              TF_Status* status);

/* Fills `output_op_def` with the serialized OpDef of `op_name`, a registered op or a function
 * of `graph`. An error if there is no such op. */
TF_CAPI_EXPORT extern void TF_GraphGetOpDef(TF_Graph* graph, const char* op_name,
                                            TF_Buffer* output_op_def, TF_Status* status);

/* Fills `output_version_def` with the serialized VersionDef of `graph`. */
TF_CAPI_EXPORT extern void TF_GraphVersions(TF_Graph* graph, TF_Buffer* output_version_def,
                                            TF_Status* status);

/* ---------------------------------------------------------------------------------------------
 * Importing a GraphDef into a graph. */

/* How TF_GraphImportGraphDef* imports. Strings given to the setters are copied. */
typedef struct TF_ImportGraphDefOptions TF_ImportGraphDefOptions;

TF_CAPI_EXPORT extern TF_ImportGraphDefOptions* TF_NewImportGraphDefOptions(void);
TF_CAPI_EXPORT extern void TF_DeleteImportGraphDefOptions(TF_ImportGraphDefOptions* opts);

/* Prefixes the names of the imported operations with `prefix` and a "/". */
TF_CAPI_EXPORT extern void TF_ImportGraphDefOptionsSetPrefix(TF_ImportGraphDefOptions* opts,
                                                             const char* prefix);

/* Gives imported operations that request no device the device `device`. */
TF_CAPI_EXPORT extern void TF_ImportGraphDefOptionsSetDefaultDevice(TF_ImportGraphDefOptions* opts,
                                                                    const char* device);

/* 1: rename an imported operation whose name is taken in the graph; 0 (the default): fail.
 * Has no effect when a prefix is set. */
TF_CAPI_EXPORT extern void TF_ImportGraphDefOptionsSetUniquifyNames(TF_ImportGraphDefOptions* opts,
                                                                    unsigned char uniquify_names);

/* 1: rename the prefix if it is already used in the graph; 0 (the default): fail. */
TF_CAPI_EXPORT extern void TF_ImportGraphDefOptionsSetUniquifyPrefix(TF_ImportGraphDefOptions* opts,
                                                                     unsigned char uniquify_prefix);

/* Feeds imported inputs that read `src_name:src_index` (of the GraphDef) from `dst` (of the
 * graph) instead. */
TF_CAPI_EXPORT extern void TF_ImportGraphDefOptionsAddInputMapping(TF_ImportGraphDefOptions* opts,
                                                                   const char* src_name,
                                                                   int src_index, TF_Output dst);

/* Replaces imported control inputs on `src_name` (of the GraphDef) by control inputs on `dst`
 * (of the graph). */
TF_CAPI_EXPORT extern void TF_ImportGraphDefOptionsRemapControlDependency(
    TF_ImportGraphDefOptions* opts, const char* src_name, TF_Operation* dst);

/* Gives the imported operations a control input on `oper`, an operation of the graph. */
TF_CAPI_EXPORT extern void TF_ImportGraphDefOptionsAddControlDependency(
    TF_ImportGraphDefOptions* opts, TF_Operation* oper);

/* Asks for output `oper_name:index` of the GraphDef to be returned by the import (as the graph
 * tensor it was mapped to, if an input mapping replaced it). */
TF_CAPI_EXPORT extern void TF_ImportGraphDefOptionsAddReturnOutput(TF_ImportGraphDefOptions* opts,
                                                                   const char* oper_name,
                                                                   int index);

/* Returns how many return outputs have been asked for. */
TF_CAPI_EXPORT extern int TF_ImportGraphDefOptionsNumReturnOutputs(
    const TF_ImportGraphDefOptions* opts);

/* Asks for the operation `oper_name` of the GraphDef to be returned by the import. */
TF_CAPI_EXPORT extern void TF_ImportGraphDefOptionsAddReturnOperation(
    TF_ImportGraphDefOptions* opts, const char* oper_name);

/* Returns how many return operations have been asked for. */
TF_CAPI_EXPORT extern int TF_ImportGraphDefOptionsNumReturnOperations(
    const TF_ImportGraphDefOptions* opts);

/* What TF_GraphImportGraphDefWithResults returns. The arrays it hands out are owned by it. */
typedef struct TF_ImportGraphDefResults TF_ImportGraphDefResults;

/* Sets `*outputs` to the return outputs asked for, in order, and `*num_outputs` to their number. */
TF_CAPI_EXPORT extern void TF_ImportGraphDefResultsReturnOutputs(TF_ImportGraphDefResults* results,
                                                                 int* num_outputs,
                                                                 TF_Output** outputs);

/* Sets `*opers` to the return operations asked for, in order, and `*num_opers` to their number. */
TF_CAPI_EXPORT extern void TF_ImportGraphDefResultsReturnOperations(
    TF_ImportGraphDefResults* results, int* num_opers, TF_Operation*** opers);

/* Reports the input mappings whose source (`src_names[i]:src_indexes[i]`) the GraphDef does not
 * have or no imported operation read. */
TF_CAPI_EXPORT extern void TF_ImportGraphDefResultsMissingUnusedInputMappings(
    TF_ImportGraphDefResults* results, int* num_missing_unused_input_mappings,
    const char*** src_names, int** src_indexes);

/* Destroys import results. */
TF_CAPI_EXPORT extern void TF_DeleteImportGraphDefResults(TF_ImportGraphDefResults* results);

/* Imports the serialized GraphDef `graph_def` into `graph` as `options` say, and returns the
 * results (free them with TF_DeleteImportGraphDefResults). On error returns NULL and leaves
 * `graph` unchanged. */
TF_CAPI_EXPORT extern TF_ImportGraphDefResults* TF_GraphImportGraphDefWithResults(
    TF_Graph* graph, const TF_Buffer* graph_def, const TF_ImportGraphDefOptions* options,
    TF_Status* status);

/* As TF_GraphImportGraphDefWithResults, but `graph_def->data` points at an in-memory GraphDef
 * object of the implementation rather than serialized bytes. */
TF_CAPI_EXPORT extern TF_ImportGraphDefResults* TF_GraphImportGraphDefWithResultsNoSerialization(
    TF_Graph* graph, const TF_Buffer* graph_def, const TF_ImportGraphDefOptions* options,
    TF_Status* status);

/* As TF_GraphImportGraphDefWithResults, writing the return outputs into
 * `return_outputs[0, num_return_outputs)`; `num_return_outputs` must equal
 * TF_ImportGraphDefOptionsNumReturnOutputs(options). */
TF_CAPI_EXPORT extern void TF_GraphImportGraphDefWithReturnOutputs(
    TF_Graph* graph, const TF_Buffer* graph_def, const TF_ImportGraphDefOptions* options,
    TF_Output* return_outputs, int num_return_outputs, TF_Status* status);

/* As TF_GraphImportGraphDefWithResults, returning nothing. */
TF_CAPI_EXPORT extern void TF_GraphImportGraphDef(TF_Graph* graph, const TF_Buffer* graph_def,
                                                  const TF_ImportGraphDefOptions* options,
                                                  TF_Status* status);

/* ---------------------------------------------------------------------------------------------
 * Functions in graphs. */

/* Adds a copy of `func` (not NULL) to `g`, with `grad` (may be NULL) as its gradient function.
 * A function already in `g` is not copied again, but gets `grad` if it has no gradient yet; an
 * error if it has a different one. Later changes to `func` or `grad` do not affect `g`. On
 * error `g` is unchanged. */
TF_CAPI_EXPORT extern void TF_GraphCopyFunction(TF_Graph* g, const TF_Function* func,
                                                const TF_Function* grad, TF_Status* status);

/* Returns the number of functions in `g`. */
TF_CAPI_EXPORT extern int TF_GraphNumFunctions(TF_Graph* g);

/* Writes new copies of up to `max_func` functions of `g` into `funcs` and returns how many. The
 * caller frees each with TF_DeleteFunction. On error returns 0. */
TF_CAPI_EXPORT extern int TF_GraphGetFunctions(TF_Graph* g, TF_Function** funcs, int max_func,
                                               TF_Status* status);

/* Fills `output_node_def` with `oper` serialized as a NodeDef. */
TF_CAPI_EXPORT extern void TF_OperationToNodeDef(TF_Operation* oper, TF_Buffer* output_node_def,
                                                 TF_Status* status);

/* ---------------------------------------------------------------------------------------------
 * While loops and gradients. */

/* A while loop being built by TF_NewWhile ... TF_FinishWhile. */
typedef struct TF_WhileParams {
  /* The number of loop variables: the length of cond_inputs, body_inputs and body_outputs. */
  const int ninputs;

  /* The condition: a graph over `cond_inputs` (the loop variables) whose `cond_output`, set by
   * the caller, is a boolean scalar. */
  TF_Graph* const cond_graph;
  const TF_Output* const cond_inputs;
  TF_Output cond_output;

  /* The body: a graph over `body_inputs` (the loop variables) whose `body_outputs`, filled in
   * by the caller, are the variables' next values. */
  TF_Graph* const body_graph;
  const TF_Output* const body_inputs;
  TF_Output* const body_outputs;

  /* A name unique in the graph, set by the caller; it prefixes the loop's operations. */
  const char* name;
} TF_WhileParams;

/* Starts a while loop in `g` over loop variables initialized from `inputs[0, ninputs)`. The
 * result has its graphs and inputs set and room for `ninputs` body outputs; the caller builds
 * both graphs, sets cond_output, body_outputs and name, and then calls TF_FinishWhile or
 * TF_AbortWhile. If `status` is an error, the result must not be used. */
TF_CAPI_EXPORT extern TF_WhileParams TF_NewWhile(TF_Graph* g, TF_Output* inputs, int ninputs,
                                                 TF_Status* status);

/* Adds the loop `params` describes to its graph and writes the loop's final values into
 * `outputs[0, params->ninputs)`. Frees what TF_NewWhile allocated. */
TF_CAPI_EXPORT extern void TF_FinishWhile(const TF_WhileParams* params, TF_Status* status,
                                          TF_Output* outputs);

/* Frees what TF_NewWhile allocated without adding a loop. */
TF_CAPI_EXPORT extern void TF_AbortWhile(const TF_WhileParams* params);

/* Adds to `g` the operations computing dy[j] = d(y[0] + ... + y[ny-1]) / d x[j] for each of the
 * `nx` outputs `x`, writing them into `dy[0, nx)`. `dx[0, ny)` are the initial gradients of `y`;
 * NULL means ones. The new operations are named under "gradients/" ("gradients_1/", ... on later
 * calls). An error if an operation on the path has no registered gradient. */
TF_CAPI_EXPORT extern void TF_AddGradients(TF_Graph* g, TF_Output* y, int ny, TF_Output* x, int nx,
                                           TF_Output* dx, TF_Status* status, TF_Output* dy);

/* As TF_AddGradients, naming the new operations under `prefix`, which must not be in use in
 * `g` (NULL: as TF_AddGradients). */
TF_CAPI_EXPORT extern void TF_AddGradientsWithPrefix(TF_Graph* g, const char* prefix, TF_Output* y,
                                                     int ny, TF_Output* x, int nx, TF_Output* dx,
                                                     TF_Status* status, TF_Output* dy);

/* Makes a function named `fn_name` from operations of `fn_body`:
 *  - append_hash_to_fn_name: 1 to append "_" and a hash of the definition to the name, 0 to
 *    use `fn_name` as is (it must then differ from every op and function name where it is used);
 *  - num_opers, opers: the operations of the body; num_opers = -1 (opers NULL) takes every
 *    operation of `fn_body` except those producing `inputs`, which must have one output each;
 *  - inputs[0, ninputs): the tensors that become the function's arguments, each listed once;
 *    the arguments are named after their operations, lowercased with other characters as "_";
 *  - outputs[0, noutputs): the tensors returned (repeats allowed); output_names gives their
 *    names ("[a-z][a-z0-9_]*"), or NULL to generate them;
 *  - opts: NULL; description: an optional text for the FunctionDef.
 * Every input of a body operation, control inputs included, must come from the body or from
 * `inputs`, and no input may lie inside a control-flow context. A tensor that is both an input
 * and an output is returned as the argument. Returns a new function (free it with
 * TF_DeleteFunction), or NULL on error. */
TF_CAPI_EXPORT extern TF_Function* TF_GraphToFunction(
    const TF_Graph* fn_body, const char* fn_name, unsigned char append_hash_to_fn_name,
    int num_opers, const TF_Operation* const* opers, int ninputs, const TF_Output* inputs,
    int noutputs, const TF_Output* outputs, const char* const* output_names,
    const TF_FunctionOptions* opts, const char* description, TF_Status* status);

/* As TF_GraphToFunction, and marks `control_outputs[0, ncontrol_outputs)` as operations that
 * always run when the function is called, named by `control_output_names` (may be NULL). */
TF_CAPI_EXPORT extern TF_Function* TF_GraphToFunctionWithControlOutputs(
    const TF_Graph* fn_body, const char* fn_name, unsigned char append_hash_to_fn_name,
    int num_opers, const TF_Operation* const* opers, int ninputs, const TF_Output* inputs,
    int noutputs, const TF_Output* outputs, const char* const* output_names, int ncontrol_outputs,
    const TF_Operation* const* control_outputs, const char* const* control_output_names,
    const TF_FunctionOptions* opts, const char* description, TF_Status* status);

/* Returns the name of `func`, valid until `func` changes. */
TF_CAPI_EXPORT extern const char* TF_FunctionName(TF_Function* func);

/* Fills `output_func_def` with `func` serialized as a FunctionDef. */
TF_CAPI_EXPORT extern void TF_FunctionToFunctionDef(TF_Function* func, TF_Buffer* output_func_def,
                                                    TF_Status* status);

/* Returns a new function parsed from `proto_len` bytes of a serialized FunctionDef at `proto`
 * (free it with TF_DeleteFunction), or NULL on error. */
TF_CAPI_EXPORT extern TF_Function* TF_FunctionImportFunctionDef(const void* proto, size_t proto_len,
                                                                TF_Status* status);

/* Sets the attribute `attr_name` of `func` from `proto_len` bytes of a serialized AttrValue,
 * replacing any earlier value. */
TF_CAPI_EXPORT extern void TF_FunctionSetAttrValueProto(TF_Function* func, const char* attr_name,
                                                        const void* proto, size_t proto_len,
                                                        TF_Status* status);

/* Fills `output_attr_value` with the attribute `attr_name` of `func` serialized as an
 * AttrValue. An error if `func` has no such attribute. */
TF_CAPI_EXPORT extern void TF_FunctionGetAttrValueProto(TF_Function* func, const char* attr_name,
                                                        TF_Buffer* output_attr_value,
                                                        TF_Status* status);

/* Destroys `func`; graphs it was copied into keep their copies. */
TF_CAPI_EXPORT extern void TF_DeleteFunction(TF_Function* func);

/* Tries to compute `output` from constants alone. Returns 1 and sets `*result` to a new tensor
 * (free it with TF_DeleteTensor) when it can; returns 0 when `output` depends on something that
 * is not constant, which is not an error. `status` reports errors in the graph itself. */
TF_CAPI_EXPORT extern unsigned char TF_TryEvaluateConstant(TF_Graph* graph, TF_Output output,
                                                           TF_Tensor** result, TF_Status* status);

/* ---------------------------------------------------------------------------------------------
 * Sessions: running a graph. */

/* Runs the operations of one graph. */
typedef struct TF_Session TF_Session;

/* Returns a new session running `graph` with `opts`, or NULL on error. The session keeps
 * `graph` alive; operations may still be added to it. The caller keeps `opts`. */
TF_CAPI_EXPORT extern TF_Session* TF_NewSession(TF_Graph* graph, const TF_SessionOptions* opts,
                                                TF_Status* status);

/* Loads the SavedModel in `export_dir`: imports the MetaGraphDef tagged with all of
 * `tags[0, tags_len)` into `graph` (new and empty), returns a new session over it with the
 * variables restored, and, when `meta_graph_def` is not NULL, fills it with the serialized
 * MetaGraphDef. `run_options` (serialized RunOptions) may be NULL. */
TF_CAPI_EXPORT extern TF_Session* TF_LoadSessionFromSavedModel(
    const TF_SessionOptions* session_options, const TF_Buffer* run_options, const char* export_dir,
    const char* const* tags, int tags_len, TF_Graph* graph, TF_Buffer* meta_graph_def,
    TF_Status* status);

/* Closes a session: runs stop, and later runs fail. Not to be called after TF_DeleteSession. */
TF_CAPI_EXPORT extern void TF_CloseSession(TF_Session*, TF_Status* status);

/* Destroys a session and releases its graph reference, even when `status` reports an error. */
TF_CAPI_EXPORT extern void TF_DeleteSession(TF_Session*, TF_Status* status);

/* Runs the graph: feeds `input_values[i]` to `inputs[i]` for i < ninputs, computes
 * `outputs[0, noutputs)` into `output_values` and also runs `target_opers[0, ntargets)`.
 * `run_options` (a serialized RunOptions) may be NULL; `run_metadata`, when not NULL, must be an
 * empty buffer and is filled with a serialized RunMetadata. The caller keeps the inputs and the
 * buffers and owns the output tensors (free them with TF_DeleteTensor). On error every
 * output_values[i] is NULL. */
TF_CAPI_EXPORT extern void TF_SessionRun(TF_Session* session, const TF_Buffer* run_options,
                                         const TF_Output* inputs, TF_Tensor* const* input_values,
                                         int ninputs, const TF_Output* outputs,
                                         TF_Tensor** output_values, int noutputs,
                                         const TF_Operation* const* target_opers, int ntargets,
                                         TF_Buffer* run_metadata, TF_Status*);

/* Prepares a partial run that will feed `inputs`, fetch `outputs` and run `target_opers` over
 * several TF_SessionPRun calls. Sets `*handle` to a new handle (free it with
 * TF_DeletePRunHandle), or to NULL on error. */
TF_CAPI_EXPORT extern void TF_SessionPRunSetup(TF_Session*, const TF_Output* inputs, int ninputs,
                                               const TF_Output* outputs, int noutputs,
                                               const TF_Operation* const* target_opers,
                                               int ntargets, const char** handle, TF_Status*);

/* Continues the partial run `handle` with some of its feeds and fetches, as TF_SessionRun. */
TF_CAPI_EXPORT extern void TF_SessionPRun(TF_Session*, const char* handle, const TF_Output* inputs,
                                          TF_Tensor* const* input_values, int ninputs,
                                          const TF_Output* outputs, TF_Tensor** output_values,
                                          int noutputs, const TF_Operation* const* target_opers,
                                          int ntargets, TF_Status*);

/* Frees a partial-run handle; the partial run cannot be continued after. */
TF_CAPI_EXPORT extern void TF_DeletePRunHandle(const char* handle);

/* ---------------------------------------------------------------------------------------------
 * The deprecated session, which names tensors by strings ("op:index") and is extended with
 * GraphDefs. Prefer TF_Session with TF_GraphImportGraphDef. */

typedef struct TF_DeprecatedSession TF_DeprecatedSession;

TF_CAPI_EXPORT extern TF_DeprecatedSession* TF_NewDeprecatedSession(const TF_SessionOptions*,
                                                                    TF_Status* status);
TF_CAPI_EXPORT extern void TF_CloseDeprecatedSession(TF_DeprecatedSession*, TF_Status* status);
TF_CAPI_EXPORT extern void TF_DeleteDeprecatedSession(TF_DeprecatedSession*, TF_Status* status);

/* Clears the resource containers `containers[0, ncontainers)` (all of them if none are named)
 * on the target of `opt`. */
TF_CAPI_EXPORT extern void TF_Reset(const TF_SessionOptions* opt, const char** containers,
                                    int ncontainers, TF_Status* status);

/* Adds the nodes of `proto_len` bytes of a serialized GraphDef to the session's graph. */
TF_CAPI_EXPORT extern void TF_ExtendGraph(TF_DeprecatedSession*, const void* proto,
                                          size_t proto_len, TF_Status*);

/* As TF_SessionRun, with tensors and targets named by strings. */
TF_CAPI_EXPORT extern void TF_Run(TF_DeprecatedSession*, const TF_Buffer* run_options,
                                  const char** input_names, TF_Tensor** inputs, int ninputs,
                                  const char** output_names, TF_Tensor** outputs, int noutputs,
                                  const char** target_oper_names, int ntargets,
                                  TF_Buffer* run_metadata, TF_Status*);

/* As TF_SessionPRunSetup, with names. */
TF_CAPI_EXPORT extern void TF_PRunSetup(TF_DeprecatedSession*, const char** input_names,
                                        int ninputs, const char** output_names, int noutputs,
                                        const char** target_oper_names, int ntargets,
                                        const char** handle, TF_Status*);

/* As TF_SessionPRun, with names. */
TF_CAPI_EXPORT extern void TF_PRun(TF_DeprecatedSession*, const char* handle,
                                   const char** input_names, TF_Tensor** inputs, int ninputs,
                                   const char** output_names, TF_Tensor** outputs, int noutputs,
                                   const char** target_oper_names, int ntargets, TF_Status*);

/* ---------------------------------------------------------------------------------------------
 * Devices. */

/* The devices of a session. Free it with TF_DeleteDeviceList. */
typedef struct TF_DeviceList TF_DeviceList;

/* Returns a new list of the devices `session` can use. */
TF_CAPI_EXPORT extern TF_DeviceList* TF_SessionListDevices(TF_Session* session, TF_Status* status);

/* The same for a deprecated session. */
TF_CAPI_EXPORT extern TF_DeviceList* TF_DeprecatedSessionListDevices(TF_DeprecatedSession* session,
                                                                     TF_Status* status);

/* Destroys a device list. */
TF_CAPI_EXPORT extern void TF_DeleteDeviceList(TF_DeviceList* list);

/* Returns the number of devices in `list`. */
TF_CAPI_EXPORT extern int TF_DeviceListCount(const TF_DeviceList* list);

/* The full name ("/job:localhost/replica:0/task:0/device:CPU:0") and the type ("CPU", "GPU") of
 * device `index`, owned by `list`. An error, and NULL, if `index` is out of range. */
TF_CAPI_EXPORT extern const char* TF_DeviceListName(const TF_DeviceList* list, int index,
                                                    TF_Status* status);
TF_CAPI_EXPORT extern const char* TF_DeviceListType(const TF_DeviceList* list, int index,
                                                    TF_Status* status);

/* The memory of device `index` in bytes; an error, and -1, if `index` is out of range. */
TF_CAPI_EXPORT extern int64_t TF_DeviceListMemoryBytes(const TF_DeviceList* list, int index,
                                                       TF_Status* status);

/* The incarnation number of device `index`; an error, and 0, if `index` is out of range. */
TF_CAPI_EXPORT extern uint64_t TF_DeviceListIncarnation(const TF_DeviceList* list, int index,
                                                        TF_Status* status);

/* ---------------------------------------------------------------------------------------------
 * Plugins: libraries of custom ops and kernels. */

/* A loaded plugin library. */
typedef struct TF_Library TF_Library;

/* Loads the shared library `library_filename` (found as the platform's dynamic loader finds
 * it) and registers the ops and kernels it defines. Returns a handle the caller owns, or NULL on
 * error. */
TF_CAPI_EXPORT extern TF_Library* TF_LoadLibrary(const char* library_filename, TF_Status* status);

/* Returns, by value, the serialized OpList of the ops `lib_handle` defined. The bytes are owned
 * by `lib_handle`. */
TF_CAPI_EXPORT extern TF_Buffer TF_GetOpList(TF_Library* lib_handle);

/* Frees the handle. The library stays loaded and its ops registered. */
TF_CAPI_EXPORT extern void TF_DeleteLibraryHandle(TF_Library* lib_handle);

/* Returns a new buffer (free it with TF_DeleteBuffer) holding the serialized OpList of every op
 * registered in this process. */
TF_CAPI_EXPORT extern TF_Buffer* TF_GetAllOpList(void);

/* ApiDef messages by op name: how language bindings should present each op (names, argument
 * order, descriptions). Used by op-wrapper generators. */
typedef struct TF_ApiDefMap TF_ApiDefMap;

/* Returns a new map with a default ApiDef for each op of the serialized OpList in
 * `op_list_buffer`. */
TF_CAPI_EXPORT extern TF_ApiDefMap* TF_NewApiDefMap(TF_Buffer* op_list_buffer, TF_Status* status);

/* Destroys an ApiDef map. */
TF_CAPI_EXPORT extern void TF_DeleteApiDefMap(TF_ApiDefMap* apimap);

/* Merges the ApiDefs written in `text_len` bytes of text-format ApiDefs at `text` into the map;
 * the new values win where they overlap earlier ones. */
TF_CAPI_EXPORT extern void TF_ApiDefMapPut(TF_ApiDefMap* api_def_map, const char* text,
                                           size_t text_len, TF_Status* status);

/* Returns a new buffer (free it with TF_DeleteBuffer) holding the serialized ApiDef of the op
 * named by `name_len` bytes at `name`. */
TF_CAPI_EXPORT extern TF_Buffer* TF_ApiDefMapGet(TF_ApiDefMap* api_def_map, const char* name,
                                                 size_t name_len, TF_Status* status);

/* ---------------------------------------------------------------------------------------------
 * Registered kernels. */

/* Returns a new buffer (free it with TF_DeleteBuffer) holding a serialized KernelList of every
 * registered kernel. */
TF_CAPI_EXPORT extern TF_Buffer* TF_GetAllRegisteredKernels(TF_Status* status);

/* The same for the kernels of the op `name`. */
TF_CAPI_EXPORT extern TF_Buffer* TF_GetRegisteredKernelsForOp(const char* name, TF_Status* status);

/* Makes input `dst` of an operation of `graph` read `new_src` instead of its current source.
 * An error if the types differ. */
TF_CAPI_EXPORT extern void TF_UpdateEdge(TF_Graph* graph, TF_Output new_src, TF_Input dst,
                                         TF_Status* status);

/* ---------------------------------------------------------------------------------------------
 * In-process servers for distributed execution: one task of a cluster, whose devices other
 * tasks' sessions can use. */

typedef struct TF_Server TF_Server;

/* Returns a new server configured by `proto_len` bytes of a serialized ServerDef (its cluster,
 * job and task). It serves nothing until TF_ServerStart. */
TF_CAPI_EXPORT extern TF_Server* TF_NewServer(const void* proto, size_t proto_len,
                                              TF_Status* status);

/* Starts serving requests. */
TF_CAPI_EXPORT extern void TF_ServerStart(TF_Server* server, TF_Status* status);

/* Stops serving requests. */
TF_CAPI_EXPORT extern void TF_ServerStop(TF_Server* server, TF_Status* status);

/* Blocks until the server has stopped. */
TF_CAPI_EXPORT extern void TF_ServerJoin(TF_Server* server, TF_Status* status);

/* Returns the target to give TF_SetTarget for a session on this server, owned by `server`. */
TF_CAPI_EXPORT extern const char* TF_ServerTarget(TF_Server* server);

/* Stops (and joins) the server if it runs, and destroys it. */
TF_CAPI_EXPORT extern void TF_DeleteServer(TF_Server* server);

/* ---------------------------------------------------------------------------------------------
 * Process-wide hooks. */

/* Adds `listener`, which the Print op then calls with each message instead of writing it to the
 * log. */
TF_CAPI_EXPORT extern void TF_RegisterLogListener(void (*listener)(const char*));

/* Loads the file system plugin `plugin_filename` and registers the file systems it provides. */
TF_CAPI_EXPORT extern void TF_RegisterFilesystemPlugin(const char* plugin_filename,
                                                       TF_Status* status);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* TENSORFLOW_C_C_API_H_ */
