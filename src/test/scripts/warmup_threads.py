#!/usr/bin/env python3
"""Which of a fresh server's threads have its core, second by second, from the moment its port opens.

Starts the server as the README does (Java from --java, pinned to CPU 0 as the benchmarks pin it,
the port from BEANSTALKD_PORT), waits for the port's LISTEN (read from /proc/net/tcp and tcp6:
with epoll, Netty listens on a dual-stack socket), then loads it with the bench jar's Bench on CPU 1
(--mode and -c as given) and prints, for each second, the share of a core each thread group took
(/proc/PID/task/*/stat; C1 and C2 compiler threads summed) with the generator's summary at the
end. It shows where the first seconds' jobs go: to the event loop, or to the JIT's compiler
threads on the same core (src/site/markdown/start-up.md, "Measured from the exec").

Usage (after mvn -B -q package -DskipTests; loopback only; both processes are ended by their pid):
    python3 src/test/scripts/warmup_threads.py [--java JAVA] [--mode put] [-c 50] [--seconds 9]
"""
import argparse
import collections
import os
import subprocess
import sys
import time
from bench_jar import bench_classpath  # beside this file
from first_seconds import free_port, is_listening  # beside this file

JAR = "target/vertx-beanstalkd.jar"


def thread_cpu_ticks(pid):
    """Thread id -> (its group's name, user + system ticks)."""
    threads = {}
    for tid in os.listdir("/proc/%d/task" % pid):
        try:
            with open("/proc/%d/task/%s/stat" % (pid, tid)) as f:
                stat = f.read()
        except OSError:
            continue  # the thread ended
        name = stat[stat.index("(") + 1:stat.rindex(")")]
        fields = stat[stat.rindex(")") + 2:].split()
        group = "C2" if name.startswith("C2 ") else "C1" if name.startswith("C1 ") else name
        threads[tid] = (group, int(fields[11]) + int(fields[12]))
    return threads


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--java", default="java")
    ap.add_argument("--mode", default="put")
    ap.add_argument("-c", type=int, default=50)
    ap.add_argument("--seconds", type=int, default=9)
    args = ap.parse_args()
    port, http_port = free_port(), free_port()
    env = dict(os.environ, BEANSTALKD_PORT=str(port), BEANSTALKD_HTTP_PORT=str(http_port))
    server = subprocess.Popen(["taskset", "-c", "0", args.java, "@conf/jvm.options", "-jar", JAR], env=env,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    generator = None
    try:
        start = time.monotonic()
        while not is_listening(port):
            if server.poll() is not None or time.monotonic() - start > 60:
                sys.exit("the server exited or did not listen within 60 s")
            time.sleep(0.0005)
        print("port open %.0f ms after the exec; per second from then, share of a core by thread:"
              % ((time.monotonic() - start) * 1e3))
        generator = subprocess.Popen(
            ["taskset", "-c", "1", args.java, "-cp", bench_classpath(JAR), "io.github.vertxbeanstalkd.bench.Bench",
             "--target", "127.0.0.1:%d" % port, "--mode", args.mode, "-c", str(args.c),
             "--duration-ms", str(args.seconds * 1000), "--warmup-ms", "0"],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        ticks_per_second = os.sysconf("SC_CLK_TCK")
        before = thread_cpu_ticks(server.pid)
        for second in range(1, args.seconds + 1):
            time.sleep(1)
            now = thread_cpu_ticks(server.pid)
            shares = collections.Counter()
            for tid, (group, ticks) in now.items():
                shares[group] += ticks - before.get(tid, (group, 0))[1]
            before = now
            print("  %2d s  %s" % (second, "  ".join(
                "%s %d%%" % (group, 100 * t // ticks_per_second) for group, t in shares.most_common(4) if t > 0)))
        out, _ = generator.communicate(timeout=60)
        print(out.strip().split("\n")[0])
    finally:
        for proc in (generator, server):
            if proc is not None and proc.poll() is None:
                proc.kill()
                proc.wait()


if __name__ == "__main__":
    main()
