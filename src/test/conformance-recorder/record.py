#!/usr/bin/env python3
"""Records the expected replies of the conformance cases from a real beanstalkd 1.12.

The case format is documented at the top of
src/test/java/io/github/vertxbeanstalkd/conformance/CaseFile.java (the Java loader that
replays the cases in `mvn verify`). This script reads the same files, runs every case
against a fresh `beanstalkd -l 127.0.0.1 -p <free port>` process, and rewrites the
`X< ...` lines (the expected replies) in place. Everything else in the files (comments,
order, the steps themselves) is kept as written.

Usage (from the repository root):
    python3 src/test/conformance-recorder/record.py            # re-record every file
    python3 src/test/conformance-recorder/record.py FILE...    # only these files
    options: --only NAME (repeatable), --jobs N (parallel servers, default 4),
             --repeat N (record N times and fail on any difference; catches timing flakes),
             --check (record, compare with the files, write nothing; exit 1 on a difference)

Why Python and not a Java main: recording needs the beanstalkd binary, process signals
(SIGUSR1 for drain mode) and nothing from our code base; the standard library does all of
it, and the Maven build gains no plugin or dependency. The replay side is pure Java.

Replies are attributed to the step after which they arrived: after each step the recorder
waits until no connection has received a byte for QUIET_SECONDS (and at least that long).
Steps that must wait longer (a reserve timing out, a TTR running out) use `sleep`.

`option retry-while TEXT` (recorder only): beanstalkd 1.12 often loses a TTR expiry while the
holder is idle (BEHAVIOURS.md 6, *Reference bug*). A case that observes such an expiry names
the text that only a buggy recording contains, and is recorded again until it is absent.
"""
import argparse
import glob
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor

QUIET_SECONDS = 0.2
MAX_STEP_SECONDS = 10.0
CASES_GLOB = "src/test/resources/conformance/*.cases"

CASE_RE = re.compile(r"^=== ([a-z0-9][a-z0-9._-]*)$")
SEND_RE = re.compile(r"^([A-Z])> (.*)$")
EXPECT_RE = re.compile(r"^([A-Z])< (.*)$")
CONN_RE = re.compile(r"^([A-Z]) (open|close|shutdown)$")
SLEEP_RE = re.compile(r"^sleep (\d+(?:\.\d+)?)$")
OPTION_RE = re.compile(r"^option max-job-size (\d+)$")
RETRY_RE = re.compile(r"^option retry-while (.+)$")
MAX_RETRIES = 30
CLOSED = "(closed)"


# ------------------------------------------------------------------ escapes

def unescape(text):
    """Decodes the payload escapes: \\r \\n \\t \\0 \\s \\\\ \\xHH \\[N*unit] \\[HH..HH]."""
    out = bytearray()
    i = 0
    while i < len(text):
        c = text[i]
        if c != "\\":
            if not (0x20 <= ord(c) <= 0x7E):
                raise ValueError("raw byte %r must be escaped" % c)
            out.append(ord(c))
            i += 1
            continue
        if i + 1 >= len(text):
            raise ValueError("dangling backslash")
        e = text[i + 1]
        simple = {"r": 13, "n": 10, "t": 9, "0": 0, "s": 32, "\\": 92}
        if e in simple:
            out.append(simple[e])
            i += 2
        elif e == "x":
            out.append(int(text[i + 2:i + 4], 16))
            i += 4
        elif e == "[":
            end = text.index("]", i + 2)
            # "\[N*\]]" would be ambiguous; the macro body never contains ']' except as \x5d.
            body = text[i + 2:end]
            m = re.fullmatch(r"([0-9A-Fa-f]{2})\.\.([0-9A-Fa-f]{2})", body)
            if m:
                out.extend(range(int(m.group(1), 16), int(m.group(2), 16) + 1))
            else:
                count, unit = body.split("*", 1)
                if "\\[" in unit:
                    raise ValueError("repeats do not nest: %r" % body)
                out.extend(unescape(unit) * int(count))
            i = end + 1
        else:
            raise ValueError("unknown escape \\%s" % e)
    return bytes(out)


