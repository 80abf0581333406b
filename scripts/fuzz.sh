#!/usr/bin/env bash
# Builds the libFuzzer targets of //fuzz with --config=fuzz (clang-14, libFuzzer, ASan, UBSan)
# and fuzzes each for a bounded time, one after the other, under `nice -n 19`.
#
#   scripts/fuzz.sh [--seconds N] [--out DIR] [--no-build] [TARGET...]
#   scripts/fuzz.sh --campaign [TOTAL_SECONDS] [--out DIR] [TARGET...]
#
# --seconds N      per target (default 60), as libFuzzer's -max_total_time.
# --campaign [S]   a long local run: S seconds (default 3600) split evenly over the targets,
#                  each in libFuzzer's fork mode with one job, which keeps fuzzing past a
#                  crash, timeout or OOM (each is still saved and still fails the run).
# --out DIR        where the binaries, the growing corpora (DIR/corpus/TARGET), crash inputs
#                  (DIR/crashes/TARGET) and logs go; default $TMPDIR/sluice-fuzz, kept between
#                  runs so that corpora keep growing. The seeds in fuzz/corpus/ and the
#                  regressions in fuzz/regressions/ are read, never written.
# --no-build       use the binaries already in DIR/bin.
# TARGET           fuzz only these (default: all of them).
#
# Every run uses -rss_limit_mb=2048 and -timeout=10 (seconds per input). Per target it prints
# libFuzzer's final numbers: executions, coverage (cov: edges, ft: features), corpus size and
# crash inputs saved. Exit status: 0 if no target crashed, 1 if one did (or the build failed).
# A crash: see fuzz/README.md for minimising it and adding it to fuzz/regressions/.
set -uo pipefail
cd "$(dirname "$0")/.."

ALL_TARGETS=(
  graphdef_import_fuzzer
  npy_fuzzer
  event_file_fuzzer
  session_graph_fuzzer
  array_kernels_fuzzer
  math_kernels_fuzzer
  nn_kernels_fuzzer
  c_api_fuzzer
  image_decoders_fuzzer
)

seconds=60
campaign=0
campaign_seconds=3600
out="${TMPDIR:-/tmp}/sluice-fuzz"
build=1
targets=()
while (($#)); do
  case "$1" in
    --seconds) seconds="$2"; shift 2 ;;
    --campaign)
      campaign=1
      shift
      if (($#)) && [[ "$1" =~ ^[0-9]+$ ]]; then campaign_seconds="$1"; shift; fi
      ;;
    --out) out="$2"; shift 2 ;;
    --no-build) build=0; shift ;;
    -h | --help) sed -n '2,/^set -uo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    -*) echo "fuzz.sh: unknown flag $1 (see --help)" >&2; exit 2 ;;
    *) targets+=("$1"); shift ;;
  esac
done
((${#targets[@]})) || targets=("${ALL_TARGETS[@]}")
if ! [[ "$seconds" =~ ^[0-9]+$ ]] || ((seconds < 1)); then
  echo "fuzz.sh: --seconds takes a positive whole number" >&2
  exit 2
fi
if ((campaign)); then
  seconds=$((campaign_seconds / ${#targets[@]}))
  ((seconds >= 1)) || seconds=1
fi

mkdir -p "$out/bin" "$out/logs" || exit 1
out=$(cd "$out" && pwd)
if ((build)); then
  scripts/setup.sh --fuzz || exit 1
  labels=()
  for t in "${targets[@]}"; do labels+=("//fuzz:$t"); done
  echo "== building ${targets[*]} (--config=fuzz)"
  # SLUICE_BAZEL_CONFIG adds a configuration to the build (CI's --config=ci, .bazelrc).
  extra=()
  [ -n "${SLUICE_BAZEL_CONFIG:-}" ] && extra=(--config="$SLUICE_BAZEL_CONFIG")
  nice -n 19 bazel build --color=no --curses=no --noshow_progress --config=fuzz "${extra[@]}" \
    "${labels[@]}" ||
    exit 1
  bin_dir=$(bazel info --config=fuzz bazel-bin 2>/dev/null) || exit 1
  # Copied out: the next build in another configuration replaces what bazel-bin holds.
  for t in "${targets[@]}"; do cp -f "$bin_dir/fuzz/$t" "$out/bin/$t" || exit 1; done
fi

symbolizer=/usr/lib/llvm-14/bin/llvm-symbolizer
[ -x "$symbolizer" ] && export ASAN_SYMBOLIZER_PATH="$symbolizer" UBSAN_SYMBOLIZER_PATH="$symbolizer"

# The last libFuzzer status line of a log: "#N DONE cov: ..." when the run ended normally, the
# latest "#N ... cov:" line otherwise (and in fork mode, "#N: cov: ...").
stat_line() { grep -aE '^#[0-9]+:?\s.*cov: ' "$1" | tail -n 1; }
field() { sed -nE "s|.*[ \t]$2:? ([^ \t]+).*|\1|p" <<<"$1"; }

failed=()
printf '%-24s %10s %8s %8s %8s %8s %s\n' target execs cov ft corpus exec/s crashes >"$out/logs/summary"
for t in "${targets[@]}"; do
  binary="$out/bin/$t"
  if [ ! -x "$binary" ]; then
    echo "fuzz.sh: no binary $binary (build first, without --no-build)" >&2
    failed+=("$t")
    continue
  fi
  corpus="$out/corpus/$t"
  crashes="$out/crashes/$t"
  log="$out/logs/$t.log"
  mkdir -p "$corpus" "$crashes"
  seeds=("$PWD/fuzz/corpus/$t")
  [ -d "fuzz/regressions/$t" ] && seeds+=("$PWD/fuzz/regressions/$t")
  before=$(find "$crashes" -type f | wc -l)
  # -entropic=0: libFuzzer 14's entropic schedule spends most of the time of binaries this
  # large updating feature frequencies (2-5 times fewer executions, less coverage per minute).
  flags=(-max_total_time="$seconds" -rss_limit_mb=2048 -timeout=10 -print_final_stats=1
    -entropic=0 -artifact_prefix="$crashes/")
  if ((campaign)); then
    flags+=(-fork=1 -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1)
  fi
  echo "== $t: ${seconds}s"
  # The first directory receives new inputs; the seeds and regressions are only read.
  (cd "$out" && nice -n 19 "$binary" "${flags[@]}" "$corpus" "${seeds[@]}") >"$log" 2>&1
  rc=$?
  after=$(find "$crashes" -type f | wc -l)
  line=$(stat_line "$log")
  execs=$(sed -nE 's/^#([0-9]+).*/\1/p' <<<"$line")
  printf '%-24s %10s %8s %8s %8s %8s %s\n' "$t" "${execs:-?}" "$(field "$line" cov)" \
    "$(field "$line" ft)" "$(field "$line" corp)" "$(field "$line" exec/s)" \
    "$((after - before))" | tee -a "$out/logs/summary"
  if ((rc != 0 || after > before)); then
    failed+=("$t")
    echo "   $t: exit status $rc; crash inputs in $crashes, log $log" >&2
    # The input itself, for a crash found where the files do not survive (CI).
    grep -aE '^(==[0-9]+==ERROR|SUMMARY|.*runtime error:|fuzz property violated|Base64: )' "$log" |
      head -n 8 | sed 's/^/   /' >&2
  fi
done

echo "== summary (${out}/logs/summary)"
cat "$out/logs/summary"
if ((${#failed[@]})); then
  echo "crashed: ${failed[*]}"
  exit 1
fi
echo "no crashes"
