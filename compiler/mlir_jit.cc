#include "compiler/mlir_jit.h"

#include <unistd.h>

#include <array>
#include <atomic>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <mutex>
#include <string>
#include <system_error>
#include <utility>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "graph/core/errors.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/ExecutionEngine/Orc/Core.h"
#include "llvm/ExecutionEngine/Orc/ExecutionUtils.h"
#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/ExecutionEngine/Orc/LLJIT.h"
#include "llvm/ExecutionEngine/Orc/RTDyldObjectLinkingLayer.h"
#include "llvm/ExecutionEngine/SectionMemoryManager.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SHA1.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"
#include "mlir/Conversion/ArithmeticToLLVM/ArithmeticToLLVM.h"
#include "mlir/Conversion/FuncToLLVM/ConvertFuncToLLVMPass.h"
#include "mlir/Conversion/MathToLLVM/MathToLLVM.h"
#include "mlir/Conversion/MemRefToLLVM/MemRefToLLVM.h"
#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Conversion/VectorToLLVM/ConvertVectorToLLVM.h"
#include "mlir/Dialect/Arithmetic/IR/Arithmetic.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/X86Vector/X86VectorDialect.h"
#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/X86Vector/X86VectorToLLVMIRTranslation.h"
#include "mlir/Transforms/Passes.h"

namespace sluice {
namespace {

void InitializeLlvmOnce() {
  static std::once_flag once;
  std::call_once(once, [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
  });
}

std::string LlvmErrorText(llvm::Error error) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << error;
  return os.str();
}

using Sha1Digest = std::array<uint8_t, 20>;

Sha1Digest Sha1(absl::string_view bytes) {
  return llvm::SHA1::hash(
      llvm::ArrayRef<uint8_t>(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size()));
}

absl::string_view DigestBytes(const Sha1Digest& digest) {
  return absl::string_view(reinterpret_cast<const char*>(digest.data()), digest.size());
}

// The first line of a cache file; a new layout or key recipe takes a new version.
constexpr absl::string_view kCacheMagic = "sluice-mlir-object-v1\n";

absl::StatusOr<llvm::orc::JITTargetMachineBuilder> HostMachine() {
  auto machine_builder = llvm::orc::JITTargetMachineBuilder::detectHost();
  if (!machine_builder) {
    return errors::Internal("no LLVM target for this CPU: ",
                            LlvmErrorText(machine_builder.takeError()));
  }
  return *std::move(machine_builder);
}

// What compiled code depends on besides the text: the CPU and its features, and LLVM.
std::string CacheKey(const llvm::orc::JITTargetMachineBuilder& machine, absl::string_view text) {
  return absl::StrCat(kCacheMagic, machine.getCPU(), "\n", machine.getFeatures().getString(),
                      "\nLLVM ", LLVM_VERSION_STRING, "\n", text);
}

std::string CachePath(absl::string_view dir, const Sha1Digest& key) {
  return absl::StrCat(dir, "/", absl::BytesToHexString(DigestBytes(key)), ".o");
}

// The object in the cache file at `path` made for `key`; NOT_FOUND when there is no such file,
// DATA_LOSS when it is not one whole file for this key.
absl::StatusOr<std::string> ReadCachedObject(const std::string& path, const Sha1Digest& key) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return errors::NotFound("no cached object ", path);
  const std::string contents((std::istreambuf_iterator<char>(in)),
                             std::istreambuf_iterator<char>());
  const size_t header = kCacheMagic.size() + 2 * key.size();
  if (contents.size() <= header ||
      absl::string_view(contents).substr(0, kCacheMagic.size()) != kCacheMagic) {
    return errors::DataLoss("not a cached object: ", path);
  }
  const absl::string_view stored_key =
      absl::string_view(contents).substr(kCacheMagic.size(), key.size());
  const absl::string_view stored_object_hash =
      absl::string_view(contents).substr(kCacheMagic.size() + key.size(), key.size());
  std::string object = contents.substr(header);
  if (stored_key != DigestBytes(key) || stored_object_hash != DigestBytes(Sha1(object))) {
    return errors::DataLoss("cached object ", path, " is damaged or for other code");
  }
  return object;
}