def escape(data, fold_runs=True):
    """Encodes bytes for an X< line: printable ASCII as is, runs of 8+ equal bytes as \\[N*c]."""
    out = []
    i = 0
    n = len(data)
    while i < n:
        j = i
        while j < n and data[j] == data[i]:
            j += 1
        if fold_runs and j - i >= 8:
            out.append("\\[%d*%s]" % (j - i, escape_byte(data[i], False)))
            i = j
            continue
        out.append(escape_byte(data[i], i == n - 1))
        i += 1
    return "".join(out)


def escape_byte(b, is_last):
    if b == 13:
        return "\\r"
    if b == 10:
        return "\\n"
    if b == 9:
        return "\\t"
    if b == 92:
        return "\\\\"
    if b == 93:
        return "\\x5d"  # keeps \[...] macros unambiguous
    if b == 32 and is_last:
        return "\\s"  # editors strip trailing spaces
    if 0x20 <= b <= 0x7E:
        return chr(b)
    return "\\x%02x" % b


def expect_lines(conn, data, closed):
    """Splits a recorded reply into X< lines, one per line of the reply."""
    lines = []
    start = 0
    for k in range(len(data)):
        if data[k] == 10:
            lines.append(data[start:k + 1])
            start = k + 1
    if start < len(data):
        lines.append(data[start:])
    out = []
    k = 0
    while k < len(lines):
        same = k
        while same < len(lines) and lines[same] == lines[k]:
            same += 1
        if same - k >= 4:
            # Many identical reply lines (long pipelines) fold into one repeat.
            out.append("%s< \\[%d*%s]" % (conn, same - k, escape(lines[k], fold_runs=False)))
            k = same
        else:
            out.append("%s< %s" % (conn, escape(lines[k])))
            k += 1
    if closed:
        out.append("%s< %s" % (conn, CLOSED))
    return out


# ------------------------------------------------------------------ case files

class Case:
    def __init__(self, name, path):
        self.name = name
        self.path = path
        self.max_job_size = None
        self.retry_while = []
        self.steps = []  # (kind, conn, arg, line_index)


def parse_file(path):
    """Returns (lines, cases); lines are the file's lines without the old X< lines."""
    with open(path, encoding="ascii") as f:
        raw = f.read().split("\n")
    if raw and raw[-1] == "":
        raw.pop()
    lines = []
    cases = []
    current = None
    for number, line in enumerate(raw, 1):
        where = "%s:%d" % (path, number)
        if EXPECT_RE.match(line):
            continue
        lines.append(line)
        index = len(lines) - 1
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        m = CASE_RE.match(line)
        if m:
            current = Case(m.group(1), path)
            cases.append(current)
            continue
        if current is None:
            raise SystemExit("%s: step before the first === case" % where)
        m = OPTION_RE.match(line)
        if m:
            if current.steps:
                raise SystemExit("%s: option after the first step" % where)
            current.max_job_size = int(m.group(1))
            continue
        m = RETRY_RE.match(line)
        if m:
            current.retry_while.append(m.group(1))
            continue
        if line.startswith("option quirk-not-followed "):
            continue  # replay-only: the recording still documents what 1.12 does
        m = SEND_RE.match(line)
        if m:
            try:
                payload = unescape(m.group(2))
            except ValueError as e:
                raise SystemExit("%s: %s" % (where, e))
            current.steps.append(("send", m.group(1), payload, index))
            continue
        m = CONN_RE.match(line)
        if m:
            current.steps.append((m.group(2), m.group(1), None, index))
            continue
        m = SLEEP_RE.match(line)
        if m:
            current.steps.append(("sleep", None, float(m.group(1)), index))
            continue
        if line == "drain":
            current.steps.append(("drain", None, None, index))
            continue
        raise SystemExit("%s: cannot parse %r" % (where, line))
    return lines, cases


