#!/usr/bin/env python3
"""A full copy to a new standby at depth: its time, the primary's heap, and put c=50 on the primary
during the copy against without it.

  1. Starts a three-node group (replication.minAcks 1, conf/cluster-group.xml with a cluster name of
     its own), every node with -Xlog:gc to a file; the primary on CPU 0, the standbys and the load
     generator on CPU 1 (with --no-pin, wherever the scheduler puts them).
  2. Kills one standby (SIGKILL, by pid) and deletes its binlog: it comes back as a new standby.
  3. Fills the primary with --jobs jobs of --size bytes (the bench jar's Bench, --mode prefill).
  4. Put c=50 for --put-ms against the primary, with one standby following ("without the copy").
  5. Starts the new standby. As soon as the primary logs "subscribed; copying", put c=50 again for
     --put-ms ("during the copy"); then waits for the primary's line "copied N jobs in T ms".
  6. Put c=50 once more with both standbys following ("after").
  7. With --failover: SIGKILL of the primary; the new primary, and whether the surviving standby
     resumed on it (its log: "resuming from offset"; the new primary's: "resumes from offset", and
     no "copying the live jobs") or took a full copy, with the time from the kill to its role
     standby.
Each node's CPU from the subscription to the copy's end (/proc, per thread) says which side is busy.
With --jfr DIR every node records (JFR, settings=profile) and, once the copy ends, what each
recorded during it is dumped to DIR/<node>-<role>.jfr (jcmd JFR.dump; the nodes end by SIGKILL, so
a recording dumped at exit would be lost); src/test/scripts/jfr_top.py summarises them.
The heap: the primary's live heap, what each full collection left in its GC log (SerialGC; young
collections' sizes count the old generation's garbage too), in the --window-s seconds before the
copy (idle, at depth) and while the copy ran.

Usage (after mvn -B -q package -DskipTests):
    python3 src/test/scripts/bench_full_copy.py [--jobs 5000000] [--size 100] [--put-ms 4000]
        [--jvm-option=-Xmx1g]   (added to every node's conf/jvm.options; JAR=... picks the build)
        [--no-pin] [--failover] [--jfr DIR]
Loopback only; every process it starts is ended by its pid.
"""
import argparse
import collections
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from bench_jar import bench_classpath  # beside this file


JAR = os.environ.get("JAR", "target/vertx-beanstalkd.jar")
JVM_OPTIONS = []
# CPU lists for the primary, the standbys and the load generator; --no-pin leaves all three to the scheduler.
PINS = {"primary": "0", "standbys": "1", "generator": "1"}


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
        time.sleep(0.1)
    raise SystemExit("timed out waiting for " + what)


def healthz(http_port):
    try:
        with urllib.request.urlopen("http://127.0.0.1:%d/healthz" % http_port, timeout=2) as r:
            return json.loads(r.read())
    except Exception:
        return {}


class Node:
    def __init__(self, workdir, name, cluster_xml):
        self.workdir, self.name, self.cluster_xml = workdir, name, cluster_xml
        self.port, self.http = free_port(), free_port()
        self.binlog_dir = os.path.join(workdir, name)
        self.conf = os.path.join(workdir, name + ".json")
        with open(self.conf, "w") as f:
            json.dump({"port": self.port, "http": {"port": self.http}, "binlog": {"dir": self.binlog_dir},
                       "replication": {"enabled": True, "minAcks": 1}}, f)
        self.starts = 0
        self.proc = None
        self.start()

    def start(self):
        self.starts += 1
        self.logfile = os.path.join(self.workdir, "%s-%d.log" % (self.name, self.starts))
        self.gclog = os.path.join(self.workdir, "%s-%d.gc" % (self.name, self.starts))
        self.log = open(self.logfile, "w")
        cmd = ["java", "@conf/jvm.options"] + JVM_OPTIONS + ["-Xlog:gc:file=" + self.gclog + ":uptimemillis",
               "-Dvertx.hazelcast.config=" + self.cluster_xml, "-jar", JAR, "-cluster", "-cluster-host",
               "127.0.0.1", "-conf", self.conf]
        self.proc = subprocess.Popen(cmd, stdout=self.log, stderr=subprocess.STDOUT)
        self.started_at = time.monotonic()

    def pin(self, cpus):
        if cpus is None:
            return
        subprocess.run(["taskset", "-a", "-p", "-c", cpus, str(self.proc.pid)], check=True, capture_output=True)

    def kill(self):
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait()
        self.log.close()

    def text(self):
        with open(self.logfile, errors="replace") as f:
            return f.read()


