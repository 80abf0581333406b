// Partial runs through the C API's public functions: TF_SessionPRunSetup, TF_SessionPRun and
// TF_DeletePRunHandle on a TF_Session, and the deprecated session's TF_PRunSetup/TF_PRun.
// Feeds given in separate calls with fetches in between, a variable update that runs once per
// partial run, every refused call (with TensorFlow's codes and texts, and NULL outputs), a
// closed session, and partial runs from several threads on one session.
#include <atomic>
#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "gtest/gtest.h"
#include "tensorflow/c/c_api.h"

namespace {

struct StatusDeleter {
  void operator()(TF_Status* s) const { TF_DeleteStatus(s); }
};
using StatusPtr = std::unique_ptr<TF_Status, StatusDeleter>;

struct TensorDeleter {
  void operator()(TF_Tensor* t) const { TF_DeleteTensor(t); }
};
using TensorPtr = std::unique_ptr<TF_Tensor, TensorDeleter>;

struct HandleDeleter {
  void operator()(const char* handle) const { TF_DeletePRunHandle(handle); }
};
using HandlePtr = std::unique_ptr<const char, HandleDeleter>;

std::string Message(const TF_Status* s) { return TF_Message(s); }

TensorPtr Scalar(float value) {
  TF_Tensor* t = TF_AllocateTensor(TF_FLOAT, nullptr, 0, sizeof(float));
  *static_cast<float*>(TF_TensorData(t)) = value;
  return TensorPtr(t);
}

float Value(const TF_Tensor* t) { return *static_cast<const float*>(TF_TensorData(t)); }

// Builds graphs of float scalars and runs them through a TF_Session.
class PRunTest : public ::testing::Test {
 protected:
  void SetUp() override {
    graph_ = TF_NewGraph();
    status_ = TF_NewStatus();
  }
  void TearDown() override {
    if (session_ != nullptr) {
      TF_DeleteSession(session_, status_);
      EXPECT_EQ(TF_GetCode(status_), TF_OK) << Message(status_);
    }
    TF_DeleteGraph(graph_);
    TF_DeleteStatus(status_);
  }

  TF_Operation* Finish(TF_OperationDescription* desc) {
    TF_Operation* op = TF_FinishOperation(desc, status_);
    EXPECT_EQ(TF_GetCode(status_), TF_OK) << Message(status_);
    return op;
  }

  TF_Operation* Placeholder(const char* name) {
    TF_OperationDescription* desc = TF_NewOperation(graph_, "Placeholder", name);
    TF_SetAttrType(desc, "dtype", TF_FLOAT);
    TF_SetAttrShape(desc, "shape", nullptr, 0);
    return Finish(desc);
  }

  TF_Operation* Const(const char* name, float value) {
    TensorPtr t = Scalar(value);
    TF_OperationDescription* desc = TF_NewOperation(graph_, "Const", name);
    TF_SetAttrTensor(desc, "value", t.get(), status_);
    EXPECT_EQ(TF_GetCode(status_), TF_OK) << Message(status_);
    TF_SetAttrType(desc, "dtype", TF_FLOAT);
    return Finish(desc);
  }

  TF_Operation* Binary(const char* op, const char* name, TF_Operation* l, TF_Operation* r) {
    TF_OperationDescription* desc = TF_NewOperation(graph_, op, name);
    TF_AddInput(desc, TF_Output{l, 0});
    TF_AddInput(desc, TF_Output{r, 0});
    return Finish(desc);
  }

  void NewSession() {
    TF_SessionOptions* options = TF_NewSessionOptions();
    session_ = TF_NewSession(graph_, options, status_);
    TF_DeleteSessionOptions(options);
    ASSERT_EQ(TF_GetCode(status_), TF_OK) << Message(status_);
  }

  // a, b: placeholders; plus2 = a + 2; plus_b = plus2 + b (TensorFlow's SessionPRun graph).
  void BuildAddGraph() {
    a_ = Placeholder("A");
    b_ = Placeholder("B");
    TF_Operation* two = Const("two", 2);
    plus2_ = Binary("AddV2", "plus2", a_, two);
    plus_b_ = Binary("AddV2", "plusB", plus2_, b_);
  }

