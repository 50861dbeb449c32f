#!/usr/bin/env python3
"""A failover at depth and the killed primary's rejoin: how long until the group has its standbys
back, and how long the old primary, restarted, takes beyond its own replay.

  1. Starts a three-node group as the README's High availability section does (conf/jvm.options,
     conf/cluster-group.xml with a cluster name of its own, replication.minAcks 1), the nodes on
     CPU 0 and 1 as they come (taskset is left to the kernel unless --pin), the load generator on
     CPU 1.
  2. Fills the primary with --jobs jobs of --size bytes (the bench jar's Bench, --mode prefill) and
     waits until both standbys are caught up ("standbys": 2).
  3. Starts put c=--load-connections against the primary (Bench --mode put) for --load-ms, so that
     the primary has changes in flight when it dies: its log runs past what the standbys hold (an
     unacknowledged tail), as under load.
  4. --kill-after-ms into the load: SIGKILL of the primary, by pid. Measures from the kill: a new
     primary (/healthz role primary), its "standbys" >= minAcks (the survivor caught up), and
     whether the survivor resumed (its log: "resuming from offset"; the new primary's: no
     "copying the live jobs" before that).
  5. Starts the killed node again at once (same directory, same command) and measures, from its
     exec: its replay (the exec to its log's "binlog: recovered N jobs"), its /healthz role
     standby (caught up and following), the difference, and how it came back (its log:
     "rewinding from offset", "resuming from offset", or a full copy).
  6. Once the load is over and every node is a standby or primary again, compares the three
     nodes' job counts (/api/stats current-jobs-ready + delayed + buried).

Usage (after mvn -B -q package -DskipTests), under the heavy lock:
    flock /tmp/vb-heavy.lock python3 src/test/scripts/rejoin_at_depth.py [--jobs 5000000] [--size 100]
Loopback only; every process it starts is ended by its pid; JAR=... picks the build.
"""
import argparse
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from bench_jar import bench_classpath  # beside this file


JAR = os.environ.get("JAR", "target/vertx-beanstalkd.jar")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait(predicate, seconds, what):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        v = predicate()
        if v:
            return v
        time.sleep(0.05)
    raise SystemExit("timed out waiting for " + what)


def get_json(http_port, path):
    try:
        with urllib.request.urlopen("http://127.0.0.1:%d%s" % (http_port, path), timeout=2) as r:
            return json.loads(r.read())
    except Exception:
        return {}


class Node:
    def __init__(self, workdir, name, cluster_xml, min_acks, java):
        self.workdir, self.name, self.cluster_xml, self.java = workdir, name, cluster_xml, java
        self.port, self.http = free_port(), free_port()
        self.binlog_dir = os.path.join(workdir, name)
        self.conf = os.path.join(workdir, name + ".json")
        with open(self.conf, "w") as f:
            json.dump({"port": self.port, "http": {"port": self.http}, "binlog": {"dir": self.binlog_dir},
                       "replication": {"enabled": True, "minAcks": min_acks}}, f)
        self.starts = 0
        self.proc = None
        self.start()

    def start(self):
        self.starts += 1
        self.logfile = os.path.join(self.workdir, "%s-%d.log" % (self.name, self.starts))
        self.log = open(self.logfile, "w")
        cmd = [self.java, "@conf/jvm.options", "-Dvertx.hazelcast.config=" + self.cluster_xml, "-jar", JAR,
               "-cluster", "-cluster-host", "127.0.0.1", "-conf", self.conf]
        self.exec_wall = time.time()
        self.exec_at = time.monotonic()
        self.proc = subprocess.Popen(cmd, stdout=self.log, stderr=subprocess.STDOUT)

    def health(self):
        return get_json(self.http, "/healthz")

    def jobs(self):
        s = get_json(self.http, "/api/stats").get("stats", {})
        try:
            return sum(int(s[k]) for k in ("current-jobs-ready", "current-jobs-delayed", "current-jobs-buried"))
        except (KeyError, ValueError, TypeError):
            return None

    def kill(self):
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait()
        self.log.close()

    def text(self):
        with open(self.logfile, errors="replace") as f:
            return f.read()

    def replay_s(self):
        """Seconds from the exec to the log's "binlog: recovered" (the log's clock is local time of day)."""
        m = re.search(r"^(\d\d):(\d\d):(\d\d)\.(\d{3}) .*binlog: recovered (\d+) jobs", self.text(), re.M)
        if not m:
            return None, None
        h, mi, s, ms = (int(x) for x in m.groups()[:4])
        local = time.localtime(self.exec_wall)
        midnight = time.mktime((local.tm_year, local.tm_mon, local.tm_mday, 0, 0, 0, 0, 0, -1))
        at = midnight + h * 3600 + mi * 60 + s + ms / 1000.0
        if at < self.exec_wall - 43200:
            at += 86400
        return at - self.exec_wall, int(m.group(5))


