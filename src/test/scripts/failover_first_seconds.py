#!/usr/bin/env python3
"""The first seconds after a failover: put c=50 against a standby just promoted to primary.

Each round starts a three-node replication group (minAcks 1, fsync 50 ms, binlogs in a temporary
directory), every node on CPU 0, one after the other: each node's warm-up has the core to itself, as
on machines of their own (--start-together starts them at once, their three warm-ups sharing the
core); once the primary is known the two standbys move to CPU 1 (as
bench_replication.py --standby-cpus 1 does: the primary's core does what a lone server's does plus
shipping). The load generator (the bench jar's Bench in --stdin mode, one warm JVM for the whole script)
is on CPU 1.

  1. "before": put c=50 against the primary for --steady-ms; the standbys apply what it ships.
  2. SIGKILL of the primary, by its pid. The moment a survivor's /healthz says "role": "primary"
     and its port answers, that node moves (every thread) to CPU 0, and the generator gets its case
     at once: "first 5 s" is put c=50 against the new primary from that moment, over --window-ms
     (ops/s, p99, p99.9, max over the window and over its seconds 1-5).
  3. "later": after --settle-ms more of the same load, the same case again against the new primary
     (same group shape: one standby left), for the steady figure to compare with.
  4. beanstalkd 1.12 on CPU 0, freshly started, put c=50 from the moment its port opens, for the
     ratio against issue 20's target (the first seconds, >= 0.9x ops/s, p99 <= 3x).

--from-kill (issue 43) counts from the kill instead, through a sidecar: the load goes to one of the
two standbys (the one listed first), as an app beside a surviving node sends it, never to the
primary. "before" is put c=50 through that node for --steady-ms; then SIGKILL of the primary, and
at that moment the generator gets put c=50 through the same node for --window-ms (10 s by
default): the failover, with its commands answered INTERNAL_ERROR (counted, not failures), is in
the window. Both survivors move to CPU 0 at the kill (the old primary's core), the generator
stays on CPU 1. "later" is the same case through the same node after --settle-ms: its steady
throughput, which the first window is compared with (target: at least 0.7x of it).

Builds of ours alternate with --variant LABEL:JAR (each round runs every build, the order flipping
every round). The summary gives medians over rounds: new primary / beanstalkd, new primary / the
same node later, and the failover time (kill to the new primary serving).

Usage (from the repository root, after mvn -B -q package -DskipTests; about 1.5 minutes a round
and build):
    flock /tmp/cluster.lock python3 src/test/scripts/failover_first_seconds.py --jar target/vertx-beanstalkd.jar
From the kill, through a sidecar, on JDK 25 (the AOT cache as conf/jvm.options names it):
    python3 src/test/scripts/failover_first_seconds.py --from-kill \
        --java /usr/lib/jvm/temurin-25-jdk-amd64/bin/java --jar target/vertx-beanstalkd.jar
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
import tempfile
import time
import urllib.request
from bench_jar import bench_classpath  # beside this file


HOST = "127.0.0.1"
PUT50 = "--mode put -c 50 -p 1"


def free_port():
    with socket.socket() as s:
        s.bind((HOST, 0))
        return s.getsockname()[1]


def wait(predicate, seconds, what, step=0.05):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(step)
    raise RuntimeError("timed out waiting for " + what)


def serves(port):
    try:
        with socket.create_connection((HOST, port), timeout=1) as s:
            s.sendall(b"list-tube-used\r\n")
            return s.recv(64).startswith(b"USING")
    except OSError:
        return False


def load_average():
    with open("/proc/loadavg") as f:
        return " ".join(f.read().split()[:3])


def cpu_ms(pid):
    """CPU time of the process so far, in ms, by thread kind: total, JIT compilers, Hazelcast, event loops."""
    tick = os.sysconf("SC_CLK_TCK")
    parts = {"total": 0, "compilers": 0, "hazelcast": 0, "eventLoops": 0}
    for task in os.listdir("/proc/%d/task" % pid):
        try:
            with open("/proc/%d/task/%s/stat" % (pid, task)) as f:
                stat = f.read()
        except OSError:
            continue
        name = stat[stat.index("(") + 1:stat.rindex(")")]
        fields = stat[stat.rindex(")") + 2:].split()
        ms = (int(fields[11]) + int(fields[12])) * 1000 // tick
        parts["total"] += ms
        if "CompilerThre" in name:
            parts["compilers"] += ms
        elif name.startswith("hz."):
            parts["hazelcast"] += ms
        elif name.startswith("vert.x-eventloo"):
            parts["eventLoops"] += ms
    return parts


def measured(generator, node, window_ms, errors_allowed=False):
    """The generator's figures for one window on node, with the JIT compilers' part of its CPU."""
    before = cpu_ms(node.proc.pid)
    result = figures(generator.run(node.port, window_ms, errors_allowed))
    after = cpu_ms(node.proc.pid)
    result["cpuMs"] = after["total"] - before["total"]
    result["compilerMs"] = after["compilers"] - before["compilers"]
    result["hazelcastMs"] = after["hazelcast"] - before["hazelcast"]
    result["eventLoopMs"] = after["eventLoops"] - before["eventLoops"]
    return result


def pin(pid, cpus):
    subprocess.run(["taskset", "-a", "-p", "-c", cpus, str(pid)], check=True, capture_output=True)


class Node:
    def __init__(self, args, jar, workdir, name):
        self.name, self.port, self.http = name, free_port(), free_port()
        conf = {"host": HOST, "port": self.port, "http": {"host": HOST, "port": self.http},
                "binlog": {"dir": os.path.join(workdir, name)},
                "replication": {"enabled": True, "minAcks": 1}}
        command = ["taskset", "-c", "0", args.java, "@" + args.jvm_options,
                   "-Dvertx.hazelcast.config=" + args.cluster_config, "-jar", jar,
                   "-cluster", "-cluster-host", HOST, "-conf", json.dumps(conf)]
        self.log = open(os.path.join(workdir, name + ".log"), "w")
        self.proc = subprocess.Popen(command, stdout=self.log, stderr=subprocess.STDOUT)

    def listening(self):
        """Whether the server's port is open: its start-up, warm-up included, is done."""
        with open(self.log.name) as f:
            return "listening on" in f.read()

    def healthz(self):
        try:
            with urllib.request.urlopen("http://%s:%d/healthz" % (HOST, self.http), timeout=1) as r:
                return json.loads(r.read())
        except Exception:
            return None

    def kill(self):
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
        self.proc.wait()
        self.log.close()


