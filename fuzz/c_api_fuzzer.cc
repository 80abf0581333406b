// c_api_fuzzer: programs of C API calls, as a language binding makes them, read from the bytes.
//
// Each input is a short program (at most kMaxCalls calls) over one TF_Graph: import GraphDef
// bytes (with prefixes, input mappings, return outputs); describe an operation (an op type from
// the registry or the bytes, inputs and control inputs from the graph's operations at any
// index, attrs set through every TF_SetAttr* setter, usually of the type the OpDef declares);
// query operations, attrs and tensor shapes with buffers of any size; make tensors with
// TF_NewTensor, TF_AllocateTensor, TF_TensorFromProto and TF_TensorBitcastFrom; evaluate
// constants; build while loops (TF_NewWhile, TF_FinishWhile, TF_AbortWhile); export the graph; run
// it in a session with feeds, fetches, targets and a ConfigProto from the bytes. Handles are only
// ever the live ones this program made: the inputs are the C API's arguments, not its
// preconditions.
//
// Properties: nothing crashes, leaks (LeakSanitizer) or hangs (a step has a 2 s deadline,
// and once a step has reached it the program runs no more steps: a step that waits for what
// never comes waits in every run, and eight 5 s runs, twice over when libFuzzer runs an input
// again to look for a leak, passed its 10 s limit per input in a campaign);
// every TF_Status carries a TF_Code; a graph TF_GraphToGraphDef exported imports again into a
// new graph unless names came from the bytes (TF_FinishOperation, as TensorFlow's, takes any
// operation name and any function name, which no GraphDef import accepts); a successful
// TF_SessionRun fills every fetch with a tensor of the output's dtype.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "fuzz/byte_source.h"
#include "fuzz/fuzz_check.h"
#include "fuzz/fuzz_logging.h"
#include "google/protobuf/text_format.h"
#include "google/protobuf/unknown_field_set.h"
#include "proto/config.pb.h"
#include "proto/op_def.pb.h"
#include "tensorflow/c/c_api.h"

namespace sluice {
namespace fuzz {
namespace {

constexpr int kMaxCalls = 24;
constexpr int kMaxOperations = 64;
constexpr int kMaxTensors = 8;
constexpr int64_t kStepTimeoutMs = 2000;

// Ops a binding uses most, drawn as often as the whole registry.
const char* const kCommonOps[] = {
    "Const",
    "Placeholder",
    "Identity",
    "AddV2",
    "Mul",
    "MatMul",
    "Reshape",
    "Fill",
    "Range",
    "Cast",
    "Shape",
    "ConcatV2",
    "Pack",
    "Split",
    "NoOp",
    "Sum",
    "Where",
    "GatherV2",
    "StridedSlice",
    "IdentityN",
    "Switch",
    "Merge",
    "Enter",
    "Exit",
    "NextIteration",
    "LoopCond",
    "VarHandleOp",
    "ReadVariableOp",
    "AssignVariableOp",
    "PlaceholderWithDefault",
    "Relu",
    "Softmax",
};

const std::vector<OpDef>& RegisteredOps() {
  static const auto* ops = [] {
    auto* list = new std::vector<OpDef>();
    TF_Buffer* buffer = TF_GetAllOpList();
    OpList parsed;
    if (parsed.ParseFromArray(buffer->data, static_cast<int>(buffer->length))) {
      list->assign(parsed.op().begin(), parsed.op().end());
    }
    TF_DeleteBuffer(buffer);
    return list;
  }();
  return *ops;
}

const OpDef* FindOp(const std::string& name) {
  for (const OpDef& op : RegisteredOps()) {
    if (op.name() == name) return &op;
  }
  return nullptr;
}

// Every dtype value TF_DataType has, a few it does not, and the ref types.
TF_DataType AnyDataType(ByteSource* bytes) {
  static const int kValues[] = {1,  2,  3,  4,  5,  6,  7,  8, 9,  10, 11, 12,  13,  14, 15, 16,
                                17, 18, 19, 20, 21, 22, 23, 0, 24, 25, 26, 101, 119, -1, 200};
  return static_cast<TF_DataType>(bytes->Pick(absl::MakeConstSpan(kValues)));
}

// A dim: usually small, sometimes an extreme.
int64_t AnyDim(ByteSource* bytes) {
  if (bytes->OneIn(8)) {
    static const int64_t kExtremes[] = {-1,        -2,       0, int64_t{1} << 31, int64_t{1} << 40,
                                        INT64_MAX, INT64_MIN};
    return bytes->Pick(absl::MakeConstSpan(kExtremes));
  }
  return bytes->InRange(0, 5);
}

std::vector<int64_t> AnyDims(ByteSource* bytes, int max_rank) {
  std::vector<int64_t> dims(bytes->Below(static_cast<uint64_t>(max_rank) + 1));
  for (int64_t& dim : dims) dim = AnyDim(bytes);
  return dims;
}

std::string AnyName(ByteSource* bytes) {
  static const char* const kNames[] = {"a",  "b", "x",       "import/a", "a:0",
                                       "^a", "",  "_SOURCE", "a/b",      "1"};
  if (bytes->OneIn(4)) return bytes->String(12);
  return bytes->Pick(absl::MakeConstSpan(kNames));
}

void CheckStatus(TF_Status* status, const char* call) {
  const int code = TF_GetCode(status);
  FuzzCheck(code >= 0 && code <= 16, "a TF_Status carries a TF_Code",
            absl::StrCat(call, ": ", code));
  if (code != TF_OK && Verbose()) {
    std::fprintf(stderr, "%s: code %d: %.160s\n", call, code, TF_Message(status));
  }
}

class Program {
 public:
  explicit Program(ByteSource* bytes) : bytes_(*bytes) {}

