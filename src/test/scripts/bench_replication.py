#!/usr/bin/env python3
"""What replication costs: put c=50, put c=1 and cycle 10+10 against the primary of a three-node
group (replication.minAcks 1) and against the same server unreplicated, in alternating rounds, once
with fsync always and once with the default 50 ms.

Every server (the group's three nodes and the unreplicated one) is pinned to CPU 0 and the load
generator (the bench jar's Bench) to CPU 1, so the standbys compete with the primary for its core, as
sidecars on one machine would; with --standby-cpus 1 the standbys move to the generator's core once
the primary is known, so the primary's core does what the unreplicated server's does plus shipping. Medians over rounds and medians of the per-round ratios
replicated/unreplicated; p99 in microseconds.

Usage (after mvn -B -q package -DskipTests):
    python3 src/test/scripts/bench_replication.py [--rounds 5] [--duration-ms 3000] [--fsync always,50]
Loopback only; every process it starts is ended by its pid.
"""
import argparse
import json
import os
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from bench_jar import bench_classpath  # beside this file


JAR = "target/vertx-beanstalkd.jar"


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait(predicate, seconds, what):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(0.2)
    raise SystemExit("timed out waiting for " + what)


def healthz(http_port):
    try:
        with urllib.request.urlopen("http://127.0.0.1:%d/healthz" % http_port, timeout=2) as r:
            return json.loads(r.read())
    except Exception:
        return {}


def serves(port):
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=1) as s:
            s.sendall(b"list-tube-used\r\n")
            return s.recv(64).startswith(b"USING")
    except OSError:
        return False


class Node:
    def __init__(self, workdir, name, fsync, replicated, cluster_xml, binlog_root=None):
        self.name, self.port, self.http = name, free_port(), free_port()
        self.binlog_dir = os.path.join(binlog_root or workdir, name)
        conf = {"port": self.port, "http": {"port": self.http},
                "binlog": {"dir": self.binlog_dir, "fsync": fsync}}
        if replicated:
            conf["replication"] = {"enabled": True, "minAcks": 1}
        path = os.path.join(workdir, name + ".json")
        with open(path, "w") as f:
            json.dump(conf, f)
        cmd = ["taskset", "-c", "0", "java", "@conf/jvm.options"]
        if replicated:
            cmd += ["-Dvertx.hazelcast.config=" + cluster_xml, "-jar", JAR, "-cluster", "-cluster-host", "127.0.0.1"]
        else:
            cmd += ["-jar", JAR]
        cmd += ["-conf", path]
        self.log = open(os.path.join(workdir, name + ".log"), "w")
        self.proc = subprocess.Popen(cmd, stdout=self.log, stderr=subprocess.STDOUT)

    def stop(self):
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait()
        self.log.close()


def cpu_seconds(pid):
    """User plus system CPU time of a process, from /proc (every thread)."""
    with open("/proc/%d/stat" % pid) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def bench(port, args, duration_ms):
    out = subprocess.run(["taskset", "-c", "1", "java", "-cp", bench_classpath(JAR), "io.github.vertxbeanstalkd.bench.Bench",
                          "--target", "127.0.0.1:%d" % port, "--duration-ms", str(duration_ms),
                          "--warmup-ms", "1000"] + args, capture_output=True, text=True, timeout=120)
    lines = [l for l in out.stdout.splitlines() if l.startswith("{")]
    return json.loads(lines[-1]) if lines else None


CASES = [("put c=50", ["--mode", "put", "-c", "50"]), ("put c=1", ["--mode", "put", "-c", "1"]),
         ("cycle 10+10", ["--mode", "cycle", "-c", "10"])]


def start_group(fsync, workdir, cluster_xml, standby_dir):
    """The group's three nodes and its primary. With standby_dir, node 1 logs to workdir's disk and
    the other two to standby_dir, and the group is started again until node 1 is the primary."""
    for attempt in range(1, 7):
        group = [Node(workdir, "%s-n%d-%d" % (fsync, i, attempt), fsync, True, cluster_xml,
                      standby_dir if standby_dir and i > 1 else None) for i in range(1, 4)]

        def primary():
            for n in group:
                h = healthz(n.http)
                if h.get("role") == "primary" and h.get("standbys") == 2 and serves(n.port):
                    return n
            return None
        try:
            wait(lambda: primary() is not None, 120, "a primary with two standbys")
        except SystemExit:
            for n in group:
                n.stop()
            raise
        p = primary()
        if not standby_dir or p is group[0]:
            return group, p
        print("  (the primary is %s, not the node on disk: starting the group again)" % p.name, flush=True)
        for n in group:
            n.stop()
            shutil.rmtree(n.binlog_dir, ignore_errors=True)
    raise SystemExit("node 1 never became the primary")


