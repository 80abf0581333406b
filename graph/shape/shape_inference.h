// Shape inference: the context an op's shape function runs in.
//
// A shape function (OpShapeInferenceFn, registered with REGISTER_OP(...).SetShapeFn) reads the
// shapes of a node's inputs, and possibly the values of some constant inputs, and sets the
// shapes of its outputs. Shapes may be partially known: a shape has either an unknown rank or
// a list of dimensions, and each dimension is either known (>= 0) or unknown.
//
// Shapes and dimensions live in an arena owned by the InferenceContext; ShapeHandle and
// DimensionHandle are cheap, copyable pointers into it, valid for the context's lifetime.
// Two handles are SameHandle() when they denote the very same arena object, which is how
// shape functions express that two unknown dimensions are equal (e.g. MatMul's inner dims).
//
// Errors: every method that checks something returns INVALID_ARGUMENT with TensorFlow's
// wording ("Shape must be rank 2 but is rank 3"); Run() appends the node and input shapes
// (" for '{{node m}} = MatMul[...](a, b)' with input shapes: [2,3,4], [3,4]."). Nothing here
// crashes on user input: bad attrs, negative dims in shape tensors, out-of-range axes all
// come back as errors.
//
// Thread safety: an InferenceContext is used by one thread at a time.
#ifndef SLUICE_GRAPH_SHAPE_SHAPE_INFERENCE_H_
#define SLUICE_GRAPH_SHAPE_SHAPE_INFERENCE_H_

#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <initializer_list>
#include <memory>
#include <new>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "absl/container/inlined_vector.h"
#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "graph/core/partial_tensor_shape.h"
#include "graph/core/tensor_shape.h"
#include "graph/op/node_def_util.h"
#include "proto/node_def.pb.h"
#include "proto/op_def.pb.h"
#include "proto/tensor_shape.pb.h"
#include "proto/types.pb.h"

namespace sluice {

class Tensor;

namespace shape_inference {

class InferenceContext;

// One dimension in a context's arena.
// Only InferenceContext can hand out handles to it or read its value.
class Dimension {
 public:
  explicit Dimension(int64_t value) : value_(value) {}
  Dimension(const Dimension&) = delete;
  Dimension& operator=(const Dimension&) = delete;

 private:
  const int64_t value_;  // >= 0, or InferenceContext::kUnknownDim

  friend class InferenceContext;
};

// A handle to a Dimension. Default-constructed handles are unset (IsSet() is false); Value()
// of an unset handle is unknown.
class DimensionHandle {
 public:
  DimensionHandle() = default;
  bool SameHandle(DimensionHandle d) const { return ptr_ == d.ptr_; }
  bool IsSet() const { return ptr_ != nullptr; }
  std::size_t Handle() const { return reinterpret_cast<std::size_t>(ptr_); }

 private:
  explicit DimensionHandle(const Dimension* dim) : ptr_(dim) {}
  const Dimension* ptr_ = nullptr;

  friend class InferenceContext;
};

// One shape in a context's arena: an unknown rank, or a list of dimension handles.
// Only InferenceContext can hand out handles to it or read it.
class Shape {
 public:
  Shape() : rank_(-1) {}
  explicit Shape(std::vector<DimensionHandle> dims)
      : rank_(static_cast<int32_t>(dims.size())), dims_(std::move(dims)) {}
  Shape(const Shape&) = delete;
  Shape& operator=(const Shape&) = delete;

 private:
  const int32_t rank_;  // InferenceContext::kUnknownRank when unknown
  const std::vector<DimensionHandle> dims_;

  friend class InferenceContext;
};

// A handle to a Shape. An unset handle reads as a shape of unknown rank.
class ShapeHandle {
 public:
  ShapeHandle() = default;
  bool SameHandle(ShapeHandle s) const { return ptr_ == s.ptr_; }
  bool IsSet() const { return ptr_ != nullptr; }
  std::size_t Handle() const { return reinterpret_cast<std::size_t>(ptr_); }

 private:
  explicit ShapeHandle(const Shape* shape) : ptr_(shape) {}
  const Shape* ptr_ = nullptr;

  friend class InferenceContext;
};

// Either a dimension handle or a plain value; lets arithmetic and MakeShape take both.
// Implicit by design: c->MakeShape({c->Dim(s, 0), 3}).
struct DimensionOrConstant {
  DimensionOrConstant(DimensionHandle d);  // NOLINT(runtime/explicit)
  DimensionOrConstant(int64_t v);          // NOLINT(runtime/explicit)

