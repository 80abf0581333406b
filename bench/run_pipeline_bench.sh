#!/usr/bin/env bash
# Import + optimisation benchmark of the graph pipeline, Sluice against TensorFlow.
#
# Usage: bench/run_pipeline_bench.sh
#   SLUICE_REPS (default 20) and TF_REPS (default 10) set the repetitions of each side;
#   BAZEL_OUTPUT_BASE, if set, is passed to bazel as --output_base.
#
# Generates bench/.cache/pipeline_graph.{pb,json} if missing (bench/gen_pipeline_graph.py),
# builds //bench:graph_pipeline_bench with -c opt, runs it with the Placeholders fed (as a
# Session::Run would) and unfed (Placeholders kept, so their declared shapes reach constant
# folding) and fed with --fusions (the remapper and elementwise fusion too, as a Session runs
# them), runs bench/tf_pipeline_bench.py on the same file, prints all four reports and
# a summary with the ratios. Each report is also kept in bench/.cache/*.txt.
set -euo pipefail

cd "$(dirname "$0")/.."
cache=bench/.cache
graph=$cache/pipeline_graph
sluice_reps=${SLUICE_REPS:-20}
tf_reps=${TF_REPS:-10}

if [[ ! -f $graph.pb || ! -f $graph.json ]]; then
  python3 bench/gen_pipeline_graph.py --out "$graph"
fi

# BAZEL_OUTPUT_BASE, if set, gives bazel its own output base (so that a shared machine's other
# builds do not wait on this one).
bazel_cmd=(bazel)
if [[ -n ${BAZEL_OUTPUT_BASE:-} ]]; then bazel_cmd+=(--output_base="$BAZEL_OUTPUT_BASE"); fi
"${bazel_cmd[@]}" build -c opt //bench:graph_pipeline_bench
bench_bin="$("${bazel_cmd[@]}" info -c opt bazel-bin)/bench/graph_pipeline_bench"

read -r feeds fetches < <(python3 -c '
import json, sys
meta = json.load(open(sys.argv[1]))
print(",".join(meta["feeds"]), ",".join(meta["fetches"]))' "$graph.json")

echo "== Sluice, Placeholders fed =="
"$bench_bin" --graph="$graph.pb" --feeds="$feeds" --fetches="$fetches" \
  --reps="$sluice_reps" | tee "$cache/sluice_fed.txt"
echo
echo "== Sluice, Placeholders not fed =="
"$bench_bin" --graph="$graph.pb" --fetches="$fetches" \
  --reps="$sluice_reps" | tee "$cache/sluice_unfed.txt"
echo
echo "== Sluice, Placeholders fed, with the remapper and elementwise fusion (as a Session) =="
"$bench_bin" --graph="$graph.pb" --feeds="$feeds" --fetches="$fetches" --fusions \
  --reps="$sluice_reps" | tee "$cache/sluice_fused.txt"
echo
echo "== TensorFlow =="
python3 bench/tf_pipeline_bench.py --graph="$graph" --reps="$tf_reps" 2>/dev/null \
  | tee "$cache/tf.txt"
echo

python3 - "$cache/sluice_fed.txt" "$cache/sluice_unfed.txt" "$cache/sluice_fused.txt" \
  "$cache/tf.txt" <<'EOF'
import json
import sys


def load(path):
    for line in open(path):
        if line.startswith("JSON "):
            return json.loads(line[5:])
    sys.exit(f"no JSON line in {path}")


fed, unfed, fused, tf = (load(p) for p in sys.argv[1:])
target_ms = 100.0
print("== Summary: ms as median / min; ratio = TensorFlow / Sluice (above 1: Sluice faster) ==")


def compare(label, ours, stage):
    theirs = tf["stages"][stage]
    print(f"  {label:<28} {ours['median_ms']:7.1f} / {ours['min_ms']:7.1f}"
          f"   TF {stage:<23} {theirs['median_ms']:7.1f} / {theirs['min_ms']:7.1f}"
          f"   ratio {theirs['median_ms'] / ours['median_ms']:5.2f} / "
          f"{theirs['min_ms'] / ours['min_ms']:5.2f}")


for label, run in [("fed", fed), ("not fed", unfed), ("fed, with fusions", fused)]:
    ours = run["stages"]
    after = ours["pipeline"]["nodes_after"]
    verdict = "met" if ours["import+pipeline"]["median_ms"] < target_ms else "NOT met"
    print(f"Sluice, Placeholders {label}: {after} nodes after the pipeline; "
          f"import+pipeline < {target_ms:.0f} ms: {verdict}")
    compare("parse+import (C++)", ours["parse+import"], "import_c_api")
    compare("parse+import+pipeline (C++)", ours["total"], "c_api+grappler")
    compare("parse+import+pipeline (C++)", ours["total"], "c_api+grappler_matched")
    compare("import+pipeline", ours["import+pipeline"], "import+grappler")
    compare("parse+import+pipeline", ours["total"], "session_setup")
print("TF nodes after: " + ", ".join(f"{k} {v}" for k, v in tf["nodes_after"].items()))
EOF
