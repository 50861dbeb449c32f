#!/usr/bin/env python3
"""Walking a deep tube's job list while put c=50 runs on another tube: the put's latency with and
without the walk, and the engine's longest turns (issue 45's target: put p99 during the walk at
most 2x its p99 without, and no engine turn longer than 5 ms).

One server (ours, pinned to CPU 0), started with a JFR recording of the engine's turns
(vertxbeanstalkd.EngineTurn: each request, batch or timer the engine's thread ran, recorded when it
took 1 ms or more). The generator (the bench jar's Bench --stdin, CPU 1) prefills --jobs jobs of
100 bytes into a tube of their own (Bench --mode prefill), then, per round, runs put c=50 for
--window-ms on another fresh tube twice: once alone (base) and once while this script, also on
CPU 1, walks the deep tube's ready jobs through the admin API (GET /api/tubes/{tube}/jobs/ready,
--limit jobs a page, with the body preview, following "next" to the end, then again from the
start until the window ends). The order of the two flips every round.

Reported per window: put ops/s, p50, p99, p99.9, max (the generator's); for the walk, pages, jobs
listed, the whole walk's time and a page's p99; and from the recording, the engine turns of 1 ms
or more that started inside the window: how many, the longest, and the number over 5 ms by what
ran, in wall-clock time and in the engine thread's CPU time (which leaves out the time the thread
waited for a CPU: on a shared machine, other processes' doing).

One command for the figure (from the worktree root, after
`JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64 mvn -B -o -q package -DskipTests`; under the heavy lock):
    flock /tmp/vb-heavy.lock timeout 900 python3 src/test/scripts/list_walk.py \\
        --java /usr/lib/jvm/temurin-25-jdk-amd64/bin/java --jobs 1000000 --rounds 2
Loopback only; every process it starts is ended by its pid; about 2 min a round at 1M jobs.
"""
import argparse
import json
import os
import signal
import subprocess
import sys
import threading
import time
import urllib.parse
import urllib.request
import engine_turns  # beside this file
import first_seconds as fs  # beside this file


def get_json(http_port, path):
    with urllib.request.urlopen("http://%s:%d%s" % (fs.HOST, http_port, path), timeout=60) as r:
        return json.loads(r.read())


def deep_tube(http_port, jobs):
    for t in get_json(http_port, "/api/tubes")["tubes"]:
        if t["ready"] >= jobs:
            return t["name"]
    raise RuntimeError("no tube holds %d ready jobs" % jobs)


class Walker(threading.Thread):
    """Walks the tube's ready jobs page by page, over and over, until stopped."""

    def __init__(self, http_port, tube, limit):
        super().__init__(daemon=True)
        self.base = "/api/tubes/%s/jobs/ready?limit=%d" % (urllib.parse.quote(tube, safe=""), limit)
        self.http_port = http_port
        self.stopping = threading.Event()
        self.page_seconds = []
        self.walk_seconds = []
        self.jobs = 0
        self.jobs_in_first_walk = None
        self.incomplete_pages = 0

    def run(self):
        while not self.stopping.is_set():
            walk_start = time.perf_counter()
            cursor, listed = None, 0
            while not self.stopping.is_set():
                path = self.base + ("" if cursor is None else "&after=" + urllib.parse.quote(cursor))
                t0 = time.perf_counter()
                page = get_json(self.http_port, path)
                self.page_seconds.append(time.perf_counter() - t0)
                listed += len(page["jobs"])
                self.incomplete_pages += 0 if page["complete"] else 1
                cursor = page["next"]
                if cursor is None:
                    self.walk_seconds.append(time.perf_counter() - walk_start)
                    if self.jobs_in_first_walk is None:
                        self.jobs_in_first_walk = listed
                    break
            self.jobs += listed


