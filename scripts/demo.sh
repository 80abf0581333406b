#!/usr/bin/env bash
# The main job: build Sluice's model tool and run it on a bundled frozen TensorFlow model.
# Until the session runtime lands, "running" a model means loading, validating and
# describing it. Pass another .pb/.pbtxt path to describe that model instead.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
model=${1:-tests/fixtures/cnn.pb}
case "$model" in /*) ;; *) model="$PWD/$model" ;; esac
bazel build --color=no --curses=no --noshow_progress //tools:print_graph
bazel-bin/tools/print_graph "$model"