def bench(java, port, args, timeout=1800):
    out = subprocess.run(["taskset", "-c", "1", java, "-cp", bench_classpath(JAR), "io.github.vertxbeanstalkd.bench.Bench",
                          "--target", "127.0.0.1:%d" % port] + args, capture_output=True, text=True, timeout=timeout)
    lines = [l for l in out.stdout.splitlines() if l.startswith("{")]
    return json.loads(lines[-1]) if lines else {"error": out.stdout[-2000:] + out.stderr[-2000:]}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--jobs", type=int, default=5_000_000)
    ap.add_argument("--size", type=int, default=100)
    ap.add_argument("--min-acks", type=int, default=1)
    ap.add_argument("--load-connections", type=int, default=50)
    ap.add_argument("--load-ms", type=int, default=4000)
    ap.add_argument("--kill-after-ms", type=int, default=2000)
    ap.add_argument("--java", default="java")
    ap.add_argument("--cluster-config", default="conf/cluster-group.xml")
    ap.add_argument("--keep", action="store_true", help="keep the work directory (logs)")
    a = ap.parse_args()
    workdir = tempfile.mkdtemp(prefix="rejoin-at-depth-")
    cluster_xml = os.path.join(workdir, "cluster.xml")
    with open(a.cluster_config) as f:
        text = f.read().replace("<cluster-name>vertx-beanstalkd</cluster-name>",
                                "<cluster-name>rejoin-%d</cluster-name>" % os.getpid())
    with open(cluster_xml, "w") as f:
        f.write(text)
    print("rejoin-at-depth: %s, load average %s, %d jobs of %d B, minAcks %d, work directory %s" % (
        time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), " ".join(open("/proc/loadavg").read().split()[:3]),
        a.jobs, a.size, a.min_acks, workdir), flush=True)
    nodes = [Node(workdir, "n%d" % i, cluster_xml, a.min_acks, a.java) for i in range(1, 4)]
    try:
        def primary_with(standbys):
            for n in nodes:
                h = n.health()
                if h.get("role") == "primary" and h.get("standbys", 0) >= standbys:
                    return n
            return None
        p = wait(lambda: primary_with(2), 180, "a primary with two standbys")
        t0 = time.monotonic()
        r = bench(a.java, p.port, ["--mode", "prefill", "--jobs", str(a.jobs), "-s", str(a.size)])
        print("filled %d jobs in %.1f s: %s" % (a.jobs, time.monotonic() - t0, json.dumps(r)[:200]), flush=True)
        wait(lambda: p.health().get("standbys") == 2, 300, "both standbys caught up after the fill")
        standbys = [n for n in nodes if n is not p]
        marks = {n: len(n.text()) for n in standbys}
        load = {}
        loader = threading.Thread(target=lambda: load.update(bench(
            a.java, p.port, ["--mode", "put", "-c", str(a.load_connections), "--duration-ms", str(a.load_ms),
                             "-s", str(a.size)])), daemon=True)
        loader.start()
        time.sleep(a.kill_after_ms / 1000.0)  # a moment into the load: the fault's timing, not a wait
        killed = time.monotonic()
        p.kill()
        q = wait(lambda: next((n for n in standbys if n.health().get("role") == "primary"), None), 60,
                 "a new primary")
        promoted = time.monotonic()
        p.start()
        restarted = time.monotonic()
        survivor = [n for n in standbys if n is not q][0]
        wait(lambda: q.health().get("standbys", 0) >= a.min_acks, 600, "minAcks caught-up standbys")
        caught_up = time.monotonic()
        resumed = "resuming from offset" in survivor.text()[marks[survivor]:]
        print("failover: %s primary %.2f s after the kill; %d caught-up standby(s) %.2f s after it (survivor %s: %s)" % (
            q.name, promoted - killed, q.health().get("standbys", 0), caught_up - killed, survivor.name,
            "resumed" if resumed else "FULL COPY"), flush=True)
        wait(lambda: p.health().get("role") == "standby", 900, "the old primary back as standby")
        back = time.monotonic()
        replay, replayed = p.replay_s()
        own = p.text()
        how = ("rewind" if "rewinding from offset" in own else "resume" if "resuming from offset" in own
               else "full copy")
        print("old primary %s: standby %.2f s after its exec (restarted %.2f s after the kill); replay of %s jobs "
              "%.2f s; %.2f s beyond the replay; by %s" % (
                  p.name, back - p.exec_at, restarted - killed, replayed, replay if replay is not None else -1,
                  back - p.exec_at - (replay or 0), how), flush=True)
        for line in re.findall(r"replication: (?:this node|standby \S+ (?:rewound|resumes|was the primary)).*", own
                               + q.text()[-200000:]):
            print("  " + line[:300])
        loader.join(timeout=a.load_ms / 1000.0 + 120)
        print("load: %s" % json.dumps({k: load.get(k) for k in ("opsPerSec", "ops", "errors", "p99Us")}), flush=True)
        wait(lambda: q.health().get("standbys") == 2, 300, "two standbys again")
        counts = wait(lambda: (lambda c: c if len(set(c)) == 1 and None not in c else None)(
            [n.jobs() for n in nodes]), 120, "the same job count on every node: %s" % [n.jobs() for n in nodes])
        print("jobs on every node: %s" % counts, flush=True)
    finally:
        for n in nodes:
            n.kill()
        if not a.keep:
            shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
