#!/usr/bin/env python3
"""Hostile memory: RSS growth of a server under seeded random and mutated protocol streams.

For each start mode and seed, a fresh server on 127.0.0.1 (a free port; ours with its HTTP listener
on port 0), pinned to CPU 0 (the script to CPU 1):

  1. RSS (VmRSS) once the port answers `stats`: "start";
  2. --seconds (20) of a seeded random stream on --connections (8) connections: mostly unknown
     commands and bad formats (short and overlong lines, wrong arguments, bare LF, binary bytes),
     mutated valid commands, puts of random sizes (0 to past maxJobSize, some with a body of the
     wrong length) into --tubes (400) tubes, reserves, deletes, kicks, pauses; each connection
     sends bursts without waiting for their replies, reads what came, and now and then closes or
     resets (SO_LINGER 0) and reconnects. RSS after the stream: "stream";
  3. optional --phases, each followed by an RSS reading: `fill` (one connection puts jobs of random
     sizes until OUT_OF_MEMORY: the store at maxMemory; they stay, and are counted in step 4), `flood` (4 connections send pipelined
     garbage and puts as fast as they can for --phase-seconds while reading), `slow` (64
     connections send `stats` and `list-tubes` until the server stops reading them, and never read
     a reply), `peeks` (--peekers connections, 1,000, pipeline `peek` of one 65,535-byte job with 4 KiB
     receive windows and never read), `many` (--many connections, 10,000, each `use`s a tube and stays; the RSS per
     connection is reported);
  4. the jobs stored are counted and their bytes summed with peek-ready/-delayed/-buried and delete
     in every tube (after the RSS readings, so the count changes nothing measured); ours also gives
     its own counters (current-job-store-bytes, current-memory-bytes).

The figure of issue 21 is "growth beyond jobs": RSS after the stream less RSS at start less the bytes
of the bodies stored; "settled" is the same --settle-seconds (5) later, once the JIT compilers have
finished what the stream made hot and their arenas were given back; ours also gives "beyond store",
the growth less the job store's own reserved bytes (current-job-store-bytes: bodies at their size
class, records, index, partly filled pages). --heap adds ours' live heap after each step (jcmd GC.run,
then jstat). Start modes (--modes): `readme` is `java @conf/jvm.options -jar JAR`, `plain` is
`java -jar JAR`, `beanstalkd` is /usr/bin/beanstalkd -z 65535 (the same stream, byte for byte, for the
same seed). --nmt adds -XX:NativeMemoryTracking=summary to ours and keeps `jcmd PID
VM.native_memory summary.diff` (against a baseline taken at "start") after each step; --memory-limit-mib N
runs the server in a cgroup (v1 or v2, created and removed by the script) limited to N MiB and reports
its failcnt / OOM kills; --start-settle-seconds N reads "start" N s after the port answers (the RSS at the
port's opening still holds memory the start-up's compilers freed, which the JVM gives back within 5-10 s,
and its return would hide as much of the stream's growth; the reading at the opening is kept as "open"); --jvm-option adds an option (repeatable) to ours; --conf merges JSON into ours.

Usage (from the repository root; the jar is copied so that a rebuild does not replace it mid-run;
not timing-sensitive, so under the shared lock):
    mvn -B -o -q package -DskipTests && cp target/vertx-beanstalkd.jar /tmp/hostile.jar
    flock -s /tmp/cluster.lock python3 src/test/scripts/hostile_memory.py --seeds 1,2
Exit status: 0 when every run's growth beyond jobs is within its bound (--bound-mib for readme, 16;
--plain-bound-mib for plain, 64; beanstalkd is not judged: with `fill` in a memory cgroup its row ends
in the cgroup's OOM kill, as it has no limit of its own) and every server survived, 1 otherwise, 2 when
a run could not be set up.
"""
import argparse
import json
import os
import random
import re
import selectors
import shutil
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import threading
import time
import soak  # beside this file  (free_port, proc_status, StatsConnection, Deadline, raise_open_files, open_connections)


def _patient_read_until(self, n):
    # soak.py allows a stats reply 5 s; with 10,000 connections on a loaded 2-core machine it can take longer.
    while len(self.buffer) < n:
        self.sock.settimeout(min(30.0, self.deadline.left("reading stats")))
        chunk = self.sock.recv(65536)
        if not chunk:
            raise soak.CheckFailed("the server closed the stats connection")
        self.buffer += chunk


soak.StatsConnection._read_until = _patient_read_until

