#!/usr/bin/env python3
"""Restart at depth: kill -9 a server holding N jobs, start it again, time from the exec to the
first answered command, and check that every job came back. Ours beside beanstalkd 1.12 (-b).

Each server, in turn, on CPU 0 (`taskset`), the generator on CPU 1:
  1. starts on an empty log directory of its own: ours exactly as the README says
     (`java @conf/jvm.options -jar JAR -conf {...binlog.dir...}`), beanstalkd as `beanstalkd -b DIR`;
  2. is filled with --jobs jobs of --size bytes by `Bench --mode prefill` (pipelined, from the bench jar);
  3. is killed with SIGKILL once every put was answered INSERTED;
  4. starts again the same way (ours with `-Xlog:gc` into OUT, to read the heap the replay took);
     the clock starts at the exec; a client connects every 5 ms until `stats` is answered;
  5. reports exec-to-first-answer, current-jobs-ready against --jobs, and for ours the largest heap
     before a collection during the start and the heap after the last one (GC log).
Rounds alternate ours and beanstalkd (--rounds). Bounded: every wait has a deadline; every
process started is ended by its pid; the log directories are deleted at the end.

Usage (from the repository root, after mvn -B -q package -DskipTests):
    python3 src/test/scripts/deep_restart.py --jobs 5000000 --size 100 --rounds 2
"""
import argparse
import json
import os
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from bench_jar import bench_classpath  # beside this file


HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start(cmd, log_path):
    log = open(log_path, "ab")
    return subprocess.Popen(["taskset", "-c", "0"] + cmd, stdout=log, stderr=subprocess.STDOUT,
                            cwd=ROOT, start_new_session=True)


def first_answer(port, proc, deadline_s):
    """Seconds until `stats` is answered, connecting every 5 ms; None if the process died."""
    t0 = time.monotonic()
    while time.monotonic() - t0 < deadline_s:
        if proc.poll() is not None:
            return None, None
        try:
            # A short connect timeout: a server that listens but does not accept yet (beanstalkd
            # replays after binding) lets the handshake wait in the backlog or drops the SYN.
            with socket.create_connection(("127.0.0.1", port), timeout=0.5) as s:
                connected = time.monotonic() - t0
                s.settimeout(deadline_s)
                s.sendall(b"stats\r\n")
                data = b""
                while b"\r\n" not in data or len(data) < header_len(data):
                    chunk = s.recv(65536)
                    if not chunk:
                        raise OSError("closed")
                    data += chunk
                elapsed = time.monotonic() - t0
                stats = parse_stats(data)
                stats["_connected_s"] = connected
                return elapsed, stats
        except OSError:
            time.sleep(0.005)
    return None, None


def header_len(data):
    m = re.match(rb"OK (\d+)\r\n", data)
    return len(m.group(0)) + int(m.group(1)) + 2 if m else 1 << 30


def parse_stats(data):
    out = {}
    for line in data.decode("latin-1").splitlines():
        if ": " in line:
            k, v = line.split(": ", 1)
            out[k.strip()] = v.strip()
    return out


def kill(proc):
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(30)


def prefill(jar, port, jobs, size, log_path):
    cmd = ["taskset", "-c", "1", "java", "-Xmx1g", "-cp", bench_classpath(jar), "io.github.vertxbeanstalkd.bench.Bench",
           "--mode", "prefill", "--target", f"127.0.0.1:{port}", "--jobs", str(jobs), "-s", str(size)]
    with open(log_path, "ab") as log:
        subprocess.run(cmd, stdout=log, stderr=subprocess.STDOUT, check=True, timeout=1800)


def heap_from_gc_log(path):
    """(largest heap before a collection, heap after the last one) in MiB, from -Xlog:gc."""
    before, after = [], []
    with open(path, errors="replace") as f:
        for line in f:
            m = re.search(r"Pause \w+.*?(\d+)M->(\d+)M\(\d+M\)", line)
            if m:
                before.append(int(m.group(1)))
                after.append(int(m.group(2)))
    return (max(before) if before else None, after[-1] if after else None, len(before))


