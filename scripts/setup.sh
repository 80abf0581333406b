#!/usr/bin/env bash
# Installs the Debian packages Sluice's build needs, only those that are missing.
# Called by scripts/demo.sh, scripts/test.sh and .ci/run; safe to run repeatedly.
# `--clang` (or `--fuzz`) also installs what the clang configurations need, --config=asan and
# --config=fuzz (scripts/test.sh and scripts/fuzz.sh call it so for them).
set -euo pipefail

PACKAGES=(
  bazel-bootstrap      # Bazel 4.2.3, used fully offline (see third_party/bazel/)
  g++
  protobuf-compiler
  libprotobuf-dev
  libabsl-dev
  libeigen3-dev
  libdnnl-dev
  libgoogle-glog-dev
  libgtest-dev
  libgmock-dev
  libbenchmark-dev
  libpng-dev           # ImageSummary's PNG encoding (kernels/cpu/summary); brings zlib1g-dev
  libjpeg62-turbo-dev  # DecodeJpeg, EncodeJpeg and DecodeImage (kernels/cpu/image/jpeg_*)
  libgif-dev           # DecodeGif and DecodeImage (kernels/cpu/image/gif_decoder)
  libre2-dev           # user-given regular expressions (sluice run --capture-nodes)
  libicu-dev           # StringLower/StringUpper, the Unicode ops (third_party/system:icu)
  libcpp-httplib-dev   # the HTTP server of sluice board (third_party/system:cpp_httplib)
  clang-format         # //tests/source:format_test checks every C++ file against .clang-format
  python3-numpy        # //c_api:python_ctypes_test: the ctypes binding moves numpy arrays
  pkg-config           # //c_api:install_test builds a client with pkg-config --libs tensorflow
  llvm-15-dev          # LLVM and MLIR 15: the compiled clusters' code generator (compiler/)
  libmlir-15-dev
)
if [ "${1:-}" = "--clang" ] || [ "${1:-}" = "--fuzz" ]; then
  PACKAGES+=(
    clang-14             # --config=asan and --config=fuzz compile with Debian's clang
    libclang-rt-14-dev   # libFuzzer and the ASan/UBSan runtimes (static and shared)
    libomp-14-dev        # clang's OpenMP runtime (-fopenmp links libomp)
    lld-14               # the asan and fuzz configs link with lld
    lld                  # /usr/bin/ld.lld, which -fuse-ld=lld may look for
    llvm-14              # llvm-symbolizer, for readable crash stacks
  )
fi

missing=()
for pkg in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$pkg")
  fi
done

if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}" >&2
  SUDO=""
  if [ "$(id -u)" != 0 ]; then SUDO="sudo"; fi
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# The GPU device and the CUDA kernels build against the CUDA toolkit that these machines' image
# ships under /usr/local/cuda (not a Debian package; see docs/gpu.md). Without it, only builds
# with --define=sluice_cuda=off work: say so now rather than through a Bazel error later.
if [ ! -x /usr/local/cuda/bin/nvcc ] || [ ! -f /usr/local/cuda/lib64/libcudart_static.a ]; then
  echo "setup: warning: no CUDA toolkit under /usr/local/cuda; build with" \
    "--define=sluice_cuda=off (no GPU device)" >&2
fi