def bench(port, args, timeout=900):
    pin = ["taskset", "-c", PINS["generator"]] if PINS["generator"] else []
    out = subprocess.run(pin + ["java", "-cp", bench_classpath(JAR), "io.github.vertxbeanstalkd.bench.Bench",
                          "--target", "127.0.0.1:%d" % port] + args, capture_output=True, text=True,
                         timeout=timeout)
    lines = [l for l in out.stdout.splitlines() if l.startswith("{")]
    return json.loads(lines[-1]) if lines else out.stdout[-2000:] + out.stderr[-2000:]


def put50(port, ms, http=None):
    """Put c=50 for ms; with the primary's http port, also the mean of its standbys' acknowledgements meanwhile."""
    acks = ack_totals(http) if http else None
    r = bench(port, ["--mode", "put", "-c", "50", "--duration-ms", str(ms), "--warmup-ms", "500"])
    r = r if isinstance(r, dict) else {"error": r}
    if acks:
        after = ack_totals(http)
        if after and after[0] > acks[0]:
            r["ackMeanMs"] = 1000 * (after[1] - acks[1]) / (after[0] - acks[0])
            r["acks"] = after[0] - acks[0]
    return r


def ack_totals(http_port):
    """The primary's beanstalkd_replication_ack_duration_seconds count and sum (following standbys' round trips)."""
    try:
        with urllib.request.urlopen("http://127.0.0.1:%d/metrics" % http_port, timeout=5) as r:
            text = r.read().decode()
    except Exception:
        return None
    count = total = None
    for line in text.splitlines():
        if line.startswith("beanstalkd_replication_ack_duration_seconds_count"):
            count = float(line.split()[-1])
        elif line.startswith("beanstalkd_replication_ack_duration_seconds_sum"):
            total = float(line.split()[-1])
    return (count, total) if count is not None and total is not None else None


def acks_text(r):
    return "; the acknowledging standby's round trip %.1f ms on average (%d acks)" % (
        r["ackMeanMs"], r["acks"]) if "ackMeanMs" in r else ""


GC_LINE = re.compile(r"\[(\d+)ms\].*Pause (Young|Full).*?(\d+)M->(\d+)M\((\d+)M\)")


def heap_after(gclog, since_ms=0, until_ms=None, kind="Full"):
    """The most a collection of that kind left between two uptimes (ms), and how many there were."""
    peak, n = 0, 0
    with open(gclog) as f:
        for line in f:
            m = GC_LINE.search(line)
            if m and m.group(2) == kind:
                t = int(m.group(1))
                if t >= since_ms and (until_ms is None or t <= until_ms):
                    peak, n = max(peak, int(m.group(4))), n + 1
    return peak, n


TICKS = os.sysconf("SC_CLK_TCK")


def thread_cpu(pid):
    """CPU seconds (user + system) of each thread of a process, by thread name (names repeat: summed)."""
    out = collections.Counter()
    try:
        tids = os.listdir("/proc/%d/task" % pid)
    except OSError:
        return out
    for tid in tids:
        try:
            with open("/proc/%d/task/%s/stat" % (pid, tid)) as f:
                stat = f.read()
        except OSError:
            continue
        name = stat[stat.index("(") + 1:stat.rindex(")")]
        fields = stat[stat.rindex(")") + 2:].split()
        out[name] += (int(fields[11]) + int(fields[12])) / TICKS
        # Minor page faults (first touches of new memory), kept apart from the CPU seconds.
        out[" page faults"] += int(fields[7])
    return out


def cpu_report(before, after, seconds):
    """The process's CPU over the interval, and its busiest threads', as seconds and shares of one core."""
    d = collections.Counter({k: after[k] - before.get(k, 0) for k in after})
    faults = d.pop(" page faults", 0)
    top = ", ".join("%s %.1f s" % (k, v) for k, v in d.most_common(4) if v > 0)
    return "%.1f s of CPU in %.1f s (%.0f%% of a core): %s; %d minor page faults" % (
        sum(d.values()), seconds, 100 * sum(d.values()) / max(seconds, 1e-9), top, faults)