  ~Program() {
    for (TF_Tensor* tensor : tensors_) TF_DeleteTensor(tensor);
    TF_DeleteGraph(graph_);
    TF_DeleteStatus(status_);
  }

  void Run() {
    for (int call = 0; call < kMaxCalls && bytes_.remaining() > 0; ++call) {
      switch (bytes_.Below(9)) {
        case 0:
          ImportGraphDef();
          break;
        case 1:
        case 2:
          DescribeOperation();
          break;
        case 3:
          QueryOperation();
          break;
        case 4:
          MakeTensor();
          break;
        case 5:
          EvaluateConstant();
          break;
        case 6:
          ExportAndImportAgain();
          break;
        case 7:
          RunSession();
          break;
        case 8:
          BuildWhile();
          break;
      }
    }
  }

 private:
  void RefreshOperations() {
    operations_.clear();
    size_t pos = 0;
    while (TF_Operation* op = TF_GraphNextOperation(graph_, &pos)) {
      if (operations_.size() < kMaxOperations) operations_.push_back(op);
    }
  }

  TF_Operation* AnyOperation() {
    if (operations_.empty()) return nullptr;
    return operations_[bytes_.Below(operations_.size())];
  }

  // An output of some operation, at any index (often a real one).
  bool AnyOutput(TF_Output* output) {
    TF_Operation* op = AnyOperation();
    if (op == nullptr) return false;
    const int num_outputs = TF_OperationNumOutputs(op);
    int index = num_outputs > 0 ? static_cast<int>(bytes_.Below(num_outputs)) : 0;
    if (bytes_.OneIn(8)) index = static_cast<int>(bytes_.InRange(-2, 1000));
    *output = TF_Output{op, index};
    return true;
  }

  TF_Tensor* AnyTensor() {
    if (tensors_.empty()) return nullptr;
    return tensors_[bytes_.Below(tensors_.size())];
  }

  void KeepTensor(TF_Tensor* tensor) {
    if (tensor == nullptr) return;
    if (tensors_.size() >= kMaxTensors) {
      TF_DeleteTensor(tensors_.front());
      tensors_.erase(tensors_.begin());
    }
    tensors_.push_back(tensor);
  }