// Writes `object` for `key` to `path` through a temporary file in the same folder, renamed
// into place, so that a reader sees a whole file or none.
absl::Status WriteCachedObject(const std::string& path, const Sha1Digest& key,
                               absl::string_view object) {
  static std::atomic<int64_t> counter{0};
  const std::string temporary = absl::StrCat(path, ".", getpid(), ".", counter++, ".tmp");
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    out << kCacheMagic << DigestBytes(key) << DigestBytes(Sha1(object)) << object;
    out.close();
    if (!out) {
      std::remove(temporary.c_str());
      return errors::Unavailable("cannot write ", temporary);
    }
  }
  if (std::rename(temporary.c_str(), path.c_str()) != 0) {
    const int error = errno;
    std::remove(temporary.c_str());
    return absl::ErrnoToStatus(error, absl::StrCat("cannot rename ", temporary, " to ", path));
  }
  return absl::OkStatus();
}

absl::Status DefineSymbols(llvm::orc::JITDylib& dylib, llvm::orc::MangleAndInterner& interner,
                           const std::vector<std::pair<std::string, void*>>& symbols) {
  llvm::orc::SymbolMap map;
  for (const auto& [name, address] : symbols) {
    map[interner(name)] = llvm::JITEvaluatedSymbol::fromPointer(address);
  }
  if (llvm::Error error = dylib.define(llvm::orc::absoluteSymbols(std::move(map)))) {
    return errors::Internal("cannot define symbols for compiled code: ",
                            LlvmErrorText(std::move(error)));
  }
  return absl::OkStatus();
}

// A module loaded from a cached object file: an LLJIT of its own, linking as the
// ExecutionEngine does (RuntimeDyld), with the given symbols and the process's own.
class ObjectModule : public CompiledMlirModule {
 public:
  static absl::StatusOr<std::unique_ptr<CompiledMlirModule>> Load(
      llvm::orc::JITTargetMachineBuilder machine, const std::string& object,
      const std::vector<std::pair<std::string, void*>>& symbols) {
    auto jit = llvm::orc::LLJITBuilder()
                   .setJITTargetMachineBuilder(std::move(machine))
                   .setObjectLinkingLayerCreator([](llvm::orc::ExecutionSession& session,
                                                    const llvm::Triple&) {
                     return std::make_unique<llvm::orc::RTDyldObjectLinkingLayer>(
                         session, [] { return std::make_unique<llvm::SectionMemoryManager>(); });
                   })
                   .create();
    if (!jit) return errors::Internal("cannot make an LLJIT: ", LlvmErrorText(jit.takeError()));
    llvm::orc::JITDylib& dylib = (*jit)->getMainJITDylib();
    auto process = llvm::orc::DynamicLibrarySearchGenerator::GetForCurrentProcess(
        (*jit)->getDataLayout().getGlobalPrefix());
    if (!process) {
      return errors::Internal("cannot search the process's symbols: ",
                              LlvmErrorText(process.takeError()));
    }
    dylib.addGenerator(std::move(*process));
    llvm::orc::MangleAndInterner interner((*jit)->getExecutionSession(), (*jit)->getDataLayout());
    RETURN_IF_ERROR(DefineSymbols(dylib, interner, symbols));
    if (llvm::Error error = (*jit)->addObjectFile(
            llvm::MemoryBuffer::getMemBufferCopy(object, "sluice-cached-object"))) {
      return errors::DataLoss("cached object does not load: ", LlvmErrorText(std::move(error)));
    }
    return std::unique_ptr<CompiledMlirModule>(new ObjectModule(std::move(*jit)));
  }

  absl::StatusOr<PackedFunction> Lookup(absl::string_view name) const override {
    // The ExecutionEngine's packed wrapper of each function, in the object like the rest.
    auto address = jit_->lookup(absl::StrCat("_mlir_", name));
    if (!address) {
      return errors::NotFound("cached MLIR module has no function '", name,
                              "': ", LlvmErrorText(address.takeError()));
    }
    return address->toPtr<PackedFunction>();
  }