def uptime_ms(node):
    return int((time.monotonic() - node.started_at) * 1000)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--jobs", type=int, default=5_000_000)
    ap.add_argument("--size", type=int, default=100)
    ap.add_argument("--put-ms", type=int, default=4000)
    ap.add_argument("--cluster-config", default="conf/cluster-group.xml")
    ap.add_argument("--keep", action="store_true", help="keep the work directory (logs, GC logs)")
    ap.add_argument("--window-s", type=int, default=30, help="how long before the copy counts as idle")
    ap.add_argument("--jvm-option", action="append", default=[], help="a JVM option for every node")
    ap.add_argument("--failover", action="store_true", help="then kill the primary: does the survivor resume?")
    ap.add_argument("--no-pin", action="store_true",
                    help="no taskset: the nodes and the generator go where the scheduler puts them, as the README starts them")
    ap.add_argument("--jfr", metavar="DIR", help="record every node (JFR) and dump the copy's part to DIR")
    a = ap.parse_args()
    JVM_OPTIONS.extend(a.jvm_option)
    if a.no_pin:
        PINS.update(primary=None, standbys=None, generator=None)
    if a.jfr:
        os.makedirs(a.jfr, exist_ok=True)
        JVM_OPTIONS.append("-XX:StartFlightRecording=name=copy,settings=profile,maxage=300s")
    workdir = tempfile.mkdtemp(prefix="bench-full-copy-")
    cluster_xml = os.path.join(workdir, "cluster.xml")
    with open(a.cluster_config) as f:
        text = f.read().replace("<cluster-name>vertx-beanstalkd</cluster-name>",
                                "<cluster-name>full-copy-%d</cluster-name>" % os.getpid())
    with open(cluster_xml, "w") as f:
        f.write(text)
    print("bench-full-copy: %s, load average %s, %d jobs of %d B, %s, work directory %s" % (
        time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), " ".join(open("/proc/loadavg").read().split()[:3]),
        a.jobs, a.size, "unpinned" if a.no_pin else "primary on CPU 0, standbys and generator on CPU 1",
        workdir), flush=True)
    nodes = [Node(workdir, "n%d" % i, cluster_xml) for i in range(1, 4)]
    try:
        def primary():
            for n in nodes:
                h = healthz(n.http)
                if h.get("role") == "primary" and h.get("standbys") == 2:
                    return n
            return None
        p = wait(primary, 180, "a primary with two standbys")
        standbys = [n for n in nodes if n is not p]
        p.pin(PINS["primary"])
        for n in standbys:
            n.pin(PINS["standbys"])
        new = standbys[1]
        new.kill()
        shutil.rmtree(new.binlog_dir, ignore_errors=True)
        t0 = time.monotonic()
        r = bench(p.port, ["--mode", "prefill", "--jobs", str(a.jobs), "-s", str(a.size)])
        print("filled %d jobs in %.1f s: %s" % (a.jobs, time.monotonic() - t0, json.dumps(r)[:300]), flush=True)
        wait(lambda: healthz(p.http).get("standbys") == 1, 60, "the remaining standby caught up")
        before = put50(p.port, a.put_ms, p.http)
        print("put c=50 without the copy (one standby following): %.0f ops/s, p99 %s us%s" % (
            before.get("opsPerSec", 0), before.get("p99Us"), acks_text(before)), flush=True)
        copy_from_ms = uptime_ms(p)
        idle_heap, idle_gcs = heap_after(p.gclog, copy_from_ms - a.window_s * 1000, copy_from_ms)
        # Only what the primary logs from here on: the group's first copies (empty) came before.
        mark = len(p.text())
        new.start()
        new.pin(PINS["standbys"])
        started = time.monotonic()
        wait(lambda: "subscribed; copying" in p.text()[mark:], 120, "the new standby's subscription")
        subscribed = time.monotonic()
        cpu_at_subscribe = {n: thread_cpu(n.proc.pid) for n in nodes}
        during = put50(p.port, a.put_ms, p.http)
        print("put c=50 during the copy: %.0f ops/s, p99 %s us%s" % (during.get("opsPerSec", 0), during.get("p99Us"),
                                                                   acks_text(during)), flush=True)
        line = wait(lambda: re.search(r"copied (\d+) jobs in (\d+) ms.*", p.text()[mark:]), 300, "the copy's end")
        copied_at = time.monotonic()
        cpu_at_copied = {n: thread_cpu(n.proc.pid) for n in nodes}
        copy_until_ms = uptime_ms(p)
        if a.jfr:
            seconds = int(copied_at - subscribed) + 2
            for n in nodes:
                role = "primary" if n is p else "new-standby" if n is new else "standby"
                out = os.path.join(a.jfr, "%s-%s.jfr" % (n.name, role))
                subprocess.run(["jcmd", str(n.proc.pid), "JFR.dump", "name=copy", "filename=" + out,
                                "begin=-%ds" % seconds], capture_output=True, timeout=120)
                print("  JFR of %s (%s), the copy's last %d s: %s" % (n.name, role, seconds, out), flush=True)
        copy_heap, gcs = heap_after(p.gclog, copy_from_ms, copy_until_ms)
        print("copy: %s" % line.group(0))
        print("  new standby started %.1f s before the copy ended; subscribed %.1f s after its start" % (
            copied_at - started, subscribed - started))
        for n in nodes:
            role = "primary" if n is p else "new standby" if n is new else "standby"
            print("  CPU of %s (%s) from the subscription to the copy's end: %s" % (
                n.name, role, cpu_report(cpu_at_subscribe[n], cpu_at_copied[n], copied_at - subscribed)))
        young_idle, _ = heap_after(p.gclog, copy_from_ms - a.window_s * 1000, copy_from_ms, "Young")
        young_copy, young_gcs = heap_after(p.gclog, copy_from_ms, copy_until_ms, "Young")
        print("  primary heap after full collections: %d s before the copy at most %d MiB (%d); during the copy "
              "at most %d MiB (%d)" % (a.window_s, idle_heap, idle_gcs, copy_heap, gcs))
        print("  (after young collections: before at most %d MiB, during at most %d MiB, %d of them)" % (
            young_idle, young_copy, young_gcs), flush=True)
        wait(lambda: healthz(p.http).get("standbys") == 2, 120, "both standbys caught up")
        after = put50(p.port, a.put_ms, p.http)
        print("put c=50 after the copy (two standbys following): %.0f ops/s, p99 %s us%s" % (
            after.get("opsPerSec", 0), after.get("p99Us"), acks_text(after)))
        if before.get("opsPerSec") and during.get("opsPerSec"):
            print("during / without: %.2f; during / after: %.2f" % (
                during["opsPerSec"] / before["opsPerSec"], during["opsPerSec"] / max(1, after.get("opsPerSec", 1))))
        if a.failover:
            marks = {n: len(n.text()) for n in standbys}
            killed = time.monotonic()
            p.kill()

            def new_primary():
                for n in standbys:
                    if healthz(n.http).get("role") == "primary":
                        return n
                return None
            q = wait(new_primary, 60, "a new primary")
            promoted = time.monotonic()
            survivor = [n for n in standbys if n is not q][0]
            # Its role said standby before it noticed: it is back once it follows the new primary.
            wait(lambda: "following the primary of term" in survivor.text()[marks[survivor]:]
                 and healthz(survivor.http).get("role") == "standby", 600, "the survivor back as standby")
            back = time.monotonic()
            resumed = "resuming from offset" in survivor.text()[marks[survivor]:]
            copied = "copying the live jobs" in q.text()[marks[q]:]
            line = re.search(r"resumes from offset.*", q.text()[marks[q]:])
            print("failover: %s primary %.1f s after the kill; %s standby again %.1f s after it: %s" % (
                q.name, promoted - killed, survivor.name, back - killed,
                "resumed, no full copy" if resumed and not copied else "FULL COPY" if copied else "neither?"))
            if line:
                print("  " + line.group(0))
    finally:
        for n in nodes:
            n.kill()
        if not a.keep:
            shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
