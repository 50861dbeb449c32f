#!/usr/bin/env python3
"""Steady state, ours against beanstalkd 1.12: each case on a freshly started server after --warm-ms
of the same load, at a given depth (jobs queued in a tube of their own), with a warm generator.

Per run (one server, one case, one depth): start the server pinned to CPU 0; wait for its port;
with --backlog N, put N jobs of 100 bytes into a tube of their own and leave them there (Bench
--mode prefill); then put and cycle run one case of --warm-ms unmeasured load followed at once by
the measured --window-ms on the same connections (Bench --warmup-ms), so the window sees the load's
own steady state (for put, a queue deepening all along); drain runs drains of --drain-jobs one
after another for --warm-ms and measures the next one. Reported per run: ops/s, p99, p99.9, max,
the server's CPU time per operation over the window and, for ours, the collector's pauses that ended
inside the window (-Xlog:gc with wall-clock times).

The generator is the bench jar's Bench in --stdin mode, one JVM for the whole script on CPU 1, warmed up
on a throwaway beanstalkd first: a fresh generator JVM per case compiles its own code during the
measured window on the generator's core, which put ms-scale stalls into both servers' tails (a
drain against beanstalkd 1.12: p99.9 0.4-2.7 ms with a fresh generator per case, 140-180 us with a
warm one). Every round runs every case on both servers, the order flipping every round; the
summary gives medians over rounds and the median of the per-round ratios ours/beanstalkd (range in
brackets), with issue 20's steady-state targets.

Cases: put1 (put c=1), put50 (put c=50), put4p16 (put c=4 p=16, pipelined), cycle (cycle 10+10,
latency put to RESERVED), drain (drain c=4, latency reserve to RESERVED).

One command per figure (from the repository root, after mvn -B -q package -DskipTests; copy the
jar first so that a rebuild does not replace it mid-run):
    steady, empty server:           steady.py --jar JAR
    pipelined put at depth:         steady.py --jar JAR --cases put4p16 --backlog 1000000
                                    steady.py --jar JAR --cases put4p16 --backlog 5000000
    the tail with 5M queued:        steady.py --jar JAR --cases put50,cycle,drain --backlog 5000000
About (warm + window + start-up) per run: with the defaults, 5 cases x 2 servers x 3 rounds of
about 25 s, 13 minutes. Loopback only; every process it starts is ended by its pid.
"""
import argparse
import json
import os
import re
import signal
import sys
import threading
import time
from datetime import datetime
import first_seconds as fs  # beside this file


CASES = {
    "put1": ("put c=1", "--mode put -c 1 -p 1"),
    "put50": ("put c=50", "--mode put -c 50 -p 1"),
    "put4p16": ("put c=4 p=16", "--mode put -c 4 -p 16"),
    "cycle": ("cycle 10+10", "--mode cycle -c 10 -p 1"),
    "drain": ("drain c=4", "--mode drain -c 4 -p 1"),
}
# issue 20, steady state: ops/s at least, p99 at most, p99.9 at most (ours/beanstalkd); None: none.
TARGETS = {"put1": (1.0, None, None), "put50": (1.0, 1.5, 2.0), "put4p16": (2.0, None, None),
           "cycle": (1.0, 1.5, 2.0), "drain": (1.0, 1.5, 2.0)}
# The pipelined put queues 600,000+ jobs a second: 15 s of it would pass the default maxMemory
# (about 6M jobs of 100 bytes) before the window, so it warms for at most this long.
MAX_WARM_MS = {"put4p16": 3000}
GC_LINE = re.compile(r"^\[([^\]]+)\].*Pause.* ([0-9.]+)ms$")


def case_line(case, port, args, duration_ms, warm_ms=0):
    if case == "drain":
        return "--target %s:%d %s --jobs %d --stall-ms 20000" % (fs.HOST, port, CASES[case][1], args.drain_jobs)
    return "--target %s:%d %s --warmup-ms %d --duration-ms %d --stall-ms 20000" % (
        fs.HOST, port, CASES[case][1], warm_ms, duration_ms)