def run_one(kind, args, out):
    data = tempfile.mkdtemp(prefix=f"deep-{kind}-", dir=args.dir)
    port = free_port()
    log = os.path.join(out, f"{kind}-{int(time.time())}.log")
    conf = json.dumps({"port": port, "http": {"enabled": False}, "binlog": {"dir": data}})
    if kind == "ours":
        base = [args.java, "@conf/jvm.options", "-jar", args.jar, "-conf", conf]
    else:
        base = ["beanstalkd", "-l", "127.0.0.1", "-p", str(port), "-b", data]
    try:
        proc = start(base, log)
        took, _ = first_answer(port, proc, 120)
        if took is None:
            raise RuntimeError(f"{kind} did not start: see {log}")
        t0 = time.monotonic()
        prefill(args.jar, port, args.jobs, args.size, log)
        fill_s = time.monotonic() - t0
        kill(proc)
        gc = os.path.join(out, f"gc-{kind}-{int(time.time())}.log")
        cmd = base if kind != "ours" else [args.java, "@conf/jvm.options", f"-Xlog:gc:file={gc}", "-jar", args.jar,
                                           "-conf", conf]
        proc = start(cmd, log)
        took, stats = first_answer(port, proc, args.deadline)
        if took is None:
            return {"kind": kind, "error": f"no answer (exit {proc.poll()}); see {log}"}
        ready = int(stats.get("current-jobs-ready", -1))
        result = {"kind": kind, "first_answer_s": round(took, 2), "port_open_s": round(stats["_connected_s"], 2),
                  "jobs_back": ready, "fill_s": round(fill_s, 1),
                  "rss_mib": rss_mib(proc.pid)}
        if kind == "ours":
            most, last, count = heap_from_gc_log(gc)
            result.update({"heap_peak_mib": most, "heap_after_mib": last, "collections": count})
        kill(proc)
        return result
    finally:
        shutil.rmtree(data, ignore_errors=True)


def rss_mib(pid):
    """The server's RSS: the java or beanstalkd child of taskset (same pid after exec)."""
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) // 1024
    except OSError:
        return None


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--jar", default="target/vertx-beanstalkd.jar")
    p.add_argument("--java", default="java", help="the java that runs our server (JDK 17 or 25)")
    p.add_argument("--jobs", type=int, default=5_000_000)
    p.add_argument("--size", type=int, default=100)
    p.add_argument("--rounds", type=int, default=1)
    p.add_argument("--kinds", default="ours,beanstalkd")
    p.add_argument("--deadline", type=float, default=300, help="seconds a restart may take")
    p.add_argument("--dir", default=None, help="where the log directories go (default: the temp dir)")
    p.add_argument("--out", default="target/deep-restart")
    args = p.parse_args()
    os.makedirs(args.out, exist_ok=True)
    results = []
    for r in range(args.rounds):
        for kind in args.kinds.split(","):
            res = run_one(kind, args, args.out)
            res["round"] = r + 1
            print(json.dumps(res), flush=True)
            results.append(res)
    for kind in args.kinds.split(","):
        times = [x["first_answer_s"] for x in results if x["kind"] == kind and "first_answer_s" in x]
        if times:
            print(f"{kind}: exec to first answer, median {statistics.median(times):.2f} s of {times}")
    ours = [x["first_answer_s"] for x in results if x["kind"] == "ours" and "first_answer_s" in x]
    theirs = [x["first_answer_s"] for x in results if x["kind"] == "beanstalkd" and "first_answer_s" in x]
    if ours and theirs:
        print(f"ours/beanstalkd: {statistics.median(ours) / statistics.median(theirs):.2f}x")


if __name__ == "__main__":
    sys.exit(main())
