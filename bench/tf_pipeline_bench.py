#!/usr/bin/env python3
"""Times TensorFlow's import and graph optimisation of the pipeline benchmark's GraphDef.

The reference side of bench/run_pipeline_bench.sh (Sluice's side is graph_pipeline_bench).
Reads <graph>.pb and the feeds/fetches in <graph>.json (bench/gen_pipeline_graph.py writes
both) and reports the median and minimum over --reps repetitions (after --warmup) of:

  parse          GraphDef.FromString on the file's bytes (Python protobuf, C++ upb backend)
  import         tf.graph_util.import_graph_def into a new tf.Graph: TensorFlow's C++
                 importer with shape inference, plus the Python Operation objects it creates
  import_c_api   the C++ part alone: TF_GraphImportGraphDefWithResults on the file's bytes
                 (parse + import with shape inference, no Python objects), through
                 TensorFlow's internal C-API binding; compared with Sluice's parse + import
  export         tf.compat.v1.train.export_meta_graph of that graph, with a signature naming
                 the feeds and fetches, serialized (what Grappler's Python entry point takes)
  grappler       Grappler's meta-optimizer on the serialized MetaGraphDef
                 (tf_optimizer's TF_OptimizeGraphSerialized on a cluster made once): parses
                 it, builds the GrapplerItem (feeds get the Placeholders' shapes), then runs
                 the default optimizers with constant folding, arithmetic and dependency
                 optimisation on, and serializes the result
  grappler_matched  the same with only the optimizers Sluice's pipeline has counterparts
                 for: pruning, constfold, common_subgraph_elimination, dependency
  import+grappler, import+grappler_matched  import + the optimizer (export left out: a
                 session hands Grappler its graph without it): compared with Sluice's
                 import + pipeline
  c_api+grappler, c_api+grappler_matched  import_c_api + the optimizer: C++ work only,
                 compared with Sluice's parse + import + pipeline
  session_first_run  a new tf.compat.v1.Session on the imported graph and its first run with
                 the fetches: DirectSession's own graph conversion, pruning, placement,
                 Grappler, the classic GraphOptimizer (constant folding, CSE), partitioning,
                 kernel creation, and one step
  session_step   a later run of that session (the step alone, median of 5); first run minus
                 this estimates the session's setup cost

Prints a table, the op histogram of Grappler's output, and one line "JSON {...}".
"""

import argparse
import collections
import json
import os
import statistics
import time

import numpy as np

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
import tensorflow as tf  # noqa: E402  (the log level must be set before the import)
from tensorflow.core.protobuf import config_pb2  # noqa: E402
from tensorflow.core.protobuf import rewriter_config_pb2  # noqa: E402
from tensorflow.python.client import pywrap_tf_session as c_api  # noqa: E402
from tensorflow.python.framework import c_api_util  # noqa: E402
from tensorflow.python.grappler import cluster as gcluster  # noqa: E402
from tensorflow.python.grappler import tf_optimizer  # noqa: E402

tf1 = tf.compat.v1
STAGES = ["parse", "import", "import_c_api", "export", "grappler", "grappler_matched",
          "import+grappler", "import+grappler_matched", "c_api+grappler", "c_api+grappler_matched",
          "session_first_run", "session_step", "session_setup"]
# Grappler's names for the counterparts of Sluice's prune, constant folding, CSE, simplify.
MATCHED_OPTIMIZERS = ["pruning", "constfold", "common_subgraph_elimination", "dependency"]


def grappler_config(matched=False):
    config = config_pb2.ConfigProto()
    rewrite = config.graph_options.rewrite_options
    if matched:
        rewrite.optimizers.extend(MATCHED_OPTIMIZERS)
        return config
    on = rewriter_config_pb2.RewriterConfig.ON
    rewrite.constant_folding = on
    rewrite.arithmetic_optimization = on
    rewrite.dependency_optimization = on
    return config


def export_metagraph(graph, feeds, fetches):
    """The graph as a serialized MetaGraphDef whose signature names the feeds and fetches."""
    with graph.as_default():  # export_meta_graph refuses to run eagerly
        mg = tf1.train.export_meta_graph(graph=graph)
    sig = mg.signature_def["serving_default"]
    for key, name in [(f, f + ":0") for f in feeds]:
        set_tensor_info(sig.inputs[key], graph.get_tensor_by_name(name))
    for name in fetches:
        set_tensor_info(sig.outputs[name], graph.get_tensor_by_name(name))
    return mg.SerializeToString()


def set_tensor_info(info, tensor):
    info.name = tensor.name
    info.dtype = tensor.dtype.as_datatype_enum
    info.tensor_shape.CopyFrom(tensor.shape.as_proto())


def timed(fn):
    start = time.perf_counter()
    result = fn()
    return (time.perf_counter() - start) * 1e3, result


