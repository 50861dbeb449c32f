#!/usr/bin/env python3
"""Flush a deep tube while put c=50 runs on another tube: the put's p99 with and without the flush,
and the engine's longest turns (the JFR event vertxbeanstalkd.EngineTurn, recorded from 1 ms).

Per round, on one server started as the README says (java @conf/jvm.options -jar JAR -conf {...}),
pinned to CPU 0, with its binlog in a fresh directory and fsync as configured (--fsync):
  1. Bench --mode prefill puts --jobs jobs of --size bytes into a tube of their own (CPU 1);
  2. baseline: Bench --mode put -c 50 on a fresh tube, --warm-ms unmeasured then --window-ms measured;
  3. under flush: the same put run; --warm-ms after it starts, POST /api/tubes/TUBE/flush?state=ready
     (answered once every job is deleted) on the flush's own thread; the put's window starts with it.
Reported per round: the put's ops/s and p99 in both runs (and their ratio), the flush's jobs and
seconds, and from the server's JFR recording (engine_turns.py) the turns that began while the flush
ran and, to compare, during the baseline's measured window: the longest, and those over 5 ms by
what ran, in wall-clock and in CPU time. Loopback only; every process it starts is ended by its
pid; the server's directory goes at the end.

From the repository root after `mvn -B -o -q package` (which builds the bench jar beside the server's):
    flock /tmp/vb-heavy.lock timeout 900 python3 src/test/scripts/flush_under_load.py \\
        --java /usr/lib/jvm/temurin-25-jdk-amd64/bin/java --jobs 1000000 --rounds 2 \\
        [--jvm-option=-Dvertx.options.eventLoopPoolSize=1]
"""
import argparse
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
import engine_turns  # beside this file
from bench_jar import bench_classpath  # beside this file


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_port(port, seconds):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.05)
    raise SystemExit("the server never opened port %d" % port)


def bench(a, port, args, timeout=900):
    out = subprocess.run(["taskset", "-c", "1", a.java, "-cp", bench_classpath(a.jar),
                          "io.github.vertxbeanstalkd.bench.Bench", "--target", "127.0.0.1:%d" % port] + args,
                         capture_output=True, text=True, timeout=timeout)
    lines = [l for l in out.stdout.splitlines() if l.startswith("{")]
    if not lines:
        raise SystemExit("bench failed: " + out.stdout[-2000:] + out.stderr[-2000:])
    return json.loads(lines[-1])


def put_args(a):
    return ["--mode", "put", "-c", "50", "-s", str(a.size), "--warmup-ms", str(a.warm_ms),
            "--duration-ms", str(a.window_ms)]


def flush(http_port, tube, result):
    result["wall_start"] = time.time()
    start = time.monotonic()
    req = urllib.request.Request("http://127.0.0.1:%d/api/tubes/%s/flush?state=ready" % (http_port, tube),
                                 data=b"{}", headers={"Content-Type": "application/json"}, method="POST")
    with urllib.request.urlopen(req, timeout=600) as r:
        result["flushed"] = json.loads(r.read())["flushed"]
    result["seconds"] = time.monotonic() - start
    result["wall_end"] = time.time()


def one_round(a, n):
    data = tempfile.mkdtemp(prefix="flush-under-load-")
    port, http_port = free_port(), free_port()
    jfr = os.path.join(data, "turns.jfr")
    conf = json.dumps({"port": port, "http": {"port": http_port, "host": "127.0.0.1"},
                       "binlog": {"dir": os.path.join(data, "binlog"), "fsync": a.fsync}})
    # The event is off unless a recording's settings turn it on.
    jfc = os.path.join(data, "engine-turns.jfc")
    with open(jfc, "w") as f:
        f.write(engine_turns.JFC)
    cmd = ["taskset", "-c", "0", a.java, "@conf/jvm.options"] + a.jvm_option + ["-Dvertxbeanstalkd.engineTurns=true",
           "-XX:StartFlightRecording=filename=%s,settings=%s,dumponexit=true" % (jfr, jfc),
           "-jar", a.jar, "-conf", conf]
    log = open(os.path.join(data, "server.log"), "w")
    server = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT)
    try:
        wait_port(port, 120)
        prefill = bench(a, port, ["--mode", "prefill", "--jobs", str(a.jobs), "-s", str(a.size)], timeout=1200)
        tube = prefill.get("note", "").split("tube ")[-1].split(";")[0].strip()
        if not tube.startswith("bench-"):
            raise SystemExit("no tube in the prefill's line: %s" % prefill)
        base_start = time.time()
        base = bench(a, port, put_args(a))
        base_window = (base_start + a.warm_ms / 1000.0, time.time())
        flushed = {}
        flusher = threading.Timer(a.warm_ms / 1000.0, flush, args=(http_port, tube, flushed))
        flusher.start()
        loaded = bench(a, port, put_args(a))
        flusher.join(600)
    finally:
        server.terminate()
        try:
            server.wait(60)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
        log.close()
    all_turns = engine_turns.read(jfr, os.path.dirname(os.path.dirname(os.path.realpath(shutil.which(a.java)))))
    during = engine_turns.window(all_turns, flushed.get("wall_start", 0), flushed.get("wall_end", 0))
    base_turns = engine_turns.window(all_turns, base_window[0], base_window[1])
    row = {"round": n, "jobs": a.jobs, "flushed": flushed.get("flushed"), "flush_s": round(flushed.get("seconds", -1), 2),
           "base_ops_s": round(base["opsPerSec"]), "base_p99_us": round(base["p99Us"]),
           "flush_ops_s": round(loaded["opsPerSec"]), "flush_p99_us": round(loaded["p99Us"]),
           "p99_ratio": round(loaded["p99Us"] / base["p99Us"], 2) if base["p99Us"] else None,
           "base_turns": base_turns, "flush_turns": during}
    shutil.rmtree(data, ignore_errors=True)
    return row


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--jar", default="target/vertx-beanstalkd.jar")
    p.add_argument("--java", default="java")
    p.add_argument("--jobs", type=int, default=1_000_000)
    p.add_argument("--size", type=int, default=100)
    p.add_argument("--warm-ms", type=int, default=1000)
    p.add_argument("--window-ms", type=int, default=4000)
    p.add_argument("--fsync", default="50", help="the binlog's fsync setting; default %(default)s")
    p.add_argument("--rounds", type=int, default=1)
    p.add_argument("--jvm-option", action="append", default=[],
                   help="an option for the server's JVM (repeatable); -Dvertx.options.eventLoopPoolSize=1 makes "
                        "the engine and the TCP front share one event loop")
    a = p.parse_args()
    for n in range(1, a.rounds + 1):
        print(json.dumps(one_round(a, n)), flush=True)


if __name__ == "__main__":
    sys.exit(main())