  void ImportGraphDef() {
    const std::string bytes = bytes_.String(2048);
    TF_Buffer* buffer = TF_NewBufferFromString(bytes.data(), bytes.size());
    TF_ImportGraphDefOptions* options = TF_NewImportGraphDefOptions();
    if (bytes_.Bool()) TF_ImportGraphDefOptionsSetPrefix(options, AnyName(&bytes_).c_str());
    TF_ImportGraphDefOptionsSetUniquifyNames(options, bytes_.Bool());
    TF_Output dst;
    if (bytes_.OneIn(3) && AnyOutput(&dst)) {
      TF_ImportGraphDefOptionsAddInputMapping(options, AnyName(&bytes_).c_str(),
                                              static_cast<int>(bytes_.InRange(-1, 3)), dst);
    }
    if (bytes_.OneIn(4)) {
      if (TF_Operation* op = AnyOperation()) {
        TF_ImportGraphDefOptionsRemapControlDependency(options, AnyName(&bytes_).c_str(), op);
      }
    }
    if (bytes_.OneIn(4)) {
      if (TF_Operation* op = AnyOperation())
        TF_ImportGraphDefOptionsAddControlDependency(options, op);
    }
    const int returns = static_cast<int>(bytes_.Below(3));
    for (int i = 0; i < returns; ++i) {
      TF_ImportGraphDefOptionsAddReturnOutput(options, AnyName(&bytes_).c_str(),
                                              static_cast<int>(bytes_.InRange(-1, 3)));
    }
    TF_ImportGraphDefResults* results =
        TF_GraphImportGraphDefWithResults(graph_, buffer, options, status_);
    CheckStatus(status_, "TF_GraphImportGraphDefWithResults");
    if (results != nullptr) {
      int num_outputs = 0;
      TF_Output* outputs = nullptr;
      TF_ImportGraphDefResultsReturnOutputs(results, &num_outputs, &outputs);
      FuzzCheck(num_outputs == returns, "an import returns every output asked for");
      TF_DeleteImportGraphDefResults(results);
    }
    TF_DeleteImportGraphDefOptions(options);
    TF_DeleteBuffer(buffer);
    RefreshOperations();
  }

  // One attr through one of the setters: the one the OpDef's type calls for, or any.
  void SetAttr(TF_OperationDescription* desc, const std::string& name, const std::string& type) {
    int setter = static_cast<int>(bytes_.Below(12));
    if (!bytes_.OneIn(5)) {
      if (type == "int") setter = 0;
      if (type == "list(int)") setter = 1;
      if (type == "float") setter = 2;
      if (type == "bool") setter = 3;
      if (type == "type") setter = 4;
      if (type == "list(type)") setter = 5;
      if (type == "shape") setter = 6;
      if (type == "list(shape)") setter = 7;
      if (type == "tensor") setter = 8;
      if (type == "string") setter = 9;
      if (type == "func") setter = 10;
    }
    const char* attr = name.c_str();
    switch (setter) {
      case 0: {
        static const int64_t kInts[] = {0, 1, 2, 3, -1, 255, INT64_MAX, INT64_MIN, 1 << 20};
        TF_SetAttrInt(desc, attr, bytes_.Pick(absl::MakeConstSpan(kInts)));
        break;
      }
      case 1: {
        const std::vector<int64_t> values = AnyDims(&bytes_, 6);
        TF_SetAttrIntList(desc, attr, values.data(), static_cast<int>(values.size()));
        break;
      }
      case 2:
        TF_SetAttrFloat(desc, attr, bytes_.OneIn(4) ? NAN : bytes_.InRange(-3, 3));
        break;
      case 3:
        TF_SetAttrBool(desc, attr, bytes_.Byte());
        break;
      case 4:
        TF_SetAttrType(desc, attr, AnyDataType(&bytes_));
        break;
      case 5: {
        std::vector<TF_DataType> types(bytes_.Below(4));
        for (TF_DataType& t : types) t = AnyDataType(&bytes_);
        TF_SetAttrTypeList(desc, attr, types.data(), static_cast<int>(types.size()));
        break;
      }
      case 6: {
        const std::vector<int64_t> dims = AnyDims(&bytes_, 6);
        const int num_dims = bytes_.OneIn(6) ? -1 : static_cast<int>(dims.size());
        TF_SetAttrShape(desc, attr, dims.data(), num_dims);
        break;
      }
      case 7: {
        const std::vector<int64_t> a = AnyDims(&bytes_, 4), b = AnyDims(&bytes_, 4);
        const int64_t* dims[] = {a.data(), b.data()};
        const int num_dims[] = {static_cast<int>(a.size()),
                                bytes_.OneIn(4) ? -1 : static_cast<int>(b.size())};
        TF_SetAttrShapeList(desc, attr, dims, num_dims, static_cast<int>(bytes_.Below(3)));
        break;
      }
      case 8:
        if (TF_Tensor* tensor = AnyTensor()) {
          TF_SetAttrTensor(desc, attr, tensor, status_);
          CheckStatus(status_, "TF_SetAttrTensor");
        }
        break;
      case 9: {
        const std::string value = bytes_.String(16);
        TF_SetAttrString(desc, attr, value.data(), value.size());
        break;
      }
      case 10: {
        // A function name is a proto3 string: bytes that are not UTF-8 make a graph whose
        // GraphDef does not parse (in TensorFlow too), so re-import is no longer expected.
        odd_strings_ = true;
        const std::string value = AnyName(&bytes_);
        TF_SetAttrFuncName(desc, attr, value.data(), value.size());
        break;
      }
      default: {
        const std::string proto = bytes_.String(64);
        TF_SetAttrValueProto(desc, attr, proto.data(), proto.size(), status_);
        CheckStatus(status_, "TF_SetAttrValueProto");
        break;
      }
    }
  }