  HandlePtr Setup(const std::vector<TF_Output>& feeds, const std::vector<TF_Output>& fetches,
                  const std::vector<TF_Operation*>& targets = {}) {
    const char* handle = "not reset";
    TF_SessionPRunSetup(session_, feeds.data(), static_cast<int>(feeds.size()), fetches.data(),
                        static_cast<int>(fetches.size()), targets.data(),
                        static_cast<int>(targets.size()), &handle, status_);
    if (TF_GetCode(status_) != TF_OK) {
      EXPECT_EQ(handle, nullptr);
      return nullptr;
    }
    EXPECT_NE(handle, nullptr);
    return HandlePtr(handle);
  }

  // One TF_SessionPRun; returns the fetched values, or an empty vector on error (having
  // checked that every output slot was set to NULL).
  std::vector<float> PRun(const char* handle, const std::vector<TF_Output>& feeds,
                          const std::vector<float>& values, const std::vector<TF_Output>& fetches,
                          TF_Status* status = nullptr) {
    if (status == nullptr) status = status_;
    std::vector<TensorPtr> owned;
    std::vector<TF_Tensor*> inputs;
    for (float v : values) {
      owned.push_back(Scalar(v));
      inputs.push_back(owned.back().get());
    }
    TF_Tensor* sentinel = reinterpret_cast<TF_Tensor*>(&owned);
    std::vector<TF_Tensor*> outputs(fetches.size(), sentinel);
    TF_SessionPRun(session_, handle, feeds.data(), inputs.data(), static_cast<int>(feeds.size()),
                   fetches.data(), outputs.data(), static_cast<int>(fetches.size()), nullptr, 0,
                   status);
    std::vector<float> result;
    for (TF_Tensor* out : outputs) {
      if (TF_GetCode(status) != TF_OK) {
        EXPECT_EQ(out, nullptr);
        continue;
      }
      EXPECT_NE(out, nullptr);
      if (out == nullptr || out == sentinel) continue;
      EXPECT_EQ(TF_TensorType(out), TF_FLOAT);
      EXPECT_EQ(TF_NumDims(out), 0);
      result.push_back(Value(out));
      TF_DeleteTensor(out);
    }
    return result;
  }

  void ExpectError(TF_Code code, const std::string& message) {
    EXPECT_EQ(TF_GetCode(status_), code) << Message(status_);
    EXPECT_EQ(Message(status_), message);
  }

