#!/usr/bin/env python3
"""The first seconds of a freshly started server under load, ours against beanstalkd 1.12.

Every run starts a new server pinned to CPU 0 and loads it from the moment its port opens: the
load generator (the bench jar's Bench, one JVM for the whole script, pinned to CPU 1 and warmed up on a
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

--from-exec (issue 43) moves the clock to the exec: the window (then 20 s by default) starts just
before the fork, the generator is handed its case the moment the port is in LISTEN state (polled
every 0.2 ms: a client retrying until the port answers, without its failed attempts touching the
server) with the rest of the window as its duration, and the summary counts the jobs done in the
window (a port that opens late has lost that time), with p99, p99.9 and max over them. The
targets are issue 43's: jobs at least 0.9x beanstalkd's in every case, p99 at most 3x.

Usage (from the repository root, after `mvn -B -o -q package -DskipTests`; copy the jar first so
that a rebuild does not replace it mid-run; about 9 minutes with the defaults, --max-minutes):
    cp target/vertx-beanstalkd.jar /tmp/fs.jar
    flock /tmp/cluster.lock python3 src/test/scripts/first_seconds.py --jar /tmp/fs.jar

One command per figure:
    first seconds, all three cases:   first_seconds.py --jar JAR
    one case:                         first_seconds.py --jar JAR --cases put50
    two builds in the same run:       first_seconds.py --jar NEW.jar --variant old:OLD.jar
    a setting against the default:    first_seconds.py --jar JAR --variant nometrics:JAR:'{"metrics":{"enabled":false}}'
    from the exec, JDK 17 and 25:      first_seconds.py --jar JAR --from-exec --label jdk17 \
                                         --variant jdk25:JAR --java-for jdk25:/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
    JVM arguments against none:       first_seconds.py --jar JAR --variant c1:JAR:'{}:-XX:TieredStopAtLevel=1'

Options: --jar PATH (ours, and the generator's classes), --jvm-options FILE [conf/jvm.options],
         --java PATH [java] (ours), --java-for LABEL:PATH (repeatable: the java of a --variant),
         --jvm-options-for LABEL:FILE (repeatable: a --variant's options file instead of --jvm-options),
         --from-exec (above; --window-ms then defaults to 20000),
         --extra-jvm=ARG (repeatable, every server of ours; the = is needed), --conf JSON (more of
         our config keys), --variant LABEL:JAR[:CONF_JSON[:JVM_ARGS]] (repeatable: more servers of
         ours in the same alternation, to compare builds or settings under the same machine load;
         JVM_ARGS space-separated, after the JSON),
         --cases put1,put50,cycle, --rounds N [5], --window-ms MS [5000], --no-beanstalkd,
         --generator-warm-ms MS [3000 per case], --settle-ms MS [500 between runs],
         --quiet-limit SHARE [0.2] and --quiet-wait-s S [20]: before each run, wait up to S seconds
         for CPU 0 and CPU 1 to be busy at most SHARE of the time (other processes: nothing of
         this script runs between runs); each run reports "others on cpu0", the share of CPU 0
         that processes other than the server took during its window; --max-others SHARE [0.15]
         and --retries N [1]: a round of a case in which a run's "others on cpu0" passed SHARE is
         run again, up to N times (the last attempt is kept whatever it saw; runs.jsonl keeps the
         discarded ones too, marked "discarded"),
         --max-minutes M [9]: start no new round after M minutes (the lock is shared; the summary
         says how many rounds ran), --out DIR [target/first-seconds] (summary.txt, runs.jsonl,
         every server's log).
Every server is stopped with SIGTERM by its pid (SIGKILL by pid after 10 s).
"""
import argparse
import json
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import time
from bench_jar import bench_classpath  # beside this file