  void DescribeOperation() {
    std::string type;
    const OpDef* op_def = nullptr;
    if (bytes_.OneIn(16)) {
      type = bytes_.String(12);
    } else if (bytes_.Bool() && !RegisteredOps().empty()) {
      op_def = &bytes_.Pick(RegisteredOps());
      type = op_def->name();
    } else {
      type = bytes_.Pick(absl::MakeConstSpan(kCommonOps));
      op_def = FindOp(type);
    }
    // TF_FinishOperation takes any name, as TensorFlow's does (even "" or ": x"); only a
    // graph whose names are all valid node names can be exported and imported again.
    const bool odd_name = bytes_.OneIn(8);
    if (odd_name) odd_strings_ = true;
    const std::string name = odd_name ? AnyName(&bytes_) : absl::StrCat("op", next_name_++);
    TF_OperationDescription* desc = TF_NewOperation(graph_, type.c_str(), name.c_str());
    // Inputs: one per argument of the signature (a list of up to three for list arguments),
    // or a few whatever the signature says.
    const int num_args = op_def != nullptr && !bytes_.OneIn(8) ? op_def->input_arg_size()
                                                               : static_cast<int>(bytes_.Below(3));
    for (int i = 0; i < num_args; ++i) {
      const bool list = op_def != nullptr && i < op_def->input_arg_size() &&
                        (!op_def->input_arg(i).number_attr().empty() ||
                         !op_def->input_arg(i).type_list_attr().empty());
      if (list) {
        std::vector<TF_Output> outputs(bytes_.Below(4));
        for (TF_Output& output : outputs) {
          if (!AnyOutput(&output)) outputs.clear();
        }
        TF_AddInputList(desc, outputs.data(), static_cast<int>(outputs.size()));
      } else {
        TF_Output output;
        if (AnyOutput(&output)) TF_AddInput(desc, output);
      }
    }
    if (bytes_.OneIn(6)) {
      if (TF_Operation* control = AnyOperation()) TF_AddControlInput(desc, control);
    }
    if (op_def != nullptr) {
      for (const OpDef::AttrDef& attr : op_def->attr()) {
        if (bytes_.OneIn(5)) continue;  // left to its default, or missing
        SetAttr(desc, attr.name(), attr.type());
      }
    }
    if (bytes_.OneIn(6)) {
      odd_strings_ = true;  // an attr name from the bytes, as above
      SetAttr(desc, AnyName(&bytes_), "");
    }
    if (bytes_.OneIn(8)) {
      static const char* const kDevices[] = {"/device:CPU:0", "/device:GPU:0", "CPU", "/job:x",
                                             "garbage"};
      TF_SetDevice(desc, bytes_.Pick(absl::MakeConstSpan(kDevices)));
    }
    TF_Operation* op = TF_FinishOperation(desc, status_);
    CheckStatus(status_, "TF_FinishOperation");
    FuzzCheck((op != nullptr) == (TF_GetCode(status_) == TF_OK),
              "TF_FinishOperation returns an operation exactly when it succeeds");
    if (op != nullptr && operations_.size() < kMaxOperations) operations_.push_back(op);
  }

