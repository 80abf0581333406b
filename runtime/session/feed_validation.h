// Feed validation: checks a step's fed values against what the graph says about them,
// before any kernel runs.
//
// For each fed tensor the session records, once per signature, a FeedSpec from the full
// graph: the tensor's dtype (the base type of its producer's output) and, when the producer
// is a Placeholder (or PlaceholderV2 / PlaceholderWithDefault) whose `shape` attr has a known
// rank, that static shape. Every step then checks each value against its spec:
//   dtype  INVALID_ARGUMENT "Expects arg[i] to be float but int32 is provided for Tensor
//          x:0" (TensorFlow's call-frame text, plus the tensor);
//   shape  INVALID_ARGUMENT "Cannot feed value of shape [2] for Tensor x:0, which has shape
//          [?,3]" (TensorFlow's client text, with shapes printed as its C++ core prints
//          them).
// TensorFlow's C++ core checks only the dtype; its Python client checks the shape too.
// Sluice checks both for every client, since a value contradicting a Placeholder's declared
// shape would otherwise reach kernels that were optimised for that shape.
//
// AlignedFeed: kernels read their inputs through aligned views (Tensor::flat CHECKs the
// alignment), and a fed value may be a row slice that starts mid-buffer. The session passes on
// an aligned copy of such a value instead (the C API copies likewise); an aligned value is
// passed as it is.
//
// Pure functions; thread-safe.
#ifndef SLUICE_RUNTIME_SESSION_FEED_VALIDATION_H_
#define SLUICE_RUNTIME_SESSION_FEED_VALIDATION_H_

#include <optional>
#include <string>

#include "absl/status/status.h"
#include "graph/core/partial_tensor_shape.h"
#include "graph/core/types.h"

namespace sluice {

class Graph;
class Tensor;

struct FeedSpec {
  // The canonical tensor name ("x:0").
  std::string tensor;
  DataType dtype = DT_INVALID;
  // The producer's declared shape, if it is a Placeholder with a known rank.
  std::optional<PartialTensorShape> shape;
};

// The spec of tensor `name` ("x" or "x:k") of `graph`. A name the graph does not have gives
// a spec with dtype DT_INVALID (the pruning pass reports such names with TensorFlow's text).
FeedSpec MakeFeedSpec(const Graph& graph, const std::string& name);

// Checks `value`, fed as the caller's input `index`, against `spec`. A spec with dtype
// DT_INVALID accepts anything.
absl::Status ValidateFeed(const FeedSpec& spec, int index, const Tensor& value);

// `value` itself when its data is aligned for kernels, else an aligned copy of it.
Tensor AlignedFeed(const Tensor& value);

}  // namespace sluice

#endif  // SLUICE_RUNTIME_SESSION_FEED_VALIDATION_H_
