#!/usr/bin/env python3
"""Heap bytes the server allocates per command at steady state, over TCP (issue 20, "garbage").

Each case runs on a server of its own, started as the README starts it (`java @conf/jvm.options
-jar JAR`, 127.0.0.1, port 0, the HTTP listener on port 0, `-Xlog:gc` to a file), loaded by the
product's Bench in another JVM:

  put      put c=50 p=1, 100-byte bodies
  cycle    cycle 10+10: 10 producers put, 10 consumers reserve and delete
  drain    reserve+delete: --drain-jobs jobs preloaded (pipelined puts), then
           --drain-connections (4) connections reserve and delete them, a delete and the next
           reserve in flight each (the window starts once the reserves do)

How much: once the load has run --warm-s seconds (the JIT settles), a JFR recording with only
`jdk.ThreadAllocationStatistics` (period everyChunk: one sample per thread when the recording
starts and one when it stops) runs for --measure-s seconds. Every thread's allocated bytes
between its two samples are summed over the server's threads (JFR's own threads and the attach
listener are left out); the server's `stats` counters (every cmd-*) are polled every second,
and the commands are interpolated at the two samples' times. Bytes per command = bytes / commands.
Before the load, the idle server is measured the same way for --idle-s seconds (bytes per
second: the floor that a slower run spreads over fewer commands). A cross-check from the GC
log: young collections in the window x the young generation's eden, divided by the same
commands (coarse: whole collections only).

Where: --profile adds `jdk.ObjectAllocationSample` (with stacks) to the window's recording and
prints the heaviest allocation sites (class and top frames); the .jfr stays in --out.

Usage (after mvn -B -o -q package -DskipTests):
    python3 src/test/scripts/alloc_per_command.py [--cases put,cycle,drain] [--warm-s 15]
        [--measure-s 10] [--profile] [--binlog] [--jar target/vertx-beanstalkd.jar]
Servers run on CPU 0 and the generator on CPU 1 when taskset exists (--no-pin to leave them
free). Allocation per command depends little on the machine's load, but some: work done once per
event-loop turn or per second is shared by more commands when the server is busier, so quote
the commands per second with the figure. Every process it starts is
ended by its pid. Output: a table on stdout, JSON in OUT/alloc.json.
"""
import argparse
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
from datetime import datetime
from bench_jar import bench_classpath  # beside this file


HOST = "127.0.0.1"
# Threads that are the measurement's, not the server's.
FOREIGN_THREADS = re.compile(r"^(JFR |Attach Listener|JFR$|Signal Dispatcher|RMI |process reaper)")

JFC = """<?xml version="1.0" encoding="UTF-8"?>
<configuration version="2.0" label="alloc-per-command">
  <event name="jdk.ThreadAllocationStatistics">
    <setting name="enabled">true</setting>
    <setting name="period">everyChunk</setting>
  </event>
  <event name="jdk.ObjectAllocationSample">
    <setting name="enabled">%s</setting>
    <setting name="throttle">2000/s</setting>
    <setting name="stackTrace">true</setting>
  </event>
</configuration>
"""

CASES = {
    "put": ("put c=50 p=1", ["--mode", "put", "-c", "50", "-p", "1"]),
    "cycle": ("cycle 10+10", ["--mode", "cycle", "-c", "10", "-p", "1"]),
    "drain": ("reserve+delete c=4", ["--mode", "drain", "-c", "4", "-p", "1"]),
}


def pin(cpus, no_pin):
    return [] if no_pin or not shutil.which("taskset") else ["taskset", "-c", cpus]


