"""op_conformance_test: replays a fixture recorded from TensorFlow through Sluice's kernels."""

def op_conformance_test(name, fixture, deps, size = "small", data = [], **kwargs):
    """A test that runs every case of `fixture` (a tests/kernels/fixtures/*.pbtxt).

    Args:
      name: the test's name.
      fixture: the label of the fixture file, e.g. "//tests/kernels:fixtures/binary.pbtxt".
      deps: the kernel libraries the cases need (the OpDefs and the runner are added).
      size: the test size.
      data: files the cases read besides the fixture (the checkpoints RestoreV2 restores).
      **kwargs: passed to cc_test.
    """
    native.cc_test(
        name = name,
        size = size,
        data = [fixture] + data,
        args = ["$(location %s)" % fixture],
        deps = deps + [
            "//graph/ops",
            "//tests/kernels:op_case_runner",
        ],
        **kwargs
    )
