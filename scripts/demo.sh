#!/usr/bin/env bash
# The main job: build the `sluice` command line and run the bundled model — a CNN trained
# with TensorFlow on scikit-learn's 8x8 digits (models/digits) — on its 360 held-out test
# images, printing the predictions, the test accuracy and the time taken, next to the
# accuracy TensorFlow measured on the same frozen graph and images.
#
# Pass another frozen model (.pb/.pbtxt) and `sluice run` flags to run that instead, e.g.
#   scripts/demo.sh tests/fixtures/mlp.pb --input x=tests/fixtures/mlp.in.x.npy
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
bazel build --color=no --curses=no --noshow_progress //tools:sluice
sluice=bazel-bin/tools/sluice
if [ $# -gt 0 ]; then
  model=$1
  shift
  exec "$sluice" run "$model" "$@"
fi
digits=models/digits
"$sluice" run "$digits/digits_cnn.pb" --input "images=$digits/test_images.npy" \
  --labels "$digits/test_labels.npy"
echo "TensorFlow $(awk '$1 == "tensorflow_version" {print $2}' "$digits/manifest.txt") on the same" \
  "graph and images: $(awk '$1 == "tensorflow_correct" {print $2, $3, $4}' "$digits/manifest.txt")" \
  "correct"