class Server:
    """One server of ours; its log tells the port it listens on."""

    def __init__(self, jar, out, name, conf, no_pin):
        self.log_path = os.path.join(out, name + ".server.log")
        self.gc_path = os.path.join(out, name + ".gc.log")
        jvm = ["@conf/jvm.options"] if os.path.exists("conf/jvm.options") else []
        command = pin("0", no_pin) + ["java"] + jvm + [
            "-Xlog:gc:file=%s:uptimemillis,timemillis" % self.gc_path,
            "-jar", jar, "-conf", json.dumps(conf)]
        self.log = open(self.log_path, "w")
        self.proc = subprocess.Popen(command, stdout=self.log, stderr=subprocess.STDOUT)
        self.pid = self.proc.pid
        self.port = None
        deadline = time.time() + 120
        while self.port is None:
            if self.proc.poll() is not None:
                raise RuntimeError("server exited with %s; see %s" % (self.proc.returncode, self.log_path))
            if time.time() > deadline:
                self.stop()
                raise RuntimeError("server did not listen within 120 s; see %s" % self.log_path)
            m = re.search(r"listening on [0-9.]+:(\d+)", open(self.log_path).read())
            if m:
                self.port = int(m.group(1))
            else:
                time.sleep(0.2)

    def stop(self):
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.log.close()


def stats(port):
    """The server's stats as a dict of ints (the keys that are numbers)."""
    with socket.create_connection((HOST, port), timeout=10) as s:
        s.sendall(b"stats\r\n")
        data = b""
        while b"\r\n" not in data:
            data += s.recv(65536)
        header, rest = data.split(b"\r\n", 1)
        size = int(header.split()[1])
        while len(rest) < size + 2:
            rest += s.recv(65536)
    values = {}
    for line in rest[:size].decode().splitlines():
        if ": " in line:
            key, value = line.split(": ", 1)
            if value.lstrip("-").isdigit():
                values[key] = int(value)
    return values


def commands(st):
    return sum(v for k, v in st.items() if k.startswith("cmd-"))


class Poller(threading.Thread):
    """Polls stats every second: (wall time, commands, the stats) for interpolation."""

    def __init__(self, port):
        super().__init__(daemon=True)
        self.port = port
        self.samples = []
        self.stopping = threading.Event()

    def run(self):
        while not self.stopping.is_set():
            t0 = time.time()
            try:
                st = stats(self.port)
            except OSError:
                time.sleep(0.2)
                continue
            t1 = time.time()
            self.samples.append(((t0 + t1) / 2, commands(st), st))
            self.stopping.wait(max(0.0, 1.0 - (t1 - t0)))

    def at(self, when, key=None):
        """Interpolated commands (or one stats key) at wall time {@code when}."""
        pts = [(t, c if key is None else st.get(key, 0)) for t, c, st in self.samples]
        before = [p for p in pts if p[0] <= when]
        after = [p for p in pts if p[0] >= when]
        if not before or not after:
            raise RuntimeError("no stats sample around %.3f" % when)
        (t0, c0), (t1, c1) = before[-1], after[0]
        return c0 if t1 == t0 else c0 + (c1 - c0) * (when - t0) / (t1 - t0)

    def stop(self):
        self.stopping.set()
        self.join()


def jcmd(pid, *args):
    r = subprocess.run(["jcmd", str(pid)] + list(args), capture_output=True, text=True, timeout=120)
    if r.returncode != 0 or "error" in r.stdout.lower() and "Started recording" not in r.stdout:
        raise RuntimeError("jcmd %s failed: %s %s" % (" ".join(args), r.stdout, r.stderr))
    return r.stdout


def jfr_events(path, event):
    r = subprocess.run(["jfr", "print", "--json", "--stack-depth", "64", "--events", event, path], capture_output=True, text=True,
                       check=True)
    return json.loads(r.stdout)["recording"]["events"]


def epoch(iso):
    # JFR prints e.g. 2026-11-24T23:40:01.123456789Z (or +00:00): keep microseconds.
    m = re.match(r"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(?:\.(\d+))?(Z|[+-]\d\d:\d\d)?$", iso)
    base = datetime.fromisoformat(m.group(1) + ("+00:00" if m.group(3) in (None, "Z") else m.group(3)))
    frac = float("0." + m.group(2)) if m.group(2) else 0.0
    return base.timestamp() + frac


