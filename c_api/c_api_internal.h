// What the C API's opaque handles are, and the conversions between them and Sluice's types.
//
// The C headers (c_api/include/tensorflow/c/) declare the handles as incomplete structs; this
// header completes them for the implementation files of c_api/ and for its tests. Nothing here
// is visible to C clients, so layouts may change freely.
//
// Ownership and lifetime, as TensorFlow's C API states them:
//  - TF_Status, TF_Buffer, TF_Tensor, TF_Graph, TF_SessionOptions, TF_Session and the import
//    options/results belong to the caller, who deletes them with the matching TF_Delete*.
//  - TF_Operation* is a node of its TF_Graph and lives as long as the graph: it is the
//    graph's sluice::Node, reinterpreted (ToNode/ToOperation), never a separate object.
//  - A TF_Graph deleted while sessions still use it is destroyed when the last of them is
//    deleted.
//
// Thread safety: a TF_Graph's mutex guards its Graph and ShapeRefiner; the C functions that
// read or change a graph take it. A TF_Session's Run may be called from several threads.
#ifndef SLUICE_C_API_C_API_INTERNAL_H_
#define SLUICE_C_API_C_API_INTERNAL_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "cc_api/node_builder.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_shape.h"
#include "graph/graph.h"
#include "graph/import/graph_constructor.h"
#include "graph/shape_refiner.h"
#include "proto/function.pb.h"
#include "proto/tensor.pb.h"
#include "proto/tensor_shape.pb.h"
#include "runtime/device/session_options.h"
#include "runtime/session/session.h"
#include "tensorflow/c/c_api.h"

// TF_Status is a typedef of TSL_Status (xla/tsl/c/tsl_status.h).
struct TSL_Status {
  TF_Code code = TF_OK;
  std::string message;
  std::map<std::string, std::string> payloads;
};

// The bytes of a TF_Tensor: caller memory with its deallocator (TF_NewTensor) or memory the
// library allocated (TF_AllocateTensor, outputs of a run). Shared by TF_TensorBitcastFrom and
// by the sluice::Tensors made from it for a run; `release` runs once, when the last owner goes.
struct TensorStorage {
  TensorStorage(void* data, size_t len, std::function<void()> release)
      : data(data), len(len), release(std::move(release)) {}
  ~TensorStorage() {
    if (release) release();
  }
  TensorStorage(const TensorStorage&) = delete;
  TensorStorage& operator=(const TensorStorage&) = delete;

  void* data;
  size_t len;
  std::function<void()> release;
};

// A TF_Tensor is a dtype, dims and shared bytes. TF_STRING tensors hold an array of
// TF_TString (24 bytes each), as TensorFlow's do; they are converted to and from Sluice's
// DT_STRING tensors (std::string elements) at the boundary of a run.
struct TF_Tensor {
  TF_DataType dtype;
  std::vector<int64_t> dims;
  std::shared_ptr<TensorStorage> storage;
  // True for TF_STRING tensors whose TF_TString elements the storage must deallocate.
  bool owns_strings = false;
  // The full name of the GPU whose memory holds the bytes (sluice_device_memory.h); empty for
  // host memory. Only callables take such a tensor; TensorFromTF refuses it.
  std::string device;

  int64_t NumElements() const;
};

struct TF_SessionOptions {
  sluice::SessionOptions options;
};

struct TF_Graph {
  TF_Graph();

  absl::Mutex mu;
  sluice::Graph graph ABSL_GUARDED_BY(mu);
  sluice::ShapeRefiner refiner ABSL_GUARDED_BY(mu);
  // Sessions made on this graph and not yet deleted; TF_DeleteGraph defers to the last one.
  int num_sessions ABSL_GUARDED_BY(mu) = 0;
  bool delete_requested ABSL_GUARDED_BY(mu) = false;
  // Set once by TF_NewWhile on the cond and body graphs it makes: the graph the loop goes into
  // and the caller's loop inputs, so TF_FinishWhile can tell params it made from others.
  TF_Graph* parent = nullptr;
  const TF_Output* parent_inputs = nullptr;
};

struct TF_OperationDescription {
  TF_OperationDescription(TF_Graph* g, const char* op_type, const char* node_name)
      : graph(g), builder(node_name, op_type) {}

  TF_Graph* graph;
  sluice::NodeBuilder builder;
  // "loc:@name" entries for the _class attr (TF_ColocateWith), kept sorted and unique.
  std::set<std::string> colocation;
  // The first error a setter met (a malformed proto, a bad tensor); FinishOperation returns it.
  absl::Status status;
};

struct TF_ImportGraphDefOptions {
  sluice::ImportGraphDefOptions opts;
};