# ------------------------------------------------------------------ running

def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def is_listening(port):
    want = "0100007F:%04X" % port
    with open("/proc/net/tcp") as f:
        for row in f.readlines()[1:]:
            cols = row.split()
            if cols[1] == want and cols[3] == "0A":
                return True
    return False


def start_beanstalkd(max_job_size):
    """Starts a fresh beanstalkd; waits for its socket without connecting (that would count)."""
    for _ in range(5):
        port = free_port()
        args = ["beanstalkd", "-l", "127.0.0.1", "-p", str(port)]
        if max_job_size is not None:
            args += ["-z", str(max_job_size)]
        proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline and proc.poll() is None:
            if is_listening(port):
                return proc, port
            time.sleep(0.005)
        proc.kill()
        proc.wait()
    raise RuntimeError("beanstalkd did not start")


class Conn:
    """One client socket; a thread collects everything the server sends."""

    def __init__(self, port, activity):
        self.sock = socket.create_connection(("127.0.0.1", port))
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.lock = threading.Lock()
        self.data = bytearray()
        self.closed = False
        self.is_close_reported = False
        self.activity = activity
        self.thread = threading.Thread(target=self.read, daemon=True)
        self.thread.start()

    def read(self):
        while True:
            try:
                chunk = self.sock.recv(65536)
            except OSError:
                chunk = b""  # a reset counts as a close
            with self.lock:
                self.activity[0] = time.monotonic()
                if not chunk:
                    self.closed = True
                    return
                self.data.extend(chunk)

    def take(self):
        """Returns (new bytes, has the close not been reported yet?) and forgets the bytes."""
        with self.lock:
            data = bytes(self.data)
            self.data.clear()
            is_new_close = self.closed and not self.is_close_reported
            self.is_close_reported = self.closed
            return data, is_new_close

    def send(self, payload):
        self.sock.sendall(payload)

    def shutdown(self):
        self.sock.shutdown(socket.SHUT_WR)

    def close(self):
        # shutdown first: close() alone does not release a socket another thread is blocked
        # reading, so the server would not see the FIN until much later.
        try:
            self.sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self.thread.join(1)
        self.sock.close()


def run_case(case):
    """Records a case; re-records while the recording shows a reference bug (`retry-while`)."""
    for _ in range(MAX_RETRIES):
        recorded = run_case_once(case)
        text = "\n".join(line for lines in recorded.values() for line in lines)
        if not any(marker in text for marker in case.retry_while):
            return recorded
    raise RuntimeError("%s: still shows %r after %d recordings" % (case.name, case.retry_while, MAX_RETRIES))


def run_case_once(case):
    """Returns {line_index: [X< lines]} for one case."""
    proc, port = start_beanstalkd(case.max_job_size)
    conns = {}
    activity = [time.monotonic()]
    recorded = {}
    try:
        last_action = time.monotonic()
        for kind, name, arg, index in case.steps:
            if kind == "sleep":
                target = last_action + arg
                now = time.monotonic()
                if now > target:
                    print("warning: %s: sleep %.2f shorter than the quiet wait" % (case.name, arg),
                          file=sys.stderr)
                time.sleep(max(0.0, target - now))
                last_action = time.monotonic()
            else:
                last_action = time.monotonic()
            if kind in ("send", "open") and name not in conns:
                conns[name] = Conn(port, activity)
            if kind == "send":
                conns[name].send(arg)
            elif kind == "shutdown":
                conns[name].shutdown()
            elif kind == "close":
                conns.pop(name).close()
            elif kind == "drain":
                os.kill(proc.pid, signal.SIGUSR1)
            step_start = time.monotonic()
            while True:
                time.sleep(0.01)
                now = time.monotonic()
                if now - step_start >= QUIET_SECONDS and now - activity[0] >= QUIET_SECONDS:
                    break
                if now - step_start > MAX_STEP_SECONDS:
                    raise RuntimeError("%s: replies never went quiet" % case.name)
            out = []
            for conn_name in sorted(conns):
                data, closed = conns[conn_name].take()
                if data or closed:
                    out.extend(expect_lines(conn_name, data, closed))
            if out:
                recorded[index] = out
    finally:
        for c in conns.values():
            c.close()
        proc.terminate()
        proc.wait()
    return recorded