def thread_bytes(path):
    """Per thread: (bytes allocated between its first and last sample, first time, last time)."""
    per = {}
    for e in jfr_events(path, "jdk.ThreadAllocationStatistics"):
        v = e["values"]
        thread = v.get("thread") or {}
        name = thread.get("javaName") or thread.get("osName") or "?"
        key = (name, thread.get("javaThreadId"))
        per.setdefault(key, []).append((epoch(v["startTime"]), v["allocated"]))
    out = {}
    for key, samples in per.items():
        samples.sort()
        out[key] = (samples[-1][1] - samples[0][1], samples[0][0], samples[-1][0])
    return out


def young_collections(gc_path, start, end):
    """Young collections that ended in [start, end] (wall ms), and the longest pause among them."""
    count, longest = 0, 0.0
    for line in open(gc_path):
        m = re.match(r"\[(\d+)ms\]\[\d+ms\].*Pause Young.* (\d+\.\d+)ms", line)
        if m and start * 1000 <= int(m.group(1)) <= end * 1000:
            count += 1
            longest = max(longest, float(m.group(2)))
    return count, longest


def eden_bytes(pid):
    out = jcmd(pid, "GC.heap_info")
    m = re.search(r"eden space (\d+)K", out)
    return int(m.group(1)) * 1024 if m else None


def top_sites(path, top, a_depth):
    """The allocation samples' weight per class and per allocating stack (top frames)."""
    by_class, by_site, by_ours, total, seen = {}, {}, {}, 0, set()
    events = sorted(jfr_events(path, "jdk.ObjectAllocationSample"), key=lambda e: epoch(e["values"]["startTime"]))
    for e in events:
        v = e["values"]
        thread = (v.get("eventThread") or {}).get("javaName") or ""
        if FOREIGN_THREADS.match(thread):
            continue
        if thread not in seen:
            # A thread's first sample weighs everything it allocated before the recording.
            seen.add(thread)
            continue
        weight = v.get("weight", 0)
        cls = (v.get("objectClass") or {}).get("name", "?").replace("/", ".")
        frames, ours = [], None
        for f in ((v.get("stackTrace") or {}).get("frames") or []):
            method = f.get("method") or {}
            t = (method.get("type") or {}).get("name", "?").replace("/", ".")
            frame = "%s.%s:%s" % (t.rsplit(".", 1)[-1], method.get("name", "?"), f.get("lineNumber", ""))
            frames.append(frame)
            if ours is None and t.startswith("io.github.vertxbeanstalkd."):
                ours = frame
        ours = ours or "(no frame of ours: %s)" % (frames[-1] if frames else "?")
        by_ours[ours] = by_ours.get(ours, 0) + weight
        total += weight
        by_class[cls] = by_class.get(cls, 0) + weight
        site = cls + " <- " + " <- ".join(frames[:a_depth])
        by_site[site] = by_site.get(site, 0) + weight
    ranked = lambda d: sorted(d.items(), key=lambda x: -x[1])[:top]
    return total, ranked(by_class), ranked(by_site), ranked(by_ours)