def percentile(values, p):
    if not values:
        return None
    s = sorted(values)
    return s[min(len(s) - 1, int(round(p / 100.0 * (len(s) - 1))))]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--jar", default="target/vertx-beanstalkd.jar")
    ap.add_argument("--java", default="java", help="the server's java (JDK 25 for the figure)")
    ap.add_argument("--jvm-options", default="conf/jvm.options")
    ap.add_argument("--jobs", type=int, default=1000000, help="jobs in the tube walked")
    ap.add_argument("--limit", type=int, default=200, help="jobs a page (the API's most)")
    ap.add_argument("--window-ms", type=int, default=30000)
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--out", default="target/list-walk")
    args = ap.parse_args()
    if os.cpu_count() < 2:
        ap.error("needs 2 CPUs: the server on CPU 0, the generator and the walker on CPU 1")
    os.sched_setaffinity(0, {1})
    os.makedirs(args.out, exist_ok=True)
    jfc = os.path.join(args.out, "engine-turns.jfc")
    with open(jfc, "w") as f:
        f.write(engine_turns.JFC)
    jfr_path = os.path.abspath(os.path.join(args.out, "engine-turns.jfr"))
    port, http_port = fs.free_port(), fs.free_port()
    conf = {"host": fs.HOST, "port": port, "http": {"host": fs.HOST, "port": http_port}}
    command = (["taskset", "-c", "0", args.java, "@" + args.jvm_options, "-Dvertxbeanstalkd.engineTurns=true",
                "-XX:StartFlightRecording:filename=%s,settings=%s,dumponexit=true" % (jfr_path, os.path.abspath(jfc)),
                "-jar", args.jar, "-conf", json.dumps(conf)])
    java_home = os.path.dirname(os.path.dirname(os.path.realpath(
        subprocess.run(["bash", "-c", "command -v " + args.java], capture_output=True, text=True).stdout.strip()
        or args.java)))
    generator = fs.Generator(args.jar)
    proc, start = fs.start_server(command, os.path.join(args.out, "server.log"))
    windows = []

    def interrupted(signum, frame):
        raise KeyboardInterrupt()
    signal.signal(signal.SIGTERM, interrupted)
    try:
        fs.wait_listening(proc, port, start)
        fs.wait_listening(proc, http_port, start)
        t0 = time.time()
        generator.send("--target %s:%d --mode prefill --jobs %d --stall-ms 60000" % (fs.HOST, port, args.jobs))
        generator.result()
        tube = deep_tube(http_port, args.jobs)
        print("prefilled %d jobs into %s in %.1f s" % (args.jobs, tube, time.time() - t0), flush=True)
        # A first walk, unmeasured: the JIT compiles the listing's code before the windows.
        warm = Walker(http_port, tube, args.limit)
        warm.start()
        generator.send("--target %s:%d --mode put -c 50 -p 1 --warmup-ms 0 --duration-ms 10000 --stall-ms 20000"
                       % (fs.HOST, port))
        generator.result()
        warm.stopping.set()
        warm.join()
        for r in range(args.rounds):
            order = ["base", "walk"] if r % 2 == 0 else ["walk", "base"]
            for kind in order:
                walker = Walker(http_port, tube, args.limit) if kind == "walk" else None
                w_start = time.time()
                if walker:
                    walker.start()
                generator.send("--target %s:%d --mode put -c 50 -p 1 --warmup-ms 0 --duration-ms %d --stall-ms 20000"
                               % (fs.HOST, port, args.window_ms))
                result, lines = generator.result()
                w_end = time.time()
                if walker:
                    walker.stopping.set()
                    walker.join()
                entry = {"round": r + 1, "kind": kind, "start": w_start, "end": w_end, "put": result,
                         "human": lines[0] if lines else ""}
                if walker:
                    entry["walk"] = {"pages": len(walker.page_seconds), "jobs": walker.jobs,
                                     "jobsInFirstWalk": walker.jobs_in_first_walk,
                                     "wholeWalks": len(walker.walk_seconds),
                                     "walkSeconds": walker.walk_seconds,
                                     "incompletePages": walker.incomplete_pages,
                                     "pageP50Ms": percentile(walker.page_seconds, 50) * 1e3,
                                     "pageP99Ms": percentile(walker.page_seconds, 99) * 1e3,
                                     "pageMaxMs": max(walker.page_seconds) * 1e3}
                windows.append(entry)
                print("round %d %s: %s" % (r + 1, kind, entry["human"]), flush=True)
    finally:
        generator.close()
        fs.stop(proc)
    all_turns = engine_turns.read(jfr_path, java_home)
    for w in windows:
        w.update(engine_turns.window(all_turns, w["start"], w["end"]))
    with open(os.path.join(args.out, "windows.json"), "w") as f:
        json.dump(windows, f, indent=1)
    print()
    print("%-5s %-4s %9s %9s %9s %9s %9s | %6s %8s %8s %9s | %7s %8s %6s | %11s %7s" % (
        "round", "kind", "put ops/s", "p50 us", "p99 us", "p99.9 us", "max us", "pages", "jobs", "walk s",
        "page p99", "turns>1", "longest", ">5ms", "cpu longest", "cpu>5ms"))
    for w in windows:
        p = w["put"]
        walk = w.get("walk")
        print("%-5d %-4s %9.0f %9.0f %9.0f %9.0f %9.0f | %6s %8s %8s %9s | %7d %6.2f ms %6d | %8.2f ms %7d %s %s" % (
            w["round"], w["kind"], p.get("opsPerSec", 0), p.get("p50Us", 0), p.get("p99Us", 0), p.get("p999Us", 0),
            p.get("maxUs", 0),
            walk["pages"] if walk else "-", walk["jobs"] if walk else "-",
            ("%.1f" % walk["walkSeconds"][0]) if walk and walk["walkSeconds"] else "-",
            ("%.1f ms" % walk["pageP99Ms"]) if walk else "-",
            w["turnsOver1Ms"], w["longestTurnMs"], w["turnsOver5Ms"], w["longestTurnCpuMs"], w["turnsOver5MsCpu"],
            w["over5ByWhat"] or "", w["cpuOver5ByWhat"] or ""))
    for r in range(args.rounds):
        base = [w for w in windows if w["round"] == r + 1 and w["kind"] == "base"][0]["put"].get("p99Us")
        walk = [w for w in windows if w["round"] == r + 1 and w["kind"] == "walk"][0]["put"].get("p99Us")
        if base and walk:
            print("round %d: put c=50 p99 during the walk / without: %.2fx (target <= 2x)" % (r + 1, walk / base))
    print("load average at the end: %s" % fs.load_average())


if __name__ == "__main__":
    main()
