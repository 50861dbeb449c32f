#!/usr/bin/env python3
"""Tube churn: the latency of one client while another holds thousands of tubes and a third makes and
drops one every 0.3 s, on our server and on beanstalkd 1.12, alternating, each on a fresh process.

Per run: the server on CPU 0 (the script's clients on CPU 1, as the caller pins it), a connection
`watch`es --tubes tubes (kept alive for the whole run), a second `use`s a new tube and then `default`
again every 0.3 s (so a tube is made, then dropped once empty and unused), and a third sends put
then delete, one at a time, for --seconds; each put-and-delete is one latency sample. Ours starts
as the README says (`java @conf/jvm.options -jar JAR`, its HTTP port on 0, metrics on, as shipped);
--metrics-off adds `"metrics": {"enabled": false}`, --jvm-option adds an option to ours (repeatable),
--keep keeps the servers' logs. The per-tube series of /metrics once made the
engine's thread register Micrometer gauges for every tube at each change (up to 0.8 s stalls at
5,000 tubes); this is the command that shows it.

Usage (from the repository root, the jar copied aside; timing-sensitive, so under the lock):
    flock /tmp/cluster.lock taskset -c 1 python3 src/test/scripts/tube_churn.py --jar /tmp/j.jar --rounds 2
Prints one line per run (ops, p50, p99, p99.9, max) and the medians per server.
"""
import argparse
import json
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import soak  # beside this file  (free_port)


HOST = soak.HOST


def connect(port, patience_s=120):
    end = time.monotonic() + patience_s
    while True:
        try:
            return socket.create_connection((HOST, port), timeout=10)
        except OSError:
            if time.monotonic() > end:
                raise
            time.sleep(0.1)


def ask(sock, line):
    sock.sendall(line)
    buf = b""
    while not buf.endswith(b"\r\n"):
        chunk = sock.recv(65536)
        if not chunk:
            raise ConnectionError("closed after %r" % line)
        buf += chunk
    return buf


def start(args, kind, port, workdir):
    if kind == "beanstalkd":
        cmd = ["taskset", "-c", "0", args.beanstalkd, "-l", HOST, "-p", str(port)]
    else:
        conf = {"port": port, "http": {"port": 0}}
        if args.metrics_off:
            conf["metrics"] = {"enabled": False}
        cmd = (["taskset", "-c", "0", "java", "@conf/jvm.options"] + args.jvm_option
               + ["-jar", args.jar, "-conf", json.dumps(conf)])
    log = open(os.path.join(workdir, kind + ".log"), "w")
    return subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT)


def one_run(args, kind, workdir):
    port = soak.free_port()
    server = start(args, kind, port, workdir)
    try:
        holder = connect(port)
        holder.sendall(b"".join(b"watch t%d\r\n" % i for i in range(args.tubes)))
        replies = b""
        while replies.count(b"\r\n") < args.tubes:
            replies += holder.recv(1 << 20)
        time.sleep(args.settle_seconds)
        stop = threading.Event()

        def churn():
            sock = connect(port)
            k = 0
            while not stop.is_set():
                ask(sock, b"use churn%d\r\n" % k)
                stop.wait(0.3)
                ask(sock, b"use default\r\n")
                stop.wait(0.3)
                k += 1
            sock.close()

        churner = threading.Thread(target=churn, daemon=True)
        churner.start()
        client = connect(port)
        samples = []
        end = time.monotonic() + args.seconds
        while time.monotonic() < end:
            t = time.perf_counter()
            job = ask(client, b"put 0 0 60 5\r\nhello\r\n").split()[1]
            ask(client, b"delete " + job + b"\r\n")
            samples.append(time.perf_counter() - t)
        stop.set()
        churner.join(5)
        samples.sort()
        n = len(samples)
        return {"kind": kind, "ops": n, "p50_us": samples[n // 2] * 1e6, "p99_us": samples[int(n * 0.99)] * 1e6,
                "p999_us": samples[int(n * 0.999)] * 1e6, "max_ms": samples[-1] * 1e3}
    finally:
        server.kill()
        server.wait()


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--jar", required=True)
    p.add_argument("--beanstalkd", default=shutil.which("beanstalkd") or "/usr/bin/beanstalkd")
    p.add_argument("--tubes", type=int, default=5000)
    p.add_argument("--seconds", type=float, default=10)
    p.add_argument("--settle-seconds", type=float, default=3)
    p.add_argument("--rounds", type=int, default=2)
    p.add_argument("--metrics-off", action="store_true")
    p.add_argument("--jvm-option", action="append", default=[], help="added to ours' command line (repeatable)")
    p.add_argument("--keep", action="store_true", help="keep the servers' logs (printed: where)")
    args = p.parse_args()
    workdir = tempfile.mkdtemp(prefix="tube-churn-")
    print("load average before: %s" % open("/proc/loadavg").read().strip())
    results = []
    for _ in range(args.rounds):
        for kind in ("ours", "beanstalkd"):
            r = one_run(args, kind, workdir)
            results.append(r)
            print("%-10s %d tubes: %7d put+delete, p50 %4.0f us, p99 %5.0f us, p99.9 %6.0f us, max %6.1f ms"
                  % (kind, args.tubes, r["ops"], r["p50_us"], r["p99_us"], r["p999_us"], r["max_ms"]), flush=True)
    for kind in ("ours", "beanstalkd"):
        rs = [r for r in results if r["kind"] == kind]
        print("median %-10s ops %d, p99 %.0f us, p99.9 %.0f us, max %.1f ms" % (
            kind, statistics.median(r["ops"] for r in rs), statistics.median(r["p99_us"] for r in rs),
            statistics.median(r["p999_us"] for r in rs), statistics.median(r["max_ms"] for r in rs)))
    if args.keep:
        print("logs in %s" % workdir)
    else:
        shutil.rmtree(workdir, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