HOST = "127.0.0.1"
START_SECONDS = 120.0
CASES = {
    "put1": ("put c=1", "--mode put -c 1 -p 1"),
    "put50": ("put c=50", "--mode put -c 50 -p 1"),
    "cycle": ("cycle 10+10", "--mode cycle -c 10 -p 1"),
}
# issue 20, first seconds: (ops/s at least, p99 at most) as ratios ours/beanstalkd; None: no target.
TARGETS = {"put1": (0.9, None), "put50": (0.9, 3.0), "cycle": (0.9, 3.0)}
# issue 43, the first 20 s from the exec: jobs at least 0.9x, p99 at most 3x, in every case.
TARGETS_FROM_EXEC = {"put1": (0.9, 3.0), "put50": (0.9, 3.0), "cycle": (0.9, 3.0)}


def free_port():
    """A free port below the kernel's ephemeral range: a server of ours binds its port seconds after
    this check, and a port in the ephemeral range could meanwhile become some client's local port."""
    try:
        with open("/proc/sys/net/ipv4/ip_local_port_range") as f:
            ephemeral_low = int(f.read().split()[0])
    except (OSError, ValueError):
        ephemeral_low = 32768
    for _ in range(1000):
        port = random.randrange(20000, max(20001, ephemeral_low))
        s = socket.socket()
        try:
            s.bind((HOST, port))
            return port
        except OSError:
            continue
        finally:
            s.close()
    raise RuntimeError("no free port below %d" % ephemeral_low)


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


def cpu_busy_seconds():
    """Busy time of CPU 0 and CPU 1 so far (/proc/stat: everything but idle and iowait)."""
    busy = {}
    with open("/proc/stat") as f:
        for line in f:
            if line.startswith("cpu0 ") or line.startswith("cpu1 "):
                fields = [int(x) for x in line.split()[1:]]
                busy[line[3]] = (sum(fields) - fields[3] - fields[4]) / os.sysconf("SC_CLK_TCK")
    return busy.get("0", 0.0), busy.get("1", 0.0)


def proc_cpu_seconds(pid):
    try:
        with open("/proc/%d/stat" % pid) as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except FileNotFoundError:
        return None


def wait_for_quiet(limit, wait_seconds):
    """Waits (up to wait_seconds) until other processes leave CPU 0 and CPU 1 idle enough: between
    runs nothing of this script's is busy, so what is busy is someone else. Returns the busy share
    of CPU 0 over the last half second."""
    deadline = time.monotonic() + wait_seconds
    while True:
        before = cpu_busy_seconds()
        time.sleep(0.5)
        after = cpu_busy_seconds()
        shares = [(a - b) / 0.5 for a, b in zip(after, before)]
        if max(shares) <= limit or time.monotonic() > deadline:
            return shares[0]


def load_average():
    with open("/proc/loadavg") as f:
        return " ".join(f.read().split()[:3])


