#!/usr/bin/env bash
# Session runtime benchmark, Sluice against TensorFlow 2.21, in one run.
#
# Usage: bench/run_session_bench.sh
#   REPS (default 25), INTER_OP (default: the number of cores), INTRA_OP (default 1) and
#   THREADS (default 8) apply to both sides.
#
# bench/tf_session_bench.py writes the GraphDefs once to a temporary directory; Sluice's
# //bench:session_bench (built with -c opt) and TensorFlow (a session callable, Grappler
# off) both load those files with the same thread settings. Prints both reports and a
# summary with the Sluice/TF ratios and whether the issue's targets are met (per-node and
# per-call overhead at most half of TensorFlow's). Reports are kept in bench/.cache/.
set -euo pipefail

cd "$(dirname "$0")/.."
cache=bench/.cache
mkdir -p "$cache"
reps=${REPS:-25}
inter_op=${INTER_OP:-$(nproc)}
intra_op=${INTRA_OP:-1}
threads=${THREADS:-8}
graphs=$(mktemp -d)
trap 'rm -rf "$graphs"' EXIT

python3 bench/tf_session_bench.py --write="$graphs" 2>/dev/null

bazel build -c opt //bench:session_bench
bench_bin="$(bazel info -c opt bazel-bin)/bench/session_bench"

flags=(--graph_dir="$graphs" --reps="$reps" --inter_op="$inter_op" --intra_op="$intra_op"
       --threads="$threads")
echo "== Sluice =="
"$bench_bin" "${flags[@]}" | tee "$cache/session_sluice.txt"
echo
echo "== TensorFlow =="
python3 bench/tf_session_bench.py "${flags[@]}" 2>/dev/null | tee "$cache/session_tf.txt"
echo

python3 - "$cache/session_sluice.txt" "$cache/session_tf.txt" <<'EOF'
import json
import sys


def load(path):
    for line in open(path):
        if line.startswith("JSON "):
            return json.loads(line[5:])
    sys.exit(f"no JSON line in {path}")


ours, tf = (load(p) for p in sys.argv[1:])
print("== Summary (medians; ratio = Sluice / TF, target: at most 0.5 where stated) ==")
rows = [
    ("chain: us per AddV2", "chain_us_per_node", True),
    ("fan-in: us per op", "fanin_us_per_op", True),
    ("one-node Run: us per call", "one_node_run_us", True),
]
for label, key, target in rows:
    ratio = ours[key] / tf[key]
    verdict = ("met" if ratio <= 0.5 else "NOT met") if target else ""
    print(f"  {label:<28} Sluice {ours[key]:9.3f}   TF {tf[key]:9.3f}   ratio {ratio:5.2f}"
          f"   {verdict}")
n = ours["threads"]
for name, r in (("Sluice", ours), ("TF", tf)):
    print(f"  {name:<6} one-node runs/s: 1 thread {r['runs_per_s_1']:10.0f}, {n} threads "
          f"{r['runs_per_s_n']:10.0f} (scaling x{r['runs_per_s_n'] / r['runs_per_s_1']:.2f})")
print(f"  {n}-thread throughput ratio Sluice / TF: "
      f"{ours['runs_per_s_n'] / tf['runs_per_s_n']:.2f}")
EOF