def run_fsync(fsync, rounds, duration_ms, workdir, cluster_xml, standby_cpus, warmup_ms, standby_dir=None):
    plain = Node(workdir, "%s-plain" % fsync, fsync, False, cluster_xml)
    group = []
    try:
        wait(lambda: serves(plain.port), 60, "the unreplicated server")
        group, p = start_group(fsync, workdir, cluster_xml, standby_dir)
        if standby_cpus != "0":
            # The standbys move (every thread) off the primary's core, as on machines of their own.
            for n in group:
                if n is not p:
                    subprocess.run(["taskset", "-a", "-p", "-c", standby_cpus, str(n.proc.pid)],
                                   check=True, capture_output=True)
        # Both servers run the load once before anything is measured: the replicated path has more
        # code for the JIT to compile, and a fresh group would otherwise be measured half-compiled.
        for node in (p, plain):
            for _case, args in CASES:
                bench(node.port, args, warmup_ms)
        results = {c: {"repl": [], "plain": []} for c, _ in CASES}
        for r in range(rounds):
            order = [("repl", p), ("plain", plain)] if r % 2 == 0 else [("plain", plain), ("repl", p)]
            for case, args in CASES:
                for label, node in order:
                    watched = [node] if label == "plain" else group
                    before = [cpu_seconds(n.proc.pid) for n in watched]
                    res = bench(node.port, args, duration_ms)
                    spent = [cpu_seconds(n.proc.pid) - b for n, b in zip(watched, before)]
                    if res and not res.get("errors"):
                        # CPU per operation over the whole run (warm-up included): the server's (the
                        # primary's), and the standbys' together.
                        ops = res["opsPerSec"] * (duration_ms + 1000) / 1000.0
                        res["serverCpuUs"] = spent[watched.index(node)] * 1e6 / ops
                        res["standbysCpuUs"] = (sum(spent) - spent[watched.index(node)]) * 1e6 / ops
                        results[case][label].append(res)
            print("  fsync %s round %d of %d done (load %s)" % (fsync, r + 1, rounds, open("/proc/loadavg").read().split()[0]),
                  flush=True)
        return results
    finally:
        for n in group + [plain]:
            n.stop()
            if standby_dir and n.binlog_dir.startswith(standby_dir):
                shutil.rmtree(n.binlog_dir, ignore_errors=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--duration-ms", type=int, default=3000)
    ap.add_argument("--warmup-ms", type=int, default=5000, help="each case once on each server before the rounds")
    ap.add_argument("--fsync", default="always,50")
    ap.add_argument("--cluster-config", default="conf/cluster-group.xml")
    ap.add_argument("--standby-cpus", default="0",
                    help="where the standbys run once the primary is known: 0 shares the primary's core "
                         "(sidecars on one machine), 1 shares the load generator's (standbys elsewhere)")
    ap.add_argument("--standby-binlog-dir", default=None,
                    help="the standbys' binlogs go here (say /dev/shm), the primary's and the unreplicated "
                         "server's stay on the disk: standbys on disks of their own, whose fsyncs do not "
                         "compete with the primary's")
    ap.add_argument("--jar", default=JAR, help="the build to measure (a copy, so that a rebuild cannot replace it mid-run)")
    a = ap.parse_args()
    globals()["JAR"] = a.jar
    workdir = tempfile.mkdtemp(prefix="bench-replication-")
    # A cluster name of its own, so the run never joins another group on this machine.
    cluster_xml = os.path.join(workdir, "cluster.xml")
    with open(a.cluster_config) as f:
        text = f.read().replace("<cluster-name>vertx-beanstalkd</cluster-name>",
                                "<cluster-name>bench-%d</cluster-name>" % os.getpid())
    with open(cluster_xml, "w") as f:
        f.write(text)
    print("bench-replication: %s, load average %s, standbys on CPU %s, their binlogs in %s" % (
        time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), " ".join(open("/proc/loadavg").read().split()[:3]),
        a.standby_cpus, a.standby_binlog_dir or workdir))
    try:
        for fsync in a.fsync.split(","):
            results = run_fsync(fsync.strip(), a.rounds, a.duration_ms, workdir, cluster_xml, a.standby_cpus,
                                a.warmup_ms, a.standby_binlog_dir)
            print("fsync %s: replicated (minAcks 1) / unreplicated, medians over %d rounds" % (fsync, a.rounds))
            print("  %-12s %12s %12s %8s %10s %10s %8s %14s %14s" % (
                "case", "repl ops/s", "plain ops/s", "ratio", "repl p99", "plain p99", "ratio",
                "cpu/op repl", "cpu/op plain"))
            for case, _ in CASES:
                rs, ps = results[case]["repl"], results[case]["plain"]
                n = min(len(rs), len(ps))
                if n == 0:
                    print("  %-12s no valid runs" % case)
                    continue
                ratios = [rs[i]["opsPerSec"] / ps[i]["opsPerSec"] for i in range(n)]
                p99r = [rs[i]["p99Us"] / ps[i]["p99Us"] for i in range(n)]
                print("  %-12s %12.0f %12.0f %8.2f %10.0f %10.0f %8.2f %8.1f+%-5.1f %14.1f" % (
                    case, statistics.median(r["opsPerSec"] for r in rs), statistics.median(p["opsPerSec"] for p in ps),
                    statistics.median(ratios), statistics.median(r["p99Us"] for r in rs),
                    statistics.median(p["p99Us"] for p in ps), statistics.median(p99r),
                    statistics.median(r["serverCpuUs"] for r in rs), statistics.median(r["standbysCpuUs"] for r in rs),
                    statistics.median(p["serverCpuUs"] for p in ps)))
            print("  (cpu/op in microseconds: the primary's + the two standbys'; the unreplicated server's)")
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