HOST = soak.HOST
MAX_JOB_BYTES = 65535
KNOWN = [b"put", b"use", b"reserve", b"reserve-with-timeout", b"reserve-job", b"delete", b"release", b"bury",
         b"touch", b"watch", b"ignore", b"peek", b"peek-ready", b"peek-delayed", b"peek-buried", b"kick",
         b"kick-job", b"stats-job", b"stats-tube", b"stats", b"list-tubes", b"list-tube-used",
         b"list-tubes-watched", b"pause-tube", b"quit"]
BAD_FORMATS = [b"put\r\n", b"put 1 2\r\n", b"put a b c d\r\n", b"put -1 0 1 5\r\n", b"put 1 0 1 -5\r\n",
               b"put 4294967296 0 1 1\r\n", b"put 0 0 0 99999999999999999999\r\n", b"reserve-with-timeout x\r\n",
               b"reserve-with-timeout -1\r\n", b"delete\r\n", b"delete 18446744073709551616\r\n",
               b"delete -1\r\n", b"kick -5\r\n", b"kick\r\n", b"pause-tube x y\r\n", b"pause-tube\r\n",
               b"stats-job abc\r\n", b"touch\r\n", b"release 1 2\r\n", b"bury\r\n", b"watch\r\n", b"ignore\r\n",
               b"use\r\n", b"use -bad\r\n", b"watch bad$name\r\n", b"\r\n", b"\n", b"\r\r\n", b"put 0 0 1 1 \r\n",
               b" stats\r\n", b"stats \r\n", b"STATS\r\n", b"peek\r\n", b"peek x\r\n", b"reserve-job\r\n",
               b"\x00\x01\x02\r\n", b"\xff\xfe\r\n", b"list-tubes extra\r\n"]


def tube(rng, tubes):
    return b"tube-%d" % rng.randrange(tubes)


def valid_line(rng, tubes, ids):
    """A well-formed command line (no put): what a mutation starts from, and the stream's 'work'."""
    job = str(rng.choice(ids) if ids and rng.random() < 0.8 else rng.randrange(1, 1 << 20)).encode()
    pick = rng.randrange(16)
    if pick == 0:
        return b"use " + tube(rng, tubes) + b"\r\n"
    if pick == 1:
        return b"watch " + tube(rng, tubes) + b"\r\n"
    if pick == 2:
        return b"ignore " + tube(rng, tubes) + b"\r\n"
    if pick == 3:
        return b"reserve-with-timeout 0\r\n"
    if pick in (4, 5, 6):
        return b"delete " + job + b"\r\n"
    if pick == 7:
        return b"peek " + job + b"\r\n"
    if pick == 8:
        return b"stats-job " + job + b"\r\n"
    if pick == 9:
        return b"stats-tube " + tube(rng, tubes) + b"\r\n"
    if pick == 10:
        return rng.choice([b"list-tubes\r\n", b"stats\r\n", b"list-tubes-watched\r\n", b"list-tube-used\r\n",
                           b"peek-ready\r\n", b"peek-delayed\r\n", b"peek-buried\r\n"])
    if pick == 11:
        return b"kick %d\r\n" % rng.randrange(1, 20)
    if pick == 12:
        return b"kick-job " + job + b"\r\n"
    if pick == 13:
        return b"pause-tube %s %d\r\n" % (tube(rng, tubes), rng.randrange(0, 2))
    if pick == 14:
        return b"bury " + job + b" 0\r\n"
    return b"release " + job + b" 0 0\r\n"


def body_size(rng):
    r = rng.random()
    if r < 0.6:
        return rng.randrange(0, 257)
    if r < 0.9:
        return rng.randrange(257, 4097)
    if r < 0.99:
        return rng.randrange(4097, MAX_JOB_BYTES + 1)
    return rng.randrange(MAX_JOB_BYTES + 1, 3 * MAX_JOB_BYTES)


def put(rng, tubes):
    size = body_size(rng)
    delay = 0 if rng.random() < 0.8 else rng.randrange(1, 10)
    header = b"use %s\r\nput %d %d %d %d\r\n" % (tube(rng, tubes), rng.randrange(0, 1 << 32), delay,
                                                 rng.randrange(0, 120), size)
    body = rng.randbytes(size)
    r = rng.random()
    if r < 0.03:
        body = body[: max(0, size - rng.randrange(1, 8))]  # short: what follows is read as body
    elif r < 0.06:
        body += rng.randbytes(rng.randrange(1, 8))  # long: EXPECTED_CRLF, then the rest as commands
    return header + body + b"\r\n"