  TF_Graph* graph_ = nullptr;
  TF_Status* status_ = nullptr;
  TF_Session* session_ = nullptr;
  TF_Operation* a_ = nullptr;
  TF_Operation* b_ = nullptr;
  TF_Operation* plus2_ = nullptr;
  TF_Operation* plus_b_ = nullptr;
};

TEST_F(PRunTest, FeedsInTwoCallsWithAFetchBetween) {
  BuildAddGraph();
  NewSession();
  HandlePtr handle = Setup({{a_, 0}, {b_, 0}}, {{plus2_, 0}, {plus_b_, 0}});
  ASSERT_EQ(TF_GetCode(status_), TF_OK) << Message(status_);
  // Feed A and fetch A + 2.
  EXPECT_EQ(PRun(handle.get(), {{a_, 0}}, {1}, {{plus2_, 0}}), std::vector<float>{3});
  ASSERT_EQ(TF_GetCode(status_), TF_OK) << Message(status_);
  // Feed B and fetch (A + 2) + B.
  EXPECT_EQ(PRun(handle.get(), {{b_, 0}}, {4}, {{plus_b_, 0}}), std::vector<float>{7});
  ASSERT_EQ(TF_GetCode(status_), TF_OK) << Message(status_);
  // Everything was fed and fetched: the handle no longer names a partial run.
  PRun(handle.get(), {}, {}, {});
  ExpectError(TF_INVALID_ARGUMENT, "Must run 'setup' before performing partial runs!");
}

// Operations added after the session was made are sent to it at setup, as before a run.
TEST_F(PRunTest, OperationsAddedAfterTheSessionAreSetUp) {
  BuildAddGraph();
  NewSession();
  TF_Operation* c = Placeholder("C");
  TF_Operation* times_c = Binary("Mul", "timesC", plus_b_, c);
  HandlePtr handle = Setup({{a_, 0}, {b_, 0}, {c, 0}}, {{plus_b_, 0}, {times_c, 0}});
  ASSERT_EQ(TF_GetCode(status_), TF_OK) << Message(status_);
  EXPECT_EQ(PRun(handle.get(), {{b_, 0}, {a_, 0}}, {10, 1}, {{plus_b_, 0}}),
            std::vector<float>{13});
  EXPECT_EQ(PRun(handle.get(), {{c, 0}}, {2}, {{times_c, 0}}), std::vector<float>{26});
  ASSERT_EQ(TF_GetCode(status_), TF_OK) << Message(status_);
}

// v = 1 by init; inc = AssignAdd(v, 2) is read by s1 and s2, fetched in separate calls. It
// runs once in the partial run: both see 3, and v is 3 after.
TEST_F(PRunTest, VariableUpdateRunsOncePerPartialRun) {
  TF_OperationDescription* desc = TF_NewOperation(graph_, "VariableV2", "v");
  TF_SetAttrType(desc, "dtype", TF_FLOAT);
  TF_SetAttrShape(desc, "shape", nullptr, 0);
  TF_Operation* v = Finish(desc);
  TF_Operation* init = Binary("Assign", "init", v, Const("one", 1));
  TF_Operation* inc = Binary("AssignAdd", "inc", v, Const("two", 2));
  desc = TF_NewOperation(graph_, "Identity", "read");
  TF_AddInput(desc, TF_Output{v, 0});
  TF_Operation* read = Finish(desc);
  TF_Operation* p = Placeholder("p");
  TF_Operation* q = Placeholder("q");
  TF_Operation* s1 = Binary("AddV2", "s1", p, inc);
  TF_Operation* s2 = Binary("AddV2", "s2", q, inc);
  NewSession();

  TF_SessionRun(session_, nullptr, nullptr, nullptr, 0, nullptr, nullptr, 0, &init, 1, nullptr,
                status_);
  ASSERT_EQ(TF_GetCode(status_), TF_OK) << Message(status_);
  HandlePtr handle = Setup({{p, 0}, {q, 0}}, {{s1, 0}, {s2, 0}});
  ASSERT_EQ(TF_GetCode(status_), TF_OK) << Message(status_);
  EXPECT_EQ(PRun(handle.get(), {{p, 0}}, {10}, {{s1, 0}}), std::vector<float>{13});
  EXPECT_EQ(PRun(handle.get(), {{q, 0}}, {100}, {{s2, 0}}), std::vector<float>{103});
  ASSERT_EQ(TF_GetCode(status_), TF_OK) << Message(status_);

  TF_Output read_output{read, 0};
  TF_Tensor* value = nullptr;
  TF_SessionRun(session_, nullptr, nullptr, nullptr, 0, &read_output, &value, 1, nullptr, 0,
                nullptr, status_);
  ASSERT_EQ(TF_GetCode(status_), TF_OK) << Message(status_);
  EXPECT_EQ(Value(value), 3.0f);
  TF_DeleteTensor(value);
}

TEST_F(PRunTest, RefusedCallsSetNullOutputsAndLeaveTheRunUsable) {
  BuildAddGraph();
  TF_Operation* c = Placeholder("C");
  NewSession();
  PRun("no such handle", {}, {}, {{plus2_, 0}});
  ExpectError(TF_INVALID_ARGUMENT, "Must run 'setup' before performing partial runs!");
  PRun(nullptr, {}, {}, {{plus2_, 0}});
  ExpectError(TF_INVALID_ARGUMENT, "Must run 'setup' before performing partial runs!");

  HandlePtr handle = Setup({{a_, 0}, {b_, 0}}, {{plus2_, 0}, {plus_b_, 0}});
  ASSERT_EQ(TF_GetCode(status_), TF_OK) << Message(status_);
  PRun(handle.get(), {{c, 0}}, {1}, {});
  ExpectError(TF_INVALID_ARGUMENT, "The feed C:0 was not specified in partial_run_setup.");
  PRun(handle.get(), {}, {}, {{c, 0}});
  ExpectError(TF_INVALID_ARGUMENT, "The fetch C:0 was not specified in partial_run_setup.");
  PRun(handle.get(), {{a_, 0}}, {1}, {{plus_b_, 0}});
  ExpectError(TF_INVALID_ARGUMENT,
              "Fetch B:0 can't be computed from the feeds that have been fed so far.");
  EXPECT_EQ(PRun(handle.get(), {{a_, 0}}, {1}, {{plus2_, 0}}), std::vector<float>{3});
  PRun(handle.get(), {{a_, 0}}, {5}, {});
  ExpectError(TF_INVALID_ARGUMENT, "The feed A:0 has already been fed.");
  PRun(handle.get(), {}, {}, {{plus2_, 0}});
  ExpectError(TF_INVALID_ARGUMENT, "The fetch plus2:0 has already been fetched.");

  // Arguments checked as TF_SessionRun checks them.
  TF_Tensor* null_value = nullptr;
  TF_Output b_output{b_, 0};
  TF_Output fetch{plus_b_, 0};
  TF_Tensor* result = reinterpret_cast<TF_Tensor*>(&handle);
  TF_SessionPRun(session_, handle.get(), &b_output, &null_value, 1, &fetch, &result, 1, nullptr, 0,
                 status_);
  ExpectError(TF_INVALID_ARGUMENT, "TF_SessionPRun: input value 0 is null");
  EXPECT_EQ(result, nullptr);
  TF_SessionPRun(session_, handle.get(), &b_output, &null_value, -1, &fetch, &result, 1, nullptr, 0,
                 status_);
  EXPECT_EQ(TF_GetCode(status_), TF_INVALID_ARGUMENT);
  TF_Output bad{plus_b_, 3};
  TF_SessionPRun(session_, handle.get(), nullptr, nullptr, 0, &bad, &result, 1, nullptr, 0,
                 status_);
  EXPECT_EQ(TF_GetCode(status_), TF_OUT_OF_RANGE) << Message(status_);
  EXPECT_EQ(result, nullptr);
  // A value of the wrong dtype is refused before it reaches the graph.
  const int64_t dims[] = {2};
  TensorPtr ints(TF_AllocateTensor(TF_INT32, dims, 1, 8));
  TF_Tensor* int_value = ints.get();
  TF_SessionPRun(session_, handle.get(), &b_output, &int_value, 1, &fetch, &result, 1, nullptr, 0,
                 status_);
  ExpectError(TF_INVALID_ARGUMENT,
              "Expects arg[0] to be float but int32 is provided for Tensor B:0");

  // None of that changed the partial run.
  EXPECT_EQ(PRun(handle.get(), {{b_, 0}}, {4}, {{plus_b_, 0}}), std::vector<float>{7});
  ASSERT_EQ(TF_GetCode(status_), TF_OK) << Message(status_);

  // Setup errors leave the handle NULL.
  TF_Output missing{plus_b_, 5};
  const char* no_handle = "not reset";
  TF_SessionPRunSetup(session_, nullptr, 0, &missing, 1, nullptr, 0, &no_handle, status_);
  EXPECT_EQ(TF_GetCode(status_), TF_OUT_OF_RANGE);
  EXPECT_EQ(no_handle, nullptr);
  TF_SessionPRunSetup(session_, nullptr, 0, nullptr, 0, nullptr, 0, &no_handle, status_);
  ExpectError(TF_INVALID_ARGUMENT, "Must specify at least one target to fetch or execute.");
  EXPECT_EQ(no_handle, nullptr);
  TF_Operation* null_target = nullptr;
  TF_SessionPRunSetup(session_, nullptr, 0, &fetch, 1, &null_target, 1, &no_handle, status_);
  ExpectError(TF_INVALID_ARGUMENT, "TF_SessionPRunSetup: target 0 is null");
  EXPECT_EQ(no_handle, nullptr);
  TF_DeletePRunHandle(nullptr);
}

TEST_F(PRunTest, KernelErrorFailsTheCallAndEndsTheRun) {
  TF_Operation* x = Placeholder("x");
  TF_OperationDescription* desc = TF_NewOperation(graph_, "CheckNumerics", "checked");
  TF_AddInput(desc, TF_Output{x, 0});
  TF_SetAttrString(desc, "message", "x is bad", 8);
  TF_Operation* checked = Finish(desc);
  NewSession();
  HandlePtr handle = Setup({{x, 0}}, {{checked, 0}});
  ASSERT_EQ(TF_GetCode(status_), TF_OK) << Message(status_);
  PRun(handle.get(), {{x, 0}}, {std::numeric_limits<float>::quiet_NaN()}, {{checked, 0}});
  EXPECT_EQ(TF_GetCode(status_), TF_INVALID_ARGUMENT) << Message(status_);
  EXPECT_NE(Message(status_).find("x is bad"), std::string::npos) << Message(status_);
  PRun(handle.get(), {}, {}, {});
  ExpectError(TF_INVALID_ARGUMENT, "Must run 'setup' before performing partial runs!");
}

TEST_F(PRunTest, ClosedSessionCancelsPendingPartialRuns) {
  BuildAddGraph();
  NewSession();
  HandlePtr handle = Setup({{a_, 0}, {b_, 0}}, {{plus_b_, 0}});
  ASSERT_EQ(TF_GetCode(status_), TF_OK) << Message(status_);
  PRun(handle.get(), {{a_, 0}}, {1}, {});
  ASSERT_EQ(TF_GetCode(status_), TF_OK) << Message(status_);
  // The partial run waits for B; closing must not.
  TF_CloseSession(session_, status_);
  ASSERT_EQ(TF_GetCode(status_), TF_OK) << Message(status_);
  PRun(handle.get(), {{b_, 0}}, {2}, {{plus_b_, 0}});
  ExpectError(TF_CANCELLED, "Session has been closed.");
  HandlePtr again = Setup({{a_, 0}}, {{plus2_, 0}});
  ExpectError(TF_CANCELLED, "Session has been closed.");
}

TEST_F(PRunTest, PartialRunsFromSeveralThreads) {
  BuildAddGraph();
  NewSession();
  std::atomic<int> failures{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      StatusPtr status(TF_NewStatus());
      for (int i = 0; i < 25; ++i) {
        const float a = static_cast<float>(t * 1000 + i);
        HandlePtr handle;
        {
          const char* raw = nullptr;
          TF_Output feeds[] = {{a_, 0}, {b_, 0}};
          TF_Output fetches[] = {{plus2_, 0}, {plus_b_, 0}};
          TF_SessionPRunSetup(session_, feeds, 2, fetches, 2, nullptr, 0, &raw, status.get());
          handle.reset(raw);
        }
        if (TF_GetCode(status.get()) != TF_OK) {
          ++failures;
          continue;
        }
        const std::vector<float> first =
            PRun(handle.get(), {{a_, 0}}, {a}, {{plus2_, 0}}, status.get());
        const std::vector<float> second =
            PRun(handle.get(), {{b_, 0}}, {1}, {{plus_b_, 0}}, status.get());
        if (TF_GetCode(status.get()) != TF_OK || first != std::vector<float>{a + 2} ||
            second != std::vector<float>{a + 3}) {
          ++failures;
        }
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  EXPECT_EQ(failures.load(), 0);
}

// The deprecated session names tensors and targets by strings.
TEST_F(PRunTest, DeprecatedSessionByNames) {
  BuildAddGraph();
  TF_Buffer* graph_def = TF_NewBuffer();
  TF_GraphToGraphDef(graph_, graph_def, status_);
  ASSERT_EQ(TF_GetCode(status_), TF_OK) << Message(status_);
  TF_SessionOptions* options = TF_NewSessionOptions();
  TF_DeprecatedSession* session = TF_NewDeprecatedSession(options, status_);
  TF_DeleteSessionOptions(options);
  ASSERT_EQ(TF_GetCode(status_), TF_OK) << Message(status_);
  TF_ExtendGraph(session, graph_def->data, graph_def->length, status_);
  TF_DeleteBuffer(graph_def);
  ASSERT_EQ(TF_GetCode(status_), TF_OK) << Message(status_);

  const char* feeds[] = {"A", "B:0"};
  const char* fetches[] = {"plus2", "plusB:0"};
  const char* handle = nullptr;
  TF_PRunSetup(session, feeds, 2, fetches, 2, nullptr, 0, &handle, status_);
  ASSERT_EQ(TF_GetCode(status_), TF_OK) << Message(status_);
  ASSERT_NE(handle, nullptr);

  TensorPtr one = Scalar(1);
  TF_Tensor* inputs[] = {one.get()};
  TF_Tensor* outputs[1] = {nullptr};
  // Names must be spelled as at setup.
  const char* a_spelled_differently[] = {"A:0"};
  TF_PRun(session, handle, a_spelled_differently, inputs, 1, nullptr, nullptr, 0, nullptr, 0,
          status_);
  ExpectError(TF_INVALID_ARGUMENT, "The feed A:0 was not specified in partial_run_setup.");
  TF_PRun(session, handle, feeds, inputs, 1, fetches, outputs, 1, nullptr, 0, status_);
  ASSERT_EQ(TF_GetCode(status_), TF_OK) << Message(status_);
  ASSERT_NE(outputs[0], nullptr);
  EXPECT_EQ(Value(outputs[0]), 3.0f);
  TF_DeleteTensor(outputs[0]);

  TensorPtr four = Scalar(4);
  inputs[0] = four.get();
  TF_PRun(session, handle, feeds + 1, inputs, 1, fetches + 1, outputs, 1, nullptr, 0, status_);
  ASSERT_EQ(TF_GetCode(status_), TF_OK) << Message(status_);
  ASSERT_NE(outputs[0], nullptr);
  EXPECT_EQ(Value(outputs[0]), 7.0f);
  TF_DeleteTensor(outputs[0]);
  TF_DeletePRunHandle(handle);

  // Misuse is refused cleanly, outputs NULL.
  outputs[0] = reinterpret_cast<TF_Tensor*>(&handle);
  TF_PRun(session, "nope", nullptr, nullptr, 0, fetches, outputs, 1, nullptr, 0, status_);
  ExpectError(TF_INVALID_ARGUMENT, "Must run 'setup' before performing partial runs!");
  EXPECT_EQ(outputs[0], nullptr);
  TF_PRun(session, "nope", feeds, nullptr, 1, nullptr, nullptr, 0, nullptr, 0, status_);
  ExpectError(TF_INVALID_ARGUMENT, "TF_PRun: input value 0 is null");
  handle = "not reset";
  TF_PRunSetup(session, nullptr, 1, fetches, 1, nullptr, 0, &handle, status_);
  ExpectError(TF_INVALID_ARGUMENT, "TF_PRunSetup: a list of names is null");
  EXPECT_EQ(handle, nullptr);
  const char* unknown[] = {"nowhere:0"};
  TF_PRunSetup(session, nullptr, 0, unknown, 1, nullptr, 0, &handle, status_);
  EXPECT_EQ(TF_GetCode(status_), TF_INVALID_ARGUMENT) << Message(status_);
  EXPECT_EQ(handle, nullptr);

  TF_CloseDeprecatedSession(session, status_);
  ASSERT_EQ(TF_GetCode(status_), TF_OK) << Message(status_);
  TF_DeleteDeprecatedSession(session, status_);
  ASSERT_EQ(TF_GetCode(status_), TF_OK) << Message(status_);
}

}  // namespace
