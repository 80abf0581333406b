#!/usr/bin/env bash
# Runs Sluice's whole test suite and prints "N passed, N failed" (test targets) as its last line.
# Extra arguments go to `bazel test`, e.g. `scripts/test.sh --config=asan`.
set -uo pipefail
cd "$(dirname "$0")/.."
# The asan and fuzz configurations compile with clang: their packages too.
setup_args=()
for arg in "$@"; do
  case "$arg" in
    --config=asan | --config=fuzz) setup_args=(--clang) ;;
  esac
done
scripts/setup.sh "${setup_args[@]}" || exit 1

log=$(mktemp)
trap 'rm -f "$log"' EXIT
bazel test --color=no --curses=no --noshow_progress "$@" //... 2>&1 | tee "$log"
status=${PIPESTATUS[0]}

passed=$(grep -cE '^//\S+\s+(\(cached\) )?PASSED' "$log")
failed=$(grep -cE '^//\S+\s+(\(cached\) )?(FAILED|TIMEOUT|NO STATUS|INCOMPLETE|FAILED TO BUILD)' "$log")
if [ "$status" -ne 0 ] && [ "$failed" -eq 0 ]; then
  # The build itself failed before any test ran: count that as a failure.
  failed=1
fi
echo "${passed} passed, ${failed} failed"
[ "$status" -eq 0 ]
