"""Session runtime benchmark, TensorFlow 2.21 side (see bench/session_bench.cc for Sluice's).

  tf_session_bench.py --write=DIR [--inter_op=2] [--intra_op=1]
      writes the three GraphDefs both sides run: chain.pb (Placeholder x and 1,000 scalar
      AddV2s, each adding x to the previous; fetch out:0), fanin.pb (x, 1,000 scalar Consts
      c_i, 1,000 AddV2(x, c_i), one AddN; fetch out:0), one_node.pb (one scalar Const "out");
      and config.pb, the ConfigProto of TensorFlow's sessions (these thread counts, Grappler
      off), which tf_capi_session_bench.cc reads.
  tf_session_bench.py --graph_dir=DIR [--reps=25] [--inter_op=2] [--intra_op=1] [--threads=8]
      runs them in tf.compat.v1.Session with the same method as session_bench.cc and prints
      the figures and a "JSON {...}" line.

TensorFlow is driven through a session callable (Session._make_callable_from_options), the
lowest-overhead way to call TF's C++ Session::RunCallable from Python; each call still pays
Python's own overhead (a few microseconds), which a C++ client would not. Grappler (the meta
optimizer) is disabled so that TF executes the same 1,000 nodes Sluice does: left on, its
arithmetic optimizer would rewrite the AddV2 chain into one AddN.
"""

import argparse
import json
import os
import statistics
import threading
import time

import numpy as np

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
import tensorflow as tf  # noqa: E402
from tensorflow.core.protobuf import config_pb2  # noqa: E402

tf1 = tf.compat.v1
NUM_OPS = 1000
WARMUP = 20


def session_config(args):
    config = tf1.ConfigProto(inter_op_parallelism_threads=args.inter_op,
                             intra_op_parallelism_threads=args.intra_op)
    config.graph_options.rewrite_options.disable_meta_optimizer = True
    return config


def write_graphs(out_dir, args):
    os.makedirs(out_dir, exist_ok=True)
    graphs = {}
    g = tf.Graph()
    with g.as_default():
        x = tf1.placeholder(tf.float32, shape=[], name="x")
        a = x
        for i in range(NUM_OPS - 1):
            a = tf.raw_ops.AddV2(x=a, y=x, name=f"a{i}")
        tf.raw_ops.AddV2(x=a, y=x, name="out")
    graphs["chain"] = g
    g = tf.Graph()
    with g.as_default():
        x = tf1.placeholder(tf.float32, shape=[], name="x")
        terms = [tf.raw_ops.AddV2(x=x, y=tf.constant(float(i), name=f"c{i}"), name=f"s{i}")
                 for i in range(NUM_OPS)]
        tf.raw_ops.AddN(inputs=terms, name="out")
    graphs["fanin"] = g
    g = tf.Graph()
    with g.as_default():
        tf.constant(1.0, name="out")
    graphs["one_node"] = g
    for name, graph in graphs.items():
        data = graph.as_graph_def().SerializeToString(deterministic=True)
        with open(os.path.join(out_dir, name + ".pb"), "wb") as f:
            f.write(data)
    with open(os.path.join(out_dir, "config.pb"), "wb") as f:
        f.write(session_config(args).SerializeToString(deterministic=True))


def make_session(path, args):
    graph_def = tf1.GraphDef()
    with open(path, "rb") as f:
        graph_def.ParseFromString(f.read())
    graph = tf.Graph()
    with graph.as_default():
        tf1.import_graph_def(graph_def, name="")
    sess = tf1.Session(graph=graph, config=session_config(args))
    opts = config_pb2.CallableOptions()
    feeds = []
    if any(n.name == "x" for n in graph_def.node):
        opts.feed.append("x:0")
        feeds.append(np.float32(1.0))
    opts.fetch.append("out:0")
    call = sess._make_callable_from_options(opts)  # pylint: disable=protected-access

    def run_batch(n):
        for _ in range(n):
            call(*feeds)

    run_batch(WARMUP)
    return sess, run_batch, len(graph_def.node)


