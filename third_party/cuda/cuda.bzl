"""cuda_library: device code compiled by nvcc into a static library that cc rules link.

Bazel 4 has no CUDA rules, so each source goes through one genrule that calls the toolkit's
nvcc (host compiler: the system g++) and archives the objects. Device code is built for Hopper
(sm_90 machine code) plus compute_90 PTX, which the driver compiles for newer GPUs.

Keep .cu.cc files thin: kernels and their launch functions, declared in a plain C++ header
that the g++-compiled kernel classes include. A source may include only the headers listed in
`hdrs` or `textual_hdrs` (the genrule sees nothing else of the project) and CUDA's own.
"""

NVCC = "/usr/local/cuda/bin/nvcc"

NVCC_FLAGS = [
    "-std=c++17",
    "-O3",
    "-ccbin /usr/bin/g++",
    "-Xcompiler -fPIC",
    "--expt-relaxed-constexpr",
    # Single-precision subnormals flushed to zero, as TensorFlow builds its GPU kernels
    # (nvcc's ftz=true) and as Sluice's CPU threads run (numerics/float_environment.h).
    "-ftz=true",
    "-gencode arch=compute_90,code=sm_90",
    "-gencode arch=compute_90,code=compute_90",
    "-I.",
    "-I$(GENDIR)",
    "-isystem /usr/local/cuda/include",
]

def cuda_library(name, srcs, hdrs = [], textual_hdrs = [], deps = [], **kwargs):
    """A cc_library whose `srcs` (.cu.cc) are compiled by nvcc.

    Args:
      name: the library.
      srcs: CUDA sources.
      hdrs: headers the library exports (plain C++: what g++-compiled callers include).
      textual_hdrs: further headers the sources include (for example shared functors).
      deps: cc dependencies of the exported headers.
      **kwargs: passed to the cc_library (visibility, testonly, ...).
    """
    archive = "lib%s_device_code.a" % name
    objs = []
    cmds = []
    for src in srcs:
        obj = "$(@D)/%s_objs/%s.o" % (name, src.replace("/", "_"))
        objs.append(obj)
        cmds.append("%s %s -c $(location %s) -o %s" % (NVCC, " ".join(NVCC_FLAGS), src, obj))
    native.genrule(
        name = name + "_nvcc",
        srcs = srcs + hdrs + textual_hdrs,
        outs = [archive],
        cmd = " && ".join(
            ["mkdir -p $(@D)/%s_objs" % name] + cmds +
            ["ar rcs $@ %s" % " ".join(objs)],
        ),
        message = "nvcc %s" % name,
        visibility = ["//visibility:private"],
    )
    native.cc_library(
        name = name,
        srcs = [":" + archive],
        hdrs = hdrs,
        textual_hdrs = textual_hdrs,
        deps = deps + ["//third_party/cuda:cudart", "//third_party/cuda:headers"],
        # The static CUDA runtime's symbols are hidden, so code calling it is linked into the
        # executable or shared library that holds the runtime, never into a shared object of
        # its own (Bazel's per-library objects in tests).
        linkstatic = 1,
        **kwargs
    )

def if_cuda(if_true, if_false = []):
    """`if_true` unless CUDA is switched off (--define=sluice_cuda=off), then `if_false`."""
    return select({
        "//third_party/cuda:cuda_disabled": if_false,
        "//conditions:default": if_true,
    })
