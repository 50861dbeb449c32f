#!/usr/bin/env python3
"""A control for bench_full_copy.py: put c=50 on a primary with one standby following, pinned as that
script pins them (the primary on CPU 0; the standby and the load generator on CPU 1), without and
with busy loops pinned to CPU 1, as a copying standby's apply would keep that core busy. No copy at
all: what the puts lose here is the shared core's, not the copy's design.

Usage (after mvn -B -q package -DskipTests; JAR=... picks the build):
    python3 src/test/scripts/put_beside_busy_core.py [--rounds 2] [--loops 0,1,2] [--put-ms 4000]
Loopback only; every process it starts (three nodes, the busy loops) is ended by its pid.
"""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import bench_full_copy as bfc  # beside this file


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--loops", default="0,1,2", help="busy loops on CPU 1 in each step, comma-separated")
    ap.add_argument("--put-ms", type=int, default=4000)
    ap.add_argument("--cluster-config", default="conf/cluster-group.xml")
    a = ap.parse_args()
    workdir = tempfile.mkdtemp(prefix="put-beside-busy-core-")
    xml = os.path.join(workdir, "cluster.xml")
    with open(a.cluster_config) as f:
        text = f.read().replace("<cluster-name>vertx-beanstalkd</cluster-name>",
                                "<cluster-name>busy-core-%d</cluster-name>" % os.getpid())
    with open(xml, "w") as f:
        f.write(text)
    print("put-beside-busy-core: load average %s" % " ".join(open("/proc/loadavg").read().split()[:3]), flush=True)
    nodes = [bfc.Node(workdir, "n%d" % i, xml) for i in range(1, 4)]
    loops = []
    try:
        def primary():
            for n in nodes:
                h = bfc.healthz(n.http)
                if h.get("role") == "primary" and h.get("standbys") == 2:
                    return n
            return None
        p = bfc.wait(primary, 180, "a primary with two standbys")
        standbys = [n for n in nodes if n is not p]
        p.pin("0")
        for n in standbys:
            n.pin("1")
        standbys[1].kill()
        bfc.wait(lambda: bfc.healthz(p.http).get("standbys") == 1, 60, "one standby following")
        for r in range(a.rounds):
            for k in [int(x) for x in a.loops.split(",")]:
                loops = [subprocess.Popen(["taskset", "-c", "1", sys.executable, "-c", "while True: pass"])
                         for _ in range(k)]
                try:
                    res = bfc.put50(p.port, a.put_ms, p.http)
                finally:
                    for l in loops:
                        l.kill()
                        l.wait()
                    loops = []
                print("round %d, %d busy loops on CPU 1: put c=50 %.0f ops/s, p99 %s us%s" % (
                    r + 1, k, res.get("opsPerSec", 0), res.get("p99Us"), bfc.acks_text(res)), flush=True)
    finally:
        for l in loops:
            l.kill()
        for n in nodes:
            n.kill()
        shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
