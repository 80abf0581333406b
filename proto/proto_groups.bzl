"""cc_proto_group: some of proto/'s .proto files compiled by protoc into a C++ library of their
own, over :protos.

Each group is its own library because a header added to :protos becomes a new input of every
compile action that includes any proto, so the whole tree would rebuild; a group's headers
reach only the targets that depend on it.
"""

def cc_proto_group(name, protos, imports = []):
    """A genrule running protoc on `protos` (names without .proto) and cc_library `name`.

    Args:
      name: the library's name.
      protos: the group's .proto files, without the extension.
      imports: the names of other proto/ files they import (protoc reads them; their code is
        :protos's).
    """
    native.exports_files([p + ".proto" for p in protos])
    native.genrule(
        name = name + "_cc_gen",
        srcs = [p + ".proto" for p in protos + imports],
        outs = [p + ".pb.h" for p in protos] + [p + ".pb.cc" for p in protos],
        cmd = "protoc --proto_path=. --cpp_out=$(GENDIR) " +
              " ".join(["$(location %s.proto)" % p for p in protos]),
    )
    native.cc_library(
        name = name,
        srcs = [p + ".pb.cc" for p in protos],
        hdrs = [p + ".pb.h" for p in protos],
        copts = ["-Wno-unused-parameter"],
        deps = [":protos", "//third_party/system:protobuf"] if imports else
               ["//third_party/system:protobuf"],
    )
