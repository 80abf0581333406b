"""Rules for building Sluice's installable shared libraries out of its cc_library graph.

Bazel 4 links every static dependency of a cc_binary into it. The installed libraries split
the tree as TensorFlow does (libtensorflow_framework.so carries the framework; libtensorflow.so
and libtensorflow_cc.so sit on top of it), so the upper libraries must compile against the
framework's headers without linking its objects a second time. cc_headers_only gives them
exactly that; cc_header_files lists the headers an install lays out.
"""

def _link_flags(deps):
    flags = []
    for dep in deps:
        for linker_input in dep[CcInfo].linking_context.linker_inputs.to_list():
            for flag in linker_input.user_link_flags:
                if flag not in flags:
                    flags.append(flag)
    return flags

def _cc_headers_only_impl(ctx):
    merged = cc_common.merge_cc_infos(
        cc_infos = [CcInfo(compilation_context = dep[CcInfo].compilation_context) for dep in ctx.attr.deps],
    )

    # The system libraries (-lprotobuf, -labsl_...) stay: code compiled against these headers
    # calls them directly. The objects of `deps` do not.
    linker_input = cc_common.create_linker_input(
        owner = ctx.label,
        user_link_flags = depset(_link_flags(ctx.attr.deps)),
    )
    linking_context = cc_common.create_linking_context(linker_inputs = depset([linker_input]))
    return [CcInfo(compilation_context = merged.compilation_context, linking_context = linking_context)]

cc_headers_only = rule(
    implementation = _cc_headers_only_impl,
    attrs = {"deps": attr.label_list(providers = [CcInfo])},
    doc = "The headers, include paths and defines of `deps` (transitively) and their system " +
          "link flags, without their object files.",
)

def _cc_header_files_impl(ctx):
    headers = depset(transitive = [dep[CcInfo].compilation_context.headers for dep in ctx.attr.deps])
    return [DefaultInfo(files = headers)]

cc_header_files = rule(
    implementation = _cc_header_files_impl,
    attrs = {"deps": attr.label_list(providers = [CcInfo])},
    doc = "Every header of `deps`, transitively, generated ones included, as files.",
)
