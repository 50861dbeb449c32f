#!/usr/bin/env python3
"""Start-up and first-command latency of a freshly started server, ours against beanstalkd 1.12.

For every run a new server process is started, and the script measures:

  listen     process start (just before the fork) to the port being in LISTEN state, read from
             /proc/net/tcp so that no probe connection warms anything up;
  put        the first connection's first command, `put 0 0 60 1`: send to `INSERTED 1`;
  rwt0       then `reserve-with-timeout 0` on the same connection: send to `RESERVED 1 1`;
  rwt1       on another freshly started server, the first command is `reserve-with-timeout 1`
             (what greenstalk's test suite times, allowing 50 ms): send to `TIMED_OUT`;
  rss        the server's resident memory (VmRSS) once it answered the first commands;
  cpu        the process's user + system CPU time at that point (/proc/PID/stat).

Runs alternate between the servers (ours, beanstalkd, ours, ...), and the summary gives the
median, minimum and maximum of each figure. Each server is stopped with SIGTERM by its pid.

Usage (from the repository root, after `mvn -B -q package -DskipTests`; copy the jar first so a
rebuild does not replace it mid-run):
    cp target/vertx-beanstalkd.jar /tmp/compat.jar
    flock /tmp/bench.lock python3 src/test/scripts/first_reply.py --jar /tmp/compat.jar --runs 9
Options: --jar PATH, --jvm-options FILE [conf/jvm.options], --runs N [7], --no-beanstalkd,
         --conf JSON (more of our config keys; '{"metrics":{"enabled":false}}' to compare
         without metrics), --extra-jvm=ARG (repeatable; the = is needed, as ARG starts with -),
         --binlog (every server on a new binlog directory: ours with binlog.dir, beanstalkd
         with -b), --label TEXT (our row in the summary), --variant LABEL:JAR[:CONF_JSON]
         (repeatable: more servers of ours in the same alternation, to compare builds or
         settings under the same machine load), --build LABEL:DIR (repeatable: a build in
         another checkout, e.g. a git worktree of an older commit, started from DIR exactly as
         the README says, its own conf/jvm.options, jar and AOT cache: a cache is only used
         from the directory it was trained in), --pin CPUS (every server under taskset -c CPUS,
         as the benchmarks pin the server).
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

HOST = "127.0.0.1"
START_SECONDS = 60.0


def free_port():
    s = socket.socket()
    s.bind((HOST, 0))
    port = s.getsockname()[1]
    s.close()
    return port


def is_listening(port):
    # /proc/net/tcp and tcp6 (Java binds 127.0.0.1 on an IPv6 socket): local address as hex
    # IP:PORT, state 0A is LISTEN.
    want = ":%04X" % port
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        with open(table) as f:
            next(f)
            for line in f:
                fields = line.split()
                if fields[1].endswith(want) and fields[3] == "0A":
                    return True
    return False


def read_line(sock):
    buf = b""
    while not buf.endswith(b"\r\n"):
        chunk = sock.recv(1)
        if not chunk:
            raise RuntimeError("connection closed after %r" % buf)
        buf += chunk
    return buf[:-2].decode()


def timed(sock, line, body=None):
    payload = line + b"\r\n" + (body + b"\r\n" if body is not None else b"")
    start = time.perf_counter()
    sock.sendall(payload)
    reply = read_line(sock)
    elapsed = time.perf_counter() - start
    if reply.startswith("RESERVED"):
        size = int(reply.split()[2])
        while size + 2 > 0:
            size -= len(sock.recv(size + 2))
    return reply, elapsed


def proc_rss_kib(pid):
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def proc_cpu_seconds(pid):
    with open("/proc/%d/stat" % pid) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class Server:
    def __init__(self, command, binlog, cwd=None):
        self.command = command
        self.binlog = binlog
        self.cwd = cwd

    def start(self, port):
        binlog_dir = tempfile.mkdtemp(prefix="first-reply-") if self.binlog else None
        command = self.command(port, binlog_dir)
        start = time.perf_counter()
        proc = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=self.cwd)
        proc.binlog_dir = binlog_dir
        deadline = start + START_SECONDS
        while not is_listening(port):
            if proc.poll() is not None:
                raise RuntimeError("%s exited with %s" % (command, proc.returncode))
            if time.perf_counter() > deadline:
                proc.kill()
                raise RuntimeError("no listener after %.0f s" % START_SECONDS)
            time.sleep(0.0005)
        return proc, time.perf_counter() - start


def stop(proc):
    proc.send_signal(signal.SIGTERM)
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
    if proc.binlog_dir:
        shutil.rmtree(proc.binlog_dir, ignore_errors=True)


def one_run(server):
    figures = {}
    port = free_port()
    proc, figures["listen"] = server.start(port)
    try:
        with socket.create_connection((HOST, port)) as s:
            reply, figures["put"] = timed(s, b"put 0 0 60 1", b"x")
            assert reply == "INSERTED 1", reply
            reply, figures["rwt0"] = timed(s, b"reserve-with-timeout 0")
            assert reply == "RESERVED 1 1", reply
        time.sleep(0.2)
        figures["rss"] = proc_rss_kib(proc.pid) / 1024.0
        figures["cpu"] = proc_cpu_seconds(proc.pid)
    finally:
        stop(proc)
    port = free_port()
    proc, _ = server.start(port)
    try:
        with socket.create_connection((HOST, port)) as s:
            reply, figures["rwt1"] = timed(s, b"reserve-with-timeout 1")
            assert reply == "TIMED_OUT", reply
    finally:
        stop(proc)
    return figures


UNITS = {"listen": ("ms", 1e3), "put": ("ms", 1e3), "rwt0": ("ms", 1e3), "rwt1": ("ms", 1e3),
         "rss": ("MiB", 1), "cpu": ("s", 1)}


def summary(label, runs):
    cells = []
    for key, (unit, scale) in UNITS.items():
        values = [r[key] * scale for r in runs]
        cells.append("%s %.1f %s [%.1f..%.1f]" % (key, statistics.median(values), unit, min(values), max(values)))
    return "%-12s n=%d  %s" % (label, len(runs), "  ".join(cells))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--jar", default="target/vertx-beanstalkd.jar")
    ap.add_argument("--jvm-options", default="conf/jvm.options")
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--no-beanstalkd", action="store_true")
    ap.add_argument("--extra-jvm", action="append", default=[])
    ap.add_argument("--conf", default="{}")
    ap.add_argument("--variant", action="append", default=[])
    ap.add_argument("--binlog", action="store_true")
    ap.add_argument("--label", default="ours")
    ap.add_argument("--build", action="append", default=[])
    ap.add_argument("--pin", default=None)
    args = ap.parse_args()
    pin = ["taskset", "-c", args.pin] if args.pin else []

    def ours(jar, conf_json):
        def command(port, binlog_dir):
            conf = dict(json.loads(conf_json), host=HOST, port=port)
            if binlog_dir:
                conf["binlog"] = {"dir": binlog_dir}
            return (pin + ["java", "@" + args.jvm_options] + args.extra_jvm + ["-jar", jar]
                    + ["-conf", json.dumps(conf)])
        return command

    def beanstalkd(port, binlog_dir):
        return pin + ["beanstalkd", "-l", HOST, "-p", str(port)] + (["-b", binlog_dir] if binlog_dir else [])

    servers = [(args.label, Server(ours(args.jar, args.conf), args.binlog))]
    for variant in args.variant:
        label, jar, conf_json = (variant.split(":", 2) + ["{}"])[:3]
        servers.append((label, Server(ours(jar, conf_json), args.binlog)))
    for build in args.build:
        label, directory = build.split(":", 1)
        servers.append((label, Server(ours("target/vertx-beanstalkd.jar", args.conf), args.binlog, cwd=directory)))
    if not args.no_beanstalkd:
        servers.append(("beanstalkd", Server(beanstalkd, args.binlog)))
    results = {label: [] for label, _ in servers}
    for i in range(args.runs):
        for label, server in servers:
            r = one_run(server)
            results[label].append(r)
            print("run %d %-10s " % (i + 1, label)
                  + "  ".join("%s=%.2f" % (k, r[k] * UNITS[k][1]) for k in UNITS), flush=True)
    print()
    for label, runs in results.items():
        print(summary(label, runs))


if __name__ == "__main__":
    sys.exit(main())