# What legitimately differs between two recordings (see ReplyUnits.java for the replay side).
VOLATILE = [
    (re.compile(r"^([A-Z])< (pid|version|rusage-utime|rusage-stime|uptime|hostname|os|platform): .*$"), r"\1< \2: *"),
    (re.compile(r"^([A-Z])< id: [0-9a-f]{16}\\n$"), r"\1< id: *"),
    (re.compile(r"^([A-Z])< (age|time-left|pause-time-left): \d+\\n$"), r"\1< \2: *"),
    (re.compile(r"^([A-Z])< OK \d+\\r\\n$"), r"\1< OK *"),
]


def stable(recorded):
    """The recording with volatile values masked, to compare two recordings of a case."""
    def mask(line):
        for pattern, replacement in VOLATILE:
            line = pattern.sub(replacement, line)
        return line
    return {k: [mask(line) for line in v] for k, v in recorded.items()}


def render(lines, recorded):
    out = []
    for index, line in enumerate(lines):
        out.append(line)
        out.extend(recorded.get(index, []))
    return "\n".join(out) + "\n"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("files", nargs="*")
    ap.add_argument("--only", action="append", default=[])
    ap.add_argument("--jobs", type=int, default=4)
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("--check", action="store_true")
    opts = ap.parse_args()
    files = opts.files or sorted(glob.glob(CASES_GLOB))
    parsed = {path: parse_file(path) for path in files}
    names = {}
    for path, (_, cases) in parsed.items():
        for c in cases:
            if c.name in names:
                raise SystemExit("duplicate case name %s in %s and %s" % (c.name, names[c.name], path))
            names[c.name] = path
    todo = [c for _, cases in parsed.values() for c in cases if not opts.only or c.name in opts.only]
    results = {}
    failed = False
    with ThreadPoolExecutor(max_workers=opts.jobs) as pool:
        for attempt in range(opts.repeat):
            for case, recorded in zip(todo, pool.map(run_case, todo)):
                if case.name in results and stable(results[case.name]) != stable(recorded):
                    print("UNSTABLE: %s differs between recordings" % case.name, file=sys.stderr)
                    failed = True
                results.setdefault(case.name, recorded)
    changed = 0
    for path, (lines, cases) in parsed.items():
        recorded = {}
        with open(path, encoding="ascii") as f:
            old = f.read()
        for c in cases:
            previous = old_expectations(path, c)
            if c.name in results and stable(results[c.name]) != stable(previous):
                print("changed: %s" % c.name, file=sys.stderr)
                recorded.update(results[c.name])
            else:
                # Same behaviour as recorded before (or not re-recorded): keep the old text, so
                # re-recording does not churn pids and timings.
                recorded.update(previous)
        text = render(lines, recorded)
        if text != old:
            changed += 1
            if opts.check:
                print("differs: %s" % path, file=sys.stderr)
                failed = True
            elif not failed:
                with open(path, "w", encoding="ascii") as f:
                    f.write(text)
    print("%d cases recorded, %d files %s" % (len(todo), changed, "differ" if opts.check else "changed"))
    sys.exit(1 if failed else 0)


def old_expectations(path, case):
    """The X< lines currently in the file after each step of `case`, keyed like run_case."""
    with open(path, encoding="ascii") as f:
        raw = f.read().split("\n")
    kept = {}
    index = -1
    step_indexes = {s[3] for s in case.steps}
    for line in raw:
        if EXPECT_RE.match(line):
            if index in step_indexes:
                kept.setdefault(index, []).append(line)
            continue
        index += 1
    return kept


if __name__ == "__main__":
    main()