  void QueryOperation() {
    TF_Operation* op = AnyOperation();
    if (op == nullptr) return;
    const int num_inputs = TF_OperationNumInputs(op);
    const int num_outputs = TF_OperationNumOutputs(op);
    FuzzCheck(num_inputs >= 0 && num_outputs >= 0, "operations count their inputs and outputs");
    const int index = static_cast<int>(bytes_.InRange(-1, 4));
    std::string attr = AnyName(&bytes_);
    const int num_attrs = TF_OperationGetNumAttrs(op);
    if (num_attrs > 0 && bytes_.Bool()) {
      const int i = static_cast<int>(bytes_.Below(num_attrs));
      const int length = TF_OperationGetAttrNameLength(op, i);
      if (length >= 0) {
        std::string name(static_cast<size_t>(length) + 1, '\0');
        TF_OperationGetAttrName(op, i, name.data(), status_);
        CheckStatus(status_, "TF_OperationGetAttrName");
        if (TF_GetCode(status_) == TF_OK) attr.assign(name.c_str());
      }
    }
    const int size = static_cast<int>(bytes_.Below(8));
    switch (bytes_.Below(12)) {
      case 0: {
        TF_OperationOutputType(TF_Output{op, index});
        TF_OperationInputType(TF_Input{op, index});
        TF_OperationInput(TF_Input{op, index});
        TF_OperationOutputNumConsumers(TF_Output{op, index});
        std::vector<TF_Input> consumers(size);
        TF_OperationOutputConsumers(TF_Output{op, index}, consumers.data(), size);
        break;
      }
      case 1: {
        std::vector<TF_Output> inputs(size);
        TF_OperationAllInputs(op, inputs.data(), size);
        std::vector<TF_Operation*> controls(size);
        TF_OperationGetControlInputs(op, controls.data(), size);
        TF_OperationGetControlOutputs(op, controls.data(), size);
        break;
      }
      case 2: {
        TF_AttrMetadata metadata = TF_OperationGetAttrMetadata(op, attr.c_str(), status_);
        CheckStatus(status_, "TF_OperationGetAttrMetadata");
        (void)metadata;
        std::vector<char> value(size);
        TF_OperationGetAttrString(op, attr.c_str(), value.data(), value.size(), status_);
        CheckStatus(status_, "TF_OperationGetAttrString");
        break;
      }
      case 3: {
        std::vector<int64_t> values(size);
        TF_OperationGetAttrIntList(op, attr.c_str(), values.data(), size, status_);
        CheckStatus(status_, "TF_OperationGetAttrIntList");
        int64_t one = 0;
        TF_OperationGetAttrInt(op, attr.c_str(), &one, status_);
        CheckStatus(status_, "TF_OperationGetAttrInt");
        break;
      }
      case 4: {
        std::vector<int64_t> dims(size);
        TF_OperationGetAttrShape(op, attr.c_str(), dims.data(), size, status_);
        CheckStatus(status_, "TF_OperationGetAttrShape");
        break;
      }
      case 5: {
        std::vector<TF_DataType> types(size);
        TF_OperationGetAttrTypeList(op, attr.c_str(), types.data(), size, status_);
        CheckStatus(status_, "TF_OperationGetAttrTypeList");
        TF_DataType one;
        TF_OperationGetAttrType(op, attr.c_str(), &one, status_);
        CheckStatus(status_, "TF_OperationGetAttrType");
        break;
      }
      case 6: {
        TF_Tensor* tensor = nullptr;
        TF_OperationGetAttrTensor(op, attr.c_str(), &tensor, status_);
        CheckStatus(status_, "TF_OperationGetAttrTensor");
        KeepTensor(tensor);
        break;
      }
      case 7: {
        TF_Buffer* buffer = TF_NewBuffer();
        TF_OperationGetAttrValueProto(op, attr.c_str(), buffer, status_);
        CheckStatus(status_, "TF_OperationGetAttrValueProto");
        TF_OperationToNodeDef(op, buffer, status_);
        CheckStatus(status_, "TF_OperationToNodeDef");
        TF_DeleteBuffer(buffer);
        break;
      }
      case 8: {
        const int num_dims = TF_GraphGetTensorNumDims(graph_, TF_Output{op, index}, status_);
        CheckStatus(status_, "TF_GraphGetTensorNumDims");
        const int asked = bytes_.Bool() ? std::max(num_dims, 0) : size;
        std::vector<int64_t> dims(static_cast<size_t>(asked));
        TF_GraphGetTensorShape(graph_, TF_Output{op, index}, dims.data(), asked, status_);
        CheckStatus(status_, "TF_GraphGetTensorShape");
        break;
      }
      case 9: {
        const std::vector<int64_t> dims = AnyDims(&bytes_, 5);
        const int num_dims = bytes_.OneIn(6) ? -1 : static_cast<int>(dims.size());
        TF_GraphSetTensorShape(graph_, TF_Output{op, index}, dims.data(), num_dims, status_);
        CheckStatus(status_, "TF_GraphSetTensorShape");
        break;
      }
      case 10: {
        TF_Operation* found = TF_GraphOperationByName(graph_, TF_OperationName(op));
        FuzzCheck(found == op, "an operation is found by its name");
        TF_OperationOpType(op);
        TF_OperationDevice(op);
        TF_OperationNumControlInputs(op);
        TF_OperationNumControlOutputs(op);
        break;
      }
      default: {
        TF_Buffer* buffer = TF_NewBuffer();
        TF_GraphGetOpDef(graph_, attr.c_str(), buffer, status_);
        CheckStatus(status_, "TF_GraphGetOpDef");
        TF_DeleteBuffer(buffer);
        TF_OperationInputListLength(op, attr.c_str(), status_);
        CheckStatus(status_, "TF_OperationInputListLength");
        TF_OperationOutputListLength(op, attr.c_str(), status_);
        CheckStatus(status_, "TF_OperationOutputListLength");
        break;
      }
    }
  }

