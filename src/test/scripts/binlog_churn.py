#!/usr/bin/env python3
"""Disk use of a binlog under release-with-delay churn (FORMAT.md Compaction).

Starts a server on a fresh binlog directory, puts JOBS live jobs, then for SECONDS keeps
reserving them and releasing each with a 1 s delay, sampling `du -sb` of the directory.
Prints the samples and the bound the design promises: 2 x live data + 2 segments.

  src/test/scripts/binlog_churn.py --server ours --jar target/vertx-beanstalkd.jar
  src/test/scripts/binlog_churn.py --server beanstalkd

The server runs until the end and is then stopped by its pid; the directory is removed.
"""
import argparse
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Conn:
    def __init__(self, port):
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=30)
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.buf = b""

    def send(self, data):
        self.sock.sendall(data)

    def line(self):
        while b"\r\n" not in self.buf:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise EOFError("server closed the connection")
            self.buf += chunk
        head, self.buf = self.buf.split(b"\r\n", 1)
        return head.decode("latin-1")

    def skip(self, n):
        while len(self.buf) < n + 2:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise EOFError("server closed the connection")
            self.buf += chunk
        self.buf = self.buf[n + 2:]

    def call(self, command):
        self.send(command.encode("latin-1") + b"\r\n")
        return self.line()


def du_bytes(path):
    out = subprocess.run(["du", "-sb", path], capture_output=True, text=True, check=True).stdout
    return int(out.split()[0])


def segment_bytes(path):
    return sum(os.path.getsize(os.path.join(path, f)) for f in os.listdir(path) if f.startswith("binlog."))


def reserve_bytes(path):
    f = os.path.join(path, "reserve")
    return os.path.getsize(f) if os.path.exists(f) else 0


def start_server(args, port, directory):
    if args.server == "ours":
        fsync = '"%s"' % args.fsync if args.fsync in ("always", "never") else args.fsync
        conf = ('{"port":%d,"http":{"port":0},"binlog":{"dir":"%s","fsync":%s,"segmentSize":%d}}'
                % (port, directory, fsync, args.segment_size))
        command = ["java", "-jar", args.jar, "-conf", conf]
    else:
        fsync_ms = {"always": "0"}.get(args.fsync, args.fsync)
        command = ["beanstalkd", "-l", "127.0.0.1", "-p", str(port), "-b", directory,
                   "-s", str(args.segment_size)]
        command += ["-F"] if args.fsync == "never" else ["-f", fsync_ms]
    print("server: " + " ".join(command), flush=True)
    log = open(os.path.join(os.path.dirname(directory), "server.log"), "w")
    proc = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)
    for _ in range(300):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return proc
        except OSError:
            if proc.poll() is not None:
                sys.exit("the server exited: see " + log.name)
            time.sleep(0.1)
    proc.kill()
    sys.exit("the server did not listen")


def churn(port, deadline, counts, index):
    c = Conn(port)
    c.call("watch churn")
    c.call("ignore default")
    while time.time() < deadline:
        reply = c.call("reserve-with-timeout 1")
        if reply.startswith("RESERVED "):
            _, job_id, size = reply.split()
            c.skip(int(size))
            reply = c.call("release %s 0 1" % job_id)
            if reply != "RELEASED":
                raise RuntimeError("release: " + reply)
            counts[index] += 1
        elif reply not in ("TIMED_OUT", "DEADLINE_SOON"):
            raise RuntimeError("reserve: " + reply)


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--server", choices=["ours", "beanstalkd"], default="ours")
    p.add_argument("--jar", default="target/vertx-beanstalkd.jar")
    p.add_argument("--fsync", default="50", help="always, never or milliseconds [50]")
    p.add_argument("--segment-size", type=int, default=1 << 20, help="bytes per segment [1 MiB]")
    p.add_argument("--jobs", type=int, default=1000)
    p.add_argument("--body", type=int, default=200, help="body bytes [200]")
    p.add_argument("--seconds", type=int, default=120)
    p.add_argument("--sample", type=float, default=10, help="seconds between samples [10]")
    p.add_argument("--workers", type=int, default=4)
    p.add_argument("--parent", default="/var/tmp", help="where the binlog directory goes (a real disk)")
    args = p.parse_args()

    work = tempfile.mkdtemp(prefix="binlog-churn.", dir=args.parent)
    directory = os.path.join(work, "binlog")
    os.makedirs(directory)
    port = free_port()
    proc = start_server(args, port, directory)
    try:
        c = Conn(port)
        c.call("use churn")
        body = b"x" * args.body
        for _ in range(args.jobs):
            c.send(b"put 0 0 60 %d\r\n%s\r\n" % (len(body), body))
            reply = c.line()
            if not reply.startswith("INSERTED "):
                raise RuntimeError("put: " + reply)
        live = args.jobs * args.body
        bound = 2 * live + 2 * args.segment_size
        print("live: %d jobs x %d B = %d B; bound 2 x live + 2 segments = %d B" % (args.jobs, args.body, live, bound))
        start = time.time()
        deadline = start + args.seconds
        counts = [0] * args.workers
        threads = [threading.Thread(target=churn, args=(port, deadline, counts, i), daemon=True)
                   for i in range(args.workers)]
        for t in threads:
            t.start()
        peak = 0
        peak_segments = 0
        print("%6s %10s %12s %12s %10s" % ("t_s", "releases", "du_bytes", "segments_B", "files"))
        while time.time() < deadline:
            time.sleep(min(args.sample, max(0.0, deadline - time.time())))
            used = du_bytes(directory)
            peak = max(peak, used)
            peak_segments = max(peak_segments, segment_bytes(directory))
            print("%6.0f %10d %12d %12d %10d" % (time.time() - start, sum(counts), used, segment_bytes(directory),
                                                 len(os.listdir(directory))), flush=True)
        for t in threads:
            t.join(10)
        final = du_bytes(directory)
        # Our directory also holds "reserve", zeros kept for a full disk (FORMAT.md): not log data.
        print("%s: %d releases in %.0f s; segments peak %d B (bound %d B: %s); du peak %d B, final %d B"
              " (%.1fx live), reserve file %d B"
              % (args.server, sum(counts), time.time() - start, peak_segments, bound,
                 "within" if peak_segments <= bound else "EXCEEDED", peak, final, final / live,
                 reserve_bytes(directory)))
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
