// CompileMlir on small hand-written modules: vector code runs with the right values, external
// functions resolve to the symbols given, bad text is refused with MLIR's diagnostic, and
// compiled code kept in a cache folder is loaded by the next compilation of the same text.
#include "compiler/mlir_jit.h"

#include <xmmintrin.h>

#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace sluice {
namespace {

using ::testing::HasSubstr;

// y[i] = x[i] * 2 + 1 over a memref, 8 at a time.
constexpr char kAxpb[] = R"(
module {
  func.func @axpb(%x: memref<?xf32>, %y: memref<?xf32>, %n: index) {
    %c0 = arith.constant 0 : index
    %c8 = arith.constant 8 : index
    %two = arith.constant dense<2.0> : vector<8xf32>
    %one = arith.constant dense<1.0> : vector<8xf32>
    scf.for %i = %c0 to %n step %c8 {
      %v = vector.load %x[%i] : memref<?xf32>, vector<8xf32>
      %m = arith.mulf %v, %two : vector<8xf32>
      %a = arith.addf %m, %one : vector<8xf32>
      vector.store %a, %y[%i] : memref<?xf32>, vector<8xf32>
    }
    return
  }
})";

struct MemRef {
  float* allocated;
  float* aligned;
  int64_t offset;
  int64_t size;
  int64_t stride;
  void Append(std::vector<void*>* args) {
    args->insert(args->end(), {&allocated, &aligned, &offset, &size, &stride});
  }
};

TEST(MlirJitTest, RunsVectorCode) {
  auto module = CompileMlir(kAxpb, {});
  ASSERT_TRUE(module.ok()) << module.status();
  auto function = (*module)->Lookup("axpb");
  ASSERT_TRUE(function.ok()) << function.status();
  std::vector<float> x(16), y(16, -7.0f);
  for (int i = 0; i < 16; ++i) x[i] = static_cast<float>(i) - 3.5f;
  MemRef mx{x.data(), x.data(), 0, 16, 1}, my{y.data(), y.data(), 0, 16, 1};
  int64_t n = 16;
  std::vector<void*> args;
  mx.Append(&args);
  my.Append(&args);
  args.push_back(&n);
  (*function)(args.data());
  for (int i = 0; i < 16; ++i) EXPECT_EQ(y[i], x[i] * 2.0f + 1.0f) << i;
}

int64_t last_seen = 0;
void Record(int64_t v) { last_seen = v; }

// call(v) calls record(v + 5), an external function.
constexpr char kCallsRecord[] = R"(
module {
  func.func private @record(i64)
  func.func @call(%v: i64) {
    %c = arith.constant 5 : i64
    %s = arith.addi %v, %c : i64
    func.call @record(%s) : (i64) -> ()
    return
  }
})";

TEST(MlirJitTest, ExternalFunctionsResolveToSymbols) {
  MlirCompileOptions options;
  options.symbols.emplace_back("record", reinterpret_cast<void*>(&Record));
  std::string lowered;
  options.lowered_text = &lowered;
  auto module = CompileMlir(kCallsRecord, options);
  ASSERT_TRUE(module.ok()) << module.status();
  EXPECT_THAT(lowered, HasSubstr("llvm.call @record"));
  auto function = (*module)->Lookup("call");
  ASSERT_TRUE(function.ok()) << function.status();
  int64_t v = 37;
  void* args[] = {&v};
  (*function)(args);
  EXPECT_EQ(last_seen, 42);
}

// An x86 instruction that no MLIR dialect offers, reached as the LLVM intrinsic of that name:
// a declared function whose name is an intrinsic's becomes the intrinsic itself once the
// module is LLVM IR (compiler/transcendental_code.cc uses it for AVX's vrcpps).
constexpr char kCallsIntrinsic[] = R"(
module {
  func.func private @llvm.x86.avx.rcp.ps.256(vector<8xf32>) -> vector<8xf32>
  func.func @rcp(%x: memref<?xf32>, %y: memref<?xf32>) {
    %c0 = arith.constant 0 : index
    %v = vector.load %x[%c0] : memref<?xf32>, vector<8xf32>
    %r = func.call @llvm.x86.avx.rcp.ps.256(%v) : (vector<8xf32>) -> vector<8xf32>
    vector.store %r, %y[%c0] : memref<?xf32>, vector<8xf32>
    return
  }
})";

TEST(MlirJitTest, DeclaredIntrinsicIsTheInstruction) {
  if (!__builtin_cpu_supports("avx")) GTEST_SKIP() << "needs AVX";
  auto module = CompileMlir(kCallsIntrinsic, {});
  ASSERT_TRUE(module.ok()) << module.status();
  auto function = (*module)->Lookup("rcp");
  ASSERT_TRUE(function.ok()) << function.status();
  std::vector<float> x = {1.0f, 3.0f, -7.0f, 0.1f, 1e30f, 0.0f, 2.5f, 1e-3f}, y(8);
  MemRef mx{x.data(), x.data(), 0, 8, 1}, my{y.data(), y.data(), 0, 8, 1};
  std::vector<void*> args;
  mx.Append(&args);
  my.Append(&args);
  (*function)(args.data());
  for (int i = 0; i < 8; ++i) {
    const float want = _mm_cvtss_f32(_mm_rcp_ss(_mm_set_ss(x[i])));
    EXPECT_EQ(y[i], want) << "rcp(" << x[i] << ")";
  }
}