  void MakeTensor() {
    const std::vector<int64_t> dims = AnyDims(&bytes_, 4);
    const int num_dims = static_cast<int>(dims.size());
    switch (bytes_.Below(4)) {
      case 0: {
        // Any dtype but TF_STRING, whose elements hold pointers a caller must initialise.
        TF_DataType dtype = AnyDataType(&bytes_);
        if (dtype == TF_STRING) dtype = TF_FLOAT;
        const std::string content = bytes_.String(256);
        const size_t len = content.size();
        void* data = len == 0 ? nullptr : std::malloc(len);
        if (len > 0) std::memcpy(data, content.data(), len);
        KeepTensor(TF_NewTensor(
            dtype, dims.data(), num_dims, data, len,
            [](void* memory, size_t, void*) { std::free(memory); }, nullptr));
        break;
      }
      case 1: {
        const TF_DataType dtype = AnyDataType(&bytes_);
        const size_t len = bytes_.Below(512);
        TF_Tensor* tensor = TF_AllocateTensor(dtype, dims.data(), num_dims, len);
        if (tensor != nullptr && dtype == TF_STRING) {
          auto* strings = static_cast<TF_TString*>(TF_TensorData(tensor));
          const int64_t count = TF_TensorElementCount(tensor);
          for (int64_t i = 0; i < count && i < 4; ++i) {
            const std::string value = bytes_.String(40);
            TF_StringCopy(&strings[i], value.data(), value.size());
          }
        } else if (tensor != nullptr && TF_TensorByteSize(tensor) > 0) {
          const std::string fill = bytes_.String(64);
          std::memcpy(TF_TensorData(tensor), fill.data(),
                      std::min(fill.size(), TF_TensorByteSize(tensor)));
        }
        KeepTensor(tensor);
        break;
      }
      case 2: {
        TF_Tensor* to = TF_AllocateTensor(TF_FLOAT, nullptr, 0, sizeof(float));
        const std::string proto = bytes_.String(256);
        TF_Buffer* buffer = TF_NewBufferFromString(proto.data(), proto.size());
        TF_TensorFromProto(buffer, to, status_);
        CheckStatus(status_, "TF_TensorFromProto");
        TF_DeleteBuffer(buffer);
        KeepTensor(to);
        break;
      }
      default: {
        TF_Tensor* from = AnyTensor();
        if (from == nullptr) break;
        TF_Tensor* to = TF_AllocateTensor(TF_FLOAT, nullptr, 0, sizeof(float));
        TF_TensorBitcastFrom(from, AnyDataType(&bytes_), to, dims.data(), num_dims, status_);
        CheckStatus(status_, "TF_TensorBitcastFrom");
        if (bytes_.OneIn(4)) TF_SetShape(to, dims.data(), num_dims);
        KeepTensor(to);
        break;
      }
    }
  }

