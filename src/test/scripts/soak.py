#!/usr/bin/env python3
"""Soak: many idle connections and many blocked reserves on one server, then one job for each.

Starts the real server jar on 127.0.0.1 (a free port, HTTP on an ephemeral port), then:

  1. opens --idle connections (10,000) that send nothing;
  2. opens --waiters connections (5,000), each `watch soak`, `ignore default`, `reserve`, and waits
     for stats to show them all in current-waiting;
  3. checks the server's resident memory (VmRSS in /proc/PID/status) after each step, and its peak
     (VmHWM) at the end, against --rss-limit-mib (1024);
  4. puts --waiters jobs into `soak` from one more connection, pipelined, and times until every
     waiter has received its RESERVED and body; each waiter must get exactly one job, every job
     must go to exactly one waiter, and no idle connection may receive a byte or be closed;
  5. reads stats again: current-connections, current-waiting (0), current-jobs-reserved,
     rejected-connections (0).

Open files: the script holds one descriptor per connection, and the server gets its open-file limit
from the script (JVMs on Linux then raise their soft limit to the hard one, -XX:+MaxFDLimit). The
server's default maxConnections is that limit less 256 (ServerConfig.RESERVED_FILE_DESCRIPTORS),
and a connection past it is closed at once and counted in rejected-connections. The script raises
its own soft limit to connections + 256 when it is lower, and stops with a message when the hard
limit does not allow it.

Bounded: everything, from starting the server to the last check, must finish within
--bound-seconds (120), or the run stops as failed. The server is stopped with SIGTERM by its pid
(SIGKILL if it is still there 15 s later) after every socket is closed, pass or fail.

Usage (from the repository root; copy the jar first so a rebuild does not replace it mid-run):
    mvn -B -o -q package -DskipTests && cp target/vertx-beanstalkd.jar /tmp/soak.jar
    flock /tmp/bench.lock python3 src/test/scripts/soak.py
Options: --jar PATH [/tmp/soak.jar], --jvm-options FILE [conf/jvm.options], --idle N [10000],
         --waiters N [5000], --rss-limit-mib N [1024], --bound-seconds N [120].
Exit status: 0 when every check passed, 1 when one failed, 2 when the run could not be set up.
"""
import argparse
import errno
import json
import os
import resource
import selectors
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

HOST = "127.0.0.1"
TUBE = "soak"
# ServerConfig.RESERVED_FILE_DESCRIPTORS: descriptors the server keeps for everything but clients.
SERVER_RESERVED_FDS = 256
CONNECT_BATCH = 500
SETTLE_SECONDS = 0.5
WAITER_COMMANDS = ("watch %s\r\nignore default\r\nreserve\r\n" % TUBE).encode()
WAITER_ACKS = b"WATCHING 2\r\nWATCHING 1\r\n"


class SetupFailed(Exception):
    """The run could not be set up: limits, the jar, the server's start."""


class CheckFailed(Exception):
    """The server did something the soak does not allow, or the bound ran out."""


class Deadline:
    def __init__(self, seconds):
        self.seconds = seconds
        self.end = time.monotonic() + seconds

    def left(self, doing):
        left = self.end - time.monotonic()
        if left <= 0:
            raise CheckFailed("still %s when the %d s bound ran out" % (doing, self.seconds))
        return left