// A fresh folder under the test's temporary directory.
std::string FreshFolder(const std::string& name) {
  const char* tmp = std::getenv("TEST_TMPDIR");
  const std::string dir = std::string(tmp == nullptr ? "/tmp" : tmp) + "/" + name;
  EXPECT_EQ(std::system(("rm -rf '" + dir + "' && mkdir -p '" + dir + "'").c_str()), 0);
  return dir;
}

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

// Compiles `text` (with `record`) under `options` and checks that `call` still adds 5.
void CompileAndCall(const std::string& text, MlirCompileOptions options, bool* loaded) {
  options.symbols.emplace_back("record", reinterpret_cast<void*>(&Record));
  options.loaded_from_cache = loaded;
  auto module = CompileMlir(text, options);
  ASSERT_TRUE(module.ok()) << module.status();
  auto function = (*module)->Lookup("call");
  ASSERT_TRUE(function.ok()) << function.status();
  int64_t v = 100;
  void* args[] = {&v};
  (*function)(args);
  EXPECT_EQ(last_seen, 105);
}

TEST(MlirJitTest, CompiledCodeIsKeptInTheCacheFolderAndLoadedFromIt) {
  MlirCompileOptions options;
  // A folder that does not exist yet is made.
  options.cache_dir = FreshFolder("mlir_cache") + "/made/on/first/use";
  auto file = MlirCacheFile(options.cache_dir, kCallsRecord);
  ASSERT_TRUE(file.ok()) << file.status();
  bool loaded = true;
  CompileAndCall(kCallsRecord, options, &loaded);
  EXPECT_FALSE(loaded);
  const std::string written = ReadFile(*file);
  ASSERT_FALSE(written.empty()) << *file;
  EXPECT_EQ(written.rfind("sluice-mlir-object-v1\n", 0), 0u);

  // The same text again: loaded, and the callback resolves in the loaded code too.
  last_seen = 0;
  CompileAndCall(kCallsRecord, options, &loaded);
  EXPECT_TRUE(loaded);

  // Other text has another file.
  const std::string other = std::string(kCallsRecord) + "\n// another module";
  auto other_file = MlirCacheFile(options.cache_dir, other);
  ASSERT_TRUE(other_file.ok());
  EXPECT_NE(*other_file, *file);

  // A damaged file (one byte of the object changed) is not used: compiled and written again.
  std::string damaged = written;
  damaged[damaged.size() / 2] ^= 0x5a;
  std::ofstream(*file, std::ios::binary | std::ios::trunc) << damaged;
  CompileAndCall(kCallsRecord, options, &loaded);
  EXPECT_FALSE(loaded);
  EXPECT_EQ(ReadFile(*file), written);
  // A cut one, and one that is not a cache file at all, likewise.
  std::ofstream(*file, std::ios::binary | std::ios::trunc) << written.substr(0, 30);
  CompileAndCall(kCallsRecord, options, &loaded);
  EXPECT_FALSE(loaded);
  std::ofstream(*file, std::ios::binary | std::ios::trunc) << "\x7f"
                                                              "ELF not an object";
  CompileAndCall(kCallsRecord, options, &loaded);
  EXPECT_FALSE(loaded);
  CompileAndCall(kCallsRecord, options, &loaded);
  EXPECT_TRUE(loaded);

  // Asking for the lowered text compiles (a cached module is never lowered).
  std::string lowered;
  options.lowered_text = &lowered;
  CompileAndCall(kCallsRecord, options, &loaded);
  EXPECT_FALSE(loaded);
  EXPECT_THAT(lowered, HasSubstr("llvm.call @record"));
}

TEST(MlirJitTest, AFolderThatCannotBeWrittenOnlyCostsTheCache) {
  // A folder below a plain file cannot be made.
  const std::string dir = FreshFolder("not_a_folder");
  std::ofstream(dir + "/file") << "x";
  MlirCompileOptions options;
  options.cache_dir = dir + "/file/cache";
  bool loaded = true;
  auto module = CompileMlir(kAxpb, [&] {
    MlirCompileOptions o = options;
    o.loaded_from_cache = &loaded;
    return o;
  }());
  ASSERT_TRUE(module.ok()) << module.status();
  EXPECT_FALSE(loaded);
  EXPECT_TRUE((*module)->Lookup("axpb").ok());
}

TEST(MlirJitTest, BadTextIsInvalidArgumentWithDiagnostic) {
  auto module = CompileMlir("module { func.func @f( }", {});
  ASSERT_FALSE(module.ok());
  EXPECT_EQ(module.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(module.status().message(), HasSubstr("does not parse"));
}

TEST(MlirJitTest, UnknownFunctionIsNotFound) {
  auto module = CompileMlir(kAxpb, {});
  ASSERT_TRUE(module.ok()) << module.status();
  auto function = (*module)->Lookup("nope");
  EXPECT_EQ(function.status().code(), absl::StatusCode::kNotFound);
}

}  // namespace
}  // namespace sluice