class Generator:
    """The jar's Bench in --stdin mode: one case per line, answered by its result and "done"."""

    def __init__(self, jar):
        self.proc = subprocess.Popen(
            ["taskset", "-c", "1", "java", "-cp", bench_classpath(jar), "io.github.vertxbeanstalkd.bench.Bench", "--stdin"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)

    def run(self, port, window_ms, errors_allowed=False):
        self.proc.stdin.write("--target %s:%d %s --warmup-ms 0 --duration-ms %d --slice-ms 1000 --stall-ms 20000\n"
                              % (HOST, port, PUT50, window_ms))
        self.proc.stdin.flush()
        result = None
        for line in self.proc.stdout:
            line = line.rstrip("\n")
            if line == "done":
                break
            if line.startswith("{"):
                result = json.loads(line)
        if result is None or (result.get("errors") and not errors_allowed):
            raise RuntimeError("generator: %s" % result)
        return result

    def close(self):
        self.proc.stdin.close()
        try:
            self.proc.wait(30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


def figures(result):
    return {k: result.get(k) for k in ("ops", "opsPerSec", "p99Us", "p999Us", "maxUs", "afterSlice0OpsPerSec",
                                       "afterSlice0P99Us", "afterSlice0P999Us", "errors")}


def one_round(args, label, jar, generator):
    workdir = tempfile.mkdtemp(prefix="failover-fs-")
    nodes = []
    try:
        for i in range(1, 4):
            nodes.append(Node(args, jar, workdir, "%s-n%d" % (label, i)))
            if not args.start_together:
                # As on machines of their own: each node warms up with CPU 0 to itself.
                wait(nodes[-1].listening, 180, "node %d to open its port" % i, step=0.2)
        def primary():
            found = [(n, n.healthz()) for n in nodes]
            ps = [n for n, h in found if h and h.get("role") == "primary" and h.get("standbys") == 2]
            return ps[0] if len(ps) == 1 and serves(ps[0].port) else None
        old = wait(primary, 180, "a primary with two standbys", step=0.2)
        for n in nodes:
            if n is not old:
                pin(n.proc.pid, "1")
        if args.from_kill:
            return from_kill(args, label, generator, old, [n for n in nodes if n is not old])
        before = measured(generator, old, args.steady_ms)
        killed_at = time.perf_counter()
        old.kill()
        survivors = [n for n in nodes if n is not old]

        def promoted():
            for n in survivors:
                h = n.healthz()
                if h and h.get("role") == "primary" and serves(n.port):
                    return n
            return None
        new = wait(promoted, 60, "a new primary")
        failover_s = time.perf_counter() - killed_at
        pin(new.proc.pid, "0")
        first = measured(generator, new, args.window_ms)
        generator.run(new.port, args.settle_ms)
        later = measured(generator, new, args.window_ms)
        return {"server": label, "failoverS": failover_s, "before": before, "first": first,
                "later": later, "load": load_average()}
    finally:
        for n in nodes:
            if n.proc.poll() is None or not n.log.closed:
                n.kill()
        if not args.keep_dir:
            shutil.rmtree(workdir, ignore_errors=True)


def from_kill(args, label, generator, old, survivors):
    """put c=50 through a standby, before the kill, from the kill, and later (see --from-kill)."""
    sidecar = survivors[0]
    before = measured(generator, sidecar, args.steady_ms)
    killed_at = time.perf_counter()
    old.kill()
    for n in survivors:
        pin(n.proc.pid, "0")
    # The node's CPU is read around the window, so the generator starts its case inside measured().
    first = measured(generator, sidecar, args.window_ms, errors_allowed=True)
    first["startMs"] = (time.perf_counter() - killed_at) * 1e3 - args.window_ms
    roles = {n.name: (n.healthz() or {}).get("role") for n in survivors}
    generator.run(sidecar.port, args.settle_ms, errors_allowed=True)
    later = measured(generator, sidecar, args.window_ms)
    return {"server": label, "failoverS": None, "sidecar": sidecar.name, "roles": roles, "before": before,
            "first": first, "later": later, "load": load_average()}


def beanstalkd_round(args, generator):
    port = free_port()
    proc = subprocess.Popen(["taskset", "-c", "0", "beanstalkd", "-l", HOST, "-p", str(port)])
    try:
        wait(lambda: serves(port), 10, "beanstalkd", step=0.001)
        return {"server": "beanstalkd", "first": figures(generator.run(port, args.window_ms)), "load": load_average()}
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait()


def median(values):
    values = [v for v in values if v is not None]
    return statistics.median(values) if values else None


def summary_from_kill(runs, labels, args):
    lines = ["put c=50 through a sidecar on a surviving node, counted from the kill of the primary; medians over "
             "rounds (p99 in ms)", ""]
    lines.append("%-12s %-8s %9s %9s %8s %8s %8s %7s" % ("server", "window", "jobs", "ops/s", "p99", "p99.9", "max",
                                                      "errors"))
    for label in labels:
        ours = [r for r in runs if r["server"] == label]
        for window in ("before", "first", "later"):
            rs = [r[window] for r in ours]
            lines.append("%-12s %-8s %9.0f %9.0f %8.2f %8.2f %8.2f %7.0f" % (
                label, window, median([r["ops"] for r in rs]), median([r["opsPerSec"] for r in rs]),
                median([r["p99Us"] for r in rs]) / 1e3, median([r["p999Us"] for r in rs]) / 1e3,
                median([r["maxUs"] for r in rs]) / 1e3, median([r.get("errors") or 0 for r in rs])))
    lines.append("")
    for label in labels:
        ours = [r for r in runs if r["server"] == label]
        ratios = [r["first"]["opsPerSec"] / r["later"]["opsPerSec"] for r in ours if r["later"]["opsPerSec"]]
        m = median(ratios)
        lines.append("%s: the first %.0f s from the kill / the same node's steady put c=50 (later): %.2fx (%s); "
                     "target >= 0.7x: %s" % (label, args.window_ms / 1e3, m or 0,
                                             ", ".join("%.2f" % r for r in ratios), "met" if m and m >= 0.7 else
                                             "NOT met"))
        lines.append("  sidecar roles after the failover: %s" % "; ".join(
            "%s %s" % (r["sidecar"], r["roles"].get(r["sidecar"])) for r in ours))
    lines.append("load average: %s" % ", ".join(r["load"] for r in runs))
    return "\n".join(lines)


def summary(runs, labels, args):
    if args.from_kill:
        return summary_from_kill(runs, labels, args)
    lines = ["put c=50 against a newly promoted primary, medians over rounds (p99 in ms)", ""]
    bs = [r for r in runs if r["server"] == "beanstalkd"]
    lines.append("%-12s %-12s %9s %8s %8s %8s  %9s %8s  %s" % (
        "server", "window", "ops/s", "p99", "p99.9", "max", "1-5 s/s", "1-5 p99",
        "the server's CPU: JIT compilers / Hazelcast / event loops"))

    def share(rs, key):
        values = [r[key] / (r["cpuMs"] or 1) for r in rs if key in r]
        return "%.0f%%" % (100 * median(values)) if values else "-"

    def row(label, window, rs):
        compilers = [r["compilerMs"] / (r["cpuMs"] or 1) for r in rs if "cpuMs" in r]
        lines.append("%-12s %-12s %9.0f %8.2f %8.2f %8.2f  %9.0f %8.2f  %s" % (
            label, window, median([r["opsPerSec"] for r in rs]), median([r["p99Us"] for r in rs]) / 1e3,
            median([r["p999Us"] for r in rs]) / 1e3, median([r["maxUs"] for r in rs]) / 1e3,
            median([r["afterSlice0OpsPerSec"] for r in rs]) or 0,
            (median([r["afterSlice0P99Us"] for r in rs]) or 0) / 1e3,
            " / ".join(share(rs, k) for k in ("compilerMs", "hazelcastMs", "eventLoopMs")) if compilers else ""))
    for label in labels:
        ours = [r for r in runs if r["server"] == label]
        for window in ("before", "first", "later"):
            row(label, window, [r[window] for r in ours])
    row("beanstalkd", "first", [r["first"] for r in bs])
    lines.append("")
    for label in labels:
        ours = [r for r in runs if r["server"] == label]
        # Round by round: each round of ours has a beanstalkd run in the same round.
        ratio_ops = [o["first"]["opsPerSec"] / b["first"]["opsPerSec"] for o, b in zip(ours, bs)]
        ratio_p99 = [o["first"]["p99Us"] / b["first"]["p99Us"] for o, b in zip(ours, bs)]
        ratio_later = [o["first"]["opsPerSec"] / o["later"]["opsPerSec"] for o in ours]
        lines.append("%s: first %.0f s after failover / beanstalkd: ops/s %.2fx, p99 %.2fx; / the same node %.0f s later:"
                     " ops/s %.2fx; failover %.2f s (kill to serving as primary)" % (
                         label, args.window_ms / 1e3, median(ratio_ops), median(ratio_p99),
                         (args.window_ms + args.settle_ms) / 1e3, median(ratio_later),
                         median([o["failoverS"] for o in ours])))
    lines.append("load average: %s" % ", ".join(r["load"] for r in runs))
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--jar", default="target/vertx-beanstalkd.jar")
    ap.add_argument("--label", default="ours")
    ap.add_argument("--variant", action="append", default=[], help="LABEL:JAR, another build in the same rounds")
    ap.add_argument("--jvm-options", default="conf/jvm.options")
    ap.add_argument("--cluster-config", default="conf/cluster-group.xml")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--steady-ms", type=int, default=10000)
    ap.add_argument("--window-ms", type=int, default=None, help="5000, or 10000 with --from-kill")
    ap.add_argument("--from-kill", action="store_true", help="count from the kill, through a standby (above)")
    ap.add_argument("--java", default="java", help="the java of the nodes")
    ap.add_argument("--settle-ms", type=int, default=10000)
    ap.add_argument("--start-together", action="store_true",
                    help="start the three nodes at once, their warm-ups sharing CPU 0 (default: one after the other)")
    ap.add_argument("--keep-dir", action="store_true")
    ap.add_argument("--out", default="target/failover-first-seconds")
    args = ap.parse_args()
    if args.window_ms is None:
        args.window_ms = 10000 if args.from_kill else 5000
    os.sched_setaffinity(0, {1})
    os.makedirs(args.out, exist_ok=True)
    servers = [(args.label, args.jar)] + [tuple(v.split(":", 1)) for v in args.variant]
    generator = Generator(args.jar)
    runs = []
    began = time.time()
    try:
        with open(os.path.join(args.out, "runs.jsonl"), "w") as raw:
            for round_number in range(1, args.rounds + 1):
                order = servers if round_number % 2 == 1 else servers[::-1]
                for label, jar in order:
                    run = one_round(args, label, jar, generator)
                    run["round"] = round_number
                    runs.append(run)
                    raw.write(json.dumps(run) + "\n")
                    f = run["first"]
                    if args.from_kill:
                        print("round %d %-10s through %s: before %8.0f ops/s  first %.0f s from the kill %8d jobs"
                              " (%8.0f ops/s, p99 %.2f ms, %d errors)  later %8.0f ops/s  roles %s  load %s" % (
                                  round_number, label, run["sidecar"], run["before"]["opsPerSec"],
                                  args.window_ms / 1e3, f["ops"], f["opsPerSec"], f["p99Us"] / 1e3,
                                  f.get("errors") or 0, run["later"]["opsPerSec"], run["roles"], run["load"]),
                              flush=True)
                        continue
                    print("round %d %-10s failover %.2f s  before %8.0f ops/s  first window %8.0f ops/s p99 %.2f ms"
                          "  later %8.0f ops/s  load %s" % (
                              round_number, label, run["failoverS"], run["before"]["opsPerSec"], f["opsPerSec"],
                              f["p99Us"] / 1e3, run["later"]["opsPerSec"], run["load"]), flush=True)
                if args.from_kill:
                    continue
                run = beanstalkd_round(args, generator)
                run["round"] = round_number
                runs.append(run)
                raw.write(json.dumps(run) + "\n")
                print("round %d beanstalkd first window %8.0f ops/s p99 %.2f ms" % (
                    round_number, run["first"]["opsPerSec"], run["first"]["p99Us"] / 1e3), flush=True)
    finally:
        generator.close()
    text = summary(runs, [label for label, _ in servers], args)
    text += "\nrun time %.0f s" % (time.time() - began)
    with open(os.path.join(args.out, "summary.txt"), "w") as f:
        f.write(text + "\n")
    print(text)


if __name__ == "__main__":
    main()
