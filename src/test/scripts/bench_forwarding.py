#!/usr/bin/env python3
"""What forwarding costs: put c=50, put c=1 and cycle 10+10 through a standby's TCP port against the
same cases on the primary's own port, in one three-node group (replication.minAcks 1), in
alternating rounds (REPLICATION.md, "Every node serves the protocol").

As in bench_replication.py, the group's nodes are pinned to CPU 0 and the load generator (the
product's Bench) to CPU 1, so the standby that forwards competes with the primary for its core, as
sidecars on one machine would. Medians over rounds and medians of the per-round ratios
standby/primary; p99 in microseconds.

Usage (after mvn -B -q package -DskipTests):
    python3 src/test/scripts/bench_forwarding.py [--rounds 5] [--duration-ms 3000] [--fsync 50]
Loopback only; every process it starts is ended by its pid.
"""
import argparse
import json
import os
import shutil
import statistics
import sys
import tempfile
import time
import urllib.request
import bench_replication as replication  # beside this file


def ready(http_port):
    try:
        with urllib.request.urlopen("http://127.0.0.1:%d/readyz" % http_port, timeout=2) as r:
            return r.status == 200
    except Exception:
        return False


def run(fsync, rounds, duration_ms, workdir, cluster_xml):
    group = [replication.Node(workdir, "n%d" % i, fsync, True, cluster_xml) for i in range(1, 4)]
    try:
        def primary():
            for n in group:
                h = replication.healthz(n.http)
                if h.get("role") == "primary" and h.get("standbys") == 2 and replication.serves(n.port):
                    return n
            return None
        replication.wait(lambda: primary() is not None, 120, "a primary with two standbys")
        p = primary()
        standby = next(n for n in group if n is not p)
        replication.wait(lambda: ready(standby.http) and replication.serves(standby.port), 60,
                         "a standby that forwards")
        print("  primary %s (port %d), standby %s (port %d)" % (p.name, p.port, standby.name, standby.port),
              flush=True)
        results = {c: {"standby": [], "primary": []} for c, _ in replication.CASES}
        for r in range(rounds):
            order = [("standby", standby), ("primary", p)] if r % 2 == 0 else [("primary", p), ("standby", standby)]
            for case, args in replication.CASES:
                for label, node in order:
                    res = replication.bench(node.port, args, duration_ms)
                    if res and not res.get("errors"):
                        results[case][label].append(res)
            print("  round %d of %d done (load %s)" % (r + 1, rounds, open("/proc/loadavg").read().split()[0]),
                  flush=True)
        return results
    finally:
        for n in group:
            n.stop()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--duration-ms", type=int, default=3000)
    ap.add_argument("--fsync", default="50")
    ap.add_argument("--cluster-config", default="conf/cluster-group.xml")
    a = ap.parse_args()
    workdir = tempfile.mkdtemp(prefix="bench-forwarding-")
    # A cluster name of its own, so the run never joins another group on this machine.
    cluster_xml = os.path.join(workdir, "cluster.xml")
    with open(a.cluster_config) as f:
        text = f.read().replace("<cluster-name>vertx-beanstalkd</cluster-name>",
                                "<cluster-name>bench-forwarding-%d</cluster-name>" % os.getpid())
    with open(cluster_xml, "w") as f:
        f.write(text)
    print("bench-forwarding: %s, load average %s" % (time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
                                                     " ".join(open("/proc/loadavg").read().split()[:3])))
    try:
        results = run(a.fsync, a.rounds, a.duration_ms, workdir, cluster_xml)
        print("fsync %s, minAcks 1: through a standby / on the primary's own port, medians over %d rounds"
              % (a.fsync, a.rounds))
        print("  %-12s %12s %12s %8s %10s %10s %8s" % ("case", "standby op/s", "primary op/s", "ratio",
                                                      "stby p99", "prim p99", "ratio"))
        for case, _ in replication.CASES:
            ss, ps = results[case]["standby"], results[case]["primary"]
            n = min(len(ss), len(ps))
            if n == 0:
                print("  %-12s no valid runs" % case)
                continue
            ratios = [ss[i]["opsPerSec"] / ps[i]["opsPerSec"] for i in range(n)]
            p99s = [ss[i]["p99Us"] / ps[i]["p99Us"] for i in range(n)]
            print("  %-12s %12.0f %12.0f %8.2f %10.0f %10.0f %8.2f" % (
                case, statistics.median(s["opsPerSec"] for s in ss), statistics.median(p["opsPerSec"] for p in ps),
                statistics.median(ratios), statistics.median(s["p99Us"] for s in ss),
                statistics.median(p["p99Us"] for p in ps), statistics.median(p99s)))
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