def import_graph(gdef):
    graph = tf.Graph()
    with graph.as_default():
        tf.graph_util.import_graph_def(gdef, name="")
    return graph


def import_c_api(data):
    """Parses and imports serialized GraphDef bytes in C++ only; returns the graph."""
    graph = tf.Graph()
    options = c_api_util.ScopedTFImportGraphDefOptions()
    buf = c_api.TF_NewBufferFromString(data)
    try:
        with graph._c_graph.get() as c_graph:  # pylint: disable=protected-access
            results = c_api.TF_GraphImportGraphDefWithResults(c_graph, buf, options.options)
            c_api_util.ScopedTFImportGraphDefResults(results)  # frees the results
    finally:
        c_api.TF_DeleteBuffer(buf)
    return graph


def session_times(graph, feeds, fetches, feed_shape):
    rng = np.random.RandomState(0)
    feed_dict = {graph.get_tensor_by_name(f + ":0"):
                 rng.uniform(-1, 1, feed_shape).astype(np.float32) for f in feeds}
    targets = [graph.get_tensor_by_name(f) for f in fetches]
    with tf1.Session(graph=graph, config=grappler_config()) as sess:
        first_ms, _ = timed(lambda: sess.run(targets, feed_dict))
        steps = [timed(lambda: sess.run(targets, feed_dict))[0] for _ in range(5)]
    return first_ms, statistics.median(steps)


def optimize(cluster, config, mg_bytes):
    return tf_optimizer.tf_opt.TF_OptimizeGraphSerialized(
        cluster.tf_cluster, config.SerializeToString(), mg_bytes, False, b"pipeline_bench", False)


def one_rep(data, meta, cluster):
    """One repetition: a dict stage -> milliseconds, and the optimised GraphDefs by config."""
    ms = {}
    ms["parse"], gdef = timed(lambda: tf1.GraphDef.FromString(data))
    ms["import"], graph = timed(lambda: import_graph(gdef))
    ms["import_c_api"], _ = timed(lambda: import_c_api(data))
    ms["export"], mg_bytes = timed(lambda: export_metagraph(graph, meta["feeds"],
                                                            meta["fetches"]))
    outputs = {}
    for stage, matched in [("grappler", False), ("grappler_matched", True)]:
        ms[stage], out = timed(lambda: optimize(cluster, grappler_config(matched), mg_bytes))
        ms["import+" + stage] = ms["import"] + ms[stage]
        ms["c_api+" + stage] = ms["import_c_api"] + ms[stage]
        outputs[stage] = tf1.GraphDef.FromString(out)
    first, step = session_times(graph, meta["feeds"], meta["fetches"], meta["feed_shape"])
    ms["session_first_run"], ms["session_step"] = first, step
    ms["session_setup"] = first - step
    return ms, outputs, len(gdef.node)


def main():
    default = os.path.join(os.path.dirname(__file__), ".cache", "pipeline_graph")
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--graph", default=default, help="path without .pb/.json")
    parser.add_argument("--reps", type=int, default=10)
    parser.add_argument("--warmup", type=int, default=1)
    args = parser.parse_args()

    with open(args.graph + ".pb", "rb") as f:
        data = f.read()
    with open(args.graph + ".json") as f:
        meta = json.load(f)
    cluster = gcluster.Cluster(allow_soft_placement=True, disable_detailed_stats=True,
                               disable_timeline=True)
    samples = collections.defaultdict(list)
    for i in range(args.warmup + args.reps):
        ms, outputs, num_nodes = one_rep(data, meta, cluster)
        if i >= args.warmup:
            for stage, value in ms.items():
                samples[stage].append(value)
    cluster.Shutdown()
    report(args, samples, outputs, num_nodes)


def report(args, samples, outputs, num_nodes):
    print(f"TensorFlow {tf.__version__} import + Grappler: {args.graph}.pb, {num_nodes} nodes, "
          f"{args.reps} reps (+{args.warmup} warm-up)")
    print(f"{'stage':<24} {'median_ms':>10} {'min_ms':>10}")
    stats = {}
    for stage in STAGES:
        med, low = statistics.median(samples[stage]), min(samples[stage])
        stats[stage] = {"median_ms": round(med, 4), "min_ms": round(low, 4)}
        print(f"{stage:<24} {med:10.3f} {low:10.3f}")
    nodes_after = {}
    for stage, gdef in outputs.items():
        nodes_after[stage] = len(gdef.node)
        ops = collections.Counter(n.op for n in gdef.node)
        print(f"{stage} output: {len(gdef.node)} nodes; ops: "
              + " ".join(f"{op}={n}" for op, n in sorted(ops.items())))
    print("JSON " + json.dumps({"bench": "tf_graph_pipeline", "tf_version": tf.__version__,
                                "reps": args.reps, "nodes": num_nodes,
                                "nodes_after": nodes_after, "stages": stats},
                               separators=(",", ":")))

if __name__ == "__main__":
    main()