  void EvaluateConstant() {
    TF_Output output;
    if (!AnyOutput(&output)) return;
    TF_Tensor* result = nullptr;
    TF_TryEvaluateConstant(graph_, output, &result, status_);
    CheckStatus(status_, "TF_TryEvaluateConstant");
    KeepTensor(result);
  }

  // A while loop through TF_NewWhile: loop variables from the graph, a condition and a body
  // built from the two graphs' placeholders (or left unset), a name (or none), then
  // TF_FinishWhile or TF_AbortWhile.
  void BuildWhile() {
    const int n = 1 + static_cast<int>(bytes_.Below(3));
    TF_Output inputs[3];
    for (int i = 0; i < n; ++i) {
      if (!AnyOutput(&inputs[i])) return;
    }
    TF_WhileParams params = TF_NewWhile(graph_, inputs, n, status_);
    CheckStatus(status_, "TF_NewWhile");
    if (TF_GetCode(status_) != TF_OK) return;
    if (!bytes_.OneIn(8))
      params.cond_output = LoopPart(params.cond_graph, params.cond_inputs, n, "Less");
    for (int i = 0; i < n; ++i) {
      if (!bytes_.OneIn(8))
        params.body_outputs[i] = LoopPart(params.body_graph, params.body_inputs, n, "AddV2");
    }
    const bool odd_name = bytes_.OneIn(8);
    if (odd_name) odd_strings_ = true;
    const std::string name = odd_name ? AnyName(&bytes_) : absl::StrCat("loop", next_name_++);
    if (!bytes_.OneIn(8)) params.name = name.c_str();
    if (bytes_.OneIn(6)) {
      TF_AbortWhile(&params);
      return;
    }
    TF_Output outputs[3];
    TF_FinishWhile(&params, status_, outputs);
    CheckStatus(status_, "TF_FinishWhile");
    RefreshOperations();
  }

  // In a loop's cond or body graph: one of its placeholders, or `op` (sometimes another common
  // op) of two of them; a null output when the op does not take them.
  TF_Output LoopPart(TF_Graph* graph, const TF_Output* placeholders, int n, const char* op) {
    const TF_Output a = placeholders[bytes_.Below(n)];
    if (bytes_.OneIn(3)) return a;
    const char* type = bytes_.OneIn(4) ? bytes_.Pick(absl::MakeConstSpan(kCommonOps)) : op;
    TF_OperationDescription* desc =
        TF_NewOperation(graph, type, absl::StrCat("part", next_name_++).c_str());
    TF_AddInput(desc, a);
    TF_AddInput(desc, placeholders[bytes_.Below(n)]);
    TF_Operation* oper = TF_FinishOperation(desc, status_);
    CheckStatus(status_, "TF_FinishOperation");
    return TF_Output{oper, 0};
  }

  void ExportAndImportAgain() {
    TF_Buffer* buffer = TF_NewBuffer();
    TF_GraphToGraphDef(graph_, buffer, status_);
    CheckStatus(status_, "TF_GraphToGraphDef");
    if (TF_GetCode(status_) == TF_OK && Verbosity() >= 2) {
      // As raw fields: what does not import may not parse as a GraphDef either.
      google::protobuf::UnknownFieldSet fields;
      std::string text;
      if (fields.ParseFromArray(buffer->data, static_cast<int>(buffer->length))) {
        google::protobuf::TextFormat::PrintUnknownFieldsToString(fields, &text);
      }
      LogGraph(text);
    }
    if (TF_GetCode(status_) == TF_OK) {
      TF_Graph* copy = TF_NewGraph();
      TF_ImportGraphDefOptions* options = TF_NewImportGraphDefOptions();
      TF_GraphImportGraphDef(copy, buffer, options, status_);
      FuzzCheck(odd_strings_ || TF_GetCode(status_) == TF_OK,
                "an exported graph whose names came from the program imports again",
                TF_Message(status_));
      TF_DeleteImportGraphDefOptions(options);
      TF_DeleteGraph(copy);
    }
    TF_DeleteBuffer(buffer);
  }

