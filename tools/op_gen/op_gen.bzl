"""sluice_cc_op_wrappers: generated C++ client wrappers (sluice::ops) for an op library."""

def sluice_cc_op_wrappers(name, op_lib, copts = [], visibility = None):
    """Generates <name>.h/.cc wrapping every op `op_lib` registers; a cc_library `name`.

    The generator is linked with `op_lib` alone, so the wrappers cover exactly its ops, and
    they are regenerated whenever `op_lib` changes. Include the header as
    "<package>/<name>.h"; link the library (which links `op_lib`) into the client.

    Args:
      name: the cc_library, and the stem of the generated files.
      op_lib: a cc_library (alwayslink = 1) holding REGISTER_OP calls.
      copts: extra compiler options for the generated source.
      visibility: the cc_library's visibility.
    """
    gen = name + "_op_gen"
    native.cc_binary(
        name = gen,
        deps = ["//tools/op_gen:op_gen_main", op_lib],
        visibility = ["//visibility:private"],
    )
    pkg = native.package_name()
    header_include = (pkg + "/" if pkg else "") + name + ".h"
    native.genrule(
        name = name + "_genrule",
        outs = [name + ".h", name + ".cc"],
        tools = [":" + gen],
        cmd = "$(location :%s) $(location %s.h) $(location %s.cc) %s" % (gen, name, name, header_include),
        # The generated files may be compiled into another target (a shared library).
        visibility = visibility,
    )
    native.cc_library(
        name = name,
        hdrs = [name + ".h"],
        srcs = [name + ".cc"],
        copts = copts,
        deps = [
            "//cc_api:cc_api",
            "//third_party/system:absl",
            op_lib,
        ],
        alwayslink = 1,
        visibility = visibility,
    )