  DimensionHandle dim;  // set when built from a handle
  int64_t val;          // the value when built from a constant; kUnknownDim otherwise
};

// A shape and dtype: what a resource or variant handle holds (e.g. a variable's value).
struct ShapeAndType {
  ShapeAndType() = default;
  ShapeAndType(ShapeHandle s, DataType t) : shape(s), dtype(t) {}
  ShapeHandle shape;
  DataType dtype = DT_INVALID;
};

namespace internal {

// Address-stable storage for a context's shapes and dimensions. Most contexts create only a
// few, so the first N live inside the context and only the rest go to a deque made on
// demand: a context costs no allocations for its arena in the common case.
template <typename T, int N>
class StableArena {
 public:
  StableArena() = default;
  StableArena(const StableArena&) = delete;
  StableArena& operator=(const StableArena&) = delete;
  ~StableArena() {
    for (int i = 0; i < inline_count_; ++i) std::launder(reinterpret_cast<T*>(&inline_[i]))->~T();
  }

  template <typename... Args>
  T* Emplace(Args&&... args) {
    if (inline_count_ < N) {
      T* item = new (&inline_[inline_count_]) T(std::forward<Args>(args)...);
      ++inline_count_;
      return item;
    }
    if (overflow_ == nullptr) overflow_ = std::make_unique<std::deque<T>>();
    return &overflow_->emplace_back(std::forward<Args>(args)...);
  }

 private:
  std::aligned_storage_t<sizeof(T), alignof(T)> inline_[N];
  int inline_count_ = 0;
  std::unique_ptr<std::deque<T>> overflow_;
};

}  // namespace internal

class InferenceContext {
 public:
  static constexpr int64_t kUnknownDim = -1;
  static constexpr int32_t kUnknownRank = -1;

  // `node_def` must outlive the context; attrs are read from it (defaults should already be
  // added, see AddDefaultsToNodeDef). `input_tensors` may be shorter than the inputs or hold
  // nullptr for inputs whose value is unknown; the tensors must outlive the context.
  // `input_tensors_as_shapes` optionally gives, per input, a partially known shape that the
  // input's value denotes (what a graph's constant propagation found); unknown-rank entries
  // or a short vector mean "nothing known". Problems (input count disagreeing with the
  // NodeDef, bad attrs for the op's arg lists) are reported by construction_status().
  InferenceContext(const NodeDef* node_def, const OpDef& op_def,
                   const std::vector<PartialTensorShape>& input_shapes,
                   const std::vector<const Tensor*>& input_tensors,
                   const std::vector<PartialTensorShape>& input_tensors_as_shapes = {});
  // For a node whose NodeDef a Graph has already validated against `op_def` (so its port
  // counts are known to be right): inputs take the given shapes (handles of any context;
  // unset entries become unknown shapes) and there are `num_outputs` outputs. The arg-name
  // ranges that input(name)/output(name) need are computed on first use, as most shape
  // functions never ask. `node_def` and `op_def` must outlive the context.
  InferenceContext(const NodeDef& node_def, const OpDef& op_def, int num_outputs,
                   std::vector<ShapeHandle> input_shapes);
  InferenceContext(const InferenceContext&) = delete;
  InferenceContext& operator=(const InferenceContext&) = delete;
  ~InferenceContext();

  absl::Status construction_status() const { return construction_status_; }

  // Runs `fn` on this context. On failure returns fn's error with the node and the input
  // shapes (and any input values the function used) appended, TensorFlow's format. A null
  // `fn` sets every output to an unknown shape. Fails (INTERNAL) if `fn` returns OK without
  // setting every output, which is a bug in the shape function.
  absl::Status Run(const std::function<absl::Status(InferenceContext* c)>& fn);

  // ---- Inputs -------------------------------------------------------------------------
  int num_inputs() const { return static_cast<int>(inputs_.size()); }
  // Out-of-range indices give an unknown shape rather than crashing.
  ShapeHandle input(int64_t idx) const;
  // The shapes of the inputs of arg `input_name` (a list arg may hold several).
  absl::Status input(absl::string_view input_name, std::vector<ShapeHandle>* output) const;
  // Replaces / merges / relaxes what is known about input `idx` (used by graph-level
  // refinement). MergeInput and RelaxInput return true when the input changed.
  void SetInput(int idx, ShapeHandle shape);
  bool MergeInput(int idx, ShapeHandle shape);
  bool RelaxInput(int idx, ShapeHandle shape);

