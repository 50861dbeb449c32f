#!/usr/bin/env python3
"""The first seconds of a freshly started server under load, ours against beanstalkd 1.12.

Every run starts a new server pinned to CPU 0 and loads it from the moment its port opens: the
load generator (the jar's Bench, one JVM for the whole script, pinned to CPU 1 and warmed up on a
throwaway beanstalkd first, so that its own JIT is not what is measured) gets its case the moment
the port is in LISTEN state (read from /proc/net/tcp*, so no probe connection touches the server)
and its timed window starts then: connecting counts. Per run:

  ops/s, p99, p99.9, max   over the window (--window-ms, 5000) from the moment the port opens, and
                           over the same window without its first second ("1-5 s"), and ops/s per
                           second;
  listen                   process start (just before the fork) to the port in LISTEN state;
  rss                      the server's VmRSS at the end of the window.

Cases: put c=1 p=1, put c=50 p=1, cycle 10+10 (100-byte bodies). Each case runs in --rounds
rounds; in each round every server (ours, each --variant, beanstalkd) gets a fresh process, and
the order of the servers flips every round so that drift of the machine hits both alike. The
summary gives medians over rounds and the median of the per-round ratios ours/beanstalkd (range
in brackets), with the targets of issue 20: ops/s at least 0.9x, p99 at most 3x (put c=50, cycle).
This script pins itself to CPU 1 too, so that its polling never takes the server's core.

Usage (from the repository root, after `mvn -B -o -q package -DskipTests`; copy the jar first so
that a rebuild does not replace it mid-run; about 5 minutes with the defaults):
    cp target/vertx-beanstalkd.jar /tmp/fs.jar
    flock /tmp/cluster.lock python3 src/test/scripts/first-seconds.py --jar /tmp/fs.jar

One command per figure:
    first seconds, all three cases:   first-seconds.py --jar JAR
    one case:                         first-seconds.py --jar JAR --cases put50
    two builds in the same run:       first-seconds.py --jar NEW.jar --variant old:OLD.jar
    a setting against the default:    first-seconds.py --jar JAR --variant nowarm:JAR:'{"tcp":{"warmUp":false}}'

Options: --jar PATH (ours, and the generator's classes), --jvm-options FILE [conf/jvm.options],
         --extra-jvm=ARG (repeatable, every server of ours; the = is needed), --conf JSON (more of
         our config keys), --variant LABEL:JAR[:CONF_JSON] (repeatable: more servers of ours in
         the same alternation, to compare builds or settings under the same machine load),
         --cases put1,put50,cycle, --rounds N [5], --window-ms MS [5000], --no-beanstalkd,
         --generator-warm-ms MS [3000 per case], --settle-ms MS [500 between runs],
         --out DIR [target/first-seconds] (summary.txt, runs.jsonl, every server's log).
Every server is stopped with SIGTERM by its pid (SIGKILL by pid after 10 s).
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

HOST = "127.0.0.1"
START_SECONDS = 120.0
CASES = {
    "put1": ("put c=1", "--mode put -c 1 -p 1"),
    "put50": ("put c=50", "--mode put -c 50 -p 1"),
    "cycle": ("cycle 10+10", "--mode cycle -c 10 -p 1"),
}
# issue 20, first seconds: (ops/s at least, p99 at most) as ratios ours/beanstalkd; None: no target.
TARGETS = {"put1": (0.9, None), "put50": (0.9, 3.0), "cycle": (0.9, 3.0)}


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


def proc_rss_mib(pid):
    try:
        with open("/proc/%d/status" % pid) as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024.0
    except FileNotFoundError:
        pass
    return None


def load_average():
    with open("/proc/loadavg") as f:
        return " ".join(f.read().split()[:3])


class Generator:
    """The jar's Bench in --stdin mode: one case per line, answered by its result and "done"."""

    def __init__(self, jar):
        self.proc = subprocess.Popen(
            ["taskset", "-c", "1", "java", "-cp", jar, "io.github.vertxbeanstalkd.bench.Bench", "--stdin"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)

    def send(self, line):
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def result(self):
        result, lines = None, []
        for line in self.proc.stdout:
            line = line.rstrip("\n")
            if line == "done":
                break
            lines.append(line)
            if line.startswith("{"):
                result = json.loads(line)
        else:
            raise RuntimeError("the generator ended: %s" % "\n".join(lines))
        if result is None:
            raise RuntimeError("no result from the generator: %s" % "\n".join(lines))
        return result, lines

    def close(self):
        self.proc.stdin.close()
        try:
            self.proc.wait(30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


def start_server(command, log_path):
    log = open(log_path, "w")
    start = time.perf_counter()
    proc = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)
    log.close()
    return proc, start


def wait_listening(proc, port, start):
    deadline = start + START_SECONDS
    while not is_listening(port):
        if proc.poll() is not None:
            raise RuntimeError("%s exited with %s" % (proc.args, proc.returncode))
        if time.perf_counter() > deadline:
            raise RuntimeError("no listener after %.0f s" % START_SECONDS)
        time.sleep(0.0002)
    return time.perf_counter()


def stop(proc):
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def case_line(case, port, window_ms, extra=""):
    return "--target %s:%d %s --warmup-ms 0 --duration-ms %d --slice-ms 1000 --stall-ms 20000 %s" % (
        HOST, port, CASES[case][1], window_ms, extra)


def warm_generator(generator, cases, warm_ms, out):
    """Runs every case on a throwaway beanstalkd (on CPU 0, gone before the first measured run)."""
    port = free_port()
    proc, start = start_server(["taskset", "-c", "0", "beanstalkd", "-l", HOST, "-p", str(port)],
                               os.path.join(out, "generator-warm-up.log"))
    try:
        wait_listening(proc, port, start)
        for case in cases:
            generator.send(case_line(case, port, warm_ms))
            generator.result()
    finally:
        stop(proc)


def one_run(generator, label, command, port, case, window_ms, out, round_number):
    log_path = os.path.join(out, "%s-%s-r%d.log" % (label, case, round_number))
    proc, start = start_server(command, log_path)
    try:
        listening = wait_listening(proc, port, start)
        generator.send(case_line(case, port, window_ms))
        time.sleep(max(0.0, listening + window_ms / 1000.0 - time.perf_counter()))
        rss = proc_rss_mib(proc.pid)
        result, lines = generator.result()
    finally:
        stop(proc)
    warm_up = None
    with open(log_path, errors="replace") as f:
        for line in f:
            if "warm-up:" in line:
                warm_up = line.split("warm-up:", 1)[1].strip()
    return {"server": label, "case": case, "round": round_number, "listenMs": (listening - start) * 1e3,
            "rssMiB": rss, "warmUp": warm_up, "result": result, "human": lines[0] if lines else ""}


def median(values):
    values = [v for v in values if v is not None]
    return statistics.median(values) if values else None


def fmt_us(us):
    if us is None:
        return "-"
    return "%.1f ms" % (us / 1e3) if us >= 1000 else "%.0f us" % us


def fmt_ratio(values):
    values = [v for v in values if v is not None]
    if not values:
        return "-"
    text = "%.2fx" % statistics.median(values)
    return text + (" (%.2f-%.2f)" % (min(values), max(values)) if len(values) > 1 else "")


FIGURES = [  # (title, key in the result, unit, higher is better)
    ("ops/s 0-5 s", "opsPerSec", "n", True),
    ("p99 0-5 s", "p99Us", "us", False),
    ("p99.9 0-5 s", "p999Us", "us", False),
    ("max 0-5 s", "maxUs", "us", False),
    ("ops/s 1-5 s", "afterSlice0OpsPerSec", "n", True),
    ("p99 1-5 s", "afterSlice0P99Us", "us", False),
    ("p99.9 1-5 s", "afterSlice0P999Us", "us", False),
]


def summary(runs, labels, cases, window_ms, loads):
    lines = []
    ours_labels = [l for l in labels if l != "beanstalkd"]
    has_bs = "beanstalkd" in labels
    by = {(r["server"], r["case"], r["round"]): r for r in runs}
    rounds = sorted({r["round"] for r in runs})
    lines.append("== first seconds: %d rounds, window %d ms from the port opening; medians over rounds, "
                 "ratios ours/beanstalkd as medians of per-round ratios (range) ==" % (len(rounds), window_ms))
    lines.append("load average: %s" % "  ->  ".join(loads))
    for case in cases:
        lines.append("")
        lines.append(CASES[case][0])
        header = "  %-14s" % "" + "".join("%14s" % l for l in labels)
        if has_bs:
            header += "".join("%22s" % ("%s/bs" % l) for l in ours_labels)
        lines.append(header)
        for title, key, unit, _ in FIGURES:
            row = "  %-14s" % title
            for label in labels:
                v = median([by[(label, case, n)]["result"].get(key) for n in rounds if (label, case, n) in by])
                row += "%14s" % (("{:,.0f}".format(v) if v is not None else "-") if unit == "n" else fmt_us(v))
            if has_bs:
                for label in ours_labels:
                    ratios = []
                    for n in rounds:
                        a, b = by.get((label, case, n)), by.get(("beanstalkd", case, n))
                        if a and b and b["result"].get(key):
                            ratios.append(a["result"].get(key, 0) / b["result"][key])
                    row += "%22s" % fmt_ratio(ratios)
            lines.append(row)
        per_second = "  %-14s" % "ops/s by second"
        for label in labels:
            slices = []
            for i in range(max(1, window_ms // 1000)):
                slices.append(median([by[(label, case, n)]["result"].get("slice%dOpsPerSec" % i)
                                      for n in rounds if (label, case, n) in by]))
            per_second += "  %s: %s" % (label, " ".join("{:,.0f}".format(s) if s is not None else "-" for s in slices))
        lines.append(per_second)
    lines.append("")
    lines.append("start-up and memory (medians over every run of the server, min-max)")
    for label in labels:
        mine = [r for r in runs if r["server"] == label]
        listen = [r["listenMs"] for r in mine]
        rss = [r["rssMiB"] for r in mine if r["rssMiB"] is not None]
        lines.append("  %-12s listen %.0f ms (%.0f-%.0f)   RSS after the window %.0f MiB (%.0f-%.0f)" % (
            label, median(listen), min(listen), max(listen), median(rss) if rss else 0,
            min(rss) if rss else 0, max(rss) if rss else 0)
            + ("   warm-up: %s" % mine[-1]["warmUp"] if mine and mine[-1]["warmUp"] else ""))
    if has_bs:
        lines.append("")
        lines.append("targets (issue 20, first seconds: ops/s >= 0.9x, p99 <= 3x in put c=50 and cycle)")
        for label in ours_labels:
            for case in cases:
                ops_target, p99_target = TARGETS[case]
                for key, target, higher in (("opsPerSec", ops_target, True), ("p99Us", p99_target, False)):
                    if target is None:
                        continue
                    ratios = []
                    for n in rounds:
                        a, b = by.get((label, case, n)), by.get(("beanstalkd", case, n))
                        if a and b and b["result"].get(key):
                            ratios.append(a["result"].get(key, 0) / b["result"][key])
                    m = median(ratios)
                    ok = m is not None and (m >= target if higher else m <= target)
                    lines.append("  %-10s %-12s %-9s %-7s target %s %.1fx  %s" % (
                        label, CASES[case][0], "ops/s" if higher else "p99", "%.2fx" % m if m else "-",
                        ">=" if higher else "<=", target, "met" if ok else "NOT met"))
    errors = [r for r in runs if r["result"].get("errors")]
    lines.append("")
    lines.append("protocol errors: " + ("none" if not errors else "; ".join(
        "%s %s round %d: %s" % (r["server"], r["case"], r["round"], r["result"].get("errorSamples")) for r in errors)))
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--jar", default="target/vertx-beanstalkd.jar")
    ap.add_argument("--jvm-options", default="conf/jvm.options")
    ap.add_argument("--extra-jvm", action="append", default=[])
    ap.add_argument("--conf", default="{}")
    ap.add_argument("--variant", action="append", default=[])
    ap.add_argument("--label", default="ours")
    ap.add_argument("--cases", default="put1,put50,cycle")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--window-ms", type=int, default=5000)
    ap.add_argument("--no-beanstalkd", action="store_true")
    ap.add_argument("--generator-warm-ms", type=int, default=3000)
    ap.add_argument("--settle-ms", type=int, default=500)
    ap.add_argument("--out", default="target/first-seconds")
    args = ap.parse_args()
    cases = args.cases.split(",")
    for case in cases:
        if case not in CASES:
            ap.error("unknown case %s (%s)" % (case, ", ".join(CASES)))
    if os.cpu_count() < 2:
        ap.error("needs 2 CPUs: the servers on CPU 0, the generator on CPU 1")
    os.sched_setaffinity(0, {1})
    os.makedirs(args.out, exist_ok=True)

    def ours(jar, conf_json):
        def command(port):
            conf = dict(json.loads(conf_json), host=HOST, port=port)
            return (["taskset", "-c", "0", "java", "@" + args.jvm_options] + args.extra_jvm
                    + ["-jar", jar, "-conf", json.dumps(conf)])
        return command

    servers = [(args.label, ours(args.jar, args.conf))]
    for variant in args.variant:
        label, jar, conf_json = (variant.split(":", 2) + ["{}"])[:3]
        servers.append((label, ours(jar, conf_json)))
    if not args.no_beanstalkd:
        servers.append(("beanstalkd", lambda port: ["taskset", "-c", "0", "beanstalkd", "-l", HOST, "-p", str(port)]))
    labels = [label for label, _ in servers]

    loads = [load_average()]
    began = time.time()
    generator = Generator(args.jar)
    runs = []
    try:
        warm_generator(generator, cases, args.generator_warm_ms, args.out)
        with open(os.path.join(args.out, "runs.jsonl"), "w") as raw:
            for round_number in range(1, args.rounds + 1):
                order = servers if round_number % 2 == 1 else servers[::-1]
                for case in cases:
                    for label, command in order:
                        time.sleep(args.settle_ms / 1000.0)
                        port = free_port()
                        run = one_run(generator, label, command(port), port, case, args.window_ms,
                                      args.out, round_number)
                        run["load"] = load_average()
                        runs.append(run)
                        raw.write(json.dumps(run) + "\n")
                        raw.flush()
                        r = run["result"]
                        print("round %d %-6s %-11s listen %5.0f ms  rss %4.0f MiB  %8.0f ops/s  p99 %8s"
                              "  p99.9 %8s  max %8s  1-5 s: %8.0f ops/s  errors %d  load %s" % (
                                  round_number, case, label, run["listenMs"], run["rssMiB"] or 0,
                                  r.get("opsPerSec", 0), fmt_us(r.get("p99Us")), fmt_us(r.get("p999Us")),
                                  fmt_us(r.get("maxUs")), r.get("afterSlice0OpsPerSec") or 0,
                                  r.get("errors", 0), run["load"]), flush=True)
    finally:
        generator.close()
    loads.append(load_average())
    text = summary(runs, labels, cases, args.window_ms, loads)
    text += "\nrun time %.0f s; raw results in %s/runs.jsonl" % (time.time() - began, args.out)
    print()
    print(text)
    with open(os.path.join(args.out, "summary.txt"), "w") as f:
        f.write(text + "\n")


if __name__ == "__main__":
    sys.exit(main())
