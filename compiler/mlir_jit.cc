#include "compiler/mlir_jit.h"

#include <memory>
#include <mutex>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "graph/core/errors.h"
#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
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

}  // namespace

absl::StatusOr<std::unique_ptr<CompiledMlirModule>> CompileMlir(absl::string_view text,
                                                                const MlirCompileOptions& options) {
  InitializeLlvmOnce();
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

  auto machine_builder = llvm::orc::JITTargetMachineBuilder::detectHost();
  if (!machine_builder) {
    return errors::Internal("no LLVM target for this CPU: ",
                            LlvmErrorText(machine_builder.takeError()));
  }
  auto machine = machine_builder->createTargetMachine();
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
  return std::unique_ptr<CompiledMlirModule>(new JitModule(std::move(*engine)));
}

}  // namespace sluice
