#!/usr/bin/env bash
# CI's fuzzing stage: builds the CI fuzz targets with --config=fuzz (clang-14, libFuzzer, ASan,
# UBSan) and fuzzes each for 30 s from its seeds (scripts/fuzz.sh does the work). The last
# line is "N passed, N failed" over the targets: a target fails when it crashes (the input is
# saved and named in the log) or does not build.
#
#   scripts/ci_fuzz.sh [--seconds N] [--out DIR]
#
# The CI targets are those that do not link every kernel family: on a fresh 2-core machine
# the sanitizer build of all the kernels (which session_graph_fuzzer needs, through the
# session, and nn_kernels_fuzzer's convolutions, pooling and resizing) takes longer than this
# stage may; these build the plumbing, array and math kernels only. scripts/fuzz.sh runs all
# of them. A crash's input is printed in base64 (libFuzzer's "Base64:" line) with its stack.
set -uo pipefail
cd "$(dirname "$0")/.."

CI_TARGETS=(
  npy_fuzzer
  event_file_fuzzer
  graphdef_import_fuzzer
  array_kernels_fuzzer
  math_kernels_fuzzer
)

seconds=30
out=$(mktemp -d "${TMPDIR:-/tmp}/sluice-ci-fuzz.XXXXXX")
while (($#)); do
  case "$1" in
    --seconds) seconds="$2"; shift 2 ;;
    --out) out="$2"; shift 2 ;;
    *) echo "ci_fuzz.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done

mkdir -p "$out" || exit 1
start=$(date +%s)
scripts/fuzz.sh --seconds "$seconds" --out "$out" "${CI_TARGETS[@]}" 2>&1 | tee "$out/ci.log"
status=${PIPESTATUS[0]}
echo "ci_fuzz: $(($(date +%s) - start)) s in all (build and ${#CI_TARGETS[@]} x ${seconds} s)"

summary="$out/logs/summary"
passed=0
failed=0
for t in "${CI_TARGETS[@]}"; do
  row=$(grep -E "^$t " "$summary" 2>/dev/null)
  if [ -n "$row" ] && [ "$(awk '{print $NF}' <<<"$row")" = 0 ] &&
    ! grep -qE "^crashed: .*\b$t\b" "$out/ci.log"; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
  fi
done
echo "${passed} passed, ${failed} failed"
[ "$status" -eq 0 ] && [ "$failed" -eq 0 ]