def mutate(rng, line):
    data = bytearray(line)
    for _ in range(rng.randrange(1, 4)):
        op = rng.randrange(4)
        at = rng.randrange(len(data) + 1)
        if op == 0 and at < len(data):
            data[at] ^= 1 << rng.randrange(8)
        elif op == 1:
            data[at:at] = bytes([rng.randrange(256)])
        elif op == 2 and at < len(data):
            del data[at]
        else:
            data[at:at] = data[at:at + rng.randrange(1, 16)]
    return bytes(data)


def unknown(rng):
    alphabet = b"abcdefghijklmnopqrstuvwxyz-_0123456789"
    word = bytes(rng.choice(alphabet) for _ in range(rng.randrange(1, 30)))
    if rng.random() < 0.3:
        word = rng.choice(KNOWN) + word
    if rng.random() < 0.5:
        word += b" " + b" ".join(str(rng.randrange(-5, 1 << 33)).encode() for _ in range(rng.randrange(1, 5)))
    return word + b"\r\n"


def overlong(rng):
    # The protocol's lines are at most 224 bytes; past that a server must not buffer without bound.
    return rng.choice(KNOWN) + b" " + bytes(rng.randrange(32, 127) for _ in range(rng.randrange(200, 4000))) + b"\r\n"


def command(rng, tubes, ids):
    r = rng.random()
    if r < 0.35:
        return unknown(rng)
    if r < 0.55:
        return rng.choice(BAD_FORMATS)
    if r < 0.60:
        return overlong(rng)
    if r < 0.70:
        return mutate(rng, valid_line(rng, tubes, ids))
    if r < 0.82:
        return put(rng, tubes)
    return valid_line(rng, tubes, ids)


INSERTED = re.compile(rb"INSERTED (\d+)\r\n")


class Counters:
    def __init__(self):
        self.lock = threading.Lock()
        self.sent_bytes = 0
        self.commands = 0
        self.reconnects = 0
        self.stuck = 0
        self.closed_by_server = 0

    def add(self, **kv):
        with self.lock:
            for k, v in kv.items():
                setattr(self, k, getattr(self, k) + v)


def connect(port):
    s = socket.create_connection((HOST, port), timeout=2.0)
    s.settimeout(1.0)
    return s


def reset(sock):
    """Closes with an RST, not a FIN."""
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    except OSError:
        pass
    sock.close()


def drain(sock, ids, wait_s):
    """Reads what is there (waiting up to wait_s for the first bytes); keeps the ids put. False when closed."""
    sel = selectors.DefaultSelector()
    sel.register(sock, selectors.EVENT_READ)
    try:
        timeout = wait_s
        while sel.select(timeout):
            chunk = sock.recv(1 << 20)
            if not chunk:
                return False
            for m in INSERTED.finditer(chunk):
                ids.append(int(m.group(1)))
            if len(ids) > 256:
                del ids[:128]
            timeout = 0
        return True
    finally:
        sel.close()


def stream_worker(port, rng, end, tubes, counters, errors):
    ids = []
    sock = None
    try:
        while time.monotonic() < end:
            if sock is None:
                sock = connect(port)
                counters.add(reconnects=1)
            r = rng.random()
            if r < 0.01:
                sock.close()
                sock = None
                continue
            if r < 0.015:
                reset(sock)
                sock = None
                continue
            batch = [command(rng, tubes, ids) for _ in range(rng.randrange(1, 17))]
            # Most jobs are deleted soon after their put, as workers would: what stays is a few MB.
            batch += [b"delete %d\r\n" % i for i in ids[-64:] if rng.random() < 0.97]
            del ids[-64:]
            data = b"".join(batch)
            try:
                sock.sendall(data)
                alive = drain(sock, ids, 0.002)
            except socket.timeout:
                # The server stopped reading us (it answers a connection that reads no replies no
                # further): drop it and go on with another.
                counters.add(stuck=1)
                reset(sock)
                sock = None
                continue
            except (ConnectionResetError, BrokenPipeError):
                alive = False
            counters.add(sent_bytes=len(data), commands=len(batch))
            if not alive:
                counters.add(closed_by_server=1)
                sock.close()
                sock = None
    except Exception as e:  # noqa: BLE001 (reported, and fails the run)
        errors.append("stream worker: %r" % e)
    finally:
        if sock is not None:
            sock.close()


