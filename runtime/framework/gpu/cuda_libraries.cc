// CudaLibraries: dlopen each library once, dlsym each function into its typed member.
#include "runtime/framework/gpu/cuda_libraries.h"

#include <dlfcn.h>

#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace sluice {
namespace {

constexpr char kCudaLibDir[] = "/usr/local/cuda/lib64/";

// Opens `soname` from the loader's path, else from the toolkit's folder. Null with *error set.
void* OpenLibrary(const std::string& soname, std::string* error) {
  if (void* handle = dlopen(soname.c_str(), RTLD_NOW | RTLD_LOCAL)) return handle;
  const std::string first = dlerror();
  const std::string path = kCudaLibDir + soname;
  if (void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL)) return handle;
  *error = absl::StrCat(soname, ": ", first);
  return nullptr;
}

// Sets *fn to `name`'s address in `library`; false if it has none.
template <typename Fn>
bool Bind(void* library, const char* name, Fn* fn, std::vector<std::string>* missing) {
  *fn = reinterpret_cast<Fn>(dlsym(library, name));
  if (*fn == nullptr) missing->push_back(name);
  return *fn != nullptr;
}

}  // namespace

absl::StatusOr<const CudaLibraries*> CudaLibraries::Get() {
  // Loaded once; a failure is remembered as well (the libraries will not appear later).
  static const absl::StatusOr<const CudaLibraries*>* const loaded =
      new absl::StatusOr<const CudaLibraries*>(Load());
  return *loaded;
}

absl::StatusOr<const CudaLibraries*> CudaLibraries::Load() {
  std::vector<std::string> errors;
  std::string error;
  void* cublas = OpenLibrary("libcublas.so." + std::to_string(CUBLAS_VER_MAJOR), &error);
  if (cublas == nullptr) errors.push_back(error);
  void* cublas_lt = OpenLibrary("libcublasLt.so." + std::to_string(CUBLAS_VER_MAJOR), &error);
  if (cublas_lt == nullptr) errors.push_back(error);
  void* cudnn = OpenLibrary("libcudnn.so." + std::to_string(CUDNN_MAJOR), &error);
  if (cudnn == nullptr) errors.push_back(error);
  if (!errors.empty()) {
    return absl::FailedPreconditionError(
        absl::StrCat("Cannot dlopen some GPU libraries: ", absl::StrJoin(errors, "; ")));
  }
  // Never freed: kernels and devices may use the table until the process exits.
  auto* libs = new CudaLibraries();
  std::vector<std::string> missing;
#define SLUICE_BIND_CUBLAS(name) Bind(cublas, #name, &libs->name, &missing);
#define SLUICE_BIND_CUBLASLT(name) Bind(cublas_lt, #name, &libs->name, &missing);
#define SLUICE_BIND_CUDNN(name) Bind(cudnn, #name, &libs->name, &missing);
  SLUICE_CUBLAS_FUNCTIONS(SLUICE_BIND_CUBLAS)
  SLUICE_CUBLASLT_FUNCTIONS(SLUICE_BIND_CUBLASLT)
  SLUICE_CUDNN_FUNCTIONS(SLUICE_BIND_CUDNN)
  Bind(cublas, "cublasGemmEx", &libs->cublasGemmEx, &missing);
  Bind(cublas, "cublasGemmStridedBatchedEx", &libs->cublasGemmStridedBatchedEx, &missing);
#undef SLUICE_BIND_CUBLAS
#undef SLUICE_BIND_CUBLASLT
#undef SLUICE_BIND_CUDNN
  if (!missing.empty()) {
    delete libs;
    return absl::FailedPreconditionError(
        absl::StrCat("GPU libraries lack functions Sluice needs: ", absl::StrJoin(missing, ", ")));
  }
  return libs;
}

}  // namespace sluice
