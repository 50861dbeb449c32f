#!/usr/bin/env python3
"""Builds of the server side by side with beanstalkd 1.12, in one run: put c=50 and cycle 10+10
(by default) against each jar and against beanstalkd in alternating rounds, servers pinned to CPU
0 and the load generator (the bench jar's Bench, from the first jar) to CPU 1. Prints medians over
rounds and, per jar, the median of the per-round ratios jar/beanstalkd for ops/s, p99, p99.9 and
max: the way to compare a change's before and after against the same reference.

Usage (after mvn -B -q package -DskipTests; an older build copied aside first):
    python3 src/test/scripts/bench_jars.py before.jar target/vertx-beanstalkd.jar [--rounds 7]
Each server starts fresh, in memory (no binlog), as `java @conf/jvm.options -jar JAR`.
Loopback only; every process it starts is ended by its pid.
"""
import argparse
import json
import os
import signal
import socket
import statistics
import subprocess
import sys
import time
from bench_jar import bench_classpath  # beside this file


CASES = {"put c=50": ["--mode", "put", "-c", "50"], "cycle 10+10": ["--mode", "cycle", "-c", "10"],
         "put c=1": ["--mode", "put", "-c", "1"], "put c=4 p=16": ["--mode", "put", "-c", "4", "-p", "16"]}
FIGURES = [("opsPerSec", "ops/s"), ("p99Us", "p99 us"), ("p999Us", "p99.9 us"), ("maxUs", "max us")]


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def serves(port):
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=1) as s:
            s.sendall(b"list-tube-used\r\n")
            return s.recv(64).startswith(b"USING")
    except OSError:
        return False


def start(cmd, port):
    proc = subprocess.Popen(["taskset", "-c", "0"] + cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    while not serves(port):
        if time.monotonic() > deadline or proc.poll() is not None:
            proc.kill()
            raise SystemExit("server did not start: " + " ".join(cmd))
        time.sleep(0.1)
    return proc


def bench(jar, port, args, duration_ms):
    out = subprocess.run(["taskset", "-c", "1", "java", "-cp", bench_classpath(jar), "io.github.vertxbeanstalkd.bench.Bench",
                          "--target", "127.0.0.1:%d" % port, "--duration-ms", str(duration_ms),
                          "--warmup-ms", "1000"] + args, capture_output=True, text=True, timeout=180)
    lines = [l for l in out.stdout.splitlines() if l.startswith("{")]
    result = json.loads(lines[-1]) if lines else None
    return result if result and not result.get("errors") else None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("jars", nargs="+")
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--duration-ms", type=int, default=3000)
    ap.add_argument("--cases", default="put c=50,cycle 10+10")
    ap.add_argument("--beanstalkd", default="beanstalkd")
    a = ap.parse_args()
    cases = [c.strip() for c in a.cases.split(",")]
    servers = {}
    procs = []
    try:
        for i, jar in enumerate(a.jars):
            port = free_port()
            conf = "/tmp/bench-jars-%d-%d.json" % (os.getpid(), i)
            with open(conf, "w") as f:
                json.dump({"port": port, "http": {"enabled": False}}, f)
            procs.append(start(["java", "@conf/jvm.options", "-jar", jar, "-conf", conf], port))
            servers[os.path.basename(jar) if a.jars.count(jar) == 1 else "%s#%d" % (jar, i)] = port
        port = free_port()
        procs.append(start([a.beanstalkd, "-l", "127.0.0.1", "-p", str(port)], port))
        servers["beanstalkd"] = port
        names = list(servers)
        print("bench-jars: %s, load average %s, %d rounds of %d ms" % (
            time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), " ".join(open("/proc/loadavg").read().split()[:3]),
            a.rounds, a.duration_ms), flush=True)
        results = {c: {n: [] for n in names} for c in cases}
        for r in range(a.rounds):
            # Rotate the order, so that no server always runs first or last.
            order = names[r % len(names):] + names[:r % len(names)]
            for case in cases:
                for name in order:
                    results[case][name].append(bench(a.jars[0], servers[name], CASES[case], a.duration_ms))
            print("  round %d of %d (load %s)" % (r + 1, a.rounds, open("/proc/loadavg").read().split()[0]), flush=True)
        for case in cases:
            print("%s: medians; ratio = median of per-round ratios to beanstalkd" % case)
            for key, label in FIGURES:
                cells = []
                for name in names:
                    values = [x[key] for x in results[case][name] if x]
                    cells.append("%s %.0f" % (name, statistics.median(values)) if values else name + " -")
                for name in names[:-1]:
                    pairs = [(x, b) for x, b in zip(results[case][name], results[case]["beanstalkd"]) if x and b]
                    ratios = [x[key] / b[key] for x, b in pairs if b[key]]
                    if ratios:
                        cells.append("%s/beanstalkd %.2f (%.2f-%.2f)" % (name, statistics.median(ratios), min(ratios),
                                                                         max(ratios)))
                print("  %-9s %s" % (label, "; ".join(cells)))
    finally:
        for p in procs:
            if p.poll() is None:
                p.send_signal(signal.SIGKILL)
                p.wait()


if __name__ == "__main__":
    sys.exit(main())