  // The value of input `idx` if known, else nullptr. Records the request, so callers that
  // can compute values (constant folding in graph import) know to supply it and run again.
  const Tensor* input_tensor(int idx);
  bool requested_input_tensor(int idx) const;
  void request_input_tensor_as_partial_shape(int idx);
  bool requested_input_tensor_as_partial_shape(int idx) const;
  void set_input_tensors(const std::vector<const Tensor*>& input_tensors);
  void set_input_tensors_as_shapes(const std::vector<ShapeHandle>& input_tensors_as_shapes);
  const std::vector<ShapeHandle>& input_tensors_as_shapes() const {
    return input_tensors_as_shapes_;
  }

  // ---- Outputs ------------------------------------------------------------------------
  int num_outputs() const { return static_cast<int>(outputs_.size()); }
  // Out-of-range indices give an unset handle / are ignored rather than crashing.
  ShapeHandle output(int64_t idx) const;
  void set_output(int idx, ShapeHandle shape);
  // Sets the shapes of all outputs of arg `output_name`; `shapes` must match its length.
  absl::Status set_output(absl::string_view output_name, const std::vector<ShapeHandle>& shapes);
  absl::Status output(absl::string_view output_name, std::vector<ShapeHandle>* output) const;

  // What resource/variant inputs and outputs hold; nullptr when unknown.
  const std::vector<ShapeAndType>* input_handle_shapes_and_types(int idx) const;
  const std::vector<ShapeAndType>* output_handle_shapes_and_types(int idx) const;
  void set_input_handle_shapes_and_types(int idx, const std::vector<ShapeAndType>& v);
  void set_output_handle_shapes_and_types(int idx, const std::vector<ShapeAndType>& v);

  // ---- Attributes ---------------------------------------------------------------------
  const NodeDef& node_def() const { return node_def_; }
  AttrSlice attrs() const { return AttrSlice(node_def_); }
  // Reads attr `attr_name` (see GetNodeAttr for the supported types).
  template <class T>
  absl::Status GetAttr(absl::string_view attr_name, T* value) const {
    return GetNodeAttr(attrs(), attr_name, value);
  }

  // ---- Reading shapes and dimensions --------------------------------------------------
  static bool RankKnown(ShapeHandle s) { return s.IsSet() && s.ptr_->rank_ != kUnknownRank; }
  static int32_t Rank(ShapeHandle s) { return s.IsSet() ? s.ptr_->rank_ : kUnknownRank; }
  // Dimension `idx` of `s`; negative `idx` counts from the end.
  // REQUIRES: RankKnown(s) and -Rank(s) <= idx < Rank(s). Outside that (a bug in the
  // caller) an unknown dimension is returned instead of crashing.
  static DimensionHandle DimKnownRank(ShapeHandle s, int64_t idx);
  // Like DimKnownRank, but an unknown rank gives a fresh unknown dimension.
  DimensionHandle Dim(ShapeHandle s, int64_t idx);
  static int64_t Value(DimensionOrConstant d) { return d.dim.IsSet() ? d.dim.ptr_->value_ : d.val; }
  static bool ValueKnown(DimensionOrConstant d) { return Value(d) != kUnknownDim; }
  static bool FullyDefined(ShapeHandle s);
  // Product of the dims, as TensorFlow computes it: 0 if any dim is 0 (whatever the others
  // are), otherwise unknown if any dim is unknown or the product overflows int64.
  // (TensorFlow's signature: use Value(NumElements(s)) for the number.)
  DimensionHandle NumElements(ShapeHandle s);
  // "[2,?,3]" or "?"; a dimension reads "2" or "?".
  std::string DebugString(ShapeHandle s) const;
  std::string DebugString(DimensionHandle d) const;
  // The shape as a PartialTensorShape. Shape functions may build shapes a
  // PartialTensorShape cannot hold: a rank above TensorShape::kMaxDims is INVALID_ARGUMENT
  // (`out` unchanged); known dims whose product overflows int64 become unknown dims.
  absl::Status AsPartialTensorShape(ShapeHandle s, PartialTensorShape* out) const;
  void ShapeHandleToProto(ShapeHandle s, TensorShapeProto* proto) const;