class Generator:
    """The jar's Bench in --stdin mode: one case per line, answered by its result and "done"."""

    def __init__(self, jar):
        self.proc = subprocess.Popen(
            ["taskset", "-c", "1", "java", "-cp", bench_classpath(jar), "io.github.vertxbeanstalkd.bench.Bench", "--stdin"],
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

    def close(self, at_once=False):
        if at_once:
            self.proc.kill()
        try:
            self.proc.stdin.close()
        except BrokenPipeError:
            pass
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


def one_run(generator, label, command, port, case, window_ms, out, round_number, from_exec=False):
    log_path = os.path.join(out, "%s-%s-r%d.log" % (label, case, round_number))
    proc, start = start_server(command, log_path)
    try:
        listening = wait_listening(proc, port, start)
        # From the exec, the window ends window_ms after the fork: the generator gets what is left.
        window_start = start if from_exec else listening
        duration_ms = max(1, int(window_ms - (time.perf_counter() - window_start) * 1e3))
        generator.send(case_line(case, port, duration_ms))
        busy_before, cpu_before = cpu_busy_seconds()[0], proc_cpu_seconds(proc.pid)
        time.sleep(max(0.0, window_start + window_ms / 1000.0 - time.perf_counter()))
        busy_after, cpu_after = cpu_busy_seconds()[0], proc_cpu_seconds(proc.pid)
        rss = proc_rss_mib(proc.pid)
        result, lines = generator.result()
    finally:
        stop(proc)
    warm_up = None
    with open(log_path, errors="replace") as f:
        for line in f:
            if "warm-up:" in line:
                warm_up = line.split("warm-up:", 1)[1].strip()
    # CPU 0's busy time in the window that was not the server's: other processes on its core.
    others = None
    if cpu_before is not None and cpu_after is not None:
        others = max(0.0, (busy_after - busy_before) - (cpu_after - cpu_before)) / (duration_ms / 1000.0)
    return {"server": label, "case": case, "round": round_number, "listenMs": (listening - start) * 1e3,
            "othersOnCpu0": others,
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


FIGURES_FROM_EXEC = [  # the window starts at the exec: jobs done in it, and their latencies
    ("jobs 0-%d s", "ops", "n", True),
    ("p99", "p99Us", "us", False),
    ("p99.9", "p999Us", "us", False),
    ("max", "maxUs", "us", False),
]

FIGURES = [  # (title, key in the result, unit, higher is better)
    ("ops/s 0-5 s", "opsPerSec", "n", True),
    ("p99 0-5 s", "p99Us", "us", False),
    ("p99.9 0-5 s", "p999Us", "us", False),
    ("max 0-5 s", "maxUs", "us", False),
    ("ops/s 1-5 s", "afterSlice0OpsPerSec", "n", True),
    ("p99 1-5 s", "afterSlice0P99Us", "us", False),
    ("p99.9 1-5 s", "afterSlice0P999Us", "us", False),
]


def summary(runs, labels, cases, window_ms, loads, from_exec=False):
    lines = []
    figures = FIGURES
    if from_exec:
        figures = [(title.replace("%d", str(window_ms // 1000)), key, unit, higher)
                   for title, key, unit, higher in FIGURES_FROM_EXEC]
    targets = TARGETS_FROM_EXEC if from_exec else TARGETS
    target_key = "ops" if from_exec else "opsPerSec"
    issue = "issue 43, from the exec: jobs >= 0.9x, p99 <= 3x" if from_exec else \
        "issue 20, first seconds: ops/s >= 0.9x, p99 <= 3x in put c=50 and cycle"
    ours_labels = [l for l in labels if l != "beanstalkd"]
    has_bs = "beanstalkd" in labels
    by = {(r["server"], r["case"], r["round"]): r for r in runs}
    rounds = sorted({r["round"] for r in runs})
    lines.append("== first seconds: %d rounds, window %d ms from the %s; medians over rounds, "
                 "ratios ours/beanstalkd as medians of per-round ratios (range) ==" % (
                     len(rounds), window_ms, "exec" if from_exec else "port opening"))
    lines.append("load average: %s" % "  ->  ".join(loads))
    for case in cases:
        lines.append("")
        lines.append(CASES[case][0])
        header = "  %-14s" % "" + "".join("%14s" % l for l in labels)
        if has_bs:
            header += "".join("%22s" % ("%s/bs" % l) for l in ours_labels)
        lines.append(header)
        for title, key, unit, _ in figures:
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
        per_second = "  %-14s" % ("ops/s by s (port)" if from_exec else "ops/s by second")
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
        lines.append("targets (%s)" % issue)
        for label in ours_labels:
            for case in cases:
                ops_target, p99_target = targets[case]
                for key, target, higher in ((target_key, ops_target, True), ("p99Us", p99_target, False)):
                    if target is None:
                        continue
                    ratios = []
                    for n in rounds:
                        a, b = by.get((label, case, n)), by.get(("beanstalkd", case, n))
                        if a and b and b["result"].get(key):
                            ratios.append(a["result"].get(key, 0) / b["result"][key])
                    m = median(ratios)
                    ok = bool(m) and (m >= target if higher else m <= target)
                    lines.append("  %-10s %-12s %-9s %-7s target %s %.1fx  %s" % (
                        label, CASES[case][0], ("jobs" if from_exec else "ops/s") if higher else "p99",
                        "%.2fx" % m if m else "-",
                        ">=" if higher else "<=", target, "met" if ok else "NOT met"))
    others = [r["othersOnCpu0"] for r in runs if r.get("othersOnCpu0") is not None]
    if others:
        lines.append("")
        lines.append("other processes on CPU 0 during the windows: median %.0f%%, max %.0f%%" % (
            median(others) * 100, max(others) * 100))
    errors = [r for r in runs if r["result"].get("errors")]
    lines.append("")
    lines.append("protocol errors: " + ("none" if not errors else "; ".join(
        "%s %s round %d: %s" % (r["server"], r["case"], r["round"], r["result"].get("errorSamples")) for r in errors)))
    return "\n".join(lines)


def parse_cases(ap, text, known):
    """The comma-separated case names of --cases, each one of known; an argparse error otherwise."""
    cases = text.split(",")
    for case in cases:
        if case not in known:
            ap.error("unknown case %s (%s)" % (case, ", ".join(known)))
    return cases


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
    ap.add_argument("--window-ms", type=int, default=None)
    ap.add_argument("--from-exec", action="store_true")
    ap.add_argument("--java", default="java")
    ap.add_argument("--java-for", action="append", default=[])
    ap.add_argument("--jvm-options-for", action="append", default=[])
    ap.add_argument("--no-beanstalkd", action="store_true")
    ap.add_argument("--generator-warm-ms", type=int, default=3000)
    ap.add_argument("--settle-ms", type=int, default=500)
    ap.add_argument("--quiet-limit", type=float, default=0.2)
    ap.add_argument("--quiet-wait-s", type=float, default=20)
    ap.add_argument("--max-others", type=float, default=0.15)
    ap.add_argument("--retries", type=int, default=1)
    ap.add_argument("--max-minutes", type=float, default=9)
    ap.add_argument("--out", default="target/first-seconds")
    args = ap.parse_args()
    cases = parse_cases(ap, args.cases, CASES)
    if args.window_ms is None:
        args.window_ms = 20000 if args.from_exec else 5000
    def by_label(items, option):
        paths = {}
        for item in items:
            label, _, path = item.partition(":")
            if not path:
                ap.error("%s LABEL:PATH, not %s" % (option, item))
            paths[label] = path
        return paths
    java_for = by_label(args.java_for, "--java-for")
    jvm_options_for = by_label(args.jvm_options_for, "--jvm-options-for")
    if os.cpu_count() < 2:
        ap.error("needs 2 CPUs: the servers on CPU 0, the generator on CPU 1")
    os.sched_setaffinity(0, {1})
    os.makedirs(args.out, exist_ok=True)

    def ours(label, jar, conf_json, jvm_args=()):
        java = java_for.get(label, args.java)
        jvm_options = jvm_options_for.get(label, args.jvm_options)

        def command(port):
            # The HTTP listener on a port of its own choosing: the default 11380 may be taken.
            conf = dict({"http": {"port": 0}}, **json.loads(conf_json), host=HOST, port=port)
            return (["taskset", "-c", "0", java, "@" + jvm_options] + args.extra_jvm + list(jvm_args)
                    + ["-jar", jar, "-conf", json.dumps(conf)])
        return command

    servers = [(args.label, ours(args.label, args.jar, args.conf))]
    for variant in args.variant:
        # LABEL:JAR[:CONF_JSON[:JVM_ARGS]]; the JSON may hold colons, so the JVM arguments come after
        # the last "}:" when there is one.
        label, jar, rest = (variant.split(":", 2) + ["{}"])[:3]
        conf_json, jvm_args = rest, []
        if "}:" in rest:
            conf_json, jvm_text = rest.rsplit("}:", 1)
            conf_json += "}"
            jvm_args = jvm_text.split()
        servers.append((label, ours(label, jar, conf_json or "{}", jvm_args)))
    if not args.no_beanstalkd:
        servers.append(("beanstalkd", lambda port: ["taskset", "-c", "0", "beanstalkd", "-l", HOST, "-p", str(port)]))
    labels = [label for label, _ in servers]

    def interrupted(signum, frame):
        raise KeyboardInterrupt("signal %d" % signum)
    # A script started in the background ignores SIGINT: SIGTERM by its pid stops it too, and the
    # finally clauses then stop its server and its generator.
    signal.signal(signal.SIGTERM, interrupted)
    signal.signal(signal.SIGINT, interrupted)

    loads = [load_average()]
    began = time.time()
    generator = Generator(args.jar)
    runs = []
    completed = False
    try:
        warm_generator(generator, cases, args.generator_warm_ms, args.out)
        with open(os.path.join(args.out, "runs.jsonl"), "w") as raw:
            for round_number in range(1, args.rounds + 1):
                if round_number > 1 and time.time() - began > args.max_minutes * 60:
                    print("stopping after %d rounds: --max-minutes %.0f reached" % (round_number - 1, args.max_minutes))
                    break
                order = servers if round_number % 2 == 1 else servers[::-1]
                for case in cases:
                    for attempt in range(args.retries + 1):
                        attempt_runs = []
                        for label, command in order:
                            time.sleep(args.settle_ms / 1000.0)
                            busy = wait_for_quiet(args.quiet_limit, args.quiet_wait_s)
                            port = free_port()
                            run = one_run(generator, label, command(port), port, case, args.window_ms,
                                          args.out, round_number, args.from_exec)
                            run["load"] = load_average()
                            run["cpu0BusyBefore"] = busy
                            run["attempt"] = attempt
                            attempt_runs.append(run)
                            r = run["result"]
                            print("round %d %-6s %-11s listen %5.0f ms  rss %4.0f MiB  %8d jobs %8.0f ops/s  p99 %8s"
                                  "  p99.9 %8s  max %8s  1-5 s: %8.0f ops/s  errors %d  load %s  others on cpu0 %s" % (
                                      round_number, case, label, run["listenMs"], run["rssMiB"] or 0,
                                      r.get("ops", 0), r.get("opsPerSec", 0), fmt_us(r.get("p99Us")), fmt_us(r.get("p999Us")),
                                      fmt_us(r.get("maxUs")), r.get("afterSlice0OpsPerSec") or 0,
                                      r.get("errors", 0), run["load"],
                                      "%.0f%%" % (run["othersOnCpu0"] * 100) if run["othersOnCpu0"] is not None
                                      else "-"), flush=True)
                        noisy = [r for r in attempt_runs if (r["othersOnCpu0"] or 0) > args.max_others]
                        last = attempt == args.retries
                        for run in attempt_runs:
                            run["discarded"] = bool(noisy) and not last
                            raw.write(json.dumps(run) + "\n")
                        raw.flush()
                        if not noisy or last:
                            runs.extend(attempt_runs)
                            break
                        print("round %d %s again: other processes took %s of CPU 0 during a window" % (
                            round_number, case, ", ".join("%.0f%%" % (r["othersOnCpu0"] * 100) for r in noisy)),
                            flush=True)
        completed = True
    finally:
        generator.close(at_once=not completed)
    loads.append(load_average())
    text = summary(runs, labels, cases, args.window_ms, loads, args.from_exec)
    text += "\nrun time %.0f s; raw results in %s/runs.jsonl" % (time.time() - began, args.out)
    print()
    print(text)
    with open(os.path.join(args.out, "summary.txt"), "w") as f:
        f.write(text + "\n")


if __name__ == "__main__":
    sys.exit(main())
