"""sluice_fuzz_test: one fuzz target that is a libFuzzer binary or a corpus-replay test.

The target's source defines LLVMFuzzerTestOneInput (and may define LLVMFuzzerInitialize). Under
--config=fuzz (clang, `--define=sluice_fuzz=libfuzzer`) it links libFuzzer's main: run
bazel-bin/fuzz/<name> to fuzz (scripts/fuzz.sh does). In every other build (gcc, --config=asan)
it links //fuzz:replay_main instead. Either way, as a test it is handed every file of
fuzz/corpus/<name>/ and fuzz/regressions/<name>/ and runs each input once (libFuzzer does so
for files named on its command line), so `bazel test //...` replays the seeds and every crash
ever found.
"""

def sluice_fuzz_test(name, srcs, deps, size = "small"):
    inputs = name + "_inputs"
    native.filegroup(
        name = inputs,
        srcs = native.glob(["corpus/%s/*" % name, "regressions/%s/*" % name]),
    )
    native.cc_test(
        name = name,
        size = size,
        srcs = srcs,
        args = ["$(locations :%s)" % inputs],
        data = [":" + inputs],
        linkopts = select({
            "//fuzz:libfuzzer": ["-fsanitize=fuzzer"],
            "//conditions:default": [],
        }),
        # One self-contained binary, so that scripts/fuzz.sh can run it outside Bazel.
        linkstatic = 1,
        deps = deps + ["//fuzz:sanitizer_options"] + select({
            "//fuzz:libfuzzer": [],
            "//conditions:default": ["//fuzz:replay_main"],
        }),
    )