  // ---- Checking and combining ---------------------------------------------------------
  // Each returns `shape` refined to the rank (unknown rank becomes `rank` unknown dims for
  // WithRank, stays unknown for the others), or INVALID_ARGUMENT. Unlike TensorFlow,
  // WithRank refuses to build an unknown-rank shape into more than TensorShape::kMaxDims
  // dims (no tensor can have them; a hostile rank would exhaust memory).
  absl::Status WithRank(ShapeHandle shape, int64_t rank, ShapeHandle* out);
  absl::Status WithRankAtLeast(ShapeHandle shape, int64_t rank, ShapeHandle* out);
  absl::Status WithRankAtMost(ShapeHandle shape, int64_t rank, ShapeHandle* out);
  absl::Status WithValue(DimensionHandle dim, int64_t value, DimensionHandle* out);
  // The most specific shape/dim compatible with both, or INVALID_ARGUMENT. Returns one of
  // the arguments' handles whenever that carries all the information.
  absl::Status Merge(ShapeHandle s0, ShapeHandle s1, ShapeHandle* out);
  absl::Status Merge(DimensionHandle d0, DimensionHandle d1, DimensionHandle* out);
  // Merges `prefix` with the leading dims of `s`; both outputs carry the merged dims.
  absl::Status MergePrefix(ShapeHandle s, ShapeHandle prefix, ShapeHandle* s_out,
                           ShapeHandle* prefix_out);
  // The most specific shape/dim that both arguments are instances of (never fails).
  void Relax(ShapeHandle s0, ShapeHandle s1, ShapeHandle* out);
  void Relax(DimensionHandle d0, DimensionHandle d1, DimensionHandle* out);

  // Dims [start, end) of `s`, Python-style: negative indices count from the end, indices
  // past the rank are clamped. The strided form takes dims [start:end:stride] (a negative
  // stride reverses).
  absl::Status Subshape(ShapeHandle s, int64_t start, ShapeHandle* out);
  absl::Status Subshape(ShapeHandle s, int64_t start, int64_t end, ShapeHandle* out);
  absl::Status Subshape(ShapeHandle s, int64_t start, int64_t end, int64_t stride,
                        ShapeHandle* out);
  // s1's dims followed by s2's (unknown if either rank is unknown).
  absl::Status Concatenate(ShapeHandle s1, ShapeHandle s2, ShapeHandle* out);
  // `s` with dim `dim_index` (negative counts from the end) replaced by `new_dim`.
  absl::Status ReplaceDim(ShapeHandle s, int64_t dim_index, DimensionHandle new_dim,
                          ShapeHandle* out);

  // ---- Making shapes and dimensions ---------------------------------------------------
  ShapeHandle MakeShape(const std::vector<DimensionHandle>& dims);
  ShapeHandle MakeShape(std::initializer_list<DimensionOrConstant> dims);
  ShapeHandle UnknownShape();
  // `rank` unknown dims; a negative rank, or one above TensorShape::kMaxDims, gives an
  // unknown shape.
  ShapeHandle UnknownShapeOfRank(int64_t rank);
  ShapeHandle Scalar();
  ShapeHandle Vector(DimensionOrConstant dim);
  ShapeHandle Matrix(DimensionOrConstant dim1, DimensionOrConstant dim2);

  // The shape denoted by input `input_idx`, an int32/int64 vector (a "shape tensor"): from
  // input_tensors_as_shapes if known, else from its value (-1 entries are unknown dims;
  // other negatives are INVALID_ARGUMENT), else a vector of unknown dims of the input's
  // length, else an unknown shape.
  absl::Status MakeShapeFromShapeTensor(int input_idx, ShapeHandle* out);
  // As above, but a scalar input of value -1 (or unknown value) means an unknown shape.
  absl::Status MakeShapeFromShapeTensorTreatScalarAsUnknownShape(int input_idx, ShapeHandle* out);
  // The shape denoted by tensor `t` (nullptr: unknown) whose own shape is `tensor_shape`.
  absl::Status MakeShapeFromTensor(const Tensor* t, ShapeHandle tensor_shape, ShapeHandle* out);
  absl::Status MakeShapeFromShapeProto(const TensorShapeProto& proto, ShapeHandle* out);
  absl::Status MakeShapeFromPartialTensorShape(const PartialTensorShape& s, ShapeHandle* out);
  absl::Status MakeShapeFromTensorShape(const TensorShape& s, ShapeHandle* out);