def time_runs(run_batch, reps, batch):
    samples = []
    for _ in range(reps):
        start = time.perf_counter()
        run_batch(batch)
        samples.append((time.perf_counter() - start) * 1e6 / batch)
    return statistics.median(samples), min(samples)


def throughput(run_batch, reps, threads, batch):
    samples = []
    for _ in range(reps):
        workers = [threading.Thread(target=run_batch, args=(batch,)) for _ in range(threads)]
        start = time.perf_counter()
        for w in workers:
            w.start()
        for w in workers:
            w.join()
        samples.append(threads * batch / (time.perf_counter() - start))
    return statistics.median(samples), max(samples)


def bench(args):
    res = {"inter_op": args.inter_op, "intra_op": args.intra_op, "reps": args.reps}
    sessions = {n: make_session(os.path.join(args.graph_dir, n + ".pb"), args)
                for n in ("chain", "fanin", "one_node")}
    for name, batch in (("chain", 20), ("fanin", 20), ("one_node", 2000)):
        med, low = time_runs(sessions[name][1], args.reps, batch)
        key = "one_node_run" if name == "one_node" else name + "_step"
        res[key + "_us"], res[key + "_min_us"] = med, low
    res["chain_us_per_node"] = res["chain_step_us"] / NUM_OPS
    res["fanin_us_per_op"] = res["fanin_step_us"] / (NUM_OPS + 1)
    one = sessions["one_node"][1]
    res["runs_per_s_1"], _ = throughput(one, args.reps, 1, 2000)
    res["runs_per_s_n"], res["runs_per_s_n_best"] = throughput(one, args.reps, args.threads,
                                                               2000)
    res["threads"] = args.threads
    # For reference only: the same one-node Run through the ordinary session.run.
    sess = sessions["one_node"][0]
    fetch = sess.graph.get_tensor_by_name("out:0")
    for _ in range(WARMUP):
        sess.run(fetch)
    res["one_node_session_run_us"], _ = time_runs(lambda n: [sess.run(fetch) for _ in range(n)],
                                                  args.reps, 500)
    nodes = {n: s[2] for n, s in sessions.items()}
    print(f"TensorFlow {tf.__version__} session benchmark (callable): "
          f"inter_op={args.inter_op} intra_op={args.intra_op} reps={args.reps}")
    print(f"  chain     {nodes['chain']:5d} nodes  step {res['chain_step_us']:9.1f} us "
          f"(min {res['chain_step_min_us']:9.1f})  {res['chain_us_per_node']:.3f} us/AddV2")
    print(f"  fanin     {nodes['fanin']:5d} nodes  step {res['fanin_step_us']:9.1f} us "
          f"(min {res['fanin_step_min_us']:9.1f})  {res['fanin_us_per_op']:.3f} us/op")
    print(f"  one_node  {nodes['one_node']:5d} nodes  Run  {res['one_node_run_us']:9.2f} us "
          f"(min {res['one_node_run_min_us']:9.2f}); session.run "
          f"{res['one_node_session_run_us']:.2f} us")
    print(f"  one_node  1 thread {res['runs_per_s_1']:10.0f} runs/s; {args.threads} threads "
          f"{res['runs_per_s_n']:10.0f} runs/s (x{res['runs_per_s_n'] / res['runs_per_s_1']:.2f})")
    print("JSON " + json.dumps(res))
    for s in sessions.values():
        s[0].close()


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--write", help="write the GraphDefs to this directory and exit")
    p.add_argument("--graph_dir")
    p.add_argument("--reps", type=int, default=25)
    p.add_argument("--inter_op", type=int, default=2)
    p.add_argument("--intra_op", type=int, default=1)
    p.add_argument("--threads", type=int, default=8)
    args = p.parse_args()
    if args.write:
        write_graphs(args.write, args)
    elif args.graph_dir:
        bench(args)
    else:
        p.error("give --write=DIR or --graph_dir=DIR")


if __name__ == "__main__":
    main()