struct TF_ImportGraphDefResults {
  std::vector<TF_Output> return_tensors;
  std::vector<TF_Operation*> return_nodes;
  std::vector<const char*> missing_unused_key_names;
  std::vector<int> missing_unused_key_indexes;
  // Owns the strings missing_unused_key_names point into.
  std::vector<std::string> missing_unused_key_storage;
};

// Where a callable's feeds arrive and its fetches stay (sluice_device_memory.h): per feed and
// per fetch, in the options' order, the full name of its GPU when its value is in that GPU's
// memory, else empty (host memory).
struct TF_CallableMemory {
  std::vector<std::string> feed_devices;
  std::vector<std::string> fetch_devices;
  // Kept after TF_SessionReleaseCallable, so that a later run gets the session's error.
  bool released = false;
};

struct TF_Session {
  TF_Session(std::unique_ptr<sluice::Session> s, TF_Graph* g) : session(std::move(s)), graph(g) {}

  std::unique_ptr<sluice::Session> session;
  TF_Graph* graph;
  absl::Mutex mu;
  // Node ids below this have been given to the session (Create/Extend); nodes the graph gains
  // later are sent before the next run, as TensorFlow's TF_SessionRun extends.
  int num_node_ids_sent ABSL_GUARDED_BY(mu) = 0;
  bool closed ABSL_GUARDED_BY(mu) = false;
  // The callables made through TF_SessionMakeCallable, by handle.
  std::map<int64_t, TF_CallableMemory> callables ABSL_GUARDED_BY(mu);
};

// A function: its FunctionDef (c_api_functions.cc, c_api_graph_to_function.cc).
struct TF_Function {
  sluice::FunctionDef fdef;
};

struct TF_DeviceList {
  std::vector<sluice::DeviceAttributes> devices;
};

struct TF_Library {
  void* handle = nullptr;
  TF_Buffer op_list = {nullptr, 0, nullptr};
};

namespace sluice {
namespace c_api {

// TF_Operation* <-> Node*: the same object (see the file comment).
inline Node* ToNode(TF_Operation* op) { return reinterpret_cast<Node*>(op); }
inline const Node* ToNode(const TF_Operation* op) { return reinterpret_cast<const Node*>(op); }
inline TF_Operation* ToOperation(Node* node) { return reinterpret_cast<TF_Operation*>(node); }

// Stores `status` in `out` (code, message and payloads); `out` may not be null.
void SetStatus(TF_Status* out, const absl::Status& status);
absl::Status ToStatus(const TF_Status* status);

// Parses `len` caller bytes at `data` into `message`. False for bytes that are not such a
// message, for null data with a non-zero length, and for lengths protobuf cannot take
// (above INT_MAX), rather than a narrowing cast.
bool ParseFromBytes(const void* data, size_t len, google::protobuf::MessageLite* message);

// Serializes `message` into `out`, which must be empty (TensorFlow's INVALID_ARGUMENT
// "Passing non-empty TF_Buffer is invalid." otherwise); the bytes are the buffer's, freed by
// its deallocator.
absl::Status MessageToBuffer(const google::protobuf::MessageLite& message, TF_Buffer* out);

// A Sluice tensor with the contents of `src`: the same bytes, shared, for the fixed-size
// types; a copy of the strings for TF_STRING. INVALID_ARGUMENT for a dtype Sluice cannot
// hold, a string element that is malformed, or a tensor in device memory.
absl::StatusOr<Tensor> TensorFromTF(const TF_Tensor* src);
// A new TF_Tensor with the contents of `src` (sharing its buffer for the fixed-size types).
// INVALID_ARGUMENT for a resource tensor that is not a scalar.
absl::StatusOr<TF_Tensor*> TensorToTF(const Tensor& src);

// The same for tensors in device memory (`src->device` set; `device` names the GPU): the
// bytes are shared, never read. REQUIRES: a fixed-size dtype.
absl::StatusOr<Tensor> DeviceTensorFromTF(const TF_Tensor* src);
TF_Tensor* DeviceTensorToTF(const Tensor& src, const std::string& device);

// Sends the graph's operations added since the last run to an open session (a closed one
// answers the next call itself), as every run does first.
absl::Status ExtendIfOpen(TF_Session* session);

// A TensorShapeProto for `num_dims` dims (-1: unknown rank); a dim below 0 is unknown.
TensorShapeProto ShapeProto(const int64_t* dims, int num_dims);

// `value` as a Tensor attr holds it, the way TensorFlow's NodeBuilder stores one: the raw
// tensor_content for more than one element, the typed *_val field for one or none.
absl::Status TensorToProto(TF_Tensor* value, TensorProto* out);

// "name:index" for an output, as a Session feeds and fetches by name.
std::string OutputName(const TF_Output& output);

}  // namespace c_api
}  // namespace sluice

#endif  // SLUICE_C_API_C_API_INTERNAL_H_