def gc_pauses(path, start, end):
    """Pauses (ms) whose log line's wall-clock time falls in [start, end] (epoch seconds)."""
    pauses = []
    if not path or not os.path.exists(path):
        return pauses
    with open(path, errors="replace") as f:
        for line in f:
            m = GC_LINE.match(line.strip())
            if m:
                at = datetime.strptime(m.group(1), "%Y-%m-%dT%H:%M:%S.%f%z").timestamp()
                if start <= at <= end:
                    pauses.append(float(m.group(2)))
    return pauses


def one_run(generator, label, command, port, case, args, round_number, gc_log):
    log_path = os.path.join(args.out, "%s-%s-r%d.log" % (label, case, round_number))
    proc, start = fs.start_server(command, log_path)
    try:
        fs.wait_listening(proc, port, start)
        if args.backlog:
            generator.send("--target %s:%d --mode prefill --jobs %d --stall-ms 60000" % (fs.HOST, port, args.backlog))
            generator.result()
        if case == "drain":
            # Drains one after another for --warm-ms, then the measured one.
            warm_until = time.monotonic() + args.warm_ms / 1000.0
            while time.monotonic() < warm_until:
                generator.send(case_line(case, port, args, 0))
                generator.result()
            cpu_before, window_start = fs.proc_cpu_seconds(proc.pid), time.time()
            generator.send(case_line(case, port, args, 0))
            result, lines = generator.result()
            cpu_after, window_end = fs.proc_cpu_seconds(proc.pid), time.time()
        else:
            # One call: --warm-ms of load, then the window, on the same connections with nothing in
            # between (a warm-up call of its own would end by deleting the jobs it put, and the window
            # would then start on a store giving a backlog's pages back). The server's CPU is read at
            # the window's edges by a thread of this script's.
            warm_ms = min(args.warm_ms, MAX_WARM_MS.get(case, args.warm_ms))
            generator.send(case_line(case, port, args, args.window_ms, warm_ms))
            readings = {}

            def read_cpu():
                time.sleep(warm_ms / 1000.0)
                readings["start"] = (fs.proc_cpu_seconds(proc.pid), time.time())
                time.sleep(args.window_ms / 1000.0)
                readings["end"] = (fs.proc_cpu_seconds(proc.pid), time.time())

            reader = threading.Thread(target=read_cpu, daemon=True)
            reader.start()
            result, lines = generator.result()
            reader.join()
            (cpu_before, window_start), (cpu_after, window_end) = readings["start"], readings["end"]
    finally:
        fs.stop(proc)
    ops = result.get("ops") or 0
    cpu_us = (cpu_after - cpu_before) * 1e6 / ops if ops and cpu_before is not None and cpu_after is not None else None
    pauses = gc_pauses(gc_log, window_start, window_end)
    return {"server": label, "case": case, "round": round_number, "result": result,
            "cpuUsPerOp": cpu_us, "gcPauses": len(pauses), "gcMaxMs": max(pauses) if pauses else 0.0,
            "human": lines[0] if lines else ""}


