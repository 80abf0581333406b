#!/usr/bin/env bash
# Runs check_tfdbg_dump.py: Sluice's tfdbg dumps read by TensorFlow's DebugDumpDir and compared
# with TensorFlow's own. TensorFlow is not a requirement of the test suite: the Python used is
# $SLUICE_TF_PYTHON (pass it with `bazel test --test_env=SLUICE_TF_PYTHON=/path/to/python`),
# else python3; when it cannot import tensorflow the test says SKIPPED and passes.
set -uo pipefail
root="${TEST_SRCDIR}/${TEST_WORKSPACE}"
python="${SLUICE_TF_PYTHON:-python3}"
if ! "$python" -c 'import tensorflow' >/dev/null 2>&1; then
  echo "SKIPPED: $python cannot import tensorflow, so Sluice's tfdbg dumps were not compared" \
    "with TensorFlow's; run with --test_env=SLUICE_TF_PYTHON=<a python with TensorFlow 2.21>"
  exit 0
fi
work="${TEST_TMPDIR:-$(mktemp -d)}/tfdbg"
mkdir -p "$work"
exec "$python" "$root/tests/tfdbg/check_tfdbg_dump.py" "$root/tests/tfdbg/tfdbg_dump_main" "$work"