def raise_open_files(needed):
    """Raises this process's soft RLIMIT_NOFILE to `needed`; the server inherits it."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != resource.RLIM_INFINITY and soft < needed:
        if hard != resource.RLIM_INFINITY and hard < needed:
            raise SetupFailed("%d open files are needed (connections + %d for the server), but the hard "
                              "limit is %d: raise it (ulimit -Hn, as root) or ask for fewer connections"
                              % (needed, SERVER_RESERVED_FDS, hard))
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (needed, hard))
        except (ValueError, OSError) as e:
            raise SetupFailed("cannot raise the open-file soft limit from %d to %d: %s" % (soft, needed, e))
    return resource.getrlimit(resource.RLIMIT_NOFILE)


def free_port():
    s = socket.socket()
    s.bind((HOST, 0))
    port = s.getsockname()[1]
    s.close()
    return port


def proc_status(pid, key):
    """A /proc/PID/status value in KiB, such as VmRSS or VmHWM."""
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith(key + ":"):
                return int(line.split()[1])
    raise CheckFailed("no %s in /proc/%d/status" % (key, pid))


def open_files_limit(pid):
    with open("/proc/%d/limits" % pid) as f:
        for line in f:
            if line.startswith("Max open files"):
                return int(line.split()[3])
    raise SetupFailed("no open-file limit in /proc/%d/limits" % pid)


class StatsConnection:
    """A blocking connection for `stats`; connecting to it is also how the start is awaited."""

    def __init__(self, port, server, deadline, log_path):
        while True:
            if server.poll() is not None:
                raise SetupFailed("the server exited with %d before listening; its log: %s"
                                  % (server.returncode, log_path))
            try:
                self.sock = socket.create_connection((HOST, port), timeout=min(1.0, deadline.left("starting")))
                break
            except OSError:
                time.sleep(0.05)
        self.deadline = deadline
        self.buffer = b""

    def _read_until(self, n):
        while len(self.buffer) < n:
            self.sock.settimeout(min(5.0, self.deadline.left("reading stats")))
            chunk = self.sock.recv(65536)
            if not chunk:
                raise CheckFailed("the server closed the stats connection")
            self.buffer += chunk

    def stats(self):
        self.sock.sendall(b"stats\r\n")
        while b"\r\n" not in self.buffer:
            self._read_until(len(self.buffer) + 1)
        header, _, self.buffer = self.buffer.partition(b"\r\n")
        if not header.startswith(b"OK "):
            raise CheckFailed("stats answered %r" % header)
        size = int(header[3:])
        self._read_until(size + 2)
        doc, self.buffer = self.buffer[:size], self.buffer[size + 2:]
        values = {}
        for row in doc.decode().splitlines()[1:]:
            key, _, value = row.partition(": ")
            values[key] = value
        return values

    def wait_for(self, key, wanted, doing):
        while True:
            value = int(self.stats()[key])
            if value == wanted:
                return
            self.deadline.left("%s (%s is %d, not %d)" % (doing, key, value, wanted))
            time.sleep(0.05)

    def close(self):
        self.sock.close()


def open_connections(count, port, deadline, into):
    """Opens `count` non-blocking connections in batches and returns them; each goes into `into`
    (the list closed at the end) as soon as it exists."""
    opened = []
    sel = selectors.DefaultSelector()
    try:
        for first in range(0, count, CONNECT_BATCH):
            pending = 0
            for _ in range(min(CONNECT_BATCH, count - first)):
                s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
                into.append(s)
                opened.append(s)
                s.setblocking(False)
                err = s.connect_ex((HOST, port))
                if err not in (0, errno.EINPROGRESS):
                    raise CheckFailed("connection %d: %s" % (len(opened), os.strerror(err)))
                sel.register(s, selectors.EVENT_WRITE)
                pending += 1
            while pending:
                for key, _ in sel.select(timeout=min(1.0, deadline.left("connecting"))):
                    err = key.fileobj.getsockopt(socket.SOL_SOCKET, socket.SO_ERROR)
                    if err:
                        raise CheckFailed("connection %d: %s" % (len(opened), os.strerror(err)))
                    sel.unregister(key.fileobj)
                    pending -= 1
    finally:
        sel.close()
    return opened


def send_all_nonblocking(sel, sock, data, deadline, doing):
    view = memoryview(data)
    while view:
        try:
            view = view[sock.send(view):]
        except BlockingIOError:
            sel_one = selectors.DefaultSelector()
            sel_one.register(sock, selectors.EVENT_WRITE)
            sel_one.select(timeout=min(1.0, deadline.left(doing)))
            sel_one.close()


def start_waiters(waiters, deadline):
    """Each waiter watches the soak tube, ignores default and reserves; waits for both WATCHING."""
    sel = selectors.DefaultSelector()
    received = {}
    try:
        for s in waiters:
            send_all_nonblocking(sel, s, WAITER_COMMANDS, deadline, "sending the waiters' commands")
            sel.register(s, selectors.EVENT_READ)
            received[s] = b""
        left = len(waiters)
        while left:
            for key, _ in sel.select(timeout=min(1.0, deadline.left("waiting for %d WATCHING replies" % left))):
                s = key.fileobj
                chunk = s.recv(4096)
                if not chunk:
                    raise CheckFailed("the server closed a waiter before it reserved")
                received[s] += chunk
                if len(received[s]) >= len(WAITER_ACKS):
                    if received[s] != WAITER_ACKS:
                        raise CheckFailed("a waiter got %r, not %r" % (received[s], WAITER_ACKS))
                    sel.unregister(s)
                    left -= 1
    finally:
        sel.close()


class Waiter:
    def __init__(self):
        self.buffer = b""
        self.job = None  # (id, body) once the whole reply came

    def take(self, chunk):
        """Adds bytes; True when they completed the job. Anything past the job fails the run."""
        if self.job is not None:
            raise CheckFailed("a waiter got more after its job: %r" % chunk[:80])
        self.buffer += chunk
        header, crlf, rest = self.buffer.partition(b"\r\n")
        if not crlf:
            return False
        words = header.split(b" ")
        if len(words) != 3 or words[0] != b"RESERVED":
            raise CheckFailed("a waiter got %r" % header)
        size = int(words[2])
        if len(rest) < size + 2:
            return False
        if len(rest) > size + 2 or rest[size:] != b"\r\n":
            raise CheckFailed("a waiter's reply does not end after its body: %r" % self.buffer[:200])
        self.job = (int(words[1]), rest[:size])
        return True


def serve(waiters, producer, jobs, deadline):
    """Puts `jobs` jobs from `producer` while reading every waiter; returns timings and ids."""
    sel = selectors.DefaultSelector()
    states = {}
    for s in waiters:
        states[s] = Waiter()
        sel.register(s, selectors.EVENT_READ)
    puts = [b"use " + TUBE.encode() + b"\r\n"]
    for i in range(jobs):
        body = b"soak-%d" % i
        puts.append(b"put 0 0 120 %d\r\n%s\r\n" % (len(body), body))
    outgoing = memoryview(b"".join(puts))
    replies = b""
    inserted = []
    producer.setblocking(False)
    sel.register(producer, selectors.EVENT_READ | selectors.EVENT_WRITE)
    served = 0
    started = time.monotonic()
    all_inserted_at = None
    while served < len(waiters) or len(inserted) < jobs:
        doing = "serving (%d of %d waiters served, %d of %d puts answered)" % (served, len(waiters),
                                                                             len(inserted), jobs)
        for key, events in sel.select(timeout=min(1.0, deadline.left(doing))):
            s = key.fileobj
            if s is producer:
                if events & selectors.EVENT_WRITE and outgoing:
                    try:
                        outgoing = outgoing[s.send(outgoing):]
                    except BlockingIOError:
                        pass
                    if not outgoing:
                        sel.modify(s, selectors.EVENT_READ)
                if events & selectors.EVENT_READ:
                    chunk = s.recv(65536)
                    if not chunk:
                        raise CheckFailed("the server closed the producer")
                    replies += chunk
                    *lines, replies = replies.split(b"\r\n")
                    for line in lines:
                        if line == b"USING " + TUBE.encode():
                            continue
                        if not line.startswith(b"INSERTED "):
                            raise CheckFailed("a put got %r" % line)
                        inserted.append(int(line[len(b"INSERTED "):]))
                    if len(inserted) == jobs and all_inserted_at is None:
                        all_inserted_at = time.monotonic()
                continue
            chunk = s.recv(65536)
            if not chunk:
                raise CheckFailed("the server closed a waiter")
            if states[s].take(chunk):
                served += 1
    all_served_at = time.monotonic()
    # Nothing more may come: a second job for a waiter would be a reply nobody asked for.
    settle_end = time.monotonic() + SETTLE_SECONDS
    while time.monotonic() < settle_end:
        for key, _ in sel.select(timeout=max(0.0, settle_end - time.monotonic())):
            s = key.fileobj
            chunk = s.recv(65536)
            if s is producer:
                raise CheckFailed("the producer got more than its replies: %r" % chunk[:80])
            if not chunk:
                raise CheckFailed("the server closed a waiter after serving it")
            states[s].take(chunk)
    sel.close()
    ids = [state.job[0] for state in states.values()]
    if len(set(ids)) != len(ids):
        raise CheckFailed("%d waiters got a job another waiter also got" % (len(ids) - len(set(ids))))
    if set(ids) != set(inserted):
        raise CheckFailed("the jobs served are not the jobs put: %d put, %d served, %d in common"
                          % (len(inserted), len(ids), len(set(ids) & set(inserted))))
    bodies = sorted(state.job[1] for state in states.values())
    if bodies != sorted(b"soak-%d" % i for i in range(jobs)):
        raise CheckFailed("the bodies served are not the bodies put")
    return all_served_at - started, all_inserted_at - started


def check_idle_untouched(idle):
    for s in idle:
        try:
            chunk = s.recv(1)
        except BlockingIOError:
            continue
        raise CheckFailed("an idle connection was closed" if not chunk else "an idle connection got %r" % chunk)


def mib(kib):
    return "%.1f MiB" % (kib / 1024)


def run(args, deadline, sockets, log_path):
    connections = args.idle + args.waiters + 2  # the producer and the stats connection
    needed = connections + SERVER_RESERVED_FDS
    soft, hard = raise_open_files(needed)
    port = free_port()
    conf = {"host": HOST, "port": port, "http": {"port": 0, "host": HOST}}
    with open(log_path, "wb") as log:
        server = subprocess.Popen(["java", "@" + args.jvm_options, "-jar", args.jar, "-conf", json.dumps(conf)],
                                  stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
    try:
        return measure(args, deadline, sockets, log_path, server, port, connections, soft, hard)
    finally:
        t = time.monotonic()
        for s in sockets:
            s.close()
        sockets.clear()
        closed_at = time.monotonic()
        server.send_signal(signal.SIGTERM)
        try:
            server.wait(timeout=15)
            print("cleanup            sockets closed in %.1f s, server stopped by SIGTERM %.1f s later"
                  % (closed_at - t, time.monotonic() - closed_at))
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
            print("cleanup            the server was still there 15 s after SIGTERM: killed", file=sys.stderr)


def measure(args, deadline, sockets, log_path, server, port, connections, soft, hard):
    stats = StatsConnection(port, server, deadline, log_path)
    sockets.append(stats.sock)
    server_files = open_files_limit(server.pid)
    print("open files: script soft %d hard %d; server %d, so its default maxConnections is %d for %d connections"
          % (soft, hard, server_files, server_files - SERVER_RESERVED_FDS, connections))
    if server_files - SERVER_RESERVED_FDS < connections:
        raise SetupFailed("the server's maxConnections (%d) is below the %d connections"
                          % (server_files - SERVER_RESERVED_FDS, connections))
    rss = {"started": proc_status(server.pid, "VmRSS")}

    t = time.monotonic()
    idle = open_connections(args.idle, port, deadline, sockets)
    stats.wait_for("current-connections", args.idle + 1, "waiting for the idle connections to be accepted")
    print("%d idle connections in %.1f s" % (args.idle, time.monotonic() - t))
    rss["idle"] = proc_status(server.pid, "VmRSS")

    t = time.monotonic()
    waiters = open_connections(args.waiters, port, deadline, sockets)
    start_waiters(waiters, deadline)
    stats.wait_for("current-waiting", args.waiters, "waiting for the waiters to reserve")
    before = stats.stats()
    print("%d waiters reserving in %.1f s" % (args.waiters, time.monotonic() - t))
    rss["before"] = proc_status(server.pid, "VmRSS")

    producer = socket.create_connection((HOST, port), timeout=min(5.0, deadline.left("connecting the producer")))
    sockets.append(producer)
    served_seconds, inserted_seconds = serve(waiters, producer, args.waiters, deadline)
    check_idle_untouched(idle)
    after = stats.stats()
    rss["after"] = proc_status(server.pid, "VmRSS")
    peak = proc_status(server.pid, "VmHWM")

    print()
    print("connections        idle %d, waiting %d, + producer + stats" % (args.idle, args.waiters))
    print("time to serve all  %.3f s from the first put to the last waiter's body (all INSERTED at %.3f s)"
          % (served_seconds, inserted_seconds))
    print("VmRSS              started %s, idle open %s, before the puts %s, after %s; peak (VmHWM) %s"
          % tuple(mib(v) for v in (rss["started"], rss["idle"], rss["before"], rss["after"], peak)))
    for name, values in (("stats before", before), ("stats after", after)):
        print("%-18s %s" % (name, ", ".join("%s %s" % (k, values[k]) for k in (
            "current-connections", "current-waiting", "current-jobs-ready", "current-jobs-reserved",
            "rejected-connections"))))

    failures = []
    limit_kib = args.rss_limit_mib * 1024
    for name, kib in list(rss.items()) + [("peak", peak)]:
        if kib >= limit_kib:
            failures.append("VmRSS %s is %s, not under %d MiB" % (name, mib(kib), args.rss_limit_mib))
    expected = {
        ("before", "current-connections"): args.idle + args.waiters + 1,
        ("before", "current-waiting"): args.waiters,
        ("after", "current-connections"): connections,
        ("after", "current-waiting"): 0,
        ("after", "current-jobs-reserved"): args.waiters,
        ("after", "current-jobs-ready"): 0,
        ("after", "rejected-connections"): 0,
    }
    for (when, key), wanted in expected.items():
        got = int((before if when == "before" else after)[key])
        if got != wanted:
            failures.append("stats %s: %s is %d, not %d" % (when, key, got, wanted))
    if failures:
        raise CheckFailed("; ".join(failures))
    print("\nPASS: every waiter was served exactly one job")


def main():
    root = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", ".."))
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--jar", default="/tmp/soak.jar")
    p.add_argument("--jvm-options", default=os.path.join(root, "conf", "jvm.options"))
    p.add_argument("--idle", type=int, default=10_000)
    p.add_argument("--waiters", type=int, default=5_000)
    p.add_argument("--rss-limit-mib", type=int, default=1024)
    p.add_argument("--bound-seconds", type=int, default=120)
    args = p.parse_args()
    if not os.path.isfile(args.jar):
        print("no jar at %s: mvn -B -o -q package -DskipTests && cp target/vertx-beanstalkd.jar %s"
              % (args.jar, args.jar), file=sys.stderr)
        return 2
    workdir = tempfile.mkdtemp(prefix="soak-")
    log_path = os.path.join(workdir, "server.log")
    sockets = []
    deadline = Deadline(args.bound_seconds)
    try:
        run(args, deadline, sockets, log_path)
    except (SetupFailed, CheckFailed) as e:
        kept = ""
        if os.path.exists(log_path):
            kept = " (server log kept: %s)" % log_path
        else:
            shutil.rmtree(workdir, ignore_errors=True)
        sys.stdout.flush()
        print("%s: %s%s" % ("SETUP FAILED" if isinstance(e, SetupFailed) else "FAIL", e, kept), file=sys.stderr)
        return 2 if isinstance(e, SetupFailed) else 1
    shutil.rmtree(workdir, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