  void RunSession() {
    if (step_timed_out_) return;
    TF_SessionOptions* options = TF_NewSessionOptions();
    ConfigProto config;
    if (bytes_.OneIn(3)) {
      const std::string raw = bytes_.String(64);
      TF_SetConfig(options, raw.data(), raw.size(), status_);
      CheckStatus(status_, "TF_SetConfig");
    } else {
      config.set_intra_op_parallelism_threads(static_cast<int32_t>(bytes_.InRange(0, 2)));
      config.set_inter_op_parallelism_threads(static_cast<int32_t>(bytes_.InRange(-1, 2)));
      config.mutable_graph_options()->mutable_optimizer_options()->set_opt_level(
          bytes_.Bool() ? OptimizerOptions::L0 : OptimizerOptions::L1);
      const std::string serialized = config.SerializeAsString();
      TF_SetConfig(options, serialized.data(), serialized.size(), status_);
      CheckStatus(status_, "TF_SetConfig");
    }
    TF_Session* session = TF_NewSession(graph_, options, status_);
    CheckStatus(status_, "TF_NewSession");
    TF_DeleteSessionOptions(options);
    if (session == nullptr) return;

    std::vector<TF_Output> feeds;
    std::vector<TF_Tensor*> feed_values;
    const int num_feeds = static_cast<int>(bytes_.Below(3));
    for (int i = 0; i < num_feeds; ++i) {
      TF_Output output;
      TF_Tensor* value = AnyTensor();
      if (value == nullptr || !AnyOutput(&output)) break;
      feeds.push_back(output);
      feed_values.push_back(value);
    }
    std::vector<TF_Output> fetches;
    const int num_fetches = static_cast<int>(bytes_.Below(4));
    for (int i = 0; i < num_fetches; ++i) {
      TF_Output output;
      if (AnyOutput(&output)) fetches.push_back(output);
    }
    std::vector<TF_Operation*> targets;
    if (bytes_.OneIn(3)) {
      if (TF_Operation* op = AnyOperation()) targets.push_back(op);
    }
    RunOptions run_options;
    run_options.set_timeout_in_ms(kStepTimeoutMs);
    const std::string serialized = run_options.SerializeAsString();
    TF_Buffer* run_options_buffer = TF_NewBufferFromString(serialized.data(), serialized.size());
    TF_Buffer* metadata = bytes_.OneIn(4) ? TF_NewBuffer() : nullptr;
    std::vector<TF_Tensor*> outputs(fetches.size(), nullptr);
    TF_SessionRun(session, run_options_buffer, feeds.data(), feed_values.data(),
                  static_cast<int>(feeds.size()), fetches.data(), outputs.data(),
                  static_cast<int>(fetches.size()), targets.data(),
                  static_cast<int>(targets.size()), metadata, status_);
    CheckStatus(status_, "TF_SessionRun");
    if (TF_GetCode(status_) == TF_DEADLINE_EXCEEDED) step_timed_out_ = true;
    const bool ran = TF_GetCode(status_) == TF_OK;
    for (size_t i = 0; i < outputs.size(); ++i) {
      if (ran) {
        FuzzCheck(outputs[i] != nullptr, "a successful run fills every fetch");
        FuzzCheck(TF_TensorType(outputs[i]) == TF_OperationOutputType(fetches[i]),
                  "a fetch has its output's dtype");
      }
      KeepTensor(outputs[i]);
    }
    if (metadata != nullptr) TF_DeleteBuffer(metadata);
    TF_DeleteBuffer(run_options_buffer);
    TF_CloseSession(session, status_);
    CheckStatus(status_, "TF_CloseSession");
    TF_DeleteSession(session, status_);
    CheckStatus(status_, "TF_DeleteSession");
  }

  ByteSource& bytes_;
  TF_Graph* const graph_ = TF_NewGraph();
  TF_Status* const status_ = TF_NewStatus();
  std::vector<TF_Operation*> operations_;
  std::vector<TF_Tensor*> tensors_;
  bool step_timed_out_ = false;  // a run reached its deadline: no more runs
  int next_name_ = 0;
  // Some operation was given a name, an attr name or a function name from the bytes.
  bool odd_strings_ = false;
};

}  // namespace
}  // namespace fuzz
}  // namespace sluice

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  sluice::fuzz::QuietLogs();
  sluice::fuzz::RegisteredOps();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  sluice::fuzz::ByteSource bytes(data, size);
  sluice::fuzz::Program program(&bytes);
  program.Run();
  return 0;
}