def run_case(name, a, out, jar):
    label, bench_args = CASES[name]
    conf = {"host": HOST, "port": 0, "http": {"port": 0}}
    workdir = None
    if a.binlog:
        workdir = tempfile.mkdtemp(prefix="alloc-binlog-")
        conf["binlog"] = {"dir": workdir, "fsync": a.fsync}
    server = Server(jar, out, name, conf, a.no_pin)
    bench = None
    poller = Poller(server.port)
    try:
        poller.start()
        jfc = os.path.join(out, "alloc.jfc")
        with open(jfc, "w") as f:
            f.write(JFC % ("true" if a.profile else "false"))
        idle_bytes_per_sec = None
        if a.idle_s > 0:
            # What the server allocates with no load (timers, metrics, the stats polls): the floor
            # that a slower run spreads over fewer commands.
            idle_jfr = os.path.join(out, name + ".idle.jfr")
            jcmd(server.pid, "JFR.start", "name=idle", "settings=" + jfc)
            time.sleep(a.idle_s)
            jcmd(server.pid, "JFR.stop", "name=idle", "filename=" + idle_jfr)
            idle = {k: v for k, v in thread_bytes(idle_jfr).items() if not FOREIGN_THREADS.match(k[0])}
            idle_span = max(v[2] for v in idle.values()) - min(v[1] for v in idle.values())
            idle_bytes_per_sec = round(sum(v[0] for v in idle.values()) / idle_span) if idle_span > 0 else None
        total_s = a.warm_s + a.measure_s + 30
        args = list(bench_args) + ["--target", "%s:%d" % (HOST, server.port), "--warmup-ms", "0",
                                   "--duration-ms", str(total_s * 1000), "--stall-ms", "60000"]
        if name == "drain":
            args += ["--jobs", str(a.drain_jobs), "-c", str(a.drain_connections)]
        bench_log = open(os.path.join(out, name + ".bench.log"), "w")
        bench = subprocess.Popen(pin("1", a.no_pin) + ["java", "-cp", bench_classpath(jar), "io.github.vertxbeanstalkd.bench.Bench"]
                                 + args, stdout=bench_log, stderr=subprocess.STDOUT)
        # The load starts: for drain, when reserves start (after the preload's puts).
        key = "cmd-reserve" if name == "drain" else None
        start_value = None
        deadline = time.time() + 300
        while True:
            if bench.poll() is not None:
                raise RuntimeError("the bench exited early; see %s" % bench_log.name)
            if time.time() > deadline:
                raise RuntimeError("no load after 300 s")
            if poller.samples:
                st = poller.samples[-1][2]
                value = st.get(key, 0) if key else commands(st)
                if start_value is None:
                    start_value = value
                elif value > start_value + 100:
                    break
            time.sleep(0.1)
        load_start = time.time()
        time.sleep(a.warm_s)
        jfr = os.path.join(out, name + ".jfr")
        jcmd(server.pid, "JFR.start", "name=alloc", "settings=" + jfc)
        time.sleep(a.measure_s)
        jcmd(server.pid, "JFR.stop", "name=alloc", "filename=" + jfr)
        time.sleep(1.2)  # one more stats sample after the recording's last
        eden = eden_bytes(server.pid)
        threads = thread_bytes(jfr)
        server_threads = {k: v for k, v in threads.items() if not FOREIGN_THREADS.match(k[0])}
        t_start = min(v[1] for v in server_threads.values())
        t_end = max(v[2] for v in server_threads.values())
        cmds = poller.at(t_end) - poller.at(t_start)
        per_key = {k: poller.at(t_end, k) - poller.at(t_start, k) for k in ("cmd-put", "cmd-reserve", "cmd-delete")}
        total = sum(v[0] for v in server_threads.values())
        young, longest = young_collections(server.gc_path, t_start, t_end)
        # The load must have run through the window: the last 200 ms before its end saw commands.
        ran_through = poller.at(t_end) - poller.at(t_end - 0.5) > 0
        if name == "drain":
            label = "reserve+delete c=%d" % a.drain_connections
        result = {
            "case": label, "commands": round(cmds), "windowSeconds": round(t_end - t_start, 3),
            "commandsPerSec": round(cmds / (t_end - t_start)),
            "puts": round(per_key["cmd-put"]), "reserves": round(per_key["cmd-reserve"]),
            "deletes": round(per_key["cmd-delete"]),
            "heapBytes": total, "bytesPerCommand": round(total / cmds, 1) if cmds else None,
            "youngCollections": young, "longestYoungPauseMs": longest, "edenBytes": eden,
            "gcEstimateBytesPerCommand": round(young * eden / cmds, 1) if cmds and eden else None,
            "loadRanThroughWindow": ran_through, "idleBytesPerSec": idle_bytes_per_sec,
            "threads": {"%s" % k[0]: v[0] for k, v in sorted(server_threads.items(), key=lambda x: -x[1][0])
                        if v[0] > 0},
        }
        if a.profile:
            weight, classes, sites, ours = top_sites(jfr, a.top, a.depth)
            result["profile"] = {"sampledWeight": weight, "classes": classes, "sites": sites, "ours": ours}
        return result
    finally:
        poller.stop()
        if bench is not None and bench.poll() is None:
            bench.kill()
            bench.wait()
        server.stop()
        if workdir:
            shutil.rmtree(workdir, ignore_errors=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--jar", default="target/vertx-beanstalkd.jar")
    ap.add_argument("--cases", default="put,cycle,drain")
    ap.add_argument("--warm-s", type=int, default=15)
    ap.add_argument("--measure-s", type=int, default=10)
    ap.add_argument("--drain-jobs", type=int, default=3_000_000)
    ap.add_argument("--drain-connections", type=int, default=4, help="connections of the reserve+delete case")
    ap.add_argument("--binlog", action="store_true", help="give each server a binlog in a temporary directory")
    ap.add_argument("--fsync", default="50", help="the binlog's fsync policy with --binlog")
    ap.add_argument("--profile", action="store_true", help="also sample where the bytes are allocated")
    ap.add_argument("--top", type=int, default=15)
    ap.add_argument("--depth", type=int, default=6, help="frames per allocation site with --profile")
    ap.add_argument("--idle-s", type=int, default=3, help="first measure the idle server for this long (0: not)")
    ap.add_argument("--no-pin", action="store_true")
    ap.add_argument("--out", default="target/alloc-per-command")
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    jar = os.path.abspath(a.jar)
    load = lambda: " ".join(open("/proc/loadavg").read().split()[:3])
    print("alloc-per-command: %s, %s, load average %s" % (
        time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), os.path.basename(jar), load()), flush=True)
    results = []
    for name in a.cases.split(","):
        r = run_case(name, a, a.out, jar)
        results.append(r)
        print("  %-20s %8.0f B/command  (%s commands in %.1f s, %s/s; put %s, reserve %s, delete %s; "
              "%d young GCs, longest %.1f ms, GC-log estimate %s B/command%s)" % (
                  r["case"], r["bytesPerCommand"], "{:,}".format(r["commands"]), r["windowSeconds"],
                  "{:,}".format(r["commandsPerSec"]), r["puts"], r["reserves"], r["deletes"],
                  r["youngCollections"], r["longestYoungPauseMs"], r["gcEstimateBytesPerCommand"],
                  "" if r["loadRanThroughWindow"] else "; THE LOAD ENDED INSIDE THE WINDOW"), flush=True)
        top_threads = list(r["threads"].items())[:4]
        print("  %-20s by thread: %s; idle server: %s B/s" % (
            "", ", ".join("%s %.0f B/cmd" % (t, b / r["commands"]) for t, b in top_threads if b >= r["commands"]),
            "{:,}".format(r["idleBytesPerSec"]) if r["idleBytesPerSec"] is not None else "-"), flush=True)
        if a.profile:
            p = r["profile"]
            print("    sampled allocation weight per class (share):")
            for cls, w in p["classes"]:
                print("      %5.1f%%  %s" % (100.0 * w / p["sampledWeight"], cls))
            print("    per innermost frame of ours (who asked for it):")
            for frame, w in p["ours"]:
                print("      %5.1f%%  %s" % (100.0 * w / p["sampledWeight"], frame))
            print("    per site (class <- top frames):")
            for site, w in p["sites"]:
                print("      %5.1f%%  %s" % (100.0 * w / p["sampledWeight"], site))
    print("load average after: %s" % load())
    with open(os.path.join(a.out, "alloc.json"), "w") as f:
        json.dump({"load": load(), "jar": jar, "results": results}, f, indent=1)


if __name__ == "__main__":
    sys.exit(main())