  // A dimension from a handle (returned as is) or a value (values below -1 read unknown).
  DimensionHandle MakeDim(DimensionOrConstant d);
  DimensionHandle UnknownDim() { return MakeDim(kUnknownDim); }

  // Reads a scalar int32/int64 tensor (`t` must not be null); element `idx` of a vector in
  // the second form.
  absl::Status GetScalarFromTensor(const Tensor* t, int64_t* val);
  absl::Status GetScalarFromTensor(const Tensor* t, int64_t idx, int64_t* val);
  // A dimension whose size is the value of scalar input `idx` (unknown if not known);
  // negative values are INVALID_ARGUMENT.
  absl::Status MakeDimForScalarInput(int idx, DimensionHandle* out);
  // As above, but the value is an axis into a shape of rank `input_rank` (may be unknown):
  // negative values count from the end.
  absl::Status MakeDimForScalarInputWithNegativeIndexing(int idx, int input_rank,
                                                         DimensionHandle* out);

  // ---- Dimension arithmetic (overflow-checked; unknown in, unknown out) ---------------
  absl::Status Add(DimensionHandle first, DimensionOrConstant second, DimensionHandle* out);
  absl::Status Subtract(DimensionHandle first, DimensionOrConstant second, DimensionHandle* out);
  absl::Status Multiply(DimensionHandle first, DimensionOrConstant second, DimensionHandle* out);
  // `dividend` / `divisor`; with `evenly_divisible`, a remainder is INVALID_ARGUMENT.
  absl::Status Divide(DimensionHandle dividend, DimensionOrConstant divisor, bool evenly_divisible,
                      DimensionHandle* out);
  absl::Status Min(DimensionHandle first, DimensionOrConstant second, DimensionHandle* out);
  absl::Status Max(DimensionHandle first, DimensionOrConstant second, DimensionHandle* out);

 private:
  void InitNameRanges(const OpDef& op_def);
  // Builds the arg-name ranges if the constructor deferred them; their error, if any.
  absl::Status EnsureNameRanges() const;
  // Sizes the per-input bookkeeping to the inputs.
  void SizeInputState();
  void InitInputs(const std::vector<PartialTensorShape>& input_shapes,
                  const std::vector<PartialTensorShape>& input_tensors_as_shapes);
  absl::Status ShapeFromTensorValues(const Tensor* t, ShapeHandle* out);
  absl::Status AttachContext(const absl::Status& status);
  std::string InputContextString() const;
  absl::Status ReturnUnknownShape(ShapeHandle* out) {
    *out = UnknownShape();
    return absl::OkStatus();
  }
  absl::Status ReturnCreatedShape(const std::vector<DimensionHandle>& dims, ShapeHandle* out) {
    *out = MakeShape(dims);
    return absl::OkStatus();
  }
  bool ValidInput(int64_t idx) const { return idx >= 0 && idx < num_inputs(); }

  const NodeDef& node_def_;
  absl::Status construction_status_;

  // The arena; element addresses stay stable as it grows.
  internal::StableArena<Dimension, 8> all_dims_;
  internal::StableArena<Shape, 4> all_shapes_;

  // Arg name -> [start, end) of its tensors, for inputs and outputs; built from op_def_ on
  // first use when op_def_ is set (and op_def_ then cleared).
  mutable const OpDef* op_def_ = nullptr;
  mutable NameRangeMap input_name_map_;
  mutable NameRangeMap output_name_map_;

  std::vector<ShapeHandle> inputs_;
  // Inlined: one context per node, and most nodes have few inputs and outputs.
  absl::InlinedVector<const Tensor*, 4> input_tensors_;
  absl::InlinedVector<bool, 4> requested_input_tensor_;
  std::vector<ShapeHandle> input_tensors_as_shapes_;
  absl::InlinedVector<bool, 4> requested_input_tensor_as_partial_shape_;
  absl::InlinedVector<ShapeHandle, 2> outputs_;
  absl::InlinedVector<std::unique_ptr<std::vector<ShapeAndType>>, 4> input_handle_shapes_and_types_;
  absl::InlinedVector<std::unique_ptr<std::vector<ShapeAndType>>, 2>
      output_handle_shapes_and_types_;
};

}  // namespace shape_inference
}  // namespace sluice

#endif  // SLUICE_GRAPH_SHAPE_SHAPE_INFERENCE_H_