 private:
  explicit ObjectModule(std::unique_ptr<llvm::orc::LLJIT> jit) : jit_(std::move(jit)) {}

  std::unique_ptr<llvm::orc::LLJIT> jit_;
};

class JitModule : public CompiledMlirModule {
 public:
  explicit JitModule(std::unique_ptr<mlir::ExecutionEngine> engine) : engine_(std::move(engine)) {}

  absl::StatusOr<PackedFunction> Lookup(absl::string_view name) const override {
    auto function = engine_->lookupPacked(llvm::StringRef(name.data(), name.size()));
    if (!function) {
      return errors::NotFound("compiled MLIR module has no function '", name,
                              "': ", LlvmErrorText(function.takeError()));
    }
    return *function;
  }

 private:
  std::unique_ptr<mlir::ExecutionEngine> engine_;
};

// Compiles the engine's module (by looking up `function`) and writes its object to `path`:
// the engine can only dump it to a file of its own, which is read back and removed.
absl::Status WriteEngineObject(mlir::ExecutionEngine& engine, const std::string& function,
                               const std::string& path, const Sha1Digest& key) {
  auto compiled = engine.lookupPacked(function);
  if (!compiled) {
    return errors::Internal("compiled MLIR module has no function '", function,
                            "': ", LlvmErrorText(compiled.takeError()));
  }
  // The folder is made on first use, as a cache folder named in the environment may not
  // exist yet.
  const std::filesystem::path folder = std::filesystem::path(path).parent_path();
  std::error_code error;
  std::filesystem::create_directories(folder, error);
  if (error || !std::filesystem::is_directory(folder, error)) {
    return errors::Unavailable("cannot make the cache folder ", folder.string());
  }
  static std::atomic<int64_t> counter{0};
  const std::string dumped = absl::StrCat(path, ".", getpid(), ".", counter++, ".dump");
  engine.dumpToObjectFile(dumped);
  std::ifstream in(dumped, std::ios::binary);
  const std::string object((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  in.close();
  std::remove(dumped.c_str());
  if (object.empty()) return errors::Unavailable("no object code written to ", dumped);
  return WriteCachedObject(path, key, object);
}

}  // namespace

absl::StatusOr<std::string> MlirCacheFile(absl::string_view cache_dir, absl::string_view text) {
  InitializeLlvmOnce();
  ASSIGN_OR_RETURN(const llvm::orc::JITTargetMachineBuilder machine, HostMachine());
  return CachePath(cache_dir, Sha1(CacheKey(machine, text)));
}

absl::StatusOr<std::unique_ptr<CompiledMlirModule>> CompileMlir(absl::string_view text,
                                                                const MlirCompileOptions& options) {
  InitializeLlvmOnce();
  if (options.loaded_from_cache != nullptr) *options.loaded_from_cache = false;
  ASSIGN_OR_RETURN(llvm::orc::JITTargetMachineBuilder machine_builder, HostMachine());
  const bool use_cache = !options.cache_dir.empty() && options.lowered_text == nullptr;
  Sha1Digest key{};
  std::string cache_path;
  if (use_cache) {
    key = Sha1(CacheKey(machine_builder, text));
    cache_path = CachePath(options.cache_dir, key);
    auto object = ReadCachedObject(cache_path, key);
    if (object.ok()) {
      auto loaded = ObjectModule::Load(machine_builder, *object, options.symbols);
      if (loaded.ok()) {
        if (options.loaded_from_cache != nullptr) *options.loaded_from_cache = true;
        return loaded;
      }
    }
    // Anything else: compile, and write the file again.
  }
  mlir::DialectRegistry registry;
  registry.insert<mlir::arith::ArithmeticDialect, mlir::cf::ControlFlowDialect,
                  mlir::func::FuncDialect, mlir::LLVM::LLVMDialect, mlir::math::MathDialect,
                  mlir::memref::MemRefDialect, mlir::scf::SCFDialect, mlir::vector::VectorDialect,
                  mlir::x86vector::X86VectorDialect>();
  mlir::registerLLVMDialectTranslation(registry);
  // x86vector: the AVX rsqrt instruction itself, whose approximation Eigen's fast square roots
  // start from (compiler/transcendental_code.h).
  mlir::registerX86VectorDialectTranslation(registry);
  // One context per compilation, without MLIR's own thread pool: compilations happen on the
  // executor's threads, and a second pool would compete with them for the cores.
  mlir::MLIRContext context(registry, mlir::MLIRContext::Threading::DISABLED);
  context.loadAllAvailableDialects();

  std::string diagnostics;
  mlir::ScopedDiagnosticHandler handler(&context, [&](mlir::Diagnostic& diagnostic) {
    absl::StrAppend(&diagnostics, diagnostics.empty() ? "" : "; ", diagnostic.str());
    return mlir::success();
  });
  mlir::OwningOpRef<mlir::ModuleOp> module = mlir::parseSourceString<mlir::ModuleOp>(
      llvm::StringRef(text.data(), text.size()), mlir::ParserConfig(&context));
  if (!module) return errors::InvalidArgument("MLIR text does not parse: ", diagnostics);

  mlir::PassManager pm(&context);
  pm.addPass(mlir::createCanonicalizerPass());
  pm.addPass(mlir::createCSEPass());
  pm.addPass(mlir::createConvertSCFToCFPass());
  pm.addPass(
      mlir::createConvertVectorToLLVMPass(mlir::LowerVectorToLLVMOptions().enableX86Vector(true)));
  pm.addPass(mlir::createMemRefToLLVMPass());
  pm.addPass(mlir::createConvertMathToLLVMPass());
  pm.addPass(mlir::arith::createConvertArithmeticToLLVMPass());
  // Also lowers the branches that scf became (with their index-typed block arguments), which
  // a separate control-flow conversion before it would leave mistyped.
  pm.addPass(mlir::createConvertFuncToLLVMPass());
  pm.addPass(mlir::createReconcileUnrealizedCastsPass());
  if (mlir::failed(pm.run(*module))) {
    return errors::Internal("lowering MLIR to the LLVM dialect failed: ", diagnostics);
  }
  if (options.lowered_text != nullptr) {
    options.lowered_text->clear();
    llvm::raw_string_ostream os(*options.lowered_text);
    module->print(os);
  }

  // The first function the module defines: looking it up has the whole module compiled,
  // which must happen before its object can be written.
  std::string first_function;
  module->walk([&](mlir::LLVM::LLVMFuncOp function) {
    if (!function.isExternal() && first_function.empty()) first_function = function.getName().str();
  });

  auto machine = machine_builder.createTargetMachine();
  if (!machine) {
    return errors::Internal("no LLVM target machine for this CPU: ",
                            LlvmErrorText(machine.takeError()));
  }
  auto optimize = mlir::makeOptimizingTransformer(/*optLevel=*/3, /*sizeLevel=*/0, machine->get());
  mlir::ExecutionEngineOptions engine_options;
  engine_options.transformer = optimize;
  engine_options.jitCodeGenOptLevel = llvm::CodeGenOpt::Aggressive;
  engine_options.enableGDBNotificationListener = false;
  engine_options.enablePerfNotificationListener = false;
  engine_options.enableObjectCache = use_cache;
  auto engine = mlir::ExecutionEngine::create(*module, engine_options);
  if (!engine) {
    return errors::Internal("JIT compilation failed: ", LlvmErrorText(engine.takeError()),
                            diagnostics.empty() ? "" : "; ", diagnostics);
  }
  const std::vector<std::pair<std::string, void*>> symbols = options.symbols;
  (*engine)->registerSymbols([&](llvm::orc::MangleAndInterner interner) {
    llvm::orc::SymbolMap map;
    for (const auto& [name, address] : symbols) {
      map[interner(name)] = llvm::JITEvaluatedSymbol::fromPointer(address);
    }
    return map;
  });
  if (use_cache && !first_function.empty()) {
    // A folder that cannot take the file costs this process nothing but the next one's
    // compilation.
    (void)WriteEngineObject(**engine, first_function, cache_path, key);
  }
  return std::unique_ptr<CompiledMlirModule>(new JitModule(std::move(*engine)));
}

}  // namespace sluice