def run_stream(port, seed, seconds, connections, tubes):
    counters = Counters()
    errors = []
    end = time.monotonic() + seconds
    threads = [threading.Thread(target=stream_worker,
                                args=(port, random.Random(seed * 1_000_003 + i), end, tubes, counters, errors))
               for i in range(connections)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return counters, errors


def flood_worker(port, rng, end, tubes, errors):
    try:
        sock = connect(port)
        stop = threading.Event()

        def reader():
            while not stop.is_set():
                try:
                    if not sock.recv(1 << 20):
                        return
                except socket.timeout:
                    continue
                except OSError:
                    return

        t = threading.Thread(target=reader)
        t.start()
        ids = []
        while time.monotonic() < end:
            data = b"".join(command(rng, tubes, ids) for _ in range(200))
            try:
                sock.sendall(data)
            except socket.timeout:
                continue
            except OSError:
                break
        stop.set()
        reset(sock)
        t.join()
    except Exception as e:  # noqa: BLE001
        errors.append("flood worker: %r" % e)


def phase_flood(port, seed, seconds, tubes):
    errors = []
    end = time.monotonic() + seconds
    threads = [threading.Thread(target=flood_worker, args=(port, random.Random(seed * 7 + i), end, tubes, errors))
               for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return {}, errors


def phase_slow(port, seconds):
    """Connections that ask for big replies and never read them: the server must stop reading them."""
    socks = []
    sent = 0
    end = time.monotonic() + seconds
    try:
        for _ in range(64):
            s = socket.create_connection((HOST, port), timeout=2.0)
            s.setblocking(False)
            socks.append(s)
        request = b"stats\r\nlist-tubes\r\n" * 500
        open_socks = list(socks)
        while open_socks and time.monotonic() < end:
            for s in list(open_socks):
                try:
                    sent += s.send(request)
                except BlockingIOError:
                    open_socks.remove(s)  # the kernel's buffers and the server are full: held there
        while time.monotonic() < end:
            time.sleep(0.1)
        return {"slow_connections": len(socks), "slow_bytes_sent": sent,
                "slow_still_sending": len(open_socks)}, []
    finally:
        for s in socks:
            reset(s)


def phase_peeks(port, seconds, count):
    """Clients that pipeline `peek` of one 65,535-byte job and never read: each reply is a copy of the body."""
    socks = []
    sent = 0
    end = time.monotonic() + seconds
    with socket.create_connection((HOST, port), timeout=10.0) as owner:
        owner.sendall(b"put 0 0 600 65535\r\n" + b"p" * 65535 + b"\r\n")
        reply = owner.recv(64)
        if not reply.startswith(b"INSERTED "):
            return {}, ["peeks: the put was answered %r" % reply]
        job = int(reply.split()[1])
        try:
            for _ in range(count):
                s = socket.socket()
                # A small window: the replies pile up in the server, not in this process's kernel.
                s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
                s.settimeout(2.0)
                s.connect((HOST, port))
                s.setblocking(False)
                socks.append(s)
            request = b"peek %d\r\n" % job * 2000
            open_socks = list(socks)
            while open_socks and time.monotonic() < end:
                for s in list(open_socks):
                    try:
                        sent += s.send(request)
                    except (BlockingIOError, OSError):
                        open_socks.remove(s)  # held in the server and the kernels, or closed by the server
            while time.monotonic() < end:
                time.sleep(0.1)
            return {"peek_connections": len(socks), "peek_bytes_sent": sent}, []
        finally:
            for s in socks:
                reset(s)
            owner.settimeout(30.0)
            owner.sendall(b"delete %d\r\n" % job)
            owner.recv(64)


def phase_many(port, count, stats, deadline, server_pid):
    socks = []
    try:
        rss_before = soak.proc_status(server_pid, "VmRSS")
        opened = soak.open_connections(count, port, deadline, socks)
        for i, s in enumerate(opened):
            try:
                s.send(b"use tube-%d\r\n" % (i % 400))
            except BlockingIOError:
                pass
        want = count + 1
        while int(stats.stats()["current-connections"]) < want:
            deadline.left("waiting for %d connections" % count)
            time.sleep(0.1)
        time.sleep(1.0)
        rss = soak.proc_status(server_pid, "VmRSS")
        return {"many_connections": count, "many_kib_per_connection": round((rss - rss_before) / count, 2)}, []
    finally:
        for s in socks:
            s.close()


def phase_fill(port, seed, bound_s):
    """Puts jobs of random sizes (1 byte to the largest) from one connection, 64 at a time, until
    the server answers OUT_OF_MEMORY: the store at maxMemory, as a container must hold it."""
    rng = random.Random(seed * 31)
    sock = socket.create_connection((HOST, port), timeout=30.0)
    f = sock.makefile("rb")
    sock.sendall(b"use fill\r\n")
    f.readline()
    end = time.monotonic() + bound_s
    inserted = 0
    stored_bytes = 0
    refused = False
    while not refused and time.monotonic() < end:
        sizes = [rng.randrange(1, MAX_JOB_BYTES + 1) for _ in range(64)]
        try:
            sock.sendall(b"".join(b"put 0 0 60 %d\r\n%s\r\n" % (n, b"f" * n) for n in sizes))
            lines = [f.readline() for _ in sizes]
        except OSError as e:
            raise soak.CheckFailed("the fill's connection failed after %d puts (%.1f MiB): %r"
                                   % (inserted, stored_bytes / 1048576, e))
        for n, line in zip(sizes, lines):
            if line.startswith(b"INSERTED"):
                inserted += 1
                stored_bytes += n
            elif line.startswith(b"OUT_OF_MEMORY"):
                refused = True
            else:
                raise soak.CheckFailed("a fill put answered %r" % line)
    sock.close()
    return {"fill_jobs": inserted, "fill_mib": round(stored_bytes / 1048576, 1), "fill_refused": refused}, \
        ([] if refused else ["the fill did not reach OUT_OF_MEMORY in %d s" % bound_s])


class JobCount:
    def __init__(self):
        self.jobs = 0
        self.body_bytes = 0


def count_jobs(port, bound_s):
    """Counts and deletes every job, summing body sizes (with peek-*, which ignore pauses and watches)."""
    sock = socket.create_connection((HOST, port), timeout=10.0)
    f = sock.makefile("rb")
    end = time.monotonic() + bound_s
    result = JobCount()

    def ask(line):
        sock.sendall(line)
        head = f.readline()
        if not head.endswith(b"\r\n"):
            raise soak.CheckFailed("no reply to %r" % line)
        return head[:-2]

    def read_body(size):
        data = f.read(size + 2)
        return data[:size]

    head = ask(b"list-tubes\r\n")
    names = [line[2:].strip() for line in read_body(int(head.split()[1])).split(b"\n") if line.startswith(b"- ")]
    for name in names:
        ask(b"use " + name + b"\r\n")
        for peek in (b"peek-ready\r\n", b"peek-delayed\r\n", b"peek-buried\r\n"):
            while time.monotonic() < end:
                head = ask(peek)
                if head == b"NOT_FOUND":
                    break
                words = head.split()
                if words[0] != b"FOUND":
                    raise soak.CheckFailed("%r answered %r" % (peek, head))
                read_body(int(words[2]))
                result.jobs += 1
                result.body_bytes += int(words[2])
                deleted = ask(b"delete " + words[1] + b"\r\n")
                if deleted != b"DELETED":
                    raise soak.CheckFailed("delete after peek answered %r" % deleted)
    sock.close()
    return result


class MemoryCgroup:
    """A cgroup limited to N MiB that the server is started in (v1 memory controller or v2)."""

    def __init__(self, limit_mib, name):
        self.path = None
        v2 = "/sys/fs/cgroup/cgroup.controllers"
        if os.path.exists(v2):
            self.path = "/sys/fs/cgroup/" + name
            os.mkdir(self.path)
            self._write("memory.max", str(limit_mib << 20))
            self._write("memory.swap.max", "0")
            self.v2 = True
        else:
            self.path = "/sys/fs/cgroup/memory/" + name
            os.mkdir(self.path)
            self._write("memory.limit_in_bytes", str(limit_mib << 20))
            self.v2 = False

    def _write(self, key, value):
        with open(os.path.join(self.path, key), "w") as f:
            f.write(value)

    def _read(self, key):
        try:
            with open(os.path.join(self.path, key)) as f:
                return f.read().strip()
        except OSError:
            return "?"

    def prefix(self):
        """A shell prefix that moves the shell into the cgroup before exec'ing the server."""
        return ["sh", "-c", 'echo $$ > "%s/cgroup.procs" && exec "$@"' % self.path, "sh"]

    def report(self):
        if self.v2:
            return {"cgroup_peak_mib": self._bytes_mib("memory.peak"), "cgroup_events": self._read("memory.events")}
        return {"cgroup_peak_mib": self._bytes_mib("memory.max_usage_in_bytes"),
                "cgroup_failcnt": self._read("memory.failcnt"), "cgroup_oom": self._read("memory.oom_control")}

    def _bytes_mib(self, key):
        value = self._read(key)
        return round(int(value) / 1048576, 1) if value.isdigit() else value

    def remove(self):
        if self.path:
            try:
                os.rmdir(self.path)
            except OSError as e:
                print("could not remove cgroup %s: %s" % (self.path, e), file=sys.stderr)


def nmt(pid, what, out_path):
    done = subprocess.run(["jcmd", str(pid), "VM.native_memory", what], capture_output=True, text=True, timeout=60)
    with open(out_path, "w") as f:
        f.write(done.stdout)
    return done.stdout


def nmt_committed(text):
    """Category -> committed KiB, and the diff's +/- where present, from an NMT summary."""
    found = {}
    for m in re.finditer(r"-\s+([A-Za-z ]+?) \(reserved=\d+KB(?: [+-]\d+KB)?, committed=(\d+)KB(?: ([+-]\d+)KB)?\)",
                         text):
        found[m.group(1).strip()] = (int(m.group(2)), int(m.group(3) or 0))
    return found


def live_heap_mib(pid):
    """The heap in use after a full collection (jcmd GC.run, then jstat's survivor, eden and old used)."""
    subprocess.run(["jcmd", str(pid), "GC.run"], capture_output=True, timeout=60)
    out = subprocess.run(["jstat", "-gc", str(pid)], capture_output=True, text=True, timeout=60).stdout.split("\n")
    values = dict(zip(out[0].split(), out[1].split()))
    return round(sum(float(values[k]) for k in ("S0U", "S1U", "EU", "OU")) / 1024, 1)


def start_server(args, mode, port, workdir, cgroup):
    log_path = os.path.join(workdir, "%s.log" % mode)
    prefix = ["taskset", "-c", "0"] if shutil.which("taskset") else []
    if cgroup:
        prefix = cgroup.prefix() + prefix
    if mode == "beanstalkd":
        cmd = [args.beanstalkd, "-l", HOST, "-p", str(port), "-z", str(MAX_JOB_BYTES)]
    else:
        conf = {"host": HOST, "port": port, "http": {"port": 0, "host": HOST}}
        conf.update(json.loads(args.conf))
        jvm = ["@" + args.jvm_options] if mode == "readme" else []
        jvm += args.jvm_option
        if args.nmt:
            jvm.append("-XX:NativeMemoryTracking=summary")
        cmd = ["java"] + jvm + ["-jar", args.jar, "-conf", json.dumps(conf)]
    log = open(log_path, "wb")
    server = subprocess.Popen(prefix + cmd, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
    log.close()
    return server, log_path


def stop_server(server):
    if server.poll() is None:
        server.send_signal(signal.SIGTERM)
        try:
            server.wait(timeout=15)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()


def one_run(args, mode, seed, workdir):
    port = soak.free_port()
    cgroup = MemoryCgroup(args.memory_limit_mib, "hostile-%d-%s-%d" % (os.getpid(), mode, seed)) \
        if args.memory_limit_mib else None
    server, log_path = start_server(args, mode, port, workdir, cgroup)
    deadline = soak.Deadline(args.bound_seconds)
    row = {"mode": mode, "seed": seed}
    errors = []
    stats = None
    rss = {}
    try:
        stats = soak.StatsConnection(port, server, deadline, log_path)
        pid = server.pid
        is_ours = mode != "beanstalkd"
        if args.start_settle_seconds:
            # The RSS when the port opens still holds what the start-up's compilers freed and the
            # JVM has not yet given back (its arena pool and libc's trim run every 5 s): read the
            # start once that is gone, so that its return does not hide the stream's growth.
            rss["open"] = soak.proc_status(pid, "VmRSS")
            time.sleep(args.start_settle_seconds)
        if is_ours and args.nmt:
            nmt(pid, "baseline", os.devnull)
        rss["start"] = soak.proc_status(pid, "VmRSS")
        counters, stream_errors = run_stream(port, seed, args.seconds, args.connections, args.tubes)
        errors += stream_errors
        if server.poll() is not None:
            raise soak.CheckFailed("the server exited with %s during the stream" % server.returncode)
        rss["stream"] = soak.proc_status(pid, "VmRSS")
        if args.settle_seconds:
            # What stays once the compilers have finished what the stream made hot and the JVM has
            # given their arenas back: the end figure includes them, the settled one does not.
            time.sleep(args.settle_seconds)
            rss["settled"] = soak.proc_status(pid, "VmRSS")
        if is_ours and args.heap:
            row.setdefault("live_heap_mib", {})["stream"] = live_heap_mib(pid)
        row.update(commands=counters.commands, sent_mib=round(counters.sent_bytes / 1048576, 1),
                   reconnects=counters.reconnects, stuck=counters.stuck, closed_by_server=counters.closed_by_server)
        if is_ours and args.nmt:
            row["nmt_stream"] = {k: v for k, v in nmt_committed(
                nmt(pid, "summary.diff", os.path.join(workdir, "nmt-%s-%d-stream.txt" % (mode, seed)))).items()}
        snapshot = stats.stats()
        if is_ours:
            row["store_bytes"] = int(snapshot["current-job-store-bytes"])
            row["memory_bytes"] = int(snapshot["current-memory-bytes"])
            row["beyond_store_mib"] = round((rss["stream"] - rss["start"] - row["store_bytes"] / 1024) / 1024, 1)
        for phase in args.phases:
            if phase == "flood":
                extra, errs = phase_flood(port, seed, args.phase_seconds, args.tubes)
            elif phase == "slow":
                extra, errs = phase_slow(port, args.phase_seconds)
            elif phase == "fill":
                extra, errs = phase_fill(port, seed, max(10.0, deadline.left("filling") - 30))
            elif phase == "many":
                extra, errs = phase_many(port, args.many, stats, deadline, pid)
            elif phase == "peeks":
                extra, errs = phase_peeks(port, args.phase_seconds, args.peekers)
            else:
                raise soak.SetupFailed("unknown phase %r" % phase)
            row.update(extra)
            errors += errs
            if server.poll() is not None:
                raise soak.CheckFailed("the server exited with %s during %s" % (server.returncode, phase))
            if phase in ("slow", "many", "peeks"):
                # Let the server see the phase's connections go before the next one connects.
                while int(stats.stats()["current-connections"]) > 1:
                    deadline.left("waiting for the %s phase's connections to close" % phase)
                    time.sleep(0.1)
            rss[phase] = soak.proc_status(pid, "VmRSS")
            if is_ours and args.heap:
                row.setdefault("live_heap_mib", {})[phase] = live_heap_mib(pid)
            if is_ours and args.nmt:
                nmt(pid, "summary.diff", os.path.join(workdir, "nmt-%s-%d-%s.txt" % (mode, seed, phase)))
        rss["peak"] = soak.proc_status(pid, "VmHWM")
        try:
            jobs = count_jobs(port, max(5.0, deadline.left("counting jobs")))
        except OSError as e:
            raise soak.CheckFailed("counting the jobs: %r" % e)
        after = stats.stats()
        row.update(jobs=jobs.jobs, job_mib=round(jobs.body_bytes / 1048576, 2),
                   connections_total=int(after["total-connections"]))
        if "rejected-connections" in after:
            row["rejected_connections"] = int(after["rejected-connections"])
        row["rss_mib"] = {k: round(v / 1024, 1) for k, v in rss.items()}
        row["growth_mib"] = round((rss["stream"] - rss["start"]) / 1024, 1)
        row["beyond_jobs_mib"] = round((rss["stream"] - rss["start"]) / 1024 - jobs.body_bytes / 1048576, 1)
        if "settled" in rss:
            row["settled_beyond_jobs_mib"] = round((rss["settled"] - rss["start"]) / 1024 - jobs.body_bytes / 1048576, 1)
        if server.poll() is not None:
            raise soak.CheckFailed("the server exited with %s" % server.returncode)
    except soak.CheckFailed as e:
        errors.append(str(e))
        row["rss_mib"] = {k: round(v / 1024, 1) for k, v in rss.items()}
    finally:
        if stats is not None:
            stats.close()
        exited = server.poll()
        stop_server(server)
        if cgroup:
            row.update(cgroup.report())
            cgroup.remove()
    if exited is not None:
        # beanstalkd has no memory limit of its own: in a 512 MiB cgroup its fill ends in the
        # kernel's OOM kill (SIGKILL), which its clients see as a reset connection.
        kills = re.search(r"oom_kill (\d+)", row.get("cgroup_oom", "") + row.get("cgroup_events", ""))
        errors.append("the server had exited with %s%s" % (
            exited, " (the cgroup's OOM kill)" if kills and int(kills.group(1)) > 0 else ""))
    row["errors"] = errors
    row["log"] = log_path
    return row


def main():
    root = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", ".."))
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--jar", default="/tmp/hostile.jar")
    p.add_argument("--jvm-options", default=os.path.join(root, "conf", "jvm.options"))
    p.add_argument("--jvm-option", action="append", default=[])
    p.add_argument("--conf", default="{}")
    p.add_argument("--beanstalkd", default="/usr/bin/beanstalkd")
    p.add_argument("--modes", default="readme,beanstalkd")
    p.add_argument("--seeds", default="1,2")
    p.add_argument("--seconds", type=float, default=20)
    p.add_argument("--connections", type=int, default=8)
    p.add_argument("--tubes", type=int, default=400)
    p.add_argument("--settle-seconds", type=float, default=5)
    p.add_argument("--start-settle-seconds", type=float, default=0,
                   help="idle this long after the port answers before reading the start RSS (its reading at"
                        " the port's opening is kept as 'open')")
    p.add_argument("--phases", default="", help="comma-separated: fill, flood, slow, peeks, many")
    p.add_argument("--peekers", type=int, default=1_000, help="the peeks phase's connections")
    p.add_argument("--phase-seconds", type=float, default=5)
    p.add_argument("--many", type=int, default=10_000)
    p.add_argument("--nmt", action="store_true")
    p.add_argument("--heap", action="store_true", help="ours: the live heap after each step (a full GC first)")
    p.add_argument("--memory-limit-mib", type=int, default=0)
    p.add_argument("--bound-mib", type=float, default=16)
    p.add_argument("--plain-bound-mib", type=float, default=64)
    p.add_argument("--bound-seconds", type=int, default=240)
    p.add_argument("--out", default="target/hostile-memory")
    args = p.parse_args()
    args.phases = [x for x in args.phases.split(",") if x]
    modes = [x for x in args.modes.split(",") if x]
    if any(m != "beanstalkd" for m in modes) and not os.path.isfile(args.jar):
        print("no jar at %s: mvn -B -o -q package -DskipTests && cp target/vertx-beanstalkd.jar %s"
              % (args.jar, args.jar), file=sys.stderr)
        return 2
    if "many" in args.phases:
        soak.raise_open_files(args.many + soak.SERVER_RESERVED_FDS + 64)
    try:
        os.sched_setaffinity(0, {1})
    except (AttributeError, OSError):
        pass
    os.makedirs(args.out, exist_ok=True)
    workdir = tempfile.mkdtemp(prefix="hostile-", dir=args.out)
    print("load average before: %s" % open("/proc/loadavg").read().strip())
    rows = []
    failed = False
    for seed in [int(s) for s in args.seeds.split(",")]:
        for mode in modes:
            try:
                row = one_run(args, mode, seed, workdir)
            except soak.SetupFailed as e:
                print("SETUP FAILED: %s" % e, file=sys.stderr)
                return 2
            bound = {"readme": args.bound_mib, "plain": args.plain_bound_mib}.get(mode)
            row["bound_mib"] = bound
            row["passed"] = not row["errors"] and "beyond_jobs_mib" in row and (
                bound is None or row["beyond_jobs_mib"] <= bound)
            # beanstalkd's row is a reference, run the same way: it has no memory limit of its own,
            # so a memory cgroup's fill ends it, as it would end in such a container.
            failed |= not row["passed"] and mode != "beanstalkd"
            rows.append(row)
            print(json.dumps(row), flush=True)
    print("load average after: %s" % open("/proc/loadavg").read().strip())
    print()
    print("%-10s %4s %9s %9s %9s %9s %8s %9s %9s %s" % ("mode", "seed", "start", "stream", "growth", "jobs MiB",
                                                        "beyond", "settled", "peak", "phases (RSS MiB)"))
    for r in rows:
        rss = r.get("rss_mib", {})
        print("%-10s %4d %9s %9s %9s %9s %8s %9s %9s %s%s" % (
            r["mode"], r["seed"], rss.get("start"), rss.get("stream"), r.get("growth_mib"), r.get("job_mib"),
            r.get("beyond_jobs_mib"), r.get("settled_beyond_jobs_mib"), rss.get("peak"),
            " ".join("%s %s" % (ph, rss.get(ph)) for ph in args.phases),
            "" if r["passed"] else "  %s %s" % ("(reference)" if r["mode"] == "beanstalkd" else "FAIL", r["errors"])))
    with open(os.path.join(workdir, "rows.json"), "w") as f:
        json.dump(rows, f, indent=1)
    print("kept in %s" % workdir)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