def summary(runs, cases, args, loads):
    out = []
    by = {}
    for r in runs:
        by.setdefault((r["case"], r["server"]), {})[r["round"]] = r
    out.append("== steady.py: %d rounds, backlog %s, warm %d ms, window %d ms (drain: one drain of %s), load %s =="
               % (args.rounds, "{:,}".format(args.backlog), args.warm_ms, args.window_ms,
                  "{:,}".format(args.drain_jobs), " -> ".join(loads)))
    out.append("medians over rounds; ratio = median of per-round ratios ours/beanstalkd (range)")
    for case in cases:
        ours, bs = by.get((case, "ours"), {}), by.get((case, "beanstalkd"), {})
        out.append("")
        out.append("%s" % CASES[case][0])
        for key, name, better_high in (("opsPerSec", "ops/s", True), ("p99Us", "p99", False),
                                       ("p999Us", "p99.9", False), ("maxUs", "max", False)):
            a = [ours[k]["result"].get(key) for k in ours]
            b = [bs[k]["result"].get(key) for k in bs]
            ratios = [ours[k]["result"][key] / bs[k]["result"][key] for k in ours
                      if k in bs and bs[k]["result"].get(key)]
            fmt = (lambda v: "{:,.0f}".format(v)) if key == "opsPerSec" else fs.fmt_us
            out.append("  %-6s ours %10s  beanstalkd %10s  ratio %s" % (
                name, fmt(fs.median(a)), fmt(fs.median(b)), fs.fmt_ratio(ratios)))
        cpu = [ours[k]["cpuUsPerOp"] / bs[k]["cpuUsPerOp"] for k in ours
               if k in bs and ours[k]["cpuUsPerOp"] and bs[k]["cpuUsPerOp"]]
        out.append("  server CPU per op: ours %.2f us, beanstalkd %.2f us, ratio %s" % (
            fs.median([ours[k]["cpuUsPerOp"] for k in ours]) or 0,
            fs.median([bs[k]["cpuUsPerOp"] for k in bs]) or 0, fs.fmt_ratio(cpu)))
        out.append("  our collector in the window: %s pauses per run (median), longest %.1f ms" % (
            fs.median([ours[k]["gcPauses"] for k in ours]), max([ours[k]["gcMaxMs"] for k in ours] or [0])))
        target = TARGETS[case]
        want = ["ops/s >= %.1fx" % target[0]] + (["p99 <= %.1fx" % target[1]] if target[1] else []) + (
            ["p99.9 <= %.1fx" % target[2]] if target[2] else [])
        out.append("  issue 20 target: %s" % ", ".join(want))
    text = "\n".join(out)
    print(text)
    with open(os.path.join(args.out, "summary.txt"), "w") as f:
        f.write(text + "\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--jar", default="target/vertx-beanstalkd.jar")
    ap.add_argument("--jvm-options", default="conf/jvm.options")
    ap.add_argument("--jvm-option", action="append", default=[], help="one more JVM option for ours (repeatable)")
    ap.add_argument("--cases", default="put1,put50,put4p16,cycle,drain")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--backlog", type=int, default=0)
    ap.add_argument("--warm-ms", type=int, default=15000)
    ap.add_argument("--window-ms", type=int, default=5000)
    ap.add_argument("--drain-jobs", type=int, default=200000)
    ap.add_argument("--out", default="target/steady")
    args = ap.parse_args()
    cases = fs.parse_cases(ap, args.cases, CASES)
    os.makedirs(args.out, exist_ok=True)
    os.sched_setaffinity(0, {1})
    generator = fs.Generator(args.jar)

    def interrupted(signum, frame):
        generator.close(at_once=True)
        sys.exit(1)

    signal.signal(signal.SIGTERM, interrupted)
    runs, loads = [], [fs.load_average()]
    try:
        fs.CASES.update({c: CASES[c] for c in cases if c not in fs.CASES})
        fs.warm_generator(generator, [c for c in cases if c != "drain"], 3000, args.out)
        with open(os.path.join(args.out, "runs.jsonl"), "w") as jsonl:
            for round_number in range(1, args.rounds + 1):
                for case in cases:
                    servers = ["ours", "beanstalkd"] if round_number % 2 else ["beanstalkd", "ours"]
                    for label in servers:
                        port = fs.free_port()
                        gc_log = None
                        if label == "ours":
                            gc_log = os.path.join(args.out, "gc-%s-r%d.log" % (case, round_number))
                            command = ["taskset", "-c", "0", "java", "@" + args.jvm_options] + args.jvm_option + [
                                       "-Xlog:gc:file=%s:time" % gc_log, "-jar", args.jar, "-conf",
                                       json.dumps({"host": fs.HOST, "port": port, "http": {"port": 0}})]
                        else:
                            command = ["taskset", "-c", "0", "beanstalkd", "-l", fs.HOST, "-p", str(port)]
                        run = one_run(generator, label, command, port, case, args, round_number, gc_log)
                        runs.append(run)
                        jsonl.write(json.dumps(run) + "\n")
                        jsonl.flush()
                        print("round %d %-10s %s" % (round_number, label, run["human"]), flush=True)
                loads.append(fs.load_average())
    finally:
        generator.close()
    summary(runs, cases, args, loads)


if __name__ == "__main__":
    main()
