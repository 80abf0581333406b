#!/usr/bin/env bash
# TensorBoard reads Sluice's event files: write_summary_events runs a graph of summary ops and
# records three steps with EventWriter; check_with_tensorboard.py reads the folder with
# TensorBoard's own readers and checks every value.
#
# TensorBoard is not a dependency of the suite: the Python that runs the check is
# $SLUICE_TENSORBOARD_PYTHON (default /usr/bin/python3); where it cannot import tensorboard the
# test prints "SKIPPED: tensorboard not installed" and passes. To run it for real:
#   bazel test --test_env=SLUICE_TENSORBOARD_PYTHON=/path/to/venv/bin/python \
#     //tests/summary:tensorboard_reads_sluice_test
set -uo pipefail
root="${TEST_SRCDIR}/${TEST_WORKSPACE}"
python="${SLUICE_TENSORBOARD_PYTHON:-/usr/bin/python3}"
if ! "$python" -c 'import tensorboard, numpy' 2>/dev/null; then
  echo "SKIPPED: tensorboard not installed for $python (set SLUICE_TENSORBOARD_PYTHON to a" \
    "Python that has it)"
  exit 0
fi
logdir="${TEST_TMPDIR}/logs"
rm -rf "$logdir"
"$root/tests/summary/write_summary_events" "$logdir" || exit 1
exec "$python" "$root/tests/summary/check_with_tensorboard.py" "$logdir"
