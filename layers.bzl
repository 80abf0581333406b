"""Sluice's layers: which folder may use which. The one place the layering is written down.

Every BUILD file takes its default visibility from here (`visible_to`), and the layering test
(//tests/source) reads the same table to check every `#include` in the tree, so the build
graph and the include graph state the same architecture. docs/architecture.md draws it.

A layer is a folder. A file belongs to the layer of the longest folder below that holds it;
`kernels`, `cc_api`, `compat`, `tools`, `bench`, `tests` and `models` take their subfolders
with them. A layer may use the layers it names and, transitively, everything they may use.
"""

# layer: the layers it may use directly. Bottom to top.
LAYERS = {
    "proto": [],
    # Sluice's own elementary functions, written once for every backend: their constants and
    # their C++ evaluation, which compiled code reproduces operation for operation.
    "numerics": [],
    # Types, shapes, Tensor, TensorProto, the allocator, errors, device names, formats.
    "graph/core": ["proto"],
    # OpDef builder and registry, NodeDef and attr utilities, GraphDef validation.
    "graph/op": ["graph/core"],
    # InferenceContext and the common shape functions.
    "graph/shape": ["graph/op"],
    # The Graph, its algorithms and tensor names, shape refinement over a Graph.
    "graph": ["graph/shape"],
    # REGISTER_OP for TensorFlow's ops, with their shape functions.
    "graph/ops": ["graph/shape"],
    # GraphDef reading and writing, GraphDef -> Graph.
    "graph/import": ["graph"],
    # .npy files.
    "io": ["graph/import"],
    # Sluice's kernel compiler: fused clusters of ops as MLIR, lowered and JIT-compiled by
    # LLVM (the only layer that sees MLIR).
    "compiler": ["graph/ops", "numerics"],
    # Graph-to-graph transforms and the pipeline.
    "passes": ["graph/import", "graph/ops", "numerics"],
    # What GPU kernels are written against besides the rest of the framework: the GPU device
    # context, cuBLAS/cuDNN opened at run time, Statuses from CUDA errors.
    "runtime/framework/gpu": ["graph/core"],
    # What kernels are written against: OpKernel, contexts, kernel registry, rendezvous,
    # cancellation, resources, call frames, custom-op loading.
    "runtime/framework": ["graph/import", "graph/ops", "runtime/framework/gpu", "numerics"],
    # Kernel implementations: the kernel-facing framework and graph/ only, and the file
    # formats (io sits on graph/import only), which the checkpoint kernels read and write.
    "kernels": ["runtime/framework", "compiler", "io"],
    # Devices, their factories and allocators, the options they are made from.
    "runtime/device": ["runtime/framework"],
    # CUDA GPUs as devices: memory, streams, library handles, copies.
    "runtime/device/gpu": ["runtime/device"],
    # The executor and step statistics.
    "runtime/executor": ["runtime/device"],
    # TensorFlow's debug watches (RunOptions.debug_options): debug ops on node outputs seen
    # through a NodeOutputObserver, and tfdbg's file dumps.
    "runtime/debug": ["runtime/framework"],
    # Session, DirectSession, the adapters between passes and the runtime; links every kernel.
    "runtime/session": ["runtime/executor", "runtime/debug", "passes", "kernels", "runtime/device/gpu"],
    # Paths of the earlier flat layout that users' code includes, forwarding to the above.
    "runtime": ["runtime/session"],
    # SavedModel directories loaded into a session: read the MetaGraphDef, restore the
    # variables, run the init op.
    "saved_model": ["runtime/session"],
    "cc_api": ["runtime/session"],
    "c_api": ["cc_api", "saved_model"],
    "compat": ["cc_api", "saved_model"],
    "tools": ["compat", "c_api", "io", "runtime"],
    "bench": ["tools"],
    "tests": ["tools"],
    # libFuzzer targets and their corpora; they drive the readers, the importer, the passes,
    # sessions and the C API, never the command line.
    "fuzz": ["io", "runtime/session", "c_api"],
    "models": ["tools"],
}

# Layers whose subfolders belong to them rather than being layers of their own.
_TREES = ["kernels", "cc_api", "c_api", "compat", "tools", "bench", "tests", "models", "fuzz"]

def _closure(layer):
    seen = {layer: True}
    todo = [layer]

    # Starlark has no while loop; the table has fewer layers than this bound.
    for _ in range(len(LAYERS) * len(LAYERS)):
        if not todo:
            break
        current = todo.pop()
        for dep in LAYERS[current]:
            if dep not in seen:
                seen[dep] = True
                todo.append(dep)
    return seen

def _packages(layer):
    if layer in _TREES:
        return "//%s:__subpackages__" % layer
    return "//%s:__pkg__" % layer

def visible_to(layer):
    """The packages that may depend on `layer`: itself and every layer that may use it."""
    if layer not in LAYERS:
        fail("unknown layer %s: add it to //:layers.bzl" % layer)
    return sorted([_packages(user) for user in LAYERS if layer in _closure(user)])

# Every test may also use these layers and what they use: a unit test's fixtures may come from
# above its layer (the importer to build a graph from text, a CPU device to run a kernel on),
# but not from the session or the APIs unless its own layer may use them.
TEST_REACH = ["runtime/executor", "passes"]

# Test helpers (testonly targets) may be used by the tests of any layer: a fixture may come
# from above (a graph imported from text, a CPU device to run a kernel on). Bazel keeps them
# out of every library.
TEST_HELPER_VISIBILITY = ["//:__subpackages__"]

def layer_table(name):
    """Writes LAYERS as text (`layer: dep dep`, one line per layer) for the layering test."""
    lines = ["%s:%s" % (layer, "".join([" " + dep for dep in deps])) for layer, deps in LAYERS.items()]
    lines += ["tree: " + tree for tree in _TREES]
    lines.append("test_reach: " + " ".join(TEST_REACH))
    native.genrule(
        name = name,
        outs = [name + ".txt"],
        cmd = "printf '%s\\n' " + " ".join(["'%s'" % line for line in lines]) + " > $@",
        visibility = ["//tests/source:__pkg__"],
    )

def layer_sources(name = "layer_sources"):
    """Exports this package's C++ sources to the layering test."""
    native.filegroup(
        name = name,
        srcs = native.glob(["**/*.h", "**/*.cc", "**/*.cu"]),
        visibility = ["//tests/source:__pkg__"],
    )
